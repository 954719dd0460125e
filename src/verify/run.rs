//! Verifying one package end to end. The runner only emits [`Event`]s and returns a
//! [`ProblemReport`]; reporters (`report::verify`: terminal lines and table, JSON, HTML)
//! render them.
//!
//! ```text
//!   ProblemStarted ─► Check* (static) ─► [SubmissionStarted ─► Check* ─► SubmissionDone]* ─► ProblemDone
//! ```

use serde::{Deserialize, Serialize};

use super::select::Selection;
use super::submissions::SubmissionResult;
use super::{static_checks, suggest_time_limit, Check, Status, Suggestion};
use crate::grade::result::SubmissionReport;
use crate::grade::submission::Grader;
use crate::package::Package;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// Progress of a verification, in order.
#[derive(Debug)]
pub enum Event<'a> {
    ProblemStarted {
        name: &'a str,
        title: &'a str,
    },
    /// A check line (static checks first, then those of each jury submission).
    Check(&'a Check),
    /// The jury submissions are about to be graded.
    SubmissionsStarted {
        count: usize,
    },
    /// A jury submission is about to be graded (`path` relative to the package).
    SubmissionStarted {
        path: &'a str,
    },
    /// A jury submission was graded (`result` is `None` when it could not be).
    SubmissionDone {
        result: Option<&'a SubmissionResult>,
    },
    ProblemDone {
        report: &'a ProblemReport,
    },
}

/// The `judge verify --json` root object.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyReport {
    /// True if no check failed (warnings allowed, unless `strict`) and nothing was
    /// interrupted.
    pub ok: bool,
    /// `--strict`: a warning fails the verify too. Written only when set.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strict: bool,
    /// True when judge was stopped (SIGINT/SIGTERM) before every check ran: `problems` holds
    /// the checks done until then.
    pub interrupted: bool,
    pub problems: Vec<ProblemReport>,
    /// Only in a partial report (`--partition K/N`): which part, and what a merge needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<VerifyPartition>,
}

/// The part of the work a partial verify report covers (`judge verify --partition K/N`): the
/// problems `i` (0-based, in command-line order) with `i mod count = index - 1`, each verified
/// whole. `judge report merge` joins the parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyPartition {
    /// 1-based part number.
    pub index: u32,
    /// Number of parts.
    pub count: u32,
    /// Every problem argument of the whole run, in command-line order.
    pub plan: Vec<String>,
}

impl VerifyReport {
    /// The report of these problems: `ok` when no check failed, nor (when `strict`) warned.
    pub fn new(problems: Vec<ProblemReport>, interrupted: bool, strict: bool) -> VerifyReport {
        VerifyReport {
            ok: !interrupted
                && problems
                    .iter()
                    .flat_map(|p| &p.checks)
                    .all(|c| c.status == Status::Ok || (c.status == Status::Warn && !strict)),
            strict,
            interrupted,
            problems,
            partition: None,
        }
    }

    /// How many checks have status `s`.
    pub fn count(&self, s: Status) -> usize {
        self.problems
            .iter()
            .flat_map(|p| &p.checks)
            .filter(|c| c.status == s)
            .count()
    }
}

/// What verifying one package found.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemReport {
    pub problem: String,
    pub checks: Vec<Check>,
    pub submissions: Vec<SubmissionResult>,
    pub suggested_time_limit: Option<Suggestion>,
    /// The package title (for reports; not in the JSON).
    #[serde(skip)]
    pub title: String,
    /// The test set (for the HTML report; not in the JSON).
    #[serde(skip)]
    pub tests: Vec<TestCase>,
    /// The grading report of each graded jury submission, as in `submissions`.
    #[serde(skip)]
    pub graded: Vec<SubmissionReport>,
    /// Stopped by SIGINT/SIGTERM before every check ran (reported on the root object).
    #[serde(skip)]
    pub interrupted: bool,
    /// Where the verify's wall time went. Absent from reports of judges before it.
    #[serde(default)]
    pub time: TimeSpent,
}

/// Where the verify of one package spent its wall time, in milliseconds (`time` in
/// `judge verify --json`). The phases follow one another, but for the compiles of the jury
/// submissions, which run beside the static checks; what is left of `total_ms` is loading
/// the package and judging the results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpent {
    /// The whole verify of the package.
    pub total_ms: u64,
    /// The static checks: the validator on every input, invalid inputs, the checker on the
    /// answers and mutated ones, the generators (the jury submissions compile meanwhile).
    pub static_checks_ms: u64,
    /// Waiting for the jury submissions' compiles after the static checks.
    pub compile_wait_ms: u64,
    /// Jury submissions compiled (not taken from the cache)...
    pub compiles: u32,
    /// ... and their compile times summed: on several cores, more than the wall time the
    /// compiles span.
    pub compile_time_ms: u64,
    /// The jury submissions' runs on `--jobs` threads at once, with the re-runs alone that
    /// confirm a result seen beside other runs.
    pub runs_ms: u64,
    /// Timing, one run alone at a time: the repeated runs of the slowest accepted
    /// submissions, and the must-TLE submissions' runs at the raised limit.
    pub timing_ms: u64,
}

impl TimeSpent {
    /// `31.6 s: static checks 1.8 s, waiting for 22 compiles 5.5 s, runs 14.3 s, timing
    /// alone 10.0 s` (the phases that took any time).
    pub fn describe(&self) -> String {
        let s = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
        let compiles = match self.compiles {
            1 => "waiting for 1 compile".to_string(),
            n => format!("waiting for {n} compiles"),
        };
        let parts: Vec<String> = [
            ("static checks", self.static_checks_ms),
            (compiles.as_str(), self.compile_wait_ms),
            ("runs", self.runs_ms),
            ("timing alone", self.timing_ms),
        ]
        .into_iter()
        .filter(|&(_, ms)| ms >= 50)
        .map(|(what, ms)| format!("{what} {}", s(ms)))
        .collect();
        match parts.is_empty() {
            true => s(self.total_ms),
            false => format!("{}: {}", s(self.total_ms), parts.join(", ")),
        }
    }
}

/// Milliseconds of `d`.
fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Verifies `pkg`: the static checks, then (with a `grader`) the jury submissions, each by
/// what its package says it must get (which may also settle the time limit). `Err` when a jury
/// program of the package fails (a judge error) or the harness cannot run.
pub fn verify_problem(
    pkg: &mut Package,
    grader: Option<&Grader>,
    jobs: usize,
    select: &Selection,
    on_event: &dyn Fn(Event),
) -> anyhow::Result<ProblemReport> {
    on_event(Event::ProblemStarted {
        name: &pkg.name,
        title: &pkg.title,
    });
    // The jury submissions compile beside the static checks (which mostly wait for short
    // sandbox runs).
    let listed = pkg.jury_submissions();
    let included = pkg.included();
    std::thread::scope(|s| {
        let compiling = grader
            .map(|g| s.spawn(move || super::jury::prepare(g, &included, listed, jobs, select)));
        let prepared = move || match compiling.map(|h| h.join()) {
            Some(Ok(p)) => p,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => anyhow::bail!("no grader to prepare the jury submissions with"),
        };
        verify_with(pkg, grader, jobs, on_event, prepared)
    })
}

/// [`verify_problem`], with the jury submissions compiled by `prepared`.
fn verify_with(
    pkg: &mut Package,
    grader: Option<&Grader>,
    jobs: usize,
    on_event: &dyn Fn(Event),
    prepared: impl FnOnce() -> anyhow::Result<super::jury::Prepared>,
) -> anyhow::Result<ProblemReport> {
    let start = std::time::Instant::now();
    let (mut checks, tests) =
        static_checks(pkg, jobs).map_err(|e| anyhow::anyhow!("{}: judge error: {e}", pkg.name))?;
    let mut time = TimeSpent {
        static_checks_ms: ms(start.elapsed()),
        ..TimeSpent::default()
    };
    if let Err(e) = pkg.settle_scoring(&tests) {
        checks.push(Check::fail("subtasks", e));
    }
    let mut report = ProblemReport {
        problem: pkg.name.clone(),
        checks: Vec::new(),
        submissions: Vec::new(),
        suggested_time_limit: None,
        title: pkg.title.clone(),
        tests,
        graded: Vec::new(),
        interrupted: false,
        time: TimeSpent::default(),
    };
    for c in checks {
        on_event(Event::Check(&c));
        report.checks.push(c);
    }
    if let Some(grader) = grader.filter(|_| !report.tests.is_empty()) {
        let tests = report.tests.clone();
        let mut out = super::jury::Outcome::default();
        let waited = std::time::Instant::now();
        let done = prepared().and_then(|prepared| {
            time.compile_wait_ms = ms(waited.elapsed());
            for (_, c) in prepared
                .compiled
                .iter()
                .flatten()
                .filter(|(_, c)| !c.cached)
            {
                time.compiles += 1;
                time.compile_time_ms += ms(c.compile_time);
            }
            super::jury::check(grader, pkg, &tests, jobs, on_event, &mut out, prepared)
        });
        time.runs_ms = ms(out.runs);
        time.timing_ms = ms(out.timing);
        report.checks.append(&mut out.checks);
        report.submissions = out.results;
        report.graded = out.graded;
        report.interrupted = out.interrupted;
        match done {
            Ok(()) => {}
            // A partial report (judge asked to stop) decides nothing more.
            Err(_) if crate::interrupt::requested().is_some() => report.interrupted = true,
            Err(e) => return Err(e),
        }
    }
    report.suggested_time_limit = suggestion(&report.submissions);
    time.total_ms = ms(start.elapsed());
    report.time = time;
    on_event(Event::ProblemDone { report: &report });
    Ok(report)
}

/// The time limit the timed jury submissions support, if an accepted one was timed.
fn suggestion(results: &[SubmissionResult]) -> Option<Suggestion> {
    let slowest = slowest_accepted(results)?;
    let fastest_tle = results
        .iter()
        .filter(|r| r.expected == Verdict::TLE && r.actual == Verdict::TLE)
        // Its margin's figure when it has one: a later test that times out far, or the wall
        // time of one that waits (which no time limit lets through).
        .filter_map(|r| {
            r.margin
                .as_ref()
                .map(|m| m.slowest_ms)
                .or(r.timing.as_ref().map(|t| t.median_ms))
        })
        .min();
    Some(suggest_time_limit(slowest, fastest_tle, 100))
}

/// The median of the slowest timed accepted submission, in ms.
fn slowest_accepted(results: &[SubmissionResult]) -> Option<u64> {
    results
        .iter()
        .filter(|r| r.expected == Verdict::AC && r.actual == Verdict::AC)
        .filter_map(|r| r.timing.as_ref().map(|t| t.median_ms))
        .max()
}
