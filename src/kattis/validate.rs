//! Running a package's input and answer validators on one test: every validator in turn
//! (checktestdata scripts in judge's interpreter, the others in the sandbox under the
//! validation limits); exit 42 accepts, 43 (or any other status) rejects.
//!
//! An input validator reads the input on standard input; an answer validator (BAPCtools,
//! `answer_validators/`) reads the answer on standard input and gets the input file as its
//! first argument: `answer_validator /path/testcase.in [answer_validator_args] < testcase.ans`
//! (a checktestdata answer validator reads the answer only).

use super::data::{InputArgs, TestArgs};
use super::problem::{last_line, limit_text, RunDir};
use super::programs::Program;
use super::validated::{Reads, Said};
use super::{jury_error, JuryRunner, KattisPackage};
use crate::problems::{Judgement, TestCase, Validation, Violation};
use crate::sandbox::{Limits, Stdin, Stdout, Termination};
use crate::verdict::signal_name;

/// Runs every input validator on `input` with the test's arguments: `Ok(Err(..))` names the
/// validator that rejected it and why; `Err` when a validator failed (a limit, exit 0 of a
/// package-protocol validator).
pub(crate) fn validate_input(
    jury: &JuryRunner,
    validators: &[Program],
    limits: &Limits,
    input: &[u8],
    args: &TestArgs,
) -> Validation {
    run_all(jury, validators, limits, input, None, &args.input_validator)
}

/// Runs every answer validator on `answer`, the answer to `input`, with the test's
/// `answer_validator_args`: as [`validate_input`].
pub(crate) fn validate_answer(
    jury: &JuryRunner,
    validators: &[Program],
    limits: &Limits,
    input: &[u8],
    answer: &[u8],
    args: &TestArgs,
) -> Validation {
    run_all(
        jury,
        validators,
        limits,
        answer,
        Some(input),
        &args.answer_validator,
    )
}

/// Runs `validators` on `stdin`; `input` (for answer validators) is given as a file, its path
/// the first argument.
fn run_all(
    jury: &JuryRunner,
    validators: &[Program],
    limits: &Limits,
    stdin: &[u8],
    input: Option<&[u8]>,
    args: &InputArgs,
) -> Validation {
    let kind = match input {
        None => "an input validator",
        Some(_) => "an answer validator",
    };
    for v in validators {
        let args = args.for_validator(&v.name);
        let built = jury.build(v)?;
        if let Some(script) = &built.script {
            match super::checktestdata::validate(script, &v.display, args, stdin, limits)? {
                Ok(()) => continue,
                Err(violation) => return Ok(Err(violation)),
            }
        }
        let reads = Reads {
            args,
            limits,
            stdin,
            input,
        };
        let key = built
            .entry()
            .and_then(|entry| jury.validations.key(&entry, &reads));
        match key.as_deref().and_then(|k| jury.validations.recall(k)) {
            Some(Said::Valid) => continue,
            Some(Said::Invalid(why)) => return Ok(Err(Violation::unplaced(why))),
            None => {}
        }
        let dir = RunDir::new()?;
        let mut argv = Vec::new();
        let mut read_only = Vec::new();
        if let Some(input) = input {
            argv.push(dir.put("testcase.in", input)?.display().to_string());
            read_only.push(dir.files.clone());
        }
        argv.extend(args.iter().cloned());
        let outcome = jury.run(
            v,
            &argv,
            Stdin::Bytes(stdin.to_vec()),
            Stdout::Capture,
            &dir.feedback,
            &read_only,
            limits,
        )?;
        if let Some(hit) = outcome.limit_hit {
            return Err(jury_error(v, limit_text(hit, limits)));
        }
        let valid = match (v.testlib, outcome.termination) {
            (true, Termination::Exited(0)) | (false, Termination::Exited(42)) => true,
            (false, Termination::Exited(0)) => {
                return Err(jury_error(
                    v,
                    format!("exited with status 0; {kind} must exit 42 for a valid file and 43 for an invalid one (or call registerValidation, for testlib)"),
                ))
            }
            _ => false,
        };
        let remember = |said: &Said| {
            if let Some(k) = &key {
                jury.validations.remember(k, said);
            }
        };
        if valid {
            remember(&Said::Valid);
        } else {
            let how = match outcome.termination {
                Termination::Exited(c) => format!("exit {c}"),
                Termination::Signaled(s) => signal_name(s),
            };
            let why = last_line(&outcome.stderr)
                .or_else(|| last_line(&outcome.stdout))
                .map(|l| format!(": {l}"))
                .unwrap_or_default();
            let why = format!("rejected by {} ({how}){why}", v.display);
            remember(&Said::Invalid(why.clone()));
            return Ok(Err(Violation::unplaced(why)));
        }
    }
    Ok(Ok(()))
}

impl KattisPackage {
    /// The answer validators' judgement of `test`'s answer; with `strict` (a
    /// `data/invalid_answer` case, as BAPCtools checks it), also the output validator's, given
    /// the answer as output with `case_sensitive space_change_sensitive` (not for interactive
    /// and multi-pass problems, whose answers are not outputs).
    pub(crate) fn answer_verdict(&self, test: &TestCase, strict: bool) -> Validation {
        let args = self.args_of(test);
        let verdict = validate_answer(
            &self.jury,
            &self.answer_validators,
            &self.validation_limits(),
            test.input.as_bytes(),
            test.answer.as_bytes(),
            &args,
        )?;
        if verdict.is_err() || !strict || self.config.interactive || self.config.passes > 1 {
            return Ok(verdict);
        }
        let mut strict_args = args;
        strict_args
            .output_validator
            .extend(["case_sensitive", "space_change_sensitive"].map(String::from));
        match self.check_with(
            &test.input,
            &test.answer,
            test.answer.as_bytes(),
            &strict_args,
        ) {
            Judgement::Accepted => Ok(Ok(())),
            Judgement::Rejected(why) => Ok(Err(Violation::unplaced(format!(
                "rejected by the output validator (case_sensitive space_change_sensitive): {why}"
            )))),
            Judgement::JudgeError(e) => Err(crate::problems::JuryError(e)),
        }
    }
}
