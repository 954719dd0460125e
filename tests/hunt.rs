//! `judge hunt`: finds an input a wrong submission fails on, saves it as a test that
//! reproduces the failure, replays deterministically on built-in solvers, and reports bad
//! arguments cleanly.

use crate::common;

use serde::Deserialize;

/// The `--json` contract, strictly: unknown or missing fields fail the test.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Report {
    problem: String,
    target: String,
    score: String,
    seed: u64,
    jobs: usize,
    runs: u64,
    elapsed_ms: u64,
    limit_ms: Option<u64>,
    cap: Option<u64>,
    failed: bool,
    worst: Worst,
    reproduce: String,
    check: Option<String>,
    saved: Option<Saved>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Worst {
    input: String,
    answer: String,
    verdict: String,
    score: u64,
    time_ms: u64,
    message: String,
    chain: usize,
    run: u64,
    mutations: u32,
    start: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    input: String,
    answer: String,
}

fn judge(args: &[&str]) -> common::Run {
    common::judge_timed(240, args)
}

fn report(run: &common::Run) -> Report {
    serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr))
}

#[test]
fn finds_a_wrong_answer_saves_it_and_grading_the_saved_test_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("found");
    let sub = "problems/dodecahedron/submissions/wrong_answer/always_minus1.c";
    let run = judge(&[
        "hunt",
        "dodecahedron",
        sub,
        "--seed",
        "3",
        "--count",
        "40",
        "--out",
        out.to_str().unwrap(),
        "--name",
        "minus-one",
        "--json",
    ]);
    run.assert_code(1);
    let r = report(&run);
    assert_eq!(r.problem, "dodecahedron");
    assert_eq!(r.target, sub);
    assert_eq!(r.score, "cpu-micros");
    assert_eq!((r.seed, r.limit_ms, r.cap), (3, Some(1000), None));
    assert!(r.failed);
    assert_eq!(r.worst.verdict, "WA");
    assert_eq!(r.worst.message, "reported no solution, but one exists");
    assert!(r.runs <= 40 && r.worst.run <= r.runs, "{r:?}");
    assert!(r.jobs >= 1 && r.elapsed_ms > 0);
    assert!(
        r.reproduce.starts_with(&format!(
            "judge hunt dodecahedron {sub} --seed 3 --count {} --jobs ",
            r.runs
        )),
        "{}",
        r.reproduce
    );
    let saved = r.saved.expect("saved");
    assert_eq!(
        std::fs::read_to_string(&saved.input).unwrap(),
        r.worst.input
    );
    assert_eq!(
        std::fs::read_to_string(&saved.answer).unwrap(),
        r.worst.answer
    );
    assert!(saved.input.ends_with("found/minus-one.in"));
    assert_eq!(
        r.check.as_deref(),
        Some(format!("judge grade dodecahedron {sub} --tests {}", out.display()).as_str())
    );
    // The saved test is valid and fails the submission the same way.
    judge(&["validate", "dodecahedron", &saved.input]).assert_code(0);
    let regrade = judge(&[
        "grade",
        "dodecahedron",
        sub,
        "--tests",
        out.to_str().unwrap(),
        "--json",
    ]);
    regrade.assert_code(1);
    assert!(
        regrade.stdout.contains("\"verdict\":\"WA\""),
        "{}",
        regrade.stdout
    );
    // The same name again is refused before hunting: nothing is overwritten.
    let again = judge(&[
        "hunt",
        "dodecahedron",
        sub,
        "--count",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--name",
        "minus-one",
    ]);
    again.assert_code(2);
    assert!(again.stderr.contains("exists already"), "{}", again.stderr);
}

#[test]
fn text_report_names_the_worst_input_and_how_to_replay_it() {
    let sub = common::accepted_cpp("magic-square");
    let sub = sub.to_str().unwrap();
    let run = judge(&["hunt", "magic-square", sub, "--seed", "9", "--count", "12"]);
    run.assert_code(0);
    assert!(
        run.stdout.starts_with("no failure in 12 runs ("),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\nworst input: CPU "), "{}", run.stdout);
    assert!(
        run.stdout.contains("% of the 1.000 s limit), run "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "reproduce: judge hunt magic-square {sub} --seed 9 --count 12 --jobs "
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains(&format!("hunt {sub} on magic-square with seed 9")),
        "{}",
        run.stderr
    );
}

#[test]
fn a_built_in_solver_hunt_is_exactly_reproducible() {
    let args = [
        "hunt",
        "dodecahedron",
        "--solver",
        "reference",
        "--seed",
        "17",
        "--count",
        "300",
        "--json",
    ];
    let a = report(&judge(&args));
    let b = report(&judge(&args));
    assert_eq!(a.score, "nodes");
    assert_eq!(a.target, "solver:reference");
    assert_eq!((a.limit_ms, a.cap), (None, Some(10_000_000)));
    assert!(!a.failed);
    assert_eq!(a.worst, b.worst);
    // Starting from the worst input found climbs on from there.
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.in");
    std::fs::write(&start, &a.worst.input).unwrap();
    let c = report(&judge(&[
        "hunt",
        "dodecahedron",
        "--solver",
        "reference",
        "--seed",
        "18",
        "--count",
        "50",
        "--from",
        start.to_str().unwrap(),
        "--json",
    ]));
    assert!(
        c.worst.score >= a.worst.score,
        "{} < {}",
        c.worst.score,
        a.worst.score
    );
    assert_eq!(c.worst.start, start.to_str().unwrap());
}

#[test]
fn a_solver_reaching_its_node_cap_counts_as_a_time_limit() {
    let run = judge(&[
        "hunt",
        "magic-square",
        "--solver",
        "plain",
        "--cap",
        "1000",
        "--seed",
        "1",
        "--count",
        "50",
        "--generator",
        "distinct",
        "--json",
    ]);
    run.assert_code(1);
    let r = report(&run);
    assert_eq!(r.worst.verdict, "TLE");
    assert_eq!(r.worst.score, 1000);
    assert_eq!(r.worst.message, "reached the cap of 1000 nodes");
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let invalid = dir.path().join("bad.in");
    std::fs::write(&invalid, "4\n1 2 3\n").unwrap();
    for (args, needle) in [
        (
            vec!["hunt", "magic-square", "--solver", "nope"],
            "unknown solver `nope` (available: reference, plain, unmerged)",
        ),
        (
            vec![
                "hunt",
                "magic-square",
                "--solver",
                "plain",
                "--generator",
                "nope",
            ],
            "unknown generator `nope`",
        ),
        (
            vec![
                "hunt",
                "magic-square",
                "--solver",
                "plain",
                "--from",
                invalid.to_str().unwrap(),
            ],
            "bad.in:2:",
        ),
        (vec!["hunt", "magic-square"], "required"),
        (vec!["hunt", "magic-square", "/nonexistent.cpp"], "error"),
        (
            vec!["hunt", "magic-square", "--solver", "plain", "--name", "x"],
            "--out",
        ),
        (
            vec![
                "hunt",
                "magic-square",
                "--solver",
                "plain",
                "--out",
                "d",
                "--name",
                "../x",
            ],
            "is not a test name",
        ),
    ] {
        let run = judge(&args);
        run.assert_code(2);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}
