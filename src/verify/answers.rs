//! The answer checks of a Kattis package with `answer_validators/` (2025-09, BAPCtools): every
//! test's `.ans` passes every answer validator, and every `data/invalid_answer/` case (a valid
//! input with an answer that must be rejected) is rejected by an answer validator or, as
//! BAPCtools checks it, by the output validator given the answer as a strict output.

use std::path::{Path, PathBuf};

use super::{first_hit, rel, Check};
use crate::package::Package;
use crate::problems::{JuryError, Origin, TestCase};
use crate::text::{agree, all, count};

/// Every test's answer passes every answer validator; `None` when the package has none.
pub(super) fn check_answers_valid(
    pkg: &Package,
    tests: &[TestCase],
    jobs: usize,
) -> Result<Option<Check>, JuryError> {
    let validators = pkg.answer_validators();
    if validators == 0 {
        return Ok(None);
    }
    let invalid = first_hit(tests, jobs, |t| match pkg.logic.validate_answer(t, false) {
        Err(e) => Some(Err(e)),
        Ok(Err(v)) => Some(Ok(match &t.origin {
            Origin::Sample(p) | Origin::Secret(p) | Origin::External(p) => format!(
                "test `{}`: its answer is invalid: {}",
                t.name,
                v.at(&rel(pkg, &answer_file(p)))
            ),
            Origin::Generated { .. } => {
                format!(
                    "test `{}` ({}): its answer is invalid: {v}",
                    t.name,
                    t.describe()
                )
            }
        })),
        Ok(Ok(())) => None,
    });
    if let Some(found) = invalid {
        return Ok(Some(Check::fail("answer validator", found?)));
    }
    Ok(Some(Check::ok(
        "answer validator",
        format!(
            "{} {} valid ({})",
            all(tests.len(), "test answer"),
            agree(tests.len(), "is", "are"),
            count(validators, "answer validator")
        ),
    )))
}

/// The `.ans` beside the input file `input`.
fn answer_file(input: &Path) -> PathBuf {
    input.with_extension("ans")
}

/// Every `data/invalid_answer/` case has a valid input and an answer that is rejected;
/// `None` when there is no such case.
pub(super) fn check_invalid_answers(
    pkg: &Package,
    jobs: usize,
) -> Result<Option<Check>, JuryError> {
    let cases = pkg.invalid_answers();
    if cases.is_empty() {
        return Ok(None);
    }
    let by_output = !pkg.interactive() && !pkg.multi_pass();
    if pkg.answer_validators() == 0 && !by_output {
        return Ok(Some(Check::warn(
            "invalid answers",
            format!(
                "{} in data/invalid_answer not checked: no answer validator judge can run",
                all(cases.len(), "case")
            ),
        )));
    }
    let found = first_hit(&cases, jobs, |(input, answer)| {
        let read = |p: &Path| {
            crate::fsutil::beneath::read_regular(p, crate::fsutil::beneath::DATA_CAP)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| format!("cannot read {e}"))
        };
        let (input_text, answer_text) = match (read(input), read(answer)) {
            (Ok(i), Ok(a)) => (i, a),
            (Err(e), _) | (_, Err(e)) => return Some(Ok(e)),
        };
        let test = TestCase {
            name: rel(pkg, input),
            origin: Origin::External(input.clone()),
            input: input_text,
            answer: answer_text,
        };
        match pkg.logic.validate_test(&test) {
            Err(e) => return Some(Err(e)),
            Ok(Err(v)) => {
                return Some(Ok(format!(
                    "{}: the input of an invalid answer must be valid, but it is not: {v}",
                    rel(pkg, input)
                )))
            }
            Ok(Ok(())) => {}
        }
        match pkg.logic.validate_answer(&test, true) {
            Err(e) => Some(Err(e)),
            Ok(Ok(())) => Some(Ok(format!(
                "{} is accepted by {}",
                rel(pkg, answer),
                match (pkg.answer_validators() > 0, by_output) {
                    (true, true) => "the answer validators and the output validator (case_sensitive space_change_sensitive)",
                    (true, false) => "the answer validators",
                    _ => "the output validator (case_sensitive space_change_sensitive), and the package has no answer validator",
                }
            ))),
            Ok(Err(_)) => None,
        }
    });
    if let Some(found) = found {
        return Ok(Some(Check::fail("invalid answers", found?)));
    }
    Ok(Some(Check::ok(
        "invalid answers",
        format!(
            "{} in data/invalid_answer {} rejected",
            all(cases.len(), "answer"),
            agree(cases.len(), "is", "are")
        ),
    )))
}
