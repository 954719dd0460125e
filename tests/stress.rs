//! `judge stress` finds the mistake of every wrong jury submission within seconds, and the
//! saved counterexample reproduces it.

use crate::common;

use std::path::{Path, PathBuf};

use common::root;

fn judge(args: &[&str]) -> common::Run {
    common::judge_timed(240, args)
}

/// Jury submissions whose failing inputs random tests practically never produce: `judge hunt`
/// found them (docs/verifying.md, "Hunting"; tests/hunt.rs), and the test set keeps them as hand-made
/// tests (`data/secret/*.desc` say which).
const HUNT_ONLY: &[&str] = &["node_budget.cpp", "no_merge.cpp"];

/// Jury submissions whose verdict on an input depends on the run, so a counterexample need not
/// fail again: searches that give up after a time budget, and the `@RANDOMISED@` ones (verify
/// runs those 20 times: docs/verifying.md, "Randomised jury submissions").
const RUN_DEPENDENT: &[&str] = &["time_budget.cpp", "time_budget_merged.py"];

fn submissions(problem: &str, folder: &str) -> Vec<PathBuf> {
    let dir = root()
        .join("problems")
        .join(problem)
        .join("submissions")
        .join(folder);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        !p.file_name().is_some_and(|n| {
            HUNT_ONLY.iter().any(|h| n == *h) || RUN_DEPENDENT.iter().any(|h| n == *h)
        }) && !std::fs::read_to_string(p).is_ok_and(|s| s.contains("@RANDOMISED@"))
    });
    v.sort();
    v
}

/// Stress `sub`, expect a failure with `verdict`, and check the saved counterexample.
fn finds(problem: &str, sub: &Path, verdict: &str) {
    // Shrinking a TLE costs a full time limit for each candidate that still times out: 1 s
    // is a step or so (the counterexample must still time out; shrinking itself is checked on
    // WAs: `stress_json_reports_the_failure_and_the_shrunk_counterexample`), as 8 s are many
    // steps of a WA.
    let shrink_seconds = if verdict == "TLE" { "1" } else { "8" };
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("cex");
    let start = std::time::Instant::now();
    let run = judge(&[
        "stress",
        problem,
        sub.to_str().unwrap(),
        "--seconds",
        "30",
        "--seed",
        "1",
        "--shrink-seconds",
        shrink_seconds,
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        run.code,
        1,
        "{}: {}\n{}",
        sub.display(),
        run.stdout,
        run.stderr
    );
    let first = run.stdout.lines().next().unwrap_or("");
    assert!(
        first.starts_with(&format!("{verdict} on stress test #")),
        "{}: {}",
        sub.display(),
        run.stdout
    );
    assert!(run.stdout.contains(&format!(
        "reproduce the input: judge gen {problem} --generator "
    )));
    assert!(
        start.elapsed().as_secs() < 60,
        "{}: {:?}",
        sub.display(),
        start.elapsed()
    );
    for f in [
        "counterexample.in",
        "counterexample.ans",
        "original/original.in",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    // The counterexample is valid and still makes the submission fail.
    let input = dir.join("counterexample.in");
    judge(&["validate", problem, input.to_str().unwrap()]).assert_code(0);
    let regrade = judge(&[
        "grade",
        problem,
        sub.to_str().unwrap(),
        "--tests",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(regrade.code, 1, "{}", regrade.stderr);
    let v: serde_json::Value = serde_json::from_str(regrade.stdout.trim()).unwrap();
    assert_eq!(
        v["verdict"],
        verdict,
        "{}: {}",
        sub.display(),
        regrade.stdout
    );
}

/// [`finds`] for every submission of `problem`'s `folder` (at least `min` of them). One test
/// per problem and folder, so that they run side by side (a TLE's stress run and its
/// shrinking wait on time limits).
fn finds_all(problem: &str, folder: &str, verdict: &str, min: usize) {
    let subs = submissions(problem, folder);
    assert!(subs.len() >= min, "{problem}: {} in {folder}", subs.len());
    for sub in subs {
        finds(problem, &sub, verdict);
    }
}

#[test]
fn stress_finds_every_wrong_answer_submission_of_dodecahedron() {
    finds_all("dodecahedron", "wrong_answer", "WA", 3);
}

#[test]
fn stress_finds_every_wrong_answer_submission_of_magic_square() {
    finds_all("magic-square", "wrong_answer", "WA", 3);
}

#[test]
fn stress_finds_the_slow_submissions_of_dodecahedron() {
    finds_all("dodecahedron", "time_limit_exceeded", "TLE", 1);
}

#[test]
fn stress_finds_the_slow_submissions_of_magic_square() {
    finds_all("magic-square", "time_limit_exceeded", "TLE", 1);
}

#[test]
fn stress_reports_nothing_for_a_correct_submission() {
    let sub = common::accepted_cpp("magic-square");
    let run = judge(&[
        "stress",
        "magic-square",
        sub.to_str().unwrap(),
        "--count",
        "200",
        "--seed",
        "3",
    ]);
    run.assert_code(0);
    assert!(
        run.stdout.starts_with("no failure in 200 tests"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_default_seed_is_random_and_printed() {
    let sub = common::accepted_cpp("magic-square");
    let seed_of = |run: &common::Run| -> u64 {
        run.assert_code(0);
        // `stress <sub> on magic-square with seed S (26 generator setups, 1 job)`
        let line = run
            .stderr
            .lines()
            .find(|l| l.starts_with("stress "))
            .unwrap();
        assert!(line.ends_with(", 1 job)"), "{line}");
        let seed = line.split(" with seed ").nth(1).unwrap();
        let seed: u64 = seed.split(' ').next().unwrap().parse().unwrap();
        // The final line repeats it, so the run can be reproduced with --seed.
        assert!(
            run.stdout.starts_with("no failure in 1 test ("),
            "{}",
            run.stdout
        );
        assert!(
            run.stdout.contains(&format!("seed {seed})")),
            "{}",
            run.stdout
        );
        seed
    };
    let args = [
        "stress",
        "magic-square",
        sub.to_str().unwrap(),
        "--count",
        "1",
        "--jobs",
        "1",
    ];
    // Two runs in the same second: the clock in seconds would give both the same seed.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| judge(&args));
        let b = s.spawn(|| judge(&args));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_ne!(seed_of(&a), seed_of(&b));
}

#[test]
fn stress_rejects_bad_arguments() {
    for args in [
        vec![
            "stress",
            "magic-square",
            "tests/programs/ac.c",
            "--seconds",
            "-1",
        ],
        vec![
            "stress",
            "magic-square",
            "tests/programs/ac.c",
            "--generator",
            "nope",
        ],
        vec!["stress", "magic-square", "/nonexistent.cpp"],
    ] {
        let run = judge(&args);
        run.assert_code(2);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

/// The `stress --json` contract, strictly.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StressJson {
    problem: String,
    submission: String,
    seed: u64,
    verdict: String,
    compile: CompileJson,
    tests_run: u64,
    elapsed_ms: u64,
    failure: Option<FailureJson>,
    interrupted: bool,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CompileJson {
    ok: bool,
    message: String,
    time_ms: u64,
    cached: bool,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FailureJson {
    index: u64,
    verdict: String,
    message: String,
    generator: String,
    params: std::collections::BTreeMap<String, i64>,
    seed: u64,
    reproduce: String,
    shrunk: Option<ShrunkJson>,
    saved: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ShrunkJson {
    steps: u32,
    runs: u32,
    verdict: String,
    message: String,
    input: String,
    interrupted: bool,
}

#[test]
fn stress_json_reports_the_failure_and_the_shrunk_counterexample() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("cex");
    let run = judge(&[
        "stress",
        "magic-square",
        "tests/programs/wa.c",
        "--count",
        "20",
        "--seed",
        "1",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    run.assert_code(1);
    let r: StressJson = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        (r.problem.as_str(), r.submission.as_str(), r.seed),
        ("magic-square", "tests/programs/wa.c", 1)
    );
    assert_eq!(r.verdict, "WA");
    assert!(!r.interrupted);
    assert!(r.compile.ok && r.compile.message.is_empty());
    // A cached binary took no compile time.
    assert!(!r.compile.cached || r.compile.time_ms == 0);
    assert!(r.tests_run >= 1 && r.elapsed_ms < 60_000);
    let f = r.failure.expect("a failure");
    assert_eq!(f.verdict, "WA");
    assert!(f.message.contains("not in the input"), "{}", f.message);
    assert!(f.index < r.tests_run);
    let mut reproduce = format!("--generator {} --seed {}", f.generator, f.seed);
    for (k, v) in &f.params {
        reproduce.push_str(&format!(" --param {k}={v}"));
    }
    assert_eq!(f.reproduce, reproduce);
    let s = f.shrunk.expect("shrunk");
    assert_eq!(s.verdict, "WA");
    assert!(s.runs >= s.steps && !s.message.is_empty() && !s.interrupted);
    assert_eq!(f.saved.as_deref(), dir.to_str());
    assert_eq!(
        std::fs::read_to_string(dir.join("counterexample.in")).unwrap(),
        s.input
    );
    // JSON mode prints nothing else on stdout.
    assert!(!run.stdout.contains("reproduce the input:"));
}

#[test]
fn stress_json_of_a_compile_error() {
    let run = judge(&["stress", "magic-square", "tests/programs/ce.c", "--json"]);
    run.assert_code(1);
    let r: StressJson = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(r.verdict, "CE");
    assert!(!r.compile.ok && r.compile.message.contains("undefined_variable"));
    assert!(r.failure.is_none());
}
