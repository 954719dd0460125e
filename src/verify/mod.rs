//! Package verification: everything a problem setter must know before a contest.
//!
//! Static checks (package, statement, validator, generators, checker) need no compiler; the
//! jury submissions are graded in the sandbox and must get the verdict their folder names;
//! accepted and TLE submissions are timed over repeated runs.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::grade::TestResult;
use crate::kattis::submissions::Seen;
use crate::kattis::timelimit::secs;
use crate::package::Package;
use crate::problems::{GenParams, Judgement, JuryError, Problem};
use crate::testset::{self, Origin, TestCase};
use crate::text::{agree, all, count};
use crate::verdict::Verdict;

mod fault;
pub mod kattis;
pub mod run;
pub mod select;
pub mod statement;
pub mod submissions;
pub mod timelimit;

pub use fault::{Fault, Faulty};

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
}

/// The static checks: package, statement, test data, validator, generators, checker; the
/// validator and checker runs on `jobs` threads. Returns the checks and the test set (empty
/// if it could not be built); `Err` when a jury program (validator, checker, reference
/// solver) failed: the package is broken, and no check after it means anything.
pub fn static_checks(pkg: &Package, jobs: usize) -> Result<(Vec<Check>, Vec<TestCase>), JuryError> {
    let mut checks = Vec::new();
    let manifest = if pkg.kattis.is_some() {
        "problem.yaml"
    } else {
        "problem.toml"
    };
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
    if let Some(k) = &pkg.kattis {
        checks.extend(k.notes.iter().map(|n| Check::warn("package", n.clone())));
    }
    checks.push(match &pkg.kattis {
        Some(k) => statement::check_kattis_statement(k),
        None => statement::check_samples(pkg),
    });
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
    if !logic.generators().is_empty() || !pkg.groups.is_empty() {
        checks.push(check_generators(pkg));
    }
    match &pkg.kattis {
        Some(k) if k.config.interactive => checks.push(Check::ok(
            "checker",
            "interactive: the validator judges each run as it happens (answers are not checked alone)",
        )),
        _ => checks.push(check_answers(logic, &tests, jobs)?),
    }
    // A Kattis package offers no answer mutations.
    if pkg.kattis.is_none() {
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
    let dir = pkg.dir.join("data/invalid_input");
    let files = match &pkg.kattis {
        // Nested folders too, each file with its folder's validator arguments.
        Some(k) => k
            .data
            .invalid_inputs
            .iter()
            .map(|c| c.input.clone())
            .collect(),
        None => match testset::input_files(&dir) {
            Ok(f) => f,
            Err(e) => return Ok(Check::fail("invalid inputs", e.to_string())),
        },
    };
    if files.is_empty() && pkg.kattis.is_some() {
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
    let accepted = first_hit(&files, jobs, |f| {
        let bytes = match std::fs::read(f) {
            Ok(bytes) => bytes,
            Err(e) => return Some(Ok(format!("{}: {e}", f.display()))),
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
    if let Some(found) = rejected {
        return Ok(Check::fail("checker", found?));
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

/// Timing statistics over repeated runs of one test.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// The test that was timed.
    pub test: String,
    pub runs: u32,
    pub median_ms: u64,
    pub min_ms: u64,
    pub max_ms: u64,
    /// True if at least one run hit the (raised) limit, so the figures are lower bounds.
    pub capped: bool,
    /// Every run's CPU time, sorted.
    pub samples_ms: Vec<u64>,
    /// The runs asked for; more than `runs` when the median was certain to be at the raised
    /// limit before the last run (the remaining runs could not change any figure but `max`).
    #[serde(skip)]
    pub planned: u32,
}

impl Timing {
    pub fn from_samples(test: &str, mut samples: Vec<Duration>, capped: bool) -> Timing {
        samples.sort();
        let ms = |d: &Duration| d.as_millis() as u64;
        Timing {
            test: test.to_string(),
            runs: samples.len() as u32,
            median_ms: samples.get(samples.len() / 2).map(ms).unwrap_or(0),
            min_ms: samples.first().map(ms).unwrap_or(0),
            max_ms: samples.last().map(ms).unwrap_or(0),
            capped,
            samples_ms: samples.iter().map(ms).collect(),
            planned: samples.len() as u32,
        }
    }

    /// `0.412 s (median of 5, 0.405-0.431) on large-03`; `> 1.601 s (median of 3, at the raised
    /// limit after 2 runs, 1.601-1.603) on sample-2` when the timing stopped early.
    pub fn describe(&self) -> String {
        let s = |ms: u64| format!("{:.3}", ms as f64 / 1000.0);
        let over = if self.capped { "> " } else { "" };
        if self.planned == 1 {
            return format!("{over}{} s (one run) on {}", s(self.median_ms), self.test);
        }
        if self.runs < self.planned {
            return format!(
                "> {} s (median of {}, at the raised limit after {} runs, {}-{}) on {}",
                s(self.median_ms),
                self.planned,
                self.runs,
                s(self.min_ms),
                s(self.max_ms),
                self.test
            );
        }
        format!(
            "{over}{} s (median of {}, {}-{}) on {}",
            s(self.median_ms),
            self.runs,
            s(self.min_ms),
            s(self.max_ms),
            self.test
        )
    }
}

/// The limits a must-TLE submission runs under so that one run tells both its verdict at
/// `limits` (read through [`View::Raised`]) and whether it still times out at CPU `high`:
/// the CPU limit raised to `high`, the wall-clock backstop (time not running) left at the
/// limit's. A sleeping or blocked program is then stopped when it would be at the limit, and
/// one that is not stopped there would not be at the limit either; a CPU-bound one reaches
/// `high` before that backstop (`high` within it). `None` when `high` is past the backstop:
/// such a submission runs at the limit and is re-timed at `high` as before.
pub(crate) fn read_at_limit(
    limits: &crate::sandbox::Limits,
    high: Duration,
) -> Option<crate::sandbox::Limits> {
    (high <= limits.wall_time).then(|| crate::sandbox::Limits {
        cpu_time: high,
        ..limits.clone()
    })
}

/// Whether a run under [`read_at_limit`]'s limits was stopped by its raised CPU limit `high`
/// (so it is still a TLE there), not by the wall-clock backstop (which says nothing about
/// `high`: it is re-timed at `high`'s own limits).
pub(crate) fn stopped_at_high(t: &TestResult, high: Duration) -> bool {
    t.verdict == Verdict::TLE && Duration::from_millis(t.time_ms) >= high
}

/// How the verdicts at the time limit are read from a submission's runs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum View {
    /// Run at `limit`, or at a higher measuring limit: an AC over `limit` is a TLE.
    At(Duration),
    /// Run at `high` (the limit x `time_limit_to_tle`) under [`read_at_limit`]'s limits: a
    /// run over `limit` is a TLE at the limit, as problemtools reads it (one stopped by the
    /// backstop is one anyway); the run itself says whether it is still one at `high` (see
    /// [`stopped_at_high`]).
    Raised { limit: Duration, high: Duration },
}

impl View {
    /// The time limit the verdicts are read at.
    pub(crate) fn limit(&self) -> Duration {
        match *self {
            View::At(limit) | View::Raised { limit, .. } => limit,
        }
    }

    /// The CPU time from which a run beside others is over the limit alone too (see
    /// [`crate::grade::LOAD_CPU_FACTOR`]): for a raised run only, whose CPU limit is past it
    /// (a run at the limit is stopped there, a time no load can vouch for).
    pub(crate) fn trusted_from(&self) -> Option<Duration> {
        match *self {
            View::At(_) => None,
            View::Raised { limit, .. } => Some(limit.mul_f64(crate::grade::LOAD_CPU_FACTOR)),
        }
    }

    pub(crate) fn see<'a>(&self, t: &'a TestResult) -> Seen<'a> {
        let over = |limit: Duration| Duration::from_millis(t.time_ms) > limit;
        let (verdict, message) = match *self {
            View::At(limit) if t.verdict == Verdict::AC && over(limit) => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "{:.3} s over the {} limit",
                    t.time_ms as f64 / 1000.0,
                    secs(limit)
                )),
            ),
            View::Raised { limit, high } if t.verdict == Verdict::TLE => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "over the {} limit; with the limit raised to {}: {}",
                    secs(limit),
                    secs(high),
                    t.message
                )),
            ),
            View::Raised { limit, high } if t.verdict != Verdict::JE && over(limit) => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "{:.3} s over the {} limit (finished within {})",
                    t.time_ms as f64 / 1000.0,
                    secs(limit),
                    secs(high)
                )),
            ),
            _ => (t.verdict, Cow::Borrowed(t.message.as_str())),
        };
        Seen {
            test: &t.name,
            verdict,
            message,
        }
    }
}

/// A jury submission found under `submissions/<expected>/`.
#[derive(Debug, Clone)]
pub struct JurySubmission {
    pub path: PathBuf,
    pub expected: Verdict,
}

/// The jury submissions of a package, sorted by path; unknown folders are reported as errors.
pub fn jury_submissions(pkg: &Package) -> Result<Vec<JurySubmission>, String> {
    let root = pkg.dir.join("submissions");
    let Ok(folders) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for folder in folders.filter_map(|e| e.ok()) {
        if !folder.path().is_dir() || crate::fsutil::is_tool_litter(&folder.file_name()) {
            continue;
        }
        let name = folder.file_name().to_string_lossy().into_owned();
        let Some(expected) = Verdict::from_folder(&name) else {
            return Err(format!(
                "submissions/{name}: unknown folder (use accepted, wrong_answer, time_limit_exceeded, memory_limit_exceeded, run_time_error, output_limit_exceeded, compile_error)"
            ));
        };
        let files = std::fs::read_dir(folder.path()).map_err(|e| e.to_string())?;
        for f in files.filter_map(|e| e.ok()) {
            let path = f.path();
            if path.is_file()
                && !crate::fsutil::is_tool_litter(&f.file_name())
                && crate::compile::Language::from_path(&path).is_some()
            {
                out.push(JurySubmission { path, expected });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The time limit the accepted submissions support, as problemtools and BAPCtools derive it:
/// slowest accepted x 2, rounded up to `resolution`; it must stay below fastest TLE / 1.5.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suggestion {
    pub time_limit_ms: u64,
    pub slowest_accepted_ms: u64,
    /// Fastest TLE submission time (lower bound if capped), if any.
    pub fastest_tle_ms: Option<u64>,
    /// False if slowest x 2 is not below fastest TLE / 1.5: no limit separates them safely.
    pub consistent: bool,
}

pub fn suggest_time_limit(
    slowest_ac_ms: u64,
    fastest_tle_ms: Option<u64>,
    resolution_ms: u64,
) -> Suggestion {
    let raw = slowest_ac_ms.saturating_mul(2).max(1);
    let limit = raw.div_ceil(resolution_ms) * resolution_ms;
    let consistent = fastest_tle_ms.is_none_or(|t| (limit as f64) < t as f64 / 1.5);
    Suggestion {
        time_limit_ms: limit,
        slowest_accepted_ms: slowest_ac_ms,
        fastest_tle_ms,
        consistent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn tool_litter_is_not_a_jury_submission() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = tmp.path().join("magic-square");
        let copied = std::process::Command::new("cp")
            .arg("-r")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square"))
            .arg(&pkg)
            .status()
            .unwrap();
        assert!(copied.success());
        let before = jury_submissions(&Package::load(&pkg).unwrap()).unwrap();
        for litter in [
            "__pycache__/forced.cpython-311.pyc",
            "accepted/.forced.py.swp",
            "accepted/.hidden.py",
            "wrong_answer/rows_only.py~",
        ] {
            let path = pkg.join("submissions").join(litter);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "litter").unwrap();
        }
        let after = jury_submissions(&Package::load(&pkg).unwrap()).unwrap();
        let paths = |l: &[JurySubmission]| l.iter().map(|s| s.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&after), paths(&before));
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
