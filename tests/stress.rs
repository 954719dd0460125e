//! `judge stress` finds the mistake of every wrong jury submission within seconds, and the
//! saved counterexample reproduces it.

mod common;

use std::path::{Path, PathBuf};

use common::root;

fn judge(args: &[&str]) -> common::Run {
    common::judge_timed(240, args)
}

/// Jury submissions whose failing inputs random tests practically never produce: `judge hunt`
/// found them (README, "Hunting"; tests/hunt.rs), and the test set keeps them as hand-made
/// tests (`data/secret/*.desc` say which).
const HUNT_ONLY: &[&str] = &["node_budget.cpp", "no_merge.cpp"];

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
        !p.file_name()
            .is_some_and(|n| HUNT_ONLY.iter().any(|h| n == *h))
    });
    v.sort();
    v
}

/// Stress `sub`, expect a failure with `verdict`, and check the saved counterexample.
fn finds(problem: &str, sub: &Path, verdict: &str) {
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
        "8",
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

#[test]
fn stress_finds_every_wrong_answer_submission() {
    for problem in ["dodecahedron", "magic-square"] {
        let subs = submissions(problem, "wrong_answer");
        assert!(subs.len() >= 3, "{problem}: {} wrong answers", subs.len());
        for sub in subs {
            finds(problem, &sub, "WA");
        }
    }
}

#[test]
fn stress_finds_the_slow_submissions() {
    for problem in ["dodecahedron", "magic-square"] {
        for sub in submissions(problem, "time_limit_exceeded") {
            finds(problem, &sub, "TLE");
        }
    }
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
