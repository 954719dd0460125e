//! Jury submissions: each must get the verdict its folder names; accepted and TLE ones are
//! timed over repeated runs.

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{read_at_limit, rel, stopped_at_high, Check, JurySubmission, Timing, View};
use crate::compile::{Compiled, Submission};
use crate::grade::result::SubmissionReport;
use crate::grade::submission::{limits_for, program, report, Grader};
use crate::grade::{run_decided, run_tests, Goal, Options, Plan, Program, TestResult, TestRun};
use crate::package::Package;
use crate::sandbox::Limits;
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
/// 1.5x the limit, and (with the accepted submissions' slowest time) whether the suggested
/// time limit stays below fastest TLE / 1.5. A run stopped at 1.5x the larger of the two
/// limits, plus a 0.1 s margin, is above both thresholds, so a longer run would decide the
/// same; it only costs time. Without a timed accepted submission the full factor is used. TLE
/// submissions run at the least of these (`slowest_accepted` zero) before the accepted ones
/// are timed; a higher one only repeats the timing of their first TLE test.
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

/// A jury submission, compiled, on its way through [`check_all`].
struct Entry<'a> {
    jury: &'a JurySubmission,
    submission: Submission,
    compiled: Compiled,
    /// The limits its tests run under (raised for a TLE one, read through `view`).
    limits: Limits,
    view: View,
    /// The raised CPU limit its first TLE test is timed at (a TLE one).
    timing_limit: Duration,
    /// Its results as run, the report covers them (in test order).
    raw: Vec<TestResult>,
}

impl Entry<'_> {
    fn program(&self) -> Option<Program> {
        program(&self.compiled, &self.limits)
    }

    /// The results at the time limit (through `view`) and the verdict.
    fn at_limit(&self) -> (Vec<TestResult>, Verdict) {
        if !self.compiled.is_ok() {
            return (Vec::new(), Verdict::CE);
        }
        let seen: Vec<TestResult> = self
            .raw
            .iter()
            .map(|t| {
                let s = self.view.see(t);
                TestResult {
                    verdict: s.verdict,
                    message: s.message.into_owned(),
                    ..t.clone()
                }
            })
            .collect();
        let verdict = seen
            .iter()
            .map(|t| t.verdict)
            .find(|v| *v != Verdict::AC)
            .unwrap_or(Verdict::AC);
        (seen, verdict)
    }
}

/// `limits` with the CPU limit raised to `high`, the wall clock by as much.
fn raised(limits: &Limits, high: Duration) -> Limits {
    let factor = high.as_secs_f64() / limits.cpu_time.as_secs_f64().max(1e-9);
    Limits {
        cpu_time: high,
        wall_time: limits.wall_time.mul_f64(factor),
        ..limits.clone()
    }
}

/// A test plan's goal read through a [`View`]: every test (`all`), or up to the first test
/// that fails at the time limit.
struct FirstFailure {
    view: View,
    all: bool,
}

impl Goal for FirstFailure {
    fn decided(&self, results: &[Option<TestResult>]) -> Option<usize> {
        let mut k = 0;
        for r in results {
            let r = r.as_ref()?;
            k += 1;
            if !self.all && self.view.see(r).verdict != Verdict::AC {
                break;
            }
        }
        Some(k)
    }

    fn horizon(&self, results: &[Option<TestResult>]) -> usize {
        if self.all {
            return results.len();
        }
        results
            .iter()
            .position(|r| {
                r.as_ref()
                    .is_some_and(|r| self.view.see(r).verdict != Verdict::AC)
            })
            .map_or(results.len(), |i| i + 1)
    }
}

/// Runs the tests of `entries` in one pool (accepted ones on every test, the others up to their
/// first failure) and stores the results each report covers. `Err` when the harness cannot
/// run, or judge was asked to stop.
fn run_entries(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    entries: &mut [&mut Entry],
    jobs: usize,
) -> Result<()> {
    let programs: Vec<Option<Program>> = entries.iter().map(|e| e.program()).collect();
    let goals: Vec<FirstFailure> = entries
        .iter()
        .map(|e| FirstFailure {
            view: e.view,
            all: e.jury.expected == Verdict::AC,
        })
        .collect();
    let which: Vec<usize> = (0..entries.len())
        .filter(|&i| programs[i].is_some())
        .collect();
    let plans: Vec<Plan> = which
        .iter()
        .filter_map(|&i| {
            let e = &entries[i];
            Some(Plan {
                program: programs[i].as_ref()?,
                limits: &e.limits,
                tests,
                goal: &goals[i],
                suspect_from: e.view.limit().mul_f64(Options::default().rerun_fraction),
                // A TLE one's runs far over the limit are TLEs at the limit whatever ran
                // beside them; its first TLE is confirmed alone at its raised limit when timed.
                trusted_from: e.view.trusted_from(),
            })
        })
        .collect();
    let (covered, interrupted) =
        run_decided(grader.sandbox.as_ref(), pkg.logic.as_ref(), &plans, jobs)?;
    if let Some(stop) = interrupted {
        return Err(stop.into());
    }
    drop(plans);
    for (i, rs) in which.into_iter().zip(covered) {
        entries[i].raw = rs;
    }
    Ok(())
}

/// Grades every jury submission of `list` and returns their report lines, in order (a
/// submission the harness could not grade is an `Err` of its own). Everything is compiled at
/// once (`jobs` + 1 compilers), then run in one pool: the accepted submissions on every test, the
/// others up to their first failure, the TLE ones at the raised timing limit
/// ([`tle_timing_limit`]), where a run tells both the verdict at the limit and the timing.
/// The slowest test of each accepted submission is re-timed alone (see [`needs_timing`]).
/// `Err` when judge was asked to stop or the harness cannot run at all.
pub fn check_all(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    list: &[JurySubmission],
    jobs: usize,
) -> Result<Vec<Result<Checked>>> {
    let submissions: Vec<Result<Submission>> = list
        .iter()
        .map(|j| Submission::from_path(&j.path, None).map_err(anyhow::Error::from))
        .collect();
    let ok: Vec<Submission> = submissions
        .iter()
        .filter_map(|s| s.as_ref().ok().cloned())
        .collect();
    // One compiler more than `jobs`, as for Kattis packages (see `kattis::prepare`).
    let mut compiled = grader.compile_many(&ok, jobs + 1).into_iter();
    crate::interrupt::check()?;
    let mut entries: Vec<Result<Entry>> = list
        .iter()
        .zip(submissions)
        .map(|(jury, submission)| {
            let submission = submission?;
            let compiled = compiled
                .next()
                .unwrap_or_else(|| Err(anyhow::anyhow!("not compiled")))?;
            let limits = limits_for(pkg, &compiled);
            Ok(Entry {
                jury,
                submission,
                view: View::At(limits.cpu_time),
                timing_limit: limits.cpu_time,
                limits,
                compiled,
                raw: Vec::new(),
            })
        })
        .collect();

    // 1. Every submission, in one pool: the TLE ones at the least raised timing limit (the
    // one for a slowest accepted run of nothing; a higher one is only known once the accepted
    // ones are timed, and then only their timing run is repeated there).
    for e in entries.iter_mut().filter_map(|e| e.as_mut().ok()) {
        if e.jury.expected == Verdict::TLE {
            let limit = e.limits.cpu_time;
            let high = tle_timing_limit(limit, Some(Duration::ZERO));
            if let Some(l) = read_at_limit(&e.limits, high) {
                e.limits = l;
                e.view = View::Raised { limit, high };
            }
        }
    }
    let mut all: Vec<&mut Entry> = entries.iter_mut().filter_map(|e| e.as_mut().ok()).collect();
    run_entries(grader, pkg, tests, &mut all, jobs)?;

    // 2. The accepted ones' slowest tests, timed alone: the slowest first.
    let mut timings: Vec<Option<Timing>> = vec![None; entries.len()];
    let mut order: Vec<usize> = (0..entries.len()).collect();
    let slowest_of = |e: &Result<Entry>| {
        e.as_ref()
            .ok()
            .filter(|e| e.jury.expected == Verdict::AC && e.at_limit().1 == Verdict::AC)
            .and_then(|e| e.raw.iter().max_by_key(|t| t.time_ms).cloned())
    };
    order.sort_by_key(|&i| std::cmp::Reverse(slowest_of(&entries[i]).map(|t| t.time_ms)));
    let mut slowest: Option<Duration> = None;
    for i in order {
        let Some(t) = slowest_of(&entries[i]) else {
            continue;
        };
        let Ok(e) = &entries[i] else { continue };
        let half_limit = e.limits.cpu_time / 2;
        let timing = if needs_timing(&t, slowest) || needs_timing(&t, Some(half_limit)) {
            let test = tests.iter().find(|x| x.name == t.name);
            match (test, e.program()) {
                (Some(test), Some(prog)) => {
                    match time_runs(grader, pkg, &prog, &e.limits, test, TIMING_RUNS) {
                        Ok(timing) => Some(timing),
                        Err(err) if crate::interrupt::requested().is_some() => return Err(err),
                        Err(err) => {
                            entries[i] = Err(err);
                            continue;
                        }
                    }
                }
                _ => None,
            }
        } else {
            Some(one_run(&t))
        };
        if let Some(t) = timing.as_ref().filter(|t| t.planned > 1) {
            let d = Duration::from_millis(t.median_ms);
            slowest = Some(slowest.map_or(d, |s| s.max(d)));
        }
        timings[i] = timing;
    }

    // 3. The raised limit the TLE ones are timed at, now that the slowest accepted is known.
    for e in entries.iter_mut().filter_map(|e| e.as_mut().ok()) {
        if e.jury.expected == Verdict::TLE {
            e.timing_limit = tle_timing_limit(e.view.limit(), slowest);
        }
    }

    let mut out = Vec::new();
    for (e, timing) in entries.into_iter().zip(timings) {
        out.push(e.and_then(|e| judge(grader, pkg, tests, &e, timing, jobs)));
    }
    Ok(out)
}

/// The report lines of a graded jury submission; `timing` for an accepted one.
fn judge(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    e: &Entry,
    timing: Option<Timing>,
    jobs: usize,
) -> Result<Checked> {
    let jury = e.jury;
    let name = rel(pkg, &jury.path);
    let (results, actual) = e.at_limit();
    let limit = e.view.limit();
    let run = e.compiled.is_ok().then_some(TestRun {
        results,
        verdict: Some(actual),
        interrupted: None,
    });
    let report = report(pkg, &e.submission, &e.compiled, tests.len(), run);
    let compile_message = report.compile.as_ref().map_or("", |c| c.message.as_str());
    let mut result = SubmissionResult {
        path: name.clone(),
        expected: jury.expected,
        actual,
        timing: None,
    };
    let mut checks = Vec::new();
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
    match jury.expected {
        Verdict::AC => {
            if report.tests.is_empty() {
                checks.push(Check::ok(name, "AC (no tests)"));
                return Ok(Checked {
                    checks,
                    result,
                    report,
                });
            }
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
            // The first TLE test's run at the raised limit (confirmed alone when it ran beside
            // others) is the timing when it was stopped there; one that finished is re-timed.
            let first_tle = first_bad.and_then(|t| e.raw.iter().find(|r| r.name == t.name));
            let timing = match first_tle {
                Some(r) => {
                    let at_high = e.limits.cpu_time >= e.timing_limit
                        && stopped_at_high(r, e.limits.cpu_time);
                    let retime = raised(&limits_for(pkg, &e.compiled), e.timing_limit);
                    let (c, l) = (&e.compiled, &e.limits);
                    tle_timing(grader, pkg, c, l, &retime, tests, r, at_high, jobs)?
                }
                None => None,
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

/// The timing of a must-TLE submission's first TLE test, whose run `seen` went under
/// `limits`. When `at_high` (that run was stopped by its raised CPU limit, see
/// [`stopped_at_high`]): that run itself when it ran alone (or was confirmed alone), else one
/// run alone under the same `limits` (the pool does not re-run a run far over the limit, but
/// "still a TLE at the raised limit" is a figure about that limit itself). Otherwise, or when
/// the run alone was not stopped there, [`TLE_TIMING_RUNS`] runs alone under `retime` (the
/// raised limit's own limits).
#[allow(clippy::too_many_arguments)]
pub(crate) fn tle_timing(
    grader: &Grader,
    pkg: &Package,
    compiled: &Compiled,
    limits: &crate::sandbox::Limits,
    retime: &crate::sandbox::Limits,
    tests: &[TestCase],
    seen: &TestResult,
    at_high: bool,
    jobs: usize,
) -> Result<Option<Timing>> {
    let test = tests.iter().find(|t| t.name == seen.name);
    if at_high {
        if seen.runs > 1 || jobs <= 1 || !seen.shared {
            return Ok(Some(one_run(seen)));
        }
        if let (Some(prog), Some(test)) = (program(compiled, limits), test) {
            let alone = time_runs(grader, pkg, &prog, limits, test, 1)?;
            if alone.capped && Duration::from_millis(alone.median_ms) >= limits.cpu_time {
                return Ok(Some(alone));
            }
        }
    }
    match (test, program(compiled, retime)) {
        (Some(test), Some(prog)) => Ok(Some(time_runs(
            grader,
            pkg,
            &prog,
            retime,
            test,
            TLE_TIMING_RUNS,
        )?)),
        _ => Ok(None),
    }
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

    fn run(name: &str, verdict: Verdict, time_ms: u64) -> TestResult {
        TestResult {
            name: name.into(),
            verdict,
            time_ms,
            wall_ms: time_ms,
            memory_kib: 0,
            message: String::new(),
            runs: 1,
            shared: false,
            output: None,
        }
    }

    #[test]
    fn only_an_accepted_submission_that_could_be_the_slowest_is_re_timed() {
        let ac = |t| run("t", Verdict::AC, t);
        assert!(needs_timing(&ac(5), None), "the first is always timed");
        assert!(!needs_timing(&ac(100), Some(ms(300))));
        assert!(needs_timing(&ac(150), Some(ms(300))));
        assert!(!needs_timing(&ac(0), Some(ms(0))), "nothing to tell apart");
        let one = one_run(&ac(120));
        assert_eq!((one.runs, one.median_ms, one.capped), (1, 120, false));
        assert_eq!(one.describe(), "0.120 s (one run) on t");
        let stopped = one_run(&run("t", Verdict::TLE, 1600));
        assert_eq!(stopped.describe(), "> 1.600 s (one run) on t");
    }

    #[test]
    fn a_tle_submission_run_at_the_raised_limit_stops_at_its_first_tle_at_the_limit() {
        let goal = FirstFailure {
            view: View::Raised {
                limit: ms(1000),
                high: ms(1600),
            },
            all: false,
        };
        let rs = [
            Some(run("a", Verdict::AC, 500)),
            Some(run("b", Verdict::AC, 1200)),
            None,
        ];
        assert_eq!(
            goal.decided(&rs),
            Some(2),
            "1.2 s is a TLE at the 1 s limit"
        );
        assert_eq!(goal.horizon(&rs), 2);
        assert_eq!(
            goal.decided(&[Some(run("a", Verdict::AC, 500)), None]),
            None
        );
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
