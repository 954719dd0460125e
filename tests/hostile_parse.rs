//! Package files made to cost or to mislead (issue 39): YAML nested deep in every file judge
//! reads, and numbers without bounds where a score or a limit is made of them. Each is one
//! `error:` line naming the file (and the key), exit status 2, before anything runs, and the
//! deep files answer in well under a second (the parser alone took 21 s on 100,000 levels).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{copy_dir, judge_timed, Run};

const DEEP: usize = 100_000;

/// A copy of the fixture `name` in `tmp`.
fn fixture(tmp: &Path, name: &str) -> PathBuf {
    let pkg = tmp.join(name);
    copy_dir(&common::root().join("tests/packages").join(name), &pkg);
    pkg
}

fn verify(pkg: &Path) -> (Run, Duration) {
    let start = Instant::now();
    let run = judge_timed(300, &["verify", &pkg.display().to_string()]);
    (run, start.elapsed())
}

/// Appends `text` to `file` of `pkg` (made if missing).
fn append(pkg: &Path, file: &str, text: &str) {
    let path = pkg.join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let old = fs::read_to_string(&path).unwrap_or_default();
    fs::write(&path, format!("{old}{text}")).unwrap();
}

/// `verify` fails with one error line holding every piece of `says`; the line is returned.
fn fails_with(pkg: &Path, says: &[&str]) -> (String, Duration) {
    let (run, took) = verify(pkg);
    run.assert_code(2);
    let line = common::the_error_line(&run).to_string();
    for s in says {
        assert!(line.contains(s), "`{s}` not in: {line}");
    }
    (line, took)
}

/// 100,000 levels of flow lists, flow maps or block lists, in each YAML file of a legacy and
/// a 2025-09 package: "nested deeper than 64 levels", naming the file, in seconds at most.
#[test]
fn deep_yaml_in_any_package_file_is_a_fast_error() {
    let flow = format!("deep: {}{}\n", "[".repeat(DEEP), "]".repeat(DEEP));
    let maps = format!("deep: {}1{}\n", "{a: ".repeat(DEEP), "}".repeat(DEEP));
    let block = format!("deep:\n{}x\n", "- ".repeat(DEEP));
    let cases = [
        ("mean", "problem.yaml", &flow),
        ("mean", "data/secret/testdata.yaml", &maps),
        ("mean", "data/testdata.yaml", &block),
        ("pairsum", "problem.yaml", &maps),
        ("pairsum", "data/secret/large/test_group.yaml", &flow),
        ("pairsum", "submissions/submissions.yaml", &flow),
        ("gensum", "generators/generators.yaml", &block),
    ];
    for (fixture_name, file, text) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fixture(tmp.path(), fixture_name);
        append(&pkg, file, text);
        let (line, took) = fails_with(&pkg, &[file, ": nested deeper than 64 levels"]);
        // Today's parse stops at level 65; before, 21 s (quadratic). Generous under load.
        let limit = Duration::from_secs_f64(10.0 * common::time_scale());
        assert!(took < limit, "{fixture_name}/{file}: {took:?}: {line}");
    }
}

/// Bad numbers in `problem.yaml` of either format: infinite, not a number, too large for
/// the quantity, negative, or an integer past 64 bits. The error names the file and the key.
#[test]
fn unbounded_limits_name_the_file_and_key() {
    let legacy = [
        (
            "  time_multiplier: .inf\n",
            "limits.time_multiplier must be a number from 1 to 100, found the number .inf",
        ),
        (
            "  time_safety_margin: 1e400\n",
            "limits.time_safety_margin must be a number from 1 to 100, found `1e400`",
        ),
        (
            "  time_multiplier: 1e308\n",
            "limits.time_multiplier must be a number from 1 to 100",
        ),
        (
            "  time_safety_margin: .nan\n",
            "limits.time_safety_margin must be a number from 1 to 100",
        ),
        (
            "  output: -8\n",
            "limits.output must be a non-negative integer, found the number -8",
        ),
        (
            "  validation_time: 99999999\n",
            "limits.validation_time must be 1..=3600",
        ),
        (
            "  validation_memory: 12345678901234567890123456\n",
            "limits.validation_memory: the integer `12345678901234567890123456` is too large",
        ),
    ];
    let spec = [
        (
            "  time_multipliers: {ac_to_time_limit: 1e308}\n",
            "limits.time_multipliers.ac_to_time_limit must be a number from 1 to 100",
        ),
        (
            "  time_multipliers: {time_limit_to_tle: .inf}\n",
            "limits.time_multipliers.time_limit_to_tle must be a number from 1 to 100",
        ),
        (
            "  time_resolution: -0.5\n",
            "limits.time_resolution must be a number from 0.000001 to 60",
        ),
        (
            "  output: 123456789012345678901234567890\n",
            "limits.output: the integer `123456789012345678901234567890` is too large",
        ),
    ];
    for (fixture_name, cases) in [("mean", &legacy[..]), ("pairsum", &spec[..])] {
        for (line, says) in cases {
            let tmp = tempfile::tempdir().unwrap();
            let pkg = fixture(tmp.path(), fixture_name);
            // Both fixtures end with their `limits:` map.
            append(&pkg, "problem.yaml", line);
            fails_with(&pkg, &["problem.yaml: ", says]);
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let pkg = fixture(tmp.path(), "pairsum");
    let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    let yaml = yaml.replace("  time_limit: 1.0\n", "  time_limit: 1e400\n");
    fs::write(pkg.join("problem.yaml"), yaml).unwrap();
    fails_with(
        &pkg,
        &[
            "problem.yaml: ",
            "limits.time_limit must be a number, found `1e400`",
        ],
    );
}

/// Bad scores of scoring packages: legacy `testdata.yaml` (`accept_score`, `reject_score`,
/// `range`), 2025-09 `test_group.yaml` (`max_score`) and `submissions.yaml` (`score`).
#[test]
fn unbounded_scores_name_the_file_and_key() {
    let legacy = [
        (
            "accept_score: 1e400\n",
            "accept_score must be a number from -1000000000 to 1000000000, found `1e400`",
        ),
        (
            "reject_score: .nan\n",
            "reject_score must be a number from -1000000000 to 1000000000, found the number .nan",
        ),
        (
            "accept_score: 12345678901234567890123456\n",
            "accept_score: the integer `12345678901234567890123456` is too large",
        ),
        (
            "range: 0 inf\n",
            "range must be a number from -1000000000 to 1000000000, found `inf`",
        ),
        (
            "range: -1e308 1e308\n",
            "range must be a number from -1000000000 to 1000000000, found `-1e308`",
        ),
    ];
    for (text, says) in legacy {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fixture(tmp.path(), "mean");
        append(&pkg, "problem.yaml", "type: scoring\n");
        append(&pkg, "data/secret/testdata.yaml", text);
        fails_with(&pkg, &["data/secret/testdata.yaml: ", says]);
    }
    let spec = [
        ("max_score: .inf\n", "max_score must be a number from 0 to 1000000000, found the number .inf (or `unbounded`)"),
        ("max_score: 1e308\n", "max_score must be a number from 0 to 1000000000"),
        ("max_score: -3\n", "max_score must be a number from 0 to 1000000000, found the number -3"),
        ("max_score: '1e400'\n", "max_score must be a number from 0 to 1000000000, found `1e400`"),
    ];
    for (text, says) in spec {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fixture(tmp.path(), "pairsum");
        append(&pkg, "problem.yaml", "type: scoring\n");
        append(&pkg, "data/secret/large/test_group.yaml", text);
        fails_with(&pkg, &["data/secret/large/test_group.yaml: ", says]);
    }
    for score in ["1e308", ".inf", "[0, .nan]"] {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = fixture(tmp.path(), "pairsum");
        append(&pkg, "problem.yaml", "type: scoring\n");
        for group in ["small", "large"] {
            append(
                &pkg,
                &format!("data/secret/{group}/test_group.yaml"),
                "max_score: 50\n",
            );
        }
        append(
            &pkg,
            "submissions/submissions.yaml",
            &format!("accepted/*:\n  score: {score}\n"),
        );
        fails_with(
            &pkg,
            &["submissions.yaml: ", "accepted/*.score: must be a number"],
        );
    }
}

/// Two tests with the same input and different answers: the checker check blames the test
/// whose answer the reference solution does not reproduce, not the other one (one test's
/// answer used to be the reference answer of every test with its input).
#[test]
fn a_repeated_input_with_another_answer_is_blamed_on_its_own_test() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = fixture(tmp.path(), "mean");
    let secret = pkg.join("data/secret");
    fs::copy(secret.join("01-single.in"), secret.join("04-again.in")).unwrap();
    fs::write(secret.join("04-again.ans"), "7\n").unwrap();
    let (run, _) = verify(&pkg);
    run.assert_code(1);
    let checker = run
        .stdout
        .lines()
        .find(|l| l.contains("checker:"))
        .unwrap_or_else(|| panic!("no checker line in:\n{}", run.stdout));
    assert!(
        checker.contains("test `secret/04-again`: the reference answer is not accepted"),
        "{checker}"
    );
}
