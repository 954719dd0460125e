//! Package verification: everything a problem setter must know before a contest.
//!
//! Static checks (package, statement, validator, generators, checker) need no compiler; the
//! jury submissions are graded in the sandbox and must get the verdict their folder names;
//! accepted and TLE submissions are timed over repeated runs.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::package::{InvalidInputs, Package};
use crate::problems::{AnswersAreOutputs, GenParams, Judgement, JuryError, Problem};
use crate::testset::{self, Origin, TestCase};
use crate::text::{agree, all, count};

mod answers;
mod fault;
pub mod jury;
pub mod run;
pub mod select;
pub mod statement;
pub mod submissions;
pub mod timelimit;
mod timing;

pub use fault::{Fault, Faulty};
pub(crate) use timing::{read_at_limit, stopped_at_high, View};
pub use timing::{suggest_time_limit, Suggestion, Timing};

/// The status of one check line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Fail,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Fail => "FAIL",
        }
    }
}

/// One line of the verification report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// What was checked (`validator`, `checker`, `submissions/accepted/fast.cpp`, ...).
    pub name: String,
    pub status: Status,
    /// What was found; for failures, what is wrong and where.
    pub message: String,
}

impl Check {
    pub fn ok(name: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            status: Status::Ok,
            message: message.into(),
        }
    }
    pub fn fail(name: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            status: Status::Fail,
            message: message.into(),
        }
    }
    pub fn warn(name: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            status: Status::Warn,
            message: message.into(),
        }
    }
    /// A failure made a warning when `warns` (what problemtools only warns about in a
    /// legacy package), saying so.
    pub fn warn_if(self, warns: bool) -> Check {
        match warns {
            true => Check::warn(
                self.name,
                format!(
                    "{} (a warning in a legacy package, as problemtools gives)",
                    self.message
                ),
            ),
            false => self,
        }
    }
}

/// The static checks: package, statement, test data, validator, generators, checker; the
/// validator and checker runs on `jobs` threads. Returns the checks and the test set (empty
/// if it could not be built); `Err` when a jury program (validator, checker, reference
/// solver) failed: the package is broken, and no check after it means anything.
pub fn static_checks(pkg: &Package, jobs: usize) -> Result<(Vec<Check>, Vec<TestCase>), JuryError> {
    let mut checks = Vec::new();
    let manifest = pkg.manifest();
    if pkg.warnings.is_empty() {
        checks.push(Check::ok(
            "package",
            format!("{manifest} parses, no unknown keys"),
        ));
    } else {
        for w in &pkg.warnings {
            checks.push(Check::fail("package", w.clone()));
        }
    }
    checks.extend(
        pkg.gaps
            .iter()
            .chain(pkg.notes())
            .map(|n| Check::warn("package", n.clone())),
    );
    checks.push(statement::check(pkg));
    let tests = match testset::full(pkg) {
        Ok(t) => t,
        Err(e) => {
            checks.push(Check::fail("tests", e.to_string()));
            return Ok((checks, Vec::new()));
        }
    };
    if let Some(c) = check_orphan_answers(pkg) {
        checks.push(c);
    }
    let logic = pkg.logic.as_ref();
    checks.push(check_inputs_valid(pkg, &tests, jobs)?);
    checks.push(check_invalid_rejected(pkg, jobs)?);
    checks.extend(answers::check_answers_valid(pkg, &tests, jobs)?);
    checks.extend(answers::check_invalid_answers(pkg, jobs)?);
    if !logic.generators().is_empty() || !pkg.groups.is_empty() {
        checks.push(check_generators(pkg));
    }
    if pkg.interactive() {
        checks.push(Check::ok(
            "checker",
            "interactive: the validator judges each run as it happens (answers are not checked alone)",
        ));
    } else if pkg.multi_pass() {
        checks.push(Check::ok(
            "checker",
            "multi-pass: the validator judges each pass of a run (answers are not checked alone)",
        ));
    } else {
        checks.push(check_answers(logic, &tests, jobs)?);
    }
    if pkg.mutates_answers() {
        checks.push(check_mutations(logic, &tests));
    }
    Ok((checks, tests))
}

/// A `.ans` without its `.in` is a test that silently does not exist: name every one.
fn check_orphan_answers(pkg: &Package) -> Option<Check> {
    let mut orphans = Vec::new();
    for dir in ["data/sample", "data/secret"] {
        match testset::orphan_answers(&pkg.dir.join(dir)) {
            Ok(found) => orphans.extend(found.iter().map(|p| rel(pkg, p))),
            Err(e) => return Some(Check::fail("tests", e.to_string())),
        }
    }
    (!orphans.is_empty()).then(|| {
        Check::fail(
            "tests",
            format!(
                "{} without a matching .in (no test reads {}): {}",
                count(orphans.len(), "answer file"),
                agree(orphans.len(), "it", "them"),
                orphans.join(", ")
            ),
        )
    })
}

/// The first item (in order) for which `f` gives something, and that; `f` runs on `jobs`
/// threads, and no item after a known hit is started. The same answer as a loop that stops at
/// the first hit, for jury programs that each take a sandbox run.
fn first_hit<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> Option<R> + Sync,
) -> Option<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let first = AtomicUsize::new(usize::MAX);
    let hits: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= items.len() || i > first.load(Ordering::SeqCst) {
                    break;
                }
                if let Some(r) = f(&items[i]) {
                    first.fetch_min(i, Ordering::SeqCst);
                    hits.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
                }
            });
        }
    });
    let hits = hits.into_inner().unwrap_or_else(|e| e.into_inner());
    hits.into_iter().min_by_key(|(i, _)| *i).map(|(_, r)| r)
}

fn check_inputs_valid(pkg: &Package, tests: &[TestCase], jobs: usize) -> Result<Check, JuryError> {
    let logic = pkg.logic.as_ref();
    let invalid = first_hit(tests, jobs, |t| match logic.validate_test(t) {
        Err(e) => Some(Err(e)),
        Ok(Err(v)) => Some(Ok(match &t.origin {
            Origin::Sample(p) | Origin::Secret(p) | Origin::External(p) => {
                format!("test `{}` is invalid: {}", t.name, v.at(&rel(pkg, p)))
            }
            Origin::Generated { .. } => {
                format!("test `{}` ({}) is invalid: {v}", t.name, t.describe())
            }
        })),
        Ok(Ok(())) => None,
    });
    if let Some(found) = invalid {
        return Ok(Check::fail("validator", found?));
    }
    if !pkg.has_input_validator() {
        return Ok(Check::warn(
            "validator",
            format!(
                "no input validator judge can run: {} not checked (the format asks for one)",
                all(tests.len(), "test input")
            ),
        ));
    }
    Ok(Check::ok(
        "validator",
        format!(
            "{} {} valid",
            all(tests.len(), "test input"),
            agree(tests.len(), "is", "are")
        ),
    ))
}

fn check_invalid_rejected(pkg: &Package, jobs: usize) -> Result<Check, JuryError> {
    let (files, optional) = match pkg.invalid_inputs() {
        InvalidInputs::Listed(files) => (files, true),
        InvalidInputs::Folder(dir) => match testset::input_files(&dir) {
            Ok(f) => (f, false),
            Err(e) => return Ok(Check::fail("invalid inputs", e.to_string())),
        },
    };
    if files.is_empty() && optional {
        return Ok(Check::ok(
            "invalid inputs",
            "none (data/invalid_input/ is optional)",
        ));
    }
    if files.is_empty() {
        return Ok(Check::warn(
            "invalid inputs",
            "data/invalid_input/ holds no .in files",
        ));
    }
    if !pkg.has_input_validator() {
        return Ok(Check::warn(
            "invalid inputs",
            format!(
                "{} in data/invalid_input not checked: no input validator judge can run",
                all(files.len(), "file")
            ),
        ));
    }
    let accepted = first_hit(&files, jobs, |f| {
        // A regular file only (data.rs checked its links when the package was loaded).
        let bytes = match crate::fsutil::beneath::read_regular(f, crate::fsutil::beneath::DATA_CAP)
        {
            Ok(bytes) => bytes,
            Err(e) => return Some(Ok(e.to_string())),
        };
        let verdict = match String::from_utf8(bytes) {
            Ok(input) => pkg.logic.validate_test(&TestCase {
                name: rel(pkg, f),
                origin: Origin::External(f.clone()),
                input,
                answer: String::new(),
            }),
            Err(e) => pkg.logic.validate(e.as_bytes()),
        };
        match verdict {
            Err(e) => Some(Err(e)),
            Ok(Ok(())) => Some(Ok(format!("the validator accepts {}", rel(pkg, f)))),
            Ok(Err(_)) => None,
        }
    });
    if let Some(found) = accepted {
        return Ok(Check::fail("invalid inputs", found?));
    }
    Ok(Check::ok(
        "invalid inputs",
        format!(
            "{} in data/invalid_input {} rejected",
            all(files.len(), "file"),
            agree(files.len(), "is", "are")
        ),
    ))
}

/// Generators are deterministic (same seed, same bytes) and use their seed (different seeds
/// give different inputs), for every generator with default parameters and every setup of the
/// test plan.
fn check_generators(pkg: &Package) -> Check {
    let mut setups: Vec<(String, GenParams)> = pkg
        .logic
        .generators()
        .iter()
        .map(|g| (g.name.to_string(), GenParams::default()))
        .collect();
    for g in &pkg.groups {
        if !setups
            .iter()
            .any(|(n, p)| *n == g.generator && *p == g.params)
        {
            setups.push((g.generator.clone(), g.params.clone()));
        }
    }
    for (name, params) in &setups {
        let mut outputs = Vec::new();
        for seed in [1u64, 2, 3, 1] {
            match pkg.logic.generate(name, params, seed) {
                Ok(s) => outputs.push(s),
                Err(e) => return Check::fail("generators", e.to_string()),
            }
        }
        if outputs[0] != outputs[3] {
            return Check::fail(
                "generators",
                format!(
                    "`{name}` {:?} is not deterministic: seed 1 gave two different inputs",
                    params.0
                ),
            );
        }
        if outputs[0] == outputs[1] && outputs[1] == outputs[2] {
            return Check::fail(
                "generators",
                format!(
                    "`{name}` {:?} ignores its seed: seeds 1, 2, 3 gave the same input",
                    params.0
                ),
            );
        }
    }
    Check::ok(
        "generators",
        format!(
            "{} {} deterministic and {} {} seed",
            count(setups.len(), "generator setup"),
            agree(setups.len(), "is", "are"),
            agree(setups.len(), "uses", "use"),
            agree(setups.len(), "its", "their")
        ),
    )
}

/// The jury answer of every test, and the reference solver's answer, pass the checker.
fn check_answers(logic: &dyn Problem, tests: &[TestCase], jobs: usize) -> Result<Check, JuryError> {
    let answers_are_outputs = logic.answers_are_outputs();
    if answers_are_outputs == AnswersAreOutputs::Not {
        return Ok(Check::ok(
            "checker",
            "not run on the jury answers: problem.yaml says they are no outputs (`ans_is_output: false`)",
        ));
    }
    let rejected = first_hit(tests, jobs, |t| {
        // A generated test's jury answer already is the reference solver's answer.
        let solved = match t.origin {
            Origin::Generated { .. } => None,
            _ => match logic.solve(&t.input) {
                Ok(s) => Some(s),
                Err(e) => return Some(Err(e)),
            },
        };
        let answers = std::iter::once(("jury answer", &t.answer))
            .chain(solved.as_ref().map(|s| ("reference answer", s)));
        for (what, out) in answers {
            match logic.check_test(t, out.as_bytes()) {
                Judgement::Accepted => {}
                Judgement::Rejected(r) => {
                    return Some(Ok(format!(
                        "test `{}`: the {what} is not accepted: {r}",
                        t.name
                    )))
                }
                Judgement::JudgeError(r) => {
                    return Some(Err(JuryError(format!(
                        "test `{}`: the checker failed on the {what}: {r}",
                        t.name
                    ))))
                }
            }
        }
        None
    });
    match (rejected, answers_are_outputs) {
        (None, _) => {}
        (Some(found), AnswersAreOutputs::Should) => {
            return Ok(Check::warn(
                "checker",
                format!(
                    "{}; with a custom output validator an answer file need not be an output (`ans_is_output: false` in problem.yaml says so)",
                    found?
                ),
            ))
        }
        (Some(found), _) => return Ok(Check::fail("checker", found?)),
    }
    Ok(Check::ok(
        "checker",
        format!(
            "accepts the jury and reference answers of {}",
            all(tests.len(), "test")
        ),
    ))
}

/// The checker rejects every mutated answer.
fn check_mutations(logic: &dyn Problem, tests: &[TestCase]) -> Check {
    let mut mutated = 0usize;
    for t in tests {
        for (label, wrong) in logic.mutate_answer(&t.input, &t.answer) {
            mutated += 1;
            if logic.check_test(t, wrong.as_bytes()) == Judgement::Accepted {
                return Check::fail(
                    "checker",
                    format!("test `{}`: accepts a wrong answer ({label})", t.name),
                );
            }
        }
    }
    if mutated == 0 {
        return Check::warn("checker", "no mutated answers to test the checker with");
    }
    Check::ok(
        "checker",
        format!("rejects {}", all(mutated, "mutated answer")),
    )
}

/// `path` relative to the package folder, for messages.
pub fn rel(pkg: &Package, path: &Path) -> String {
    path.strip_prefix(&pkg.dir)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn suggested_limit_is_twice_the_slowest_rounded_up() {
        let s = suggest_time_limit(260, Some(3000), 100);
        assert_eq!(s.time_limit_ms, 600);
        assert!(s.consistent);
        let s = suggest_time_limit(260, Some(800), 100);
        assert!(!s.consistent, "600 ms is not below 800 / 1.5");
        assert_eq!(suggest_time_limit(0, None, 100).time_limit_ms, 100);
    }

    #[test]
    fn timing_takes_the_median() {
        let ms = Duration::from_millis;
        let t = Timing::from_samples("t", vec![ms(30), ms(10), ms(20)], false);
        assert_eq!((t.median_ms, t.min_ms, t.max_ms, t.runs), (20, 10, 30, 3));
        assert_eq!(t.samples_ms, vec![10, 20, 30]);
        assert_eq!(t.describe(), "0.020 s (median of 3, 0.010-0.030) on t");
    }
}
