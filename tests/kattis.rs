//! Kattis / ICPC problem packages end to end, on the fixtures in `tests/packages/`:
//!
//! - `mean`: legacy, C++ input validator, default output validator with a float tolerance,
//!   time limit computed from the accepted submissions;
//! - `pairsum`: 2025-09, Python output validator, nested test groups with per-group input
//!   validator arguments, `submissions.yaml` rules;
//! - `guessnum`: 2025-09 interactive (guess the number), C++ validator;
//! - `divisor`: legacy, a testlib-style checker (`registerTestlibCmd`, exit 0/1/2/3).
//!
//! Each has accepted, wrong_answer, time_limit_exceeded and run_time_error submissions:
//! `verify` must pass every package and `grade` must give each submission its folder's
//! verdict. Broken copies must fail with one clear line and exit status 2.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::verify_report::VerifyReport;
use common::{assert_clean_error, copy_dir, judge_timed, root, Run};
use serde::Deserialize;

const PACKAGES: [&str; 4] = ["mean", "pairsum", "guessnum", "divisor"];

/// The tests of this file take turns: together on two cores they would push runs past the
/// wall-clock backstop (CPU-light runs judged TLE), which is not what they test.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

fn package(name: &str) -> PathBuf {
    root().join("tests/packages").join(name)
}

fn rel(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn verify_passes_every_fixture_package() {
    let _turn = heavy();
    let dirs: Vec<String> = PACKAGES.iter().map(|p| rel(&package(p))).collect();
    let mut args = vec!["verify", "--json", "--jobs", "2"];
    args.extend(dirs.iter().map(String::as_str));
    let run = judge_timed(900, &args);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    for p in &report.problems {
        for c in &p.checks {
            assert_ne!(c.status, "fail", "{}: {}: {}", p.problem, c.name, c.message);
        }
        // Every submission folder is represented and got its folder's verdict.
        let folders: Vec<&str> = p.submissions.iter().map(|s| s.expected.as_str()).collect();
        for v in ["AC", "WA", "TLE", "RE"] {
            assert!(
                folders.contains(&v),
                "{}: no {v} submission in {folders:?}",
                p.problem
            );
        }
        for s in &p.submissions {
            let same = s.expected == s.actual || (s.expected == "RE" && s.actual == "MLE");
            assert!(
                same,
                "{}: {} expected {}, got {}",
                p.problem, s.path, s.expected, s.actual
            );
        }
        assert!(
            p.checks.iter().any(|c| c.name == "time limit"),
            "{}",
            p.problem
        );
    }
    assert!(report.ok && !report.interrupted, "{}", run.stdout);
    run.assert_code(0);
}

#[derive(Debug, Deserialize)]
struct GradeReport {
    submission: String,
    verdict: String,
    tests: Vec<serde_json::Value>,
}

/// Every jury submission, graded: the verdict its folder names.
#[test]
fn grade_gives_each_submission_its_folders_verdict() {
    let _turn = heavy();
    for name in PACKAGES {
        let dir = package(name);
        let mut subs = Vec::new();
        for folder in [
            "accepted",
            "wrong_answer",
            "time_limit_exceeded",
            "run_time_error",
        ] {
            let mut files: Vec<PathBuf> = fs::read_dir(dir.join("submissions").join(folder))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            subs.extend(files.into_iter().map(|f| (folder, rel(&f))));
        }
        let d = rel(&dir);
        let mut args = vec!["grade", d.as_str(), "--json", "--jobs", "2"];
        args.extend(subs.iter().map(|(_, s)| s.as_str()));
        let run = judge_timed(900, &args);
        run.assert_code(1);
        let reports: Vec<GradeReport> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        assert_eq!(reports.len(), subs.len(), "{}", run.stderr);
        for ((folder, path), r) in subs.iter().zip(&reports) {
            assert_eq!(&r.submission, path);
            let want: &[&str] = match *folder {
                "accepted" => &["AC"],
                "wrong_answer" => &["WA"],
                "time_limit_exceeded" => &["TLE"],
                _ => &["RE", "MLE"],
            };
            assert!(
                want.contains(&r.verdict.as_str()),
                "{name}: {path} got {}: {:?}",
                r.verdict,
                r.tests.last()
            );
        }
        if name == "mean" || name == "divisor" {
            // No limits.time_limit: computed from the accepted submissions first, as the
            // slowest one x 5 rounded up to a whole second.
            let note = run
                .stderr
                .lines()
                .find(|l| l.starts_with("note: time limit "))
                .unwrap_or_else(|| panic!("no time-limit note: {}", run.stderr));
            let limit: f64 = note["note: time limit ".len()..]
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{note}"));
            let slowest: f64 = note
                .split("slowest accepted submission ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{note}"));
            assert_eq!(limit, (slowest * 5.0).ceil().max(1.0), "{note}");
        }
    }
}

#[test]
fn check_uses_the_default_validator_with_the_packages_float_tolerance() {
    let _turn = heavy();
    let dir = rel(&package("mean"));
    let input = rel(&package("mean").join("data/sample/1.in"));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    fs::write(&out, "2.3333334\n").unwrap();
    let run = judge_timed(120, &["check", &dir, &input, &rel(&out)]);
    run.assert_code(0);
    assert_eq!(run.stdout, "AC\n");
    fs::write(&out, "2.34\n").unwrap();
    let run = judge_timed(120, &["check", &dir, &input, &rel(&out)]);
    run.assert_code(1);
    assert!(
        run.stdout
            .starts_with("WA: token 1 (line 1): expected `2.3333333333`, got `2.34`"),
        "{}",
        run.stdout
    );
}

#[test]
fn validate_runs_the_input_validators_with_their_group_arguments() {
    let _turn = heavy();
    let dir = package("pairsum");
    let d = rel(&dir);
    // Valid in the large group, too big for the small group's --max-n 10.
    let big = rel(&dir.join("data/invalid_input/too-big-for-small.in"));
    let run = judge_timed(120, &["validate", &d, &big]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "rejected by input_validators/validate.py (exit 43): n = 11 is not in [2, 10]"
        ),
        "{}",
        run.stdout
    );
    let ok = rel(&dir.join("data/secret/large/01-last.in"));
    judge_timed(120, &["validate", &d, &ok]).assert_code(0);
}

#[test]
fn solve_answers_from_data_or_runs_the_first_accepted_submission() {
    let _turn = heavy();
    let dir = package("mean");
    let d = rel(&dir);
    let run = judge_timed(
        120,
        &["solve", &d, &rel(&dir.join("data/secret/02-quarter.in"))],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "1.25\n");
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("new.in");
    fs::write(&input, "2\n1 2\n").unwrap();
    let run = judge_timed(120, &["solve", &d, &rel(&input)]);
    run.assert_code(0);
    assert_eq!(run.stdout, "1.500000000\n");
}

#[test]
fn stress_says_a_kattis_package_has_no_generators() {
    let _turn = heavy();
    let dir = package("mean");
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["stress", &rel(&dir), &sub, "--count", "1"]);
    run.assert_code(2);
    assert_clean_error(&run);
    assert!(run.stderr.contains("has no generators"), "{}", run.stderr);
}

/// A copy of fixture `name` in a temp folder, broken by `breakit`.
fn broken(name: &str, breakit: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&package(name), &dir);
    breakit(&dir);
    (tmp, dir)
}

/// One `error:` line naming `file`, exit status 2, no panic.
fn assert_package_error(run: &Run, file: &str, what: &str) {
    run.assert_code(2);
    let error = common::the_error_line(run);
    assert!(error.contains(file) && error.contains(what), "{error}");
}

#[test]
fn a_missing_secret_folder_is_one_clear_error() {
    let _turn = heavy();
    let (_t, dir) = broken("mean", |d| {
        fs::remove_dir_all(d.join("data/secret")).unwrap()
    });
    let run = judge_timed(120, &["verify", &rel(&dir)]);
    assert_package_error(&run, "data/secret", "is missing");
}

#[test]
fn a_validator_that_does_not_compile_is_one_clear_error() {
    let _turn = heavy();
    let (_t, dir) = broken("mean", |d| {
        fs::write(
            d.join("input_validators/validate.cpp"),
            "int main( { return 42; }\n",
        )
        .unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub]);
    assert_package_error(&run, "input_validators/validate.cpp", "does not build");
    assert!(
        run.stdout.is_empty(),
        "no submission is graded: {}",
        run.stdout
    );
}

#[test]
fn a_validator_exiting_0_instead_of_42_is_one_clear_error() {
    let _turn = heavy();
    let (_t, dir) = broken("mean", |d| {
        fs::remove_file(d.join("input_validators/validate.cpp")).unwrap();
        fs::write(
            d.join("input_validators/validate.py"),
            "import sys\nsys.exit(0)\n",
        )
        .unwrap();
    });
    let input = rel(&dir.join("data/secret/01-single.in"));
    let run = judge_timed(120, &["validate", &rel(&dir), &input]);
    assert_package_error(&run, "input_validators/validate.py", "exited with status 0");
    let run = judge_timed(120, &["verify", &rel(&dir), "--no-submissions"]);
    assert_package_error(&run, "input_validators/validate.py", "must exit 42");
}

#[test]
fn an_input_without_an_answer_is_one_clear_error() {
    let _turn = heavy();
    let (_t, dir) = broken("mean", |d| {
        fs::remove_file(d.join("data/secret/02-quarter.ans")).unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub]);
    assert_package_error(&run, "02-quarter.in", "has no answer file");
}

#[test]
fn a_wrong_problem_type_is_one_clear_error() {
    let _turn = heavy();
    let (_t, dir) = broken("pairsum", |d| {
        let text = fs::read_to_string(d.join("problem.yaml")).unwrap();
        fs::write(d.join("problem.yaml"), format!("{text}type: pass-fale\n")).unwrap();
    });
    let run = judge_timed(120, &["verify", &rel(&dir)]);
    assert_package_error(&run, "problem.yaml", "`pass-fale` is not a problem type");
}

#[test]
fn a_checker_breaking_its_protocol_is_a_judge_error_not_a_wrong_answer() {
    let _turn = heavy();
    let (_t, dir) = broken("pairsum", |d| {
        fs::write(
            d.join("output_validator/validate.py"),
            "import sys\nsys.exit(0)\n",
        )
        .unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/hashing.py"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub, "--json"]);
    run.assert_code(1);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "JE", "{}", run.stdout);
    let msg = r["tests"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("output_validator") && msg.contains("exited with status 0"),
        "{msg}"
    );
}
