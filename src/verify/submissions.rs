//! Jury submissions: each must get the verdict its folder names; accepted and TLE ones are
//! timed over repeated runs.

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{rel, Check, JurySubmission, Timing};
use crate::compile::Submission;
use crate::grade::submission::{limits_for, program, Grader};
use crate::grade::{run_tests, Options};
use crate::package::Package;
use crate::report::SubmissionReport;
use crate::testset::TestCase;
use crate::text::{all, count};
use crate::verdict::Verdict;

/// Runs of the slowest accepted test when timing.
pub const TIMING_RUNS: u32 = 5;
/// Runs of the first TLE test (each can cost the raised limit).
pub const TLE_TIMING_RUNS: u32 = 3;
/// TLE tests are re-timed with the CPU limit raised by this factor.
pub const TLE_MEASURE_FACTOR: u32 = 3;

/// The outcome for one jury submission.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionResult {
    /// Path relative to the package.
    pub path: String,
    pub expected: Verdict,
    pub actual: Verdict,
    /// For accepted submissions: the slowest test; for TLE ones: the first TLE test, re-run
    /// with a raised limit.
    pub timing: Option<Timing>,
}

/// What grading one jury submission found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its report lines.
    pub checks: Vec<Check>,
    pub result: SubmissionResult,
    /// The grading report (tests run, first failure) for the HTML report and the table.
    pub report: SubmissionReport,
}

/// Grades one jury submission and returns its report lines.
pub fn check(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    jury: &JurySubmission,
    jobs: usize,
) -> Result<Checked> {
    let name = rel(pkg, &jury.path);
    let submission = Submission::from_path(&jury.path, None)?;
    // Accepted submissions run every test; rejected ones stop at the first failure.
    let options = Options {
        jobs,
        all: jury.expected == Verdict::AC,
        ..Options::default()
    };
    let compiled = grader.compile(&submission)?;
    let report = grader.grade_compiled(pkg, &submission, &compiled, tests, &options, &|_| {})?;
    // A partial report (judge asked to stop) decides nothing: the caller stops.
    crate::interrupt::check()?;
    let Some(actual) = report.verdict else {
        anyhow::bail!("grading {name} gave no verdict");
    };
    let compile_message = report.compile.as_ref().map_or("", |c| c.message.as_str());
    let mut result = SubmissionResult {
        path: name.clone(),
        expected: jury.expected,
        actual,
        timing: None,
    };
    let mut checks = Vec::new();
    let limit = Duration::from_millis(report.limits.time_ms);
    let first_bad = report.tests.iter().find(|t| t.verdict != Verdict::AC);
    if actual != jury.expected {
        let detail = match (first_bad, actual) {
            (_, Verdict::CE) => format!(": {}", first_line(compile_message)),
            (Some(t), _) => format!(" on test `{}`: {}", t.name, t.message),
            (None, _) => format!(" ({} passed)", all(report.tests.len(), "test")),
        };
        checks.push(Check::fail(
            name,
            format!("expected {}, got {actual}{detail}", jury.expected),
        ));
        return Ok(Checked {
            checks,
            result,
            report,
        });
    }
    let mut limits = limits_for(pkg, &compiled);
    match jury.expected {
        Verdict::AC => {
            let Some(slowest) = report.tests.iter().max_by_key(|t| t.time_ms) else {
                checks.push(Check::ok(name, "AC (no tests)"));
                return Ok(Checked {
                    checks,
                    result,
                    report,
                });
            };
            let test = tests.iter().find(|t| t.name == slowest.name);
            let timing = match (test, program(&compiled, &limits)) {
                (Some(test), Some(prog)) => {
                    Some(time_runs(grader, pkg, &prog, &limits, test, TIMING_RUNS)?)
                }
                _ => None,
            };
            let mut status = Check::ok(
                name.clone(),
                format!(
                    "AC on {}, slowest {} of {:.3} s",
                    count(report.tests.len(), "test"),
                    timing.as_ref().map(Timing::describe).unwrap_or_default(),
                    limit.as_secs_f64()
                ),
            );
            if let Some(t) = &timing {
                if Duration::from_millis(t.median_ms) * 2 > limit {
                    status = Check::warn(
                        name,
                        format!(
                            "AC, but its slowest test takes {} — above half the {:.3} s limit (time-limit sensitive)",
                            t.describe(),
                            limit.as_secs_f64()
                        ),
                    );
                }
            }
            checks.push(status);
            result.timing = timing;
        }
        Verdict::TLE => {
            let bad = first_bad.map(|t| t.name.clone()).unwrap_or_default();
            limits.cpu_time *= TLE_MEASURE_FACTOR;
            limits.wall_time *= TLE_MEASURE_FACTOR;
            let test = tests.iter().find(|t| t.name == bad);
            let timing = match (test, program(&compiled, &limits)) {
                (Some(test), Some(prog)) => Some(time_runs(
                    grader,
                    pkg,
                    &prog,
                    &limits,
                    test,
                    TLE_TIMING_RUNS,
                )?),
                _ => None,
            };
            let mut status = Check::ok(
                name.clone(),
                format!(
                    "TLE; its first TLE test takes {} against the {:.3} s limit",
                    timing.as_ref().map(Timing::describe).unwrap_or_default(),
                    limit.as_secs_f64()
                ),
            );
            if let Some(t) = &timing {
                if !t.capped
                    && Duration::from_millis(t.median_ms).as_secs_f64() < 1.5 * limit.as_secs_f64()
                {
                    status = Check::warn(
                        name,
                        format!(
                            "TLE, but finishes in {} — within 1.5x the {:.3} s limit (time-limit sensitive)",
                            t.describe(),
                            limit.as_secs_f64()
                        ),
                    );
                }
            }
            checks.push(status);
            result.timing = timing;
        }
        v => {
            let at = first_bad
                .map(|t| format!(" on test `{}`: {}", t.name, t.message))
                .unwrap_or_default();
            checks.push(Check::ok(name, format!("{v}{at}")));
        }
    }
    Ok(Checked {
        checks,
        result,
        report,
    })
}

/// Runs `test` alone `runs` times (CPU time).
pub(crate) fn time_runs(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    test: &TestCase,
    runs: u32,
) -> Result<Timing> {
    let mut samples = Vec::new();
    let mut capped = false;
    for _ in 0..runs {
        let r = run_tests(
            grader.sandbox.as_ref(),
            prog,
            limits,
            std::slice::from_ref(test),
            pkg.logic.as_ref(),
            &Options::default(),
            &|_| {},
        )?
        .complete()?;
        if let Some(r) = r.first() {
            // A timing the machine could not give (overloaded) is not a figure to report.
            if r.verdict == Verdict::JE {
                anyhow::bail!("cannot time test `{}`: {}", test.name, r.message);
            }
            capped |= r.verdict == Verdict::TLE;
            samples.push(Duration::from_millis(r.time_ms));
        }
    }
    Ok(Timing::from_samples(&test.name, samples, capped))
}

pub(crate) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
