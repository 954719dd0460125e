//! Jury submissions: each must get the verdict its folder names; accepted and TLE ones are
//! timed over repeated runs.

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{rel, Check, JurySubmission, Timing};
use crate::compile::Submission;
use crate::grade::submission::{limits_for, program, Grader};
use crate::grade::{run_tests, Options, TestResult};
use crate::package::Package;
use crate::report::SubmissionReport;
use crate::testset::TestCase;
use crate::text::{all, count};
use crate::verdict::Verdict;

/// Runs of the slowest accepted test when timing.
pub const TIMING_RUNS: u32 = 5;
/// Runs of the first TLE test (each can cost the raised limit).
pub const TLE_TIMING_RUNS: u32 = 3;
/// TLE tests are re-timed with the CPU limit raised by at most this factor (see
/// [`tle_timing_limit`] for when less decides the same).
pub const TLE_MEASURE_FACTOR: u32 = 3;

/// The raised CPU limit for timing a TLE submission: the least time past which no figure
/// verify derives from the timing can change, at most [`TLE_MEASURE_FACTOR`] x `limit`.
///
/// The timing decides two things: the warning for a TLE submission that finishes within
/// 1.5x the limit, and (with the accepted submissions' slowest time, which is known first:
/// `accepted/` sorts before `time_limit_exceeded/`) whether the suggested time limit stays
/// below fastest TLE / 1.5. A run stopped at 1.5x the larger of the two limits, plus a
/// 0.1 s margin, is above both thresholds, so a longer run would decide the same; it only
/// costs time. Without a timed accepted submission the full factor is used.
pub fn tle_timing_limit(limit: Duration, slowest_accepted: Option<Duration>) -> Duration {
    let full = limit * TLE_MEASURE_FACTOR;
    let Some(slowest) = slowest_accepted else {
        return full;
    };
    let suggested = super::suggest_time_limit(slowest.as_millis() as u64, None, 100);
    let decisive = limit.max(Duration::from_millis(suggested.time_limit_ms));
    let enough = decisive.mul_f64(1.5) + Duration::from_millis(100);
    // Rounded up to 0.1 s, as the figures it is compared with.
    let enough = Duration::from_millis((enough.as_millis() as u64).div_ceil(100) * 100);
    enough.min(full)
}

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
    slowest_accepted: Option<Duration>,
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
            let raised = tle_timing_limit(limits.cpu_time, slowest_accepted);
            let factor = raised.as_secs_f64() / limits.cpu_time.as_secs_f64().max(1e-9);
            limits.wall_time = limits.wall_time.mul_f64(factor);
            limits.cpu_time = raised;
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

/// Whether an accepted submission whose slowest test took `seen` (its one run while grading,
/// beside other runs) must be re-timed alone, when the slowest timed accepted median so far is
/// `slowest`: not when it took under half of that. The time limit, its check and the suggested
/// limit only depend on the slowest accepted submission, and a run beside others is never much
/// faster than alone (measured on the shipped packages: 0.75x to 1.4x the median of 5 runs
/// alone), so under half the slowest median it cannot be the slowest. The first (the slowest
/// seen) is always timed.
pub fn needs_timing(seen: &TestResult, slowest: Option<Duration>) -> bool {
    slowest
        .is_none_or(|m| Duration::from_millis(seen.time_ms) * 2 >= m.max(Duration::from_millis(1)))
}

/// The timing of a test from its one run (not re-timed, or stopped by a limit).
pub fn one_run(seen: &TestResult) -> Timing {
    let mut timing = Timing::from_samples(
        &seen.name,
        vec![Duration::from_millis(seen.time_ms)],
        seen.verdict == Verdict::TLE,
    );
    timing.planned = 1;
    timing
}

/// Runs `test` alone up to `runs` times (CPU time). Once enough runs hit the limit that the
/// median is certain to be at it, the rest are not run: they could not change the median
/// (reported as a lower bound, the least of those capped runs).
pub(crate) fn time_runs(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    test: &TestCase,
    runs: u32,
) -> Result<Timing> {
    let mut samples = Vec::new();
    // The CPU times of the runs stopped by a limit (a wall-clock stop can leave one below the
    // CPU limit, so they are kept apart rather than assumed to be the largest samples).
    let mut capped = Vec::new();
    // The median is the element `runs / 2` of the sorted times: once this many runs were
    // stopped by a limit (each would have taken at least its time), it is at least the least
    // of their times, whatever the remaining runs take.
    let decisive = runs - runs / 2;
    for _ in 0..runs {
        if capped.len() as u32 >= decisive {
            break;
        }
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
            if r.verdict == Verdict::TLE {
                capped.push(r.time_ms);
            }
            samples.push(Duration::from_millis(r.time_ms));
        }
    }
    let stopped_early = samples.len() < runs as usize;
    let mut timing = Timing::from_samples(&test.name, samples, !capped.is_empty());
    timing.planned = runs;
    if stopped_early {
        // A majority of the runs were stopped by a limit, so the median of all `runs` would
        // be at least the least of them: a lower bound, as `capped` says.
        timing.median_ms = capped.iter().copied().min().unwrap_or(timing.median_ms);
    }
    Ok(timing)
}

pub(crate) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn tle_timing_stops_where_nothing_verify_reports_can_change() {
        // Suggested 0.1 s: the warning's 1.5 s decides, plus the margin.
        assert_eq!(tle_timing_limit(ms(1000), Some(ms(5))), ms(1600));
        // Suggested 0.6 s (0.28 s x 2, rounded up): still the warning's threshold.
        assert_eq!(tle_timing_limit(ms(1000), Some(ms(280))), ms(1600));
        // Suggested 1.5 s: fastest TLE must exceed 2.25 s for the suggestion to hold.
        assert_eq!(tle_timing_limit(ms(1000), Some(ms(750))), ms(2400));
        // Never above the full factor; the full factor without an accepted timing.
        assert_eq!(tle_timing_limit(ms(1000), Some(ms(1400))), ms(3000));
        assert_eq!(tle_timing_limit(ms(1000), None), ms(3000));
        assert_eq!(tle_timing_limit(ms(250), Some(ms(1))), ms(500));
    }

    #[test]
    fn a_capped_tle_run_decides_the_warning_and_the_suggestion_as_a_longer_one_would() {
        for (limit, slowest) in [(1000, 5), (1000, 280), (1000, 750), (2000, 900), (300, 40)] {
            let cap = tle_timing_limit(ms(limit), Some(ms(slowest))).as_millis() as u64;
            // A run stopped at the cap: no warning (not within 1.5x the limit) ...
            assert!(cap as f64 >= 1.5 * limit as f64, "{limit} {slowest}");
            // ... and the suggestion is consistent, as with any longer run.
            let s = crate::verify::suggest_time_limit(slowest, Some(cap), 100);
            assert!(s.consistent, "{limit} {slowest}: {s:?}");
        }
    }
}
