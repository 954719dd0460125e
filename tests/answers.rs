//! Answer validators (`answer_validators/`, 2025-09 as BAPCtools reads it) on the fixture
//! `tests/packages/ansdouble` (print 2n): a Python answer validator given the input file as
//! its first argument and `answer_validator_args` per validator (`--even` in
//! `data/secret/big`), a checktestdata one, and `data/invalid_answer/` cases (a leading space,
//! an answer over 2n) that must be rejected.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::verify_report::{verify_json, VerifyReport};
use common::{copy_dir, judge_timed, root};

fn fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ansdouble");
    copy_dir(&root().join("tests/packages/ansdouble"), &dir);
    (tmp, dir)
}

fn verify(dir: &std::path::Path, extra: &[&str]) -> (common::Run, VerifyReport) {
    let mut args = extra.to_vec();
    args.push(dir.to_str().unwrap());
    verify_json(300, &args)
}

/// verify runs every answer validator on every answer, and checks every invalid answer is
/// rejected; the package passes (no "not run" warning), its submissions get their verdicts.
#[test]
fn verify_runs_the_answer_validators_on_every_answer() {
    let (_t, dir) = fixture();
    let (run, report) = verify(&dir, &[]);
    let p = &report.problems[0];
    for c in &p.checks {
        assert_eq!(c.status, "ok", "{}: {}", c.name, c.message);
    }
    assert_eq!(
        p.check("answer validator").message,
        "all 3 test answers are valid (2 answer validators)"
    );
    assert_eq!(
        p.check("invalid answers").message,
        "all 2 answers in data/invalid_answer are rejected"
    );
    let got = p.verdicts();
    assert_eq!(
        got,
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/wrong_answer/two.py", "WA"),
        ]
    );
    run.assert_code(0);
}

/// An answer an answer validator rejects fails verify (exit 1), naming the test, the answer
/// file, the validator and its message; an invalid answer every validator accepts fails too.
#[test]
fn a_rejected_answer_or_an_accepted_invalid_answer_fails_verify() {
    let (_t, dir) = fixture();
    // Odd: rejected only with `--even`, which data/secret/big/test_group.yaml gives format.py.
    fs::write(dir.join("data/secret/big/2.ans"), "1999\n").unwrap();
    let (run, report) = verify(&dir, &["--no-submissions"]);
    run.assert_code(1);
    let c = report.problems[0].check("answer validator");
    assert_eq!(c.status, "fail");
    assert_eq!(
        c.message,
        "test `secret/big/2`: its answer is invalid: data/secret/big/2.ans: rejected by answer_validators/format.py (exit 43): 1999 is odd"
    );
    // A leading space: the checktestdata validator says where.
    fs::write(dir.join("data/secret/big/2.ans"), "2000\n").unwrap();
    fs::write(dir.join("data/secret/1.ans"), " 2\n").unwrap();
    let (run, report) = verify(&dir, &["--no-submissions"]);
    run.assert_code(1);
    let c = report.problems[0].check("answer validator");
    assert!(
        c.message.starts_with("test `secret/1`: its answer is invalid: data/secret/1.ans:1:1: rejected by answer_validators/digits.ctd"),
        "{}",
        c.message
    );
    // The same answer is fine in data/invalid_answer; one nothing rejects is not.
    fs::write(dir.join("data/secret/1.ans"), "2\n").unwrap();
    fs::write(dir.join("data/invalid_answer/too-large.ans"), "6\n").unwrap();
    let (run, report) = verify(&dir, &["--no-submissions"]);
    run.assert_code(1);
    let c = report.problems[0].check("invalid answers");
    assert_eq!(c.status, "fail");
    assert_eq!(
        c.message,
        "data/invalid_answer/too-large.ans is accepted by the answer validators and the output validator (case_sensitive space_change_sensitive)"
    );
    assert_eq!(report.problems[0].check("answer validator").status, "ok");
}

/// A broken answer validator is a judge error (one line, exit 2), never a verdict: exit 0
/// where 42 or 43 is due, or a loop stopped by the validation time limit.
#[test]
fn a_broken_answer_validator_is_one_clear_error() {
    let (_t, dir) = fixture();
    fs::write(
        dir.join("answer_validators/format.py"),
        "import sys\nsys.exit(0)\n",
    )
    .unwrap();
    let run = judge_timed(300, &["verify", "--no-submissions", dir.to_str().unwrap()]);
    run.assert_code(2);
    let line = common::the_error_line(&run);
    assert!(
        line.contains(
            "answer_validators/format.py: exited with status 0; an answer validator must exit 42"
        ),
        "{line}"
    );
    fs::write(
        dir.join("problem.yaml"),
        fs::read_to_string(dir.join("problem.yaml")).unwrap() + "  validation_time: 1\n",
    )
    .unwrap();
    fs::write(
        dir.join("answer_validators/format.py"),
        "while True:\n    pass\n",
    )
    .unwrap();
    let run = judge_timed(120, &["verify", "--no-submissions", dir.to_str().unwrap()]);
    run.assert_code(2);
    let line = common::the_error_line(&run);
    assert!(
        line.contains("answer_validators/format.py: ran over its CPU time limit of 1.0 s"),
        "{line}"
    );
}

/// With a custom output validator an answer file need not be an output (the package format:
/// it "may, but is not necessarily required to, contain the correct answer"): one the
/// validator rejects is a warning naming BAPCtools' `ans_is_output: false`, which turns the
/// check off; `ans_is_output: true` makes it a failure again. Before, verify failed the
/// format's own `maximal` example (empty `.ans` files, a validator reading the input) on it.
#[test]
fn a_custom_validator_need_not_accept_the_answer_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("constdouble");
    copy_dir(&root().join("tests/packages/constdouble"), &dir);
    fs::create_dir(dir.join("output_validator")).unwrap();
    fs::write(
        dir.join("output_validator/validate.py"),
        "import sys\nn = int(open(sys.argv[1]).read())\ntry:\n    ok = int(sys.stdin.read()) == 2 * n\nexcept ValueError:\n    ok = False\nsys.exit(42 if ok else 43)\n",
    )
    .unwrap();
    fs::write(dir.join("data/secret/2.ans"), "").unwrap();
    let (run, report) = verify(&dir, &[]);
    run.assert_code(0);
    let p = &report.problems[0];
    let c = p.check("checker");
    assert_eq!(c.status, "warn", "{}", c.message);
    assert!(
        c.message
            .starts_with("test `secret/2`: the jury answer is not accepted: wrong answer")
            && c.message.contains("`ans_is_output: false`"),
        "{}",
        c.message
    );
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/wrong_answer/literal.py", "WA"),
        ]
    );

    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    fs::write(
        dir.join("problem.yaml"),
        format!("{yaml}ans_is_output: false\n"),
    )
    .unwrap();
    let (run, report) = verify(&dir, &["--no-submissions"]);
    run.assert_code(0);
    let c = report.problems[0].check("checker");
    assert_eq!(
        (c.status.as_str(), c.message.as_str()),
        (
            "ok",
            "not run on the jury answers: problem.yaml says they are no outputs (`ans_is_output: false`)"
        )
    );

    fs::write(
        dir.join("problem.yaml"),
        format!("{yaml}ans_is_output: true\n"),
    )
    .unwrap();
    let (run, report) = verify(&dir, &["--no-submissions"]);
    run.assert_code(1);
    assert_eq!(report.problems[0].check("checker").status, "fail");
}
