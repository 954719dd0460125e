//! `judge verify` on deliberately broken copies of the shipped packages: each fault must make
//! it fail with a message that names what is wrong. (The intact packages are verified by
//! `.ci/run` after the tests.)

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::verify_report::VerifyReport;
use common::{copy_dir, judge, root};

/// A copy of `problem` without its jury submissions, in a temp dir.
fn package_copy(problem: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join(problem);
    copy_dir(&root().join("problems").join(problem), &pkg);
    let _ = fs::remove_dir_all(pkg.join("submissions"));
    (dir, pkg)
}

/// Sets the CPU time limit of the package copy `pkg` (its `problem.toml`) to `seconds`.
fn set_time_limit(pkg: &Path, seconds: &str) {
    let path = pkg.join("problem.toml");
    let text = fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("time-limit = "))
        .expect("a time-limit line");
    fs::write(
        &path,
        text.replacen(line, &format!("time-limit = {seconds}"), 1),
    )
    .unwrap();
}

fn verify(pkg: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec!["verify", pkg.to_str().unwrap()];
    args.extend_from_slice(extra);
    common::judge_timed(300, &args)
}

fn failed_lines(run: &common::Run) -> Vec<&str> {
    run.stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("FAIL"))
        .collect()
}

#[test]
fn static_checks_pass_on_the_shipped_packages() {
    let run = judge(&["verify", "dodecahedron", "magic-square", "--no-submissions"]);
    run.assert_code(0);
    assert!(run.stdout.contains("0 failed"), "{}", run.stdout);
}

#[test]
fn a_checker_that_accepts_everything_is_caught() {
    for problem in ["dodecahedron", "magic-square"] {
        let run = judge(&[
            "verify",
            problem,
            "--no-submissions",
            "--inject-fault",
            "checker-accepts-all",
        ]);
        run.assert_code(1);
        let fails = failed_lines(&run);
        assert!(
            fails
                .iter()
                .any(|l| l.contains("checker: test `") && l.contains("accepts a wrong answer")),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn a_validator_that_accepts_everything_is_caught() {
    let run = judge(&[
        "verify",
        "magic-square",
        "--no-submissions",
        "--inject-fault",
        "validator-accepts-all",
    ]);
    run.assert_code(1);
    assert!(
        failed_lines(&run)
            .iter()
            .any(|l| l.contains("the validator accepts data/invalid_input/")),
        "{}",
        run.stdout
    );
}

#[test]
fn a_statement_sample_that_differs_from_the_data_is_caught() {
    let (_tmp, pkg) = package_copy("magic-square");
    let statement = pkg.join("statement.md");
    let text = fs::read_to_string(&statement).unwrap();
    let sample = fs::read_to_string(pkg.join("data/sample/1.in")).unwrap();
    let changed = sample.replacen('1', "7", 1);
    assert_ne!(sample, changed);
    fs::write(&statement, text.replacen(&sample, &changed, 1)).unwrap();
    let run = verify(&pkg, &["--no-submissions"]);
    run.assert_code(1);
    assert!(
        failed_lines(&run)
            .iter()
            .any(|l| l.contains("sample 1: the statement's input differs")),
        "{}",
        run.stdout
    );
}

#[test]
fn an_answer_without_its_input_is_named() {
    let (_tmp, pkg) = package_copy("magic-square");
    // A test whose input was lost: its answer used to be dropped without a word.
    fs::copy(
        pkg.join("data/sample/1.ans"),
        pkg.join("data/secret/lost.ans"),
    )
    .unwrap();
    let run = verify(&pkg, &["--no-submissions"]);
    run.assert_code(1);
    assert!(
        failed_lines(&run).iter().any(|l| l
            == &"  FAIL  tests: 1 answer file without a matching .in (no test reads it): data/secret/lost.ans"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unknown_key_in_problem_toml_fails_verify() {
    let (_tmp, pkg) = package_copy("dodecahedron");
    let toml = pkg.join("problem.toml");
    let text = fs::read_to_string(&toml).unwrap();
    fs::write(&toml, format!("autor = 'typo'\n{text}")).unwrap();
    let run = verify(&pkg, &["--no-submissions"]);
    run.assert_code(1);
    assert!(
        failed_lines(&run)
            .iter()
            .any(|l| l.contains("unknown key `autor`")),
        "{}",
        run.stdout
    );
}

#[test]
fn a_wrong_answer_submission_that_the_data_does_not_reject_is_caught() {
    // A correct solution filed under wrong_answer: the data "fails to reject" it.
    let (_tmp, pkg) = package_copy("magic-square");
    let correct = common::accepted_cpp("magic-square");
    let wa = pkg.join("submissions/wrong_answer");
    fs::create_dir_all(&wa).unwrap();
    fs::copy(&correct, wa.join("not_really_wrong.cpp")).unwrap();
    // And a broken solution filed under accepted.
    let ac = pkg.join("submissions/accepted");
    fs::create_dir_all(&ac).unwrap();
    fs::copy(
        root().join("tests/programs/ac.c"),
        ac.join("fixed_square.c"),
    )
    .unwrap();

    let run = verify(&pkg, &["--json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report: VerifyReport = serde_json::from_str(&run.stdout).unwrap();
    assert!(!report.ok && !report.interrupted);
    let p = &report.problems[0];
    assert_eq!(p.problem, "magic-square");
    let fail = |name: &str| {
        p.checks
            .iter()
            .find(|c| c.name.ends_with(name))
            .unwrap_or_else(|| panic!("no check for {name}: {:?}", p.checks))
    };
    let c = fail("not_really_wrong.cpp");
    assert_eq!(c.status, "fail");
    assert!(
        c.message.starts_with("expected WA, got AC"),
        "{}",
        c.message
    );
    let c = fail("fixed_square.c");
    assert_eq!(c.status, "fail");
    assert!(
        c.message.starts_with("expected AC, got WA on test `"),
        "{}",
        c.message
    );
    let s = p
        .submissions
        .iter()
        .find(|s| s.path.ends_with("not_really_wrong.cpp"));
    assert!(s.is_some_and(|s| s.expected == "WA" && s.actual == "AC"));
}

#[test]
fn accepted_submissions_are_timed_and_a_limit_is_suggested() {
    let (_tmp, pkg) = package_copy("magic-square");
    // A 0.4 s limit instead of the package's 1 s: the must-TLE submission below spins to the
    // raised limit in each of the two verifies and is confirmed alone, so every second of
    // limit costs four of CPU time.
    set_time_limit(&pkg, "0.4");
    let correct = common::accepted_cpp("magic-square");
    let ac = pkg.join("submissions/accepted");
    fs::create_dir_all(&ac).unwrap();
    fs::copy(&correct, ac.join("fast.cpp")).unwrap();
    let tle = pkg.join("submissions/time_limit_exceeded");
    fs::create_dir_all(&tle).unwrap();
    fs::copy(root().join("tests/programs/tle_loop.c"), tle.join("spin.c")).unwrap();
    // One that sleeps: stopped by the wall clock with no CPU time, not made faster by a faster
    // machine, so its margin is its wall time and it is not fragile.
    fs::copy(
        root().join("tests/programs/tle_sleep.c"),
        tle.join("sleep.c"),
    )
    .unwrap();

    let run = verify(&pkg, &["--suggest-time-limit"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("suggested time limit: "),
        "{}",
        run.stdout
    );
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("submissions/accepted/fast.cpp: AC"))
        .unwrap();
    // 0.002 s, far from the limit: 3 runs alone that agree, or all 5 when they do not.
    assert!(
        line.contains("median of 3") || line.contains("median of 5"),
        "{line}"
    );
    // Where the time went: one line after the table.
    let time = run
        .stdout
        .lines()
        .find(|l| l.starts_with("  time: "))
        .unwrap_or_else(|| panic!("no time line: {}", run.stdout));
    assert!(time.contains(" s: static checks "), "{time}");
    // Everything run again (`--fresh`), with every program compiled by the verify above.
    let json = verify(&pkg, &["--json", "--fresh"]);
    let report: VerifyReport = serde_json::from_str(&json.stdout).unwrap();
    assert!(report.ok && !report.interrupted);
    let p = &report.problems[0];
    let spent = &p.time;
    assert_eq!((spent.compiles, spent.compile_time_ms), (0, 0), "{spent:?}");
    // The sleeping one is re-timed alone at the raised limit (0.6 s of wall time at least).
    assert!(spent.timing_ms >= 600 && spent.runs_ms > 0, "{spent:?}");
    let phases = spent.static_checks_ms + spent.compile_wait_ms + spent.runs_ms + spent.timing_ms;
    assert!(spent.total_ms >= phases, "{spent:?}");
    let t = p.submission("fast.cpp").timing.as_ref().unwrap();
    assert!(t.runs == 3 || t.runs == 5, "{t:?}");
    assert!(t.min_ms <= t.median_ms && t.median_ms <= t.max_ms && !t.capped);
    assert_eq!(t.samples_ms.len(), t.runs as usize);
    assert!(t.samples_ms.windows(2).all(|w| w[0] <= w[1]));
    let n = t.samples_ms.len();
    assert_eq!(
        (t.samples_ms[0], t.samples_ms[n / 2], t.samples_ms[n - 1]),
        (t.min_ms, t.median_ms, t.max_ms)
    );
    assert!(!t.test.is_empty());
    let spin = p.submission("spin.c");
    assert_eq!(
        (spin.expected.as_str(), spin.actual.as_str()),
        ("TLE", "TLE")
    );
    let t = spin.timing.as_ref().unwrap();
    assert!(t.capped, "an endless loop never finishes");
    // Run once at the raised limit, the limit x 1.5 (the package's `time_limit_to_tle`):
    // that run, confirmed alone, is the timing.
    assert_eq!(t.runs, 1, "{t:?}");
    assert!(t.median_ms >= 600 && t.median_ms < 1500, "{t:?}");
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("time_limit_exceeded/spin.c"))
        .unwrap();
    assert!(
        line.contains("TLE on test `")
            && line.contains("(TLE expected); still TLE at 0.6 s (limit x 1.5); margin >= 1.5")
            && line.contains("x the 0.4 s limit on "),
        "{line}"
    );
    // Margins: the accepted one far below half the limit, the spinning one stopped at the
    // raised limit (a lower bound, not fragile).
    let m = p.submission("fast.cpp").margin.as_ref().unwrap();
    assert!(
        !m.fragile && !m.at_least && m.ratio < 0.5 && m.limit_ms == 400,
        "{m:?}"
    );
    assert_eq!(
        m.test,
        p.submission("fast.cpp").timing.as_ref().unwrap().test
    );
    let m = spin.margin.as_ref().unwrap();
    assert!(
        m.at_least && !m.fragile && m.ratio >= 1.5 - 1e-9 && m.slowest_ms >= 600,
        "{m:?}"
    );
    let sleep = p.submission("sleep.c");
    assert_eq!(sleep.actual, "TLE");
    let m = sleep.margin.as_ref().unwrap();
    assert!(m.at_least && !m.fragile && m.ratio >= 1.5 - 1e-9, "{m:?}");
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("time_limit_exceeded/sleep.c"))
        .unwrap();
    assert!(line.contains("margin by wall time"), "{line}");
    assert!(p.submission("fast.cpp").randomised.is_none());
    let s = p.suggested_time_limit.as_ref().unwrap();
    assert!(s.time_limit_ms >= 100 && s.time_limit_ms.is_multiple_of(100));
    assert!(s.slowest_accepted_ms * 2 <= s.time_limit_ms);
    assert!(s.fastest_tle_ms.is_some() && s.consistent);
    let _ = &p.checks;
}

/// A jury submission marked `@RANDOMISED@` runs `--random-runs` times, each run a process of its
/// own; a wrong one must fail in every run, and one that passes any run is a hole in the test
/// data, named as such.
#[test]
fn a_randomised_submission_runs_several_times_and_a_wrong_one_must_fail_in_each() {
    let (_tmp, pkg) = package_copy("magic-square");
    let correct = fs::read_to_string(common::accepted_cpp("magic-square")).unwrap();
    let ac = pkg.join("submissions/accepted");
    let wa = pkg.join("submissions/wrong_answer");
    fs::create_dir_all(&ac).unwrap();
    fs::create_dir_all(&wa).unwrap();
    fs::write(ac.join("fast.cpp"), &correct).unwrap();
    // Always wrong (prints the input's first number N*N times): fails in every run.
    fs::write(
        wa.join("guess.c"),
        "// @RANDOMISED@\n#include <stdio.h>\nint main(void) { int n; long long v; if (scanf(\"%d %lld\", &n, &v) != 2) return 0;\n  for (int i = 0; i < n * n; i++) printf(\"%lld%c\", v, i % n == n - 1 ? '\\n' : ' '); return 0; }\n",
    )
    .unwrap();
    let json = verify(&pkg, &["--json", "--random-runs", "3"]);
    json.assert_code(0);
    let report: VerifyReport = serde_json::from_str(&json.stdout).unwrap();
    let p = &report.problems[0];
    let r = p.submission("guess.c").randomised.as_ref().unwrap();
    assert_eq!((r.runs, r.passed), (3, 0), "{r:?}");
    assert_eq!(r.verdicts.get("WA"), Some(&3), "{r:?}");
    assert_eq!(r.first_failures.values().sum::<u32>(), 3, "{r:?}");
    let c = p.check("submissions/wrong_answer/guess.c");
    assert_eq!(c.status, "ok", "{c:?}");
    assert!(
        c.message
            .contains("randomised: 3 runs, passed every test in 0 (WA in 3)"),
        "{c:?}"
    );

    // A "heuristic" that is in fact always right passes every run: the data does not stop it.
    fs::write(wa.join("lucky.cpp"), format!("// @RANDOMISED@\n{correct}")).unwrap();
    let run = verify(&pkg, &["--submissions", "lucky.cpp", "--random-runs", "2"]);
    run.assert_code(1);
    let fail = failed_lines(&run);
    assert!(
        fail.len() == 1
            && fail[0].contains("submissions/wrong_answer/lucky.cpp: passed every test in 2 of 2 runs, but is not a correct solution: the test data does not stop this randomised heuristic"),
        "{}",
        run.stdout
    );
}

/// `--submissions` verifies only the jury submissions whose path contains a pattern, says that
/// the verify is partial, and refuses a pattern that selects nothing.
#[test]
fn only_the_selected_submissions_are_verified_and_the_report_says_so() {
    let run = common::judge_timed(
        300,
        &[
            "verify",
            "magic-square",
            "--json",
            "--submissions",
            "wrong_answer/rows_only.py",
            "--submissions",
            "only_n3",
        ],
    );
    run.assert_code(0);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    let p = &report.problems[0];
    let got: Vec<&str> = p.submissions.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        got,
        [
            "submissions/wrong_answer/only_n3.c",
            "submissions/wrong_answer/rows_only.py"
        ]
    );
    let total = fs::read_dir(root().join("problems/magic-square/submissions"))
        .unwrap()
        .map(|d| fs::read_dir(d.unwrap().path()).unwrap().count())
        .sum::<usize>();
    let c = p.check("submissions");
    assert_eq!(c.status, "warn", "{c:?}");
    assert!(
        c.message.starts_with(&format!(
            "2 of {total} jury submissions verified (--submissions)"
        )),
        "{c:?}"
    );
    assert!(report.ok, "{}", run.stdout);

    let run = judge(&["verify", "magic-square", "--submissions", "no_such_file"]);
    run.assert_code(2);
    assert_eq!(
        common::the_error_line(&run),
        "error: --submissions no_such_file: no jury submission's path contains it"
    );
}

/// A built-in problem with `[[subtasks]]` (magic-square: n = 3 worth 30, n = 4 worth 70, each
/// test placed by the n of its input): `grade` scores every test, and `verify` wants the full
/// score from accepted submissions and a partial one from `partially_accepted/`.
#[test]
fn a_built_in_problem_with_subtasks_is_scored() {
    let (_tmp, pkg) = package_copy("magic-square");
    let toml = pkg.join("problem.toml");
    fs::write(
        &toml,
        fs::read_to_string(&toml).unwrap() + common::MAGIC_SQUARE_SUBTASKS,
    )
    .unwrap();
    let subs = root().join("problems/magic-square/submissions");
    for (from, to) in [
        ("accepted/forced.cpp", "accepted/forced.cpp"),
        ("wrong_answer/only_n3.c", "partially_accepted/only_n3.c"),
    ] {
        let dest = pkg.join("submissions").join(to);
        fs::create_dir_all(dest.parent().unwrap()).unwrap();
        fs::copy(subs.join(from), dest).unwrap();
    }
    let only_n3 = pkg.join("submissions/partially_accepted/only_n3.c");
    let run = common::judge(&[
        "grade",
        "--json",
        &pkg.display().to_string(),
        &only_n3.display().to_string(),
    ]);
    let report: common::Report =
        serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stderr));
    let score = report.score.expect("a score");
    assert_eq!((score.score, score.max), (30.0, Some(100.0)));
    let groups: Vec<(&str, f64)> = score
        .groups
        .iter()
        .map(|g| (g.group.as_str(), g.score))
        .collect();
    assert_eq!(
        groups,
        [("secret/n3", 30.0), ("secret/n4", 0.0), ("secret", 30.0)]
    );

    let run = common::judge(&["verify", &pkg.display().to_string()]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("submissions/accepted/forced.cpp: AC on 74 tests, score 100/100"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("submissions/partially_accepted/only_n3.c: WA by the package's rules, score 30/100 (partially_accepted expected)"), "{}", run.stdout);

    // A test in no subtask is a fault of the package, named.
    let n3_only = fs::read_to_string(&toml).unwrap().replace(
        "\n[[subtasks]]\nname = \"n4\"\npoints = 70\nwhere = { n = 4 }\n",
        "",
    );
    fs::write(&toml, n3_only).unwrap();
    let run = common::judge(&[
        "grade",
        &pkg.display().to_string(),
        &only_n3.display().to_string(),
    ]);
    run.assert_code(2);
    assert!(
        common::the_error_line(&run).contains("is in no subtask (its features: n = 4)"),
        "{}",
        run.stderr
    );
}

/// A legacy package's rejected submission is read at its first failure, as problemtools reads
/// its folder: it stops there, and what it would do on the later tests does not count. With
/// `--all-tests` every test runs and the folder's rule is checked on all of them.
#[test]
fn a_legacy_rejected_submission_stops_at_its_first_failure_unless_all_tests_are_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("mean");
    copy_dir(&root().join("tests/packages/mean"), &pkg);
    let subs = pkg.join("submissions");
    for folder in ["wrong_answer", "time_limit_exceeded", "run_time_error"] {
        fs::remove_dir_all(subs.join(folder)).unwrap();
    }
    fs::remove_file(subs.join("accepted/mean.py")).unwrap();
    fs::create_dir_all(subs.join("wrong_answer")).unwrap();
    // Wrong on the sample (the first test), a crash on every later one.
    fs::write(
        subs.join("wrong_answer/wrong_then_crash.py"),
        "import sys\nn = int(input())\nif n == 3:\n    print(0)\nelse:\n    sys.exit(3)\n",
    )
    .unwrap();
    let line = |run: &common::Run| -> String {
        run.stdout
            .lines()
            .find(|l| l.contains("wrong_then_crash.py:"))
            .unwrap_or_else(|| panic!("no line:\n{}\n{}", run.stdout, run.stderr))
            .to_string()
    };
    let run = verify(&pkg, &["--jobs", "2"]);
    let first = line(&run);
    assert!(
        first.starts_with("  ok ") && first.contains("WA on test `sample/1`"),
        "{first}"
    );
    run.assert_code(0);
    let run = verify(&pkg, &["--jobs", "2", "--all-tests"]);
    let all = line(&run);
    assert!(
        all.starts_with("  FAIL")
            && all.contains("RE on test `secret/")
            && all.contains("folder wrong_answer permits only AC/WA"),
        "{all}"
    );
    run.assert_code(1);
}
