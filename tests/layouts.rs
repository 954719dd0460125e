//! Kattis packages as real contest archives lay them out (issue 40): legacy `include/`
//! (`tests/packages/ioigrader`), a custom grader in C++ (`tests/packages/weighted`), and the
//! layouts problemtools, BAPCtools and DOMjudge read that the format's examples do not show.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use crate::kattis::{package, package_copy, rel};
use common::judge_timed;
use common::verify_report::verify_json;

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
/// then a link error (the grader's `main` was not compiled with the source). The grader runs
/// `plus` in a child process and a thread, as NOI 2017 `avian`'s runner does: a package's
/// submissions may, as under DOMjudge (`process_limit` 64) and problemtools; before, its fork
/// was refused (one process) and the accepted submission got RE. In Python and Java the
/// included `main.py` and `Main.java` are the entry point, and the contestant's `plus.py` and
/// `Plus.java` go beside them under their own names, as problemtools lays them out; before,
/// the contestant's file ran alone (no output: WA; NOI 2017 `avian`'s partial submissions
/// scored 0).
#[test]
fn legacy_include_files_are_compiled_with_submissions() {
    let dir = rel(&package("ioigrader"));
    let (run, report) = verify_json(300, &[&dir]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/Plus.java", "AC"),
            ("submissions/accepted/plus.cpp", "AC"),
            ("submissions/accepted/plus.py", "AC"),
            ("submissions/wrong_answer/plus.py", "WA"),
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
            ("submissions/accepted/Plus.java", "AC"),
            ("submissions/accepted/plus.cpp", "AC"),
            ("submissions/accepted/plus.py", "AC"),
            ("submissions/wrong_answer/plus.py", "WA"),
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

/// A legacy package as they are met in the wild, laid out in a temporary folder: the
/// validator one file in `input_format_validators/`, `.desc`, `.png` and a generator script
/// beside the tests, a `problem.yaml` of a tool in `generators/`, and submissions in every
/// folder name the peers read (or do not).
fn wild_package(root: &Path) -> PathBuf {
    let pkg = root.join("wild");
    let write = |rel: &str, text: &str| {
        let path = pkg.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("problem.yaml", "name: Wild\n");
    write(
        "problem_statement/problem.en.tex",
        "\\problemname{Wild}\nDouble it.\n",
    );
    write(
        "input_format_validators/validate.py",
        "import re, sys\nsys.exit(42 if re.fullmatch(r'\\d+\\n', sys.stdin.read()) else 43)\n",
    );
    write("data/secret/1.in", "1\n");
    write("data/secret/1.ans", "2\n");
    write("data/secret/1.desc", "the smallest\n");
    write("data/secret/1.png", "not really a picture");
    write("data/secret/gen.py", "print(1)\n");
    write(
        "generators/tool/problem.yaml",
        "name: a tool's own settings\n",
    );
    let double = "print(2 * int(input()))\n";
    write("submissions/accepted/double.py", double);
    write("submissions/accepted/double.py3", double);
    write(
        &format!("submissions/accepted/{}.py", "0f".repeat(50)),
        double,
    );
    write("submissions/accepted/double.ruby", "puts gets.to_i * 2\n");
    // A folder whose entry says python3 on its #! line (problemtools reads the entry's).
    write(
        "submissions/accepted/folder3/main.py",
        &format!("#!/usr/bin/env python3\n{double}"),
    );
    write("submissions/top.py", double);
    write(
        "submissions/run_time_exception/crash.py",
        "raise SystemExit(3)\n",
    );
    write(
        "submissions/runtime_error/crash.py",
        "raise SystemExit(3)\n",
    );
    write("submissions/rejected/five.py", "print(5)\n");
    write(
        "submissions/mixed/either.py",
        "# @EXPECTED_RESULTS@: CORRECT, WRONG-ANSWER\nprint(2 * int(input()))\n",
    );
    write(
        "submissions/domjudge/seven.py",
        "# @EXPECTED_RESULTS@: WRONG-ANSWER\nprint(7)\n",
    );
    pkg
}

/// The layouts of `wild_package`, each read as problemtools, BAPCtools or DOMjudge read it:
/// the validator in `input_format_validators/` checks the input; `.desc`, `.png` and `gen.py`
/// beside the tests are no tests and no fault; `.py3` and a name of 100 hex characters are
/// Python and accepted, and so is a folder whose entry's `#!` line names python3 (before, a
/// folder was taken for Python 2 whatever its `#!` line said); `rejected/` must fail (BAPCtools, DOMjudge); `mixed/` and `domjudge/`
/// follow their `@EXPECTED_RESULTS@` headers (DOMjudge); `.ruby` (no tool's extension), a
/// file directly in `submissions/` and the folders `run_time_exception/` and `runtime_error/`
/// (which no tool reads) are not checked, each with a warning saying why, the folders'
/// naming `run_time_error`. Before, the file in `submissions/` was passed over silently.
#[test]
fn layouts_met_in_the_wild_are_read_as_the_peers_read_them() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = wild_package(tmp.path());
    let (run, report) = verify_json(300, &[&rel(&pkg)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let hex = format!("submissions/accepted/{}.py", "0f".repeat(50));
    assert_eq!(
        p.verdicts(),
        [
            (hex.as_str(), "AC"),
            ("submissions/accepted/double.py", "AC"),
            ("submissions/accepted/double.py3", "AC"),
            ("submissions/accepted/folder3", "AC"),
            ("submissions/domjudge/seven.py", "WA"),
            ("submissions/mixed/either.py", "AC"),
        ],
        "{}",
        run.stdout
    );
    // Several verdicts allowed: a row with every one of them (before, it had none), its
    // `expected` the one it got.
    let either = p.submission("mixed/either.py");
    assert_eq!(either.permitted, ["AC", "WA"]);
    assert_eq!(either.expected, "AC");
    assert_eq!(p.submission("domjudge/seven.py").permitted, ["WA"]);
    // A folder of rules (test by test) rather than verdicts: in the checks only.
    for (sub, got) in [
        ("submissions/mixed/either.py", "AC on 1 tests"),
        ("submissions/rejected/five.py", "(rejected expected)"),
    ] {
        let c = p.check(sub);
        assert!(c.status == "ok" && c.message.contains(got), "{sub}: {c:?}");
    }
    assert!(p
        .check("validator")
        .message
        .contains("1 test input is valid"));
    let warned = |sub: &str, why: &str| {
        assert!(
            p.checks
                .iter()
                .any(|c| c.status == "warn" && c.name == sub && c.message.contains(why)),
            "{sub}: {why}\n{:?}",
            p.checks
        )
    };
    warned("submissions/top.py", "directly in submissions/");
    warned(
        "submissions/accepted/double.ruby",
        "not in a language judge compiles",
    );
    for folder in ["run_time_exception", "runtime_error"] {
        warned(
            &format!("submissions/{folder}/crash.py"),
            "did you mean `run_time_error`?",
        );
    }
    run.assert_code(0);

    // The tool's problem.yaml is no problem of its own.
    let tool = pkg.join("generators/tool");
    let run = judge_timed(60, &["verify", &rel(&tool)]);
    run.assert_code(2);
    assert!(
        common::the_error_line(&run).contains("this problem.yaml is a tool's, not a problem's"),
        "{}",
        run.stderr
    );
}

/// DOMjudge's time limit files (`.timelimit`, which `judge export` writes too, and
/// `domjudge-problem.ini`) in a legacy package: problemtools computes the limit and reads
/// neither, and so does judge (taking `.timelimit` failed the exported magic-square, whose
/// PyPy3 accepted run times 5 are over its 1 s).
#[test]
fn a_timelimit_file_gives_the_time_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = wild_package(tmp.path());
    fs::remove_dir_all(pkg.join("submissions")).unwrap();
    let sub = pkg.join("submissions/accepted/double.py");
    fs::create_dir_all(sub.parent().unwrap()).unwrap();
    fs::write(&sub, "print(2 * int(input()))\n").unwrap();
    fs::write(pkg.join(".timelimit"), "3.5\n").unwrap();
    fs::write(pkg.join("domjudge-problem.ini"), "timelimit='4'\n").unwrap();
    // A legacy package: problemtools computes its limit and reads neither file.
    let (_, report) = verify_json(300, &[&rel(&pkg)]);
    let limit = &report.problems[0].check("time limit").message;
    assert!(
        !limit.contains(".timelimit") && !limit.contains("domjudge-problem.ini"),
        "{limit}"
    );
}

/// An interactive package whose sample is given only as `.interaction` (`guessnum`: the
/// transcript the statement shows; problemtools and BAPCtools run no test from it), and the
/// same without `data/sample`: both verify, the `.interaction` file neither a test nor a
/// fault.
#[test]
fn interaction_only_samples_and_no_samples_verify() {
    let (_tmp, dir) = package_copy("guessnum");
    for slow in ["time_limit_exceeded", "run_time_error"] {
        fs::remove_dir_all(dir.join("submissions").join(slow)).unwrap();
    }
    let samples: Vec<_> = fs::read_dir(dir.join("data/sample"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(samples, ["1.interaction"]);
    for round in ["interaction only", "no data/sample"] {
        let (run, report) = verify_json(300, &[&rel(&dir)]);
        let p = &report.problems[0];
        p.assert_no_check_failed();
        assert!(
            p.check("validator").message.contains("5 test inputs"),
            "{round}"
        );
        run.assert_code(0);
        if dir.join("data/sample").exists() {
            fs::remove_dir_all(dir.join("data/sample")).unwrap();
        }
    }
}

/// DOMjudge's time limit files: where `problem.yaml` gives no `limits.time_limit`, a 2023-07
/// or 2025-09 package takes `domjudge-problem.ini`'s `timelimit`, else `.timelimit`, as
/// DOMjudge and BAPCtools do; a legacy package ignores both and computes its limit, as
/// problemtools does.
#[test]
fn time_limit_files_are_read_where_the_format_reads_them() {
    let limit_ms = |dir: &Path| {
        let sub = dir.join("submissions/accepted/double.py");
        let run = judge_timed(300, &["grade", "--json", &rel(dir), &rel(&sub)]);
        let report: common::Report = serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
        report.limits.time_ms
    };
    for version in ["2023-07-draft", "2025-09"] {
        let (_tmp, dir) = package_copy("constdouble");
        let yaml = dir.join("problem.yaml");
        let text = fs::read_to_string(&yaml).unwrap();
        let text = text
            .replace(
                "problem_format_version: 2025-09",
                &format!("problem_format_version: {version}"),
            )
            .replace("  time_limit: 1.0\n", "");
        fs::write(&yaml, text).unwrap();
        fs::write(dir.join(".timelimit"), "3\n").unwrap();
        assert_eq!(limit_ms(&dir), 3000, "{version}: .timelimit");
        fs::write(dir.join("domjudge-problem.ini"), "timelimit='2.5'\n").unwrap();
        assert_eq!(
            limit_ms(&dir),
            2500,
            "{version}: domjudge-problem.ini first"
        );
    }
    // Legacy: computed from the accepted submission (x 5, rounded up to a whole second).
    let (_tmp, dir) = package_copy("constdouble");
    let yaml = dir.join("problem.yaml");
    let text = fs::read_to_string(&yaml).unwrap();
    let legacy: String = text
        .lines()
        .filter(|l| !l.starts_with("problem_format_version") && !l.starts_with("uuid"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&yaml, legacy.replace("  time_limit: 1.0\n", "")).unwrap();
    fs::write(dir.join(".timelimit"), "7\n").unwrap();
    assert_ne!(limit_ms(&dir), 7000, "legacy ignores .timelimit");
}
