//! `judge new`: the package it writes passes `judge verify` as written (its wrong submissions
//! are WA, its invalid inputs rejected), and every refusal is one line, exit status 2, with
//! nothing left behind.

use crate::common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::verify_report::VerifyReport;
use common::{assert_clean_error, judge, judge_timed, Run};

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Exit status 2 and exactly one line on stderr, an `error:` one.
fn assert_one_line_error(run: &Run) {
    run.assert_code(2);
    assert_clean_error(run);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

fn verify_json(dir: &Path, extra: &[&str]) -> (Run, VerifyReport) {
    let mut args = vec!["verify", "--json", "--jobs", "2"];
    args.extend(extra);
    args.push(s(dir));
    let run = judge_timed(600, &args);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    (run, report)
}

#[test]
fn a_new_package_passes_verify_and_its_wrong_submissions_are_wa() {
    let tmp = tempfile::tempdir().unwrap();
    let run = judge(&["new", "sumlist", "--dir", s(tmp.path())]);
    run.assert_code(0);
    let dir = tmp.path().join("sumlist");
    assert!(
        run.stdout
            .ends_with(&format!("next: judge verify {}\n", dir.display())),
        "{}",
        run.stdout
    );
    assert_eq!(entries(tmp.path()), ["sumlist"], "no temporary folder left");
    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    assert!(yaml.contains("problem_format_version: 2025-09\n"), "{yaml}");
    assert!(yaml.contains("name: Sumlist\n"), "{yaml}");

    let (run, report) = verify_json(&dir, &[]);
    let p = &report.problems[0];
    assert_eq!(p.problem, "sumlist");
    for c in &p.checks {
        assert_eq!(c.status, "ok", "{}: {}", c.name, c.message);
    }
    let invalid = p
        .checks
        .iter()
        .find(|c| c.name == "invalid inputs")
        .unwrap();
    assert_eq!(
        invalid.message, "all 7 files in data/invalid_input are rejected",
        "the validator is exercised on invalid inputs"
    );
    let mut got: Vec<(&str, &str, &str)> = p
        .submissions
        .iter()
        .map(|r| (r.path.as_str(), r.expected.as_str(), r.actual.as_str()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("submissions/accepted/sum.cpp", "AC", "AC"),
            ("submissions/accepted/sum.py", "AC", "AC"),
            ("submissions/wrong_answer/int_overflow.cpp", "WA", "WA"),
            ("submissions/wrong_answer/off_by_one.py", "WA", "WA"),
        ]
    );
    assert!(report.ok && !report.interrupted, "{}", run.stdout);
    run.assert_code(0);

    // The overflow passes the sample and the small tests: only secret/03-max catches it.
    let sub = dir.join("submissions/wrong_answer/int_overflow.cpp");
    let run = judge_timed(300, &["grade", s(&dir), s(&sub), "--all", "--json"]);
    run.assert_code(1);
    let report: common::Report = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(report.verdict(), "WA");
    let wrong: Vec<&str> = report
        .tests
        .iter()
        .filter(|t| t.verdict != "AC")
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(wrong, ["secret/03-max", "secret/04-min"]);
}

#[test]
fn the_problemtools_draft_has_no_invalid_inputs_and_passes_the_static_checks() {
    let tmp = tempfile::tempdir().unwrap();
    judge(&[
        "new",
        "draft",
        "--dir",
        s(tmp.path()),
        "--format-version",
        "2023-07-draft",
    ])
    .assert_code(0);
    let dir = tmp.path().join("draft");
    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("problem_format_version: 2023-07-draft\n"),
        "{yaml}"
    );
    assert!(!dir.join("data/invalid_input").exists());
    let (run, report) = verify_json(&dir, &["--no-submissions"]);
    for c in &report.problems[0].checks {
        assert_eq!(c.status, "ok", "{}: {}", c.name, c.message);
    }
    run.assert_code(0);
}

#[test]
fn an_existing_target_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sumlist");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("mine.txt"), "keep me").unwrap();
    let run = judge(&["new", "sumlist", "--dir", s(tmp.path())]);
    assert_one_line_error(&run);
    assert!(run.stderr.contains("already exists"), "{}", run.stderr);
    assert_eq!(entries(tmp.path()), ["sumlist"]);
    assert_eq!(entries(&dir), ["mine.txt"]);
    assert_eq!(fs::read_to_string(dir.join("mine.txt")).unwrap(), "keep me");

    // A file or a dangling symbolic link of that name too.
    fs::write(tmp.path().join("afile"), "x").unwrap();
    std::os::unix::fs::symlink("/nonexistent", tmp.path().join("alink")).unwrap();
    for name in ["afile", "alink"] {
        let run = judge(&["new", name, "--dir", s(tmp.path())]);
        assert_one_line_error(&run);
        assert!(run.stderr.contains("already exists"), "{}", run.stderr);
    }
    assert_eq!(entries(tmp.path()), ["afile", "alink", "sumlist"]);
}

#[test]
fn a_bad_name_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "Sum", "2sum", "sum-list", "sum_list", "../up", "a/b", ".x", "",
    ] {
        let run = judge(&["new", name, "--dir", s(tmp.path())]);
        assert_one_line_error(&run);
        assert!(
            run.stderr.contains("is not a problem short name"),
            "{name:?}: {}",
            run.stderr
        );
    }
    assert!(entries(tmp.path()).is_empty());
    assert!(!tmp.path().parent().unwrap().join("up").exists());
}

#[test]
fn a_missing_or_non_folder_parent_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no/such/folder");
    let run = judge(&["new", "x", "--dir", s(&missing)]);
    assert_one_line_error(&run);
    assert!(run.stderr.contains("No such file"), "{}", run.stderr);
    let file = tmp.path().join("file");
    fs::write(&file, "").unwrap();
    let run = judge(&["new", "x", "--dir", s(&file)]);
    assert_one_line_error(&run);
    assert!(run.stderr.contains("is not a folder"), "{}", run.stderr);
    assert_eq!(entries(tmp.path()), ["file"]);
}

/// A read-only parent folder: root writes anywhere, so as root the run drops to the
/// ordinary user `nobody` (65534) with `setpriv`.
#[test]
fn an_unwritable_parent_is_refused_with_nothing_left_behind() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let parent: PathBuf = tmp.path().join("readonly");
    fs::create_dir(&parent).unwrap();
    fs::set_permissions(&parent, fs::Permissions::from_mode(0o555)).unwrap();
    let mut cmd = if common::is_root() {
        if !Path::new("/usr/bin/setpriv").exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "setpriv (util-linux) is needed to test an unwritable folder as root"
            );
            eprintln!("setpriv missing: unwritable parent not tested");
            return;
        }
        let mut c = Command::new("/usr/bin/setpriv");
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--reset-env",
        ])
        .arg(env!("CARGO_BIN_EXE_judge"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_judge"))
    };
    let out = cmd
        .args(["new", "x", "--dir", s(&parent)])
        .current_dir("/")
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_one_line_error(&run);
    assert!(run.stderr.contains("Permission denied"), "{}", run.stderr);
    assert!(entries(&parent).is_empty());
}

#[test]
fn a_killed_runs_temporary_folder_is_removed_by_the_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    // No process has pid 2147483646 (above the kernel's pid_max limit of 2^22).
    let stale = tmp.path().join(".x.judge-tmp-2147483646-0badf00d");
    fs::create_dir_all(stale.join("data")).unwrap();
    judge(&["new", "x", "--dir", s(tmp.path())]).assert_code(0);
    assert_eq!(entries(tmp.path()), ["x"]);
}
