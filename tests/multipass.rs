//! Multi-pass problems (2025-09 `type: multi-pass`) end to end, on two fixtures:
//!
//! - `twopass`: not interactive; pass 1 reads `encode N` and prints another number `M`, the
//!   output validator keeps `N` in its feedback folder and asks for pass 2 with `decode M`
//!   in `nextpass.in`, which must print `N`;
//! - `passcount`: interactive, `limits.validation_passes: 3`; the interactor sends `p v` and
//!   expects `v + p`, asking for the next pass until pass 3.
//!
//! Each has accepted, wrong_answer (wrong on a later pass), time_limit_exceeded (on a later
//! pass) and run_time_error (on a later pass) submissions. Broken copies: a validator that
//! asks for a pass beyond the limit, or writes `nextpass.in` and rejects, is a judge error.

use crate::common;
use crate::kattis::{grade_gives_each_submission_its_folders_verdict, verify_passes};

use std::fs;
use std::path::{Path, PathBuf};

use common::verify_report::VerifyReport;
use common::{copy_dir, judge_timed, root, Run};

fn package(name: &str) -> PathBuf {
    root().join("tests/packages").join(name)
}

fn rel(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn verify_passes_the_twopass_package() {
    verify_passes("twopass");
}

#[test]
fn verify_passes_the_passcount_package() {
    verify_passes("passcount");
}

#[test]
fn grade_gives_each_twopass_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("twopass");
}

#[test]
fn grade_gives_each_passcount_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("passcount");
}

/// `judge grade --json` of `submissions` (paths relative to the package) on package `dir`:
/// one report per submission.
fn grade(dir: &Path, submissions: &[&str]) -> (Run, Vec<serde_json::Value>) {
    let d = rel(dir);
    let subs: Vec<String> = submissions
        .iter()
        .map(|s| rel(&dir.join("submissions").join(s)))
        .collect();
    let mut args = vec!["grade", d.as_str(), "--json", "--all", "--jobs", "2"];
    args.extend(subs.iter().map(String::as_str));
    let run = judge_timed(600, &args);
    let reports = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{}", run.stderr)))
        .collect();
    (run, reports)
}

/// (verdict, passes, message) of every test of a report.
fn tests_of(report: &serde_json::Value) -> Vec<(String, u64, String)> {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["verdict"].as_str().unwrap().to_string(),
                t["passes"].as_u64().unwrap_or(0),
                t["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn each_test_reports_how_many_passes_ran_and_the_deciding_passs_message() {
    let (run, reports) = grade(
        &package("twopass"),
        &[
            "accepted/offset.py",
            "wrong_answer/forget.py",
            "run_time_error/crash_decode.py",
        ],
    );
    run.assert_code(1);
    let verdicts: Vec<&str> = reports
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "WA", "RE"], "{}", run.stdout);
    for (verdict, passes, _) in tests_of(&reports[0]) {
        assert_eq!((verdict.as_str(), passes), ("AC", 2), "{}", run.stdout);
    }
    // The second pass decides: the validator's message of that pass (appended to the
    // judgemessage.txt of the first, which the feedback folder kept).
    let (verdict, passes, message) = &tests_of(&reports[1])[0];
    assert_eq!((verdict.as_str(), *passes), ("WA", 2));
    assert_eq!(message, "decode: got 12, expected 5");
    let (verdict, passes, message) = &tests_of(&reports[2])[0];
    assert_eq!((verdict.as_str(), *passes), ("RE", 2));
    assert_eq!(message, "exit code 3");

    let (run, reports) = grade(
        &package("passcount"),
        &["accepted/add.py", "wrong_answer/third_pass.py"],
    );
    run.assert_code(1);
    for (verdict, passes, _) in tests_of(&reports[0]) {
        assert_eq!((verdict.as_str(), passes), ("AC", 3), "{}", run.stdout);
    }
    let (verdict, passes, message) = &tests_of(&reports[1])[0];
    assert_eq!((verdict.as_str(), *passes), ("WA", 3));
    assert_eq!(message, "pass 3: got '13', expected 16");
}

/// The time limit holds for each pass on its own, as the format says: two passes of 0.3 s
/// CPU each are accepted under a 0.5 s limit, and the test's time is the slower pass's.
#[test]
fn the_time_limit_is_per_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("twopass");
    copy_dir(&package("twopass"), &dir);
    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    fs::write(
        dir.join("problem.yaml"),
        yaml.replace(
            "  time_limit: 1.0\n",
            "  time_limit: 0.5\n  time_resolution: 0.1\n",
        ),
    )
    .unwrap();
    fs::write(
        dir.join("submissions/accepted/slow.py"),
        "import time\nmode, value = input(), int(input())\nend = time.process_time() + 0.3\nwhile time.process_time() < end:\n    pass\nprint(value + 7 if mode == 'encode' else value - 7)\n",
    )
    .unwrap();
    let (run, reports) = grade(&dir, &["accepted/slow.py"]);
    run.assert_code(0);
    for t in reports[0]["tests"].as_array().unwrap() {
        assert_eq!(t["verdict"], "AC", "{}", run.stdout);
        assert_eq!(t["passes"], 2, "{}", run.stdout);
        let ms = t["time_ms"].as_u64().unwrap();
        assert!((300..500).contains(&ms), "{}", run.stdout);
    }
}

/// A copy of fixture `name` whose validator file `file` has `from` replaced by `to`.
fn broken(name: &str, file: &str, from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&package(name), &dir);
    let path = dir.join(file);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
    (tmp, dir)
}

#[test]
fn a_validator_asking_for_a_pass_beyond_the_limit_is_a_judge_error() {
    // twopass: the second pass asks for a third (validation_passes defaults to 2).
    let (_tmp, dir) = broken(
        "twopass",
        "output_validator/validate.py",
        "note(\"decode: ok\")",
        "(feedback / \"nextpass.in\").write_text(\"decode\\n1\\n\")\nnote(\"decode: ok\")",
    );
    let (run, reports) = grade(&dir, &["accepted/offset.py"]);
    run.assert_code(1);
    assert_eq!(reports[0]["verdict"], "JE", "{}", run.stdout);
    let (_, passes, message) = &tests_of(&reports[0])[0];
    assert_eq!(*passes, 2);
    assert!(
        message.contains("asked for pass 3 (wrote nextpass.in), but limits.validation_passes is 2"),
        "{message}"
    );

    // passcount (interactive, validation_passes: 3): pass 3 asks for a fourth.
    let (_tmp, dir) = broken(
        "passcount",
        "output_validator/interact.py",
        "if p < 3:",
        "if p < 4:",
    );
    let (run, reports) = grade(&dir, &["accepted/add.py"]);
    run.assert_code(1);
    assert_eq!(reports[0]["verdict"], "JE", "{}", run.stdout);
    let (_, passes, message) = &tests_of(&reports[0])[0];
    assert_eq!(*passes, 3);
    assert!(
        message.contains("limits.validation_passes is 3"),
        "{message}"
    );
}

#[test]
fn a_validator_that_writes_nextpass_in_and_rejects_is_a_judge_error() {
    let (_tmp, dir) = broken(
        "twopass",
        "output_validator/validate.py",
        "def wrong(msg):\n",
        "def wrong(msg):\n    (feedback / \"nextpass.in\").write_text(\"decode\\n1\\n\")\n",
    );
    let (run, reports) = grade(&dir, &["wrong_answer/forget.py"]);
    run.assert_code(1);
    assert_eq!(reports[0]["verdict"], "JE", "{}", run.stdout);
    let (_, passes, message) = &tests_of(&reports[0])[0];
    assert_eq!(*passes, 2);
    assert!(
        message.contains("wrote nextpass.in but rejected the output (exit 43)"),
        "{message}"
    );
}

/// Remembered runs are keyed on the jury side: after the validator changes to ask for a
/// pass beyond the limit, the accepted submissions are judged again (JE), not recalled as AC.
#[test]
fn a_changed_validator_is_not_recalled_from_an_earlier_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("twopass");
    copy_dir(&package("twopass"), &dir);
    let d = rel(&dir);
    let verify = || {
        let run = judge_timed(900, &["verify", "--json", "--jobs", "2", &d]);
        let report: VerifyReport = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
        (run, report)
    };
    let (run, report) = verify();
    run.assert_code(0);
    assert!(report.ok);
    let path = dir.join("output_validator/validate.py");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replacen(
            "note(\"decode: ok\")",
            "(feedback / \"nextpass.in\").write_text(\"decode\\n1\\n\")\nnote(\"decode: ok\")",
            1,
        ),
    )
    .unwrap();
    let (run, report) = verify();
    run.assert_code(1);
    let p = &report.problems[0];
    for s in p.submissions.iter().filter(|s| s.expected == "AC") {
        assert_eq!(s.actual, "JE", "{}: {}", s.path, run.stdout);
    }
}
