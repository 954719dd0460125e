//! Verifying one package end to end. The runner only emits [`Event`]s and returns a
//! [`ProblemReport`]; reporters (`report::verify`: terminal lines and table, JSON, HTML)
//! render them.
//!
//! ```text
//!   ProblemStarted ─► Check* (static) ─► [SubmissionStarted ─► Check* ─► SubmissionDone]* ─► ProblemDone
//! ```

use serde::{Deserialize, Serialize};

use super::select::Selection;
use super::submissions::{self, SubmissionResult};
use super::{jury_submissions, rel, static_checks, suggest_time_limit, Check, Status, Suggestion};
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
    /// True if no check failed (warnings allowed) and nothing was interrupted.
    pub ok: bool,
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
    pub fn new(problems: Vec<ProblemReport>, interrupted: bool) -> VerifyReport {
        VerifyReport {
            ok: !interrupted
                && problems
                    .iter()
                    .flat_map(|p| &p.checks)
                    .all(|c| c.status != Status::Fail),
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
}

/// Verifies `pkg`: the static checks, then (with a `grader`) the jury submissions (a Kattis
/// package's by its submission rules, which may also settle its time limit). `Err` when a jury
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
    // A Kattis package's jury submissions compile beside the static checks (which mostly wait
    // for short sandbox runs).
    let kattis = pkg.kattis.clone().filter(|_| grader.is_some());
    std::thread::scope(|s| {
        let compiling = grader
            .zip(kattis.as_deref())
            .map(|(g, k)| s.spawn(move || super::kattis::prepare(g, k, jobs, select)));
        let prepared = move || match compiling.map(|h| h.join()) {
            Some(Ok(p)) => p,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => anyhow::bail!("no Kattis package to prepare"),
        };
        verify_with(pkg, grader, jobs, select, on_event, prepared)
    })
}

/// [`verify_problem`], with the Kattis jury submissions compiled by `prepared`.
fn verify_with(
    pkg: &mut Package,
    grader: Option<&Grader>,
    jobs: usize,
    select: &Selection,
    on_event: &dyn Fn(Event),
    prepared: impl FnOnce() -> anyhow::Result<super::kattis::Prepared>,
) -> anyhow::Result<ProblemReport> {
    let (checks, tests) =
        static_checks(pkg, jobs).map_err(|e| anyhow::anyhow!("{}: judge error: {e}", pkg.name))?;
    let mut report = ProblemReport {
        problem: pkg.name.clone(),
        checks: Vec::new(),
        submissions: Vec::new(),
        suggested_time_limit: None,
        title: pkg.title.clone(),
        tests,
        graded: Vec::new(),
        interrupted: false,
    };
    let push = |report: &mut ProblemReport, c: Check| {
        on_event(Event::Check(&c));
        report.checks.push(c);
    };
    for c in checks {
        push(&mut report, c);
    }
    if let (Some(grader), true) = (grader, pkg.kattis.is_some()) {
        if !report.tests.is_empty() {
            let tests = report.tests.clone();
            let mut out = super::kattis::Outcome::default();
            let done = prepared().and_then(|prepared| {
                super::kattis::check(
                    grader,
                    pkg,
                    &tests,
                    jobs,
                    &|c| on_event(Event::Check(c)),
                    &mut out,
                    prepared,
                )
            });
            report.checks.append(&mut out.checks);
            report.submissions = out.results;
            report.interrupted = out.interrupted;
            match done {
                Ok(()) => {}
                // A partial report (judge asked to stop) decides nothing more.
                Err(_) if crate::interrupt::requested().is_some() => report.interrupted = true,
                Err(e) => return Err(e),
            }
        }
    } else if let Some(grader) = grader {
        let listed = jury_submissions(pkg).map(|list| {
            let total = list.len();
            let list: Vec<_> = list
                .into_iter()
                .filter(|j| select.selects(&rel(pkg, &j.path)))
                .collect();
            if let Some(c) = select.check(list.len(), total).filter(|_| total > 0) {
                push(&mut report, c);
            }
            list
        });
        match listed {
            Err(e) => push(&mut report, Check::fail("submissions", e)),
            Ok(list) if list.is_empty() && select.is_all() => push(
                &mut report,
                Check::warn("submissions", "no jury submissions under submissions/"),
            ),
            Ok(list) if !report.tests.is_empty() => {
                on_event(Event::SubmissionsStarted { count: list.len() });
                match submissions::check_all(grader, pkg, &report.tests, &list, jobs) {
                    Ok(checked) => {
                        for (jury, checked) in list.iter().zip(checked) {
                            let path = rel(pkg, &jury.path);
                            on_event(Event::SubmissionStarted { path: &path });
                            match checked {
                                Ok(checked) => {
                                    for c in checked.checks {
                                        push(&mut report, c);
                                    }
                                    on_event(Event::SubmissionDone {
                                        result: Some(&checked.result),
                                    });
                                    report.submissions.push(checked.result);
                                    report.graded.push(checked.report);
                                }
                                Err(_) if crate::interrupt::requested().is_some() => {
                                    report.interrupted = true;
                                    break;
                                }
                                Err(e) => {
                                    // A harness failure on one submission is reported, not fatal.
                                    push(
                                        &mut report,
                                        Check::fail(path, format!("could not be graded: {e:#}")),
                                    );
                                    on_event(Event::SubmissionDone { result: None });
                                }
                            }
                        }
                    }
                    Err(_) if crate::interrupt::requested().is_some() => report.interrupted = true,
                    Err(e) => push(
                        &mut report,
                        Check::fail("submissions", format!("could not be graded: {e:#}")),
                    ),
                }
            }
            Ok(_) => {}
        }
    }
    report.suggested_time_limit = suggestion(&report.submissions);
    on_event(Event::ProblemDone { report: &report });
    Ok(report)
}

/// The time limit the timed jury submissions support, if an accepted one was timed.
fn suggestion(results: &[SubmissionResult]) -> Option<Suggestion> {
    let slowest = slowest_accepted(results)?;
    let fastest_tle = results
        .iter()
        .filter(|r| r.expected == Verdict::TLE && r.actual == Verdict::TLE)
        .filter_map(|r| r.timing.as_ref().map(|t| t.median_ms))
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
