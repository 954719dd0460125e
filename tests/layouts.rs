//! Kattis packages as real contest archives lay them out (issue 40): legacy `include/`
//! (`tests/packages/ioigrader`), a custom grader in C++ (`tests/packages/weighted`), and the
//! layouts problemtools, BAPCtools and DOMjudge read that the format's examples do not show.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::verify_report::verify_json;
use common::{copy_dir, judge_timed, root};

fn package(name: &str) -> PathBuf {
    root().join("tests/packages").join(name)
}

/// A copy of the fixture package `name` in a temporary folder (kept while the guard lives).
fn package_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&package(name), &dir);
    (tmp, dir)
}

fn rel(p: &Path) -> String {
    p.display().to_string()
}

/// `judge grade --json PACKAGE SUBMISSION`: the verdict and, for a scoring problem, the score
/// (with the verdict the package's grading gives).
fn grade(pkg: &Path, submission: &Path) -> (String, Option<f64>) {
    let run = judge_timed(300, &["grade", "--json", &rel(pkg), &rel(submission)]);
    let report: common::Report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    match report.score {
        Some(s) => (s.verdict, Some(s.score)),
        None => (report.verdict.unwrap_or_default(), None),
    }
}

/// `ioigrader` (legacy format, IOI style): contestants implement `plus` against
/// `include/cpp/plus.h`; `include/cpp/grader.cpp` holds `main` and is compiled with every C++
/// submission, as problemtools does in every format version. Verify passes (AC and WA as
/// the folders say) and a contestant's C++ file is accepted by `grade`. Before, `include/`
/// was read for 2025-09 packages only: every submission got CE (`plus.h: No such file`), and
/// then a link error (the grader's `main` was not compiled with the source).
#[test]
fn legacy_include_files_are_compiled_with_submissions() {
    let dir = rel(&package("ioigrader"));
    let (run, report) = verify_json(300, &[&dir]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/plus.cpp", "AC"),
            ("submissions/wrong_answer/times.cpp", "WA"),
        ]
    );
    run.assert_code(0);

    let tmp = tempfile::tempdir().unwrap();
    let sub = tmp.path().join("mine.cpp");
    fs::write(
        &sub,
        "#include \"plus.h\"\nlong long plus(long long a, long long b) { return b + a; }\n",
    )
    .unwrap();
    assert_eq!(grade(&package("ioigrader"), &sub).0, "AC");
}

/// generators.yaml's `solution:` is built as a submission is: with the package's
/// `include/<language>/` files (issue 39). `ioigrader` without `data/`, its tests made from
/// generators.yaml, the answers by its accepted submission, which compiles only with
/// `include/cpp/`. Before, making the data failed: the solution did not build.
#[test]
fn a_generators_solution_gets_the_include_files() {
    let (_tmp, dir) = package_copy("ioigrader");
    fs::remove_dir_all(dir.join("data")).unwrap();
    fs::create_dir(dir.join("generators")).unwrap();
    fs::write(
        dir.join("generators/generators.yaml"),
        "solution: /submissions/accepted/plus.cpp\n\
         data:\n  sample:\n    data:\n      \"1\":\n        in: \"1 2\\n\"\n  \
         secret:\n    data:\n      small:\n        in: \"2 2\\n\"\n      \
         negative:\n        in: \"-5 7\\n\"\n",
    )
    .unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/plus.cpp", "AC"),
            ("submissions/wrong_answer/times.cpp", "WA"),
        ],
        "{}",
        run.stderr
    );
    run.assert_code(0);
}

/// `weighted`: a custom grader in C++ (`graders/grader.cpp`, problemtools' protocol) takes
/// the minimum over each group's tests and weighs the groups 70 (large) and 30 (small) in
/// `secret`. The scores are verifyproblem's (worked by hand from its grading: the root's
/// default grader ignores the sample; `on_reject: continue`): 100, 70, 30 and 0 (WA).
#[test]
fn a_custom_grader_in_cpp_weighs_groups_as_verifyproblem() {
    let dir = package("weighted");
    let (run, report) = verify_json(600, &[&rel(&dir)]);
    report.problems[0].assert_no_check_failed();
    run.assert_code(0);
    let subs = dir.join("submissions");
    for (sub, verdict, score) in [
        ("accepted/double.py", "AC", 100.0),
        ("partially_accepted/large_only.py", "AC", 70.0),
        ("partially_accepted/small_only.py", "AC", 30.0),
        ("wrong_answer/same.py", "WA", 0.0),
    ] {
        let (v, s) = grade(&dir, &subs.join(sub));
        assert_eq!((v.as_str(), s), (verdict, Some(score)), "{sub}");
    }
}
