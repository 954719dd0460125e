//! Timing jury submissions: the JSON result of one, and the runs alone that time the slowest
//! test of an accepted one and the first TLE test of one that must time out (`jury` decides
//! which to time).

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::Timing;
use crate::compile::Compiled;
use crate::grade::submission::{program, Grader};
use crate::grade::{run_tests, Options, TestResult};
use crate::package::Package;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// Runs of the slowest accepted test when timing.
pub const TIMING_RUNS: u32 = 5;
/// Runs of the first TLE test (each can cost the raised limit).
pub const TLE_TIMING_RUNS: u32 = 3;

/// The outcome for one jury submission.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionResult {
    /// Path relative to the package.
    pub path: String,
    /// The verdict it had to get: its only permitted verdict or, where several are permitted,
    /// the one it got if it is one of them, else the first of them (so `expected == actual`
    /// says whether its verdict was as expected).
    pub expected: Verdict,
    pub actual: Verdict,
    /// Every verdict it may get (one for most; several for a `submissions.yaml` entry's
    /// `permitted` or a folder such as `rejected/`).
    pub permitted: Vec<Verdict>,
    /// For accepted submissions: the slowest test; for TLE ones: the first TLE test, re-run
    /// with a raised limit.
    pub timing: Option<Timing>,
    /// For accepted and TLE submissions: how far the slowest test is from the time limit.
    #[serde(default)]
    pub margin: Option<Margin>,
    /// For a randomised submission (`@RANDOMISED@`): what its repeated runs got.
    #[serde(default)]
    pub randomised: Option<RandomRuns>,
}

/// An accepted submission whose slowest test takes more than this share of the time limit is
/// fragile: a slower machine (or a slower day) may time it out.
pub const AC_FRAGILE_RATIO: f64 = 0.5;
/// A TLE submission whose slowest test takes less than this many times the limit is fragile:
/// a faster machine may accept it.
pub const TLE_FRAGILE_RATIO: f64 = 1.5;

/// How far a timed jury submission is from its time limit: its slowest test's CPU time (the
/// timed median of an accepted one; a TLE one's first TLE test, at the raised limit) over the
/// limit it is read at (its language's).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Margin {
    /// The test the figure is from.
    pub test: String,
    pub slowest_ms: u64,
    pub limit_ms: u64,
    /// `slowest_ms / limit_ms`.
    pub ratio: f64,
    /// The slowest run was stopped by a limit: the ratio is a lower bound.
    pub at_least: bool,
    /// Accepted: over [`AC_FRAGILE_RATIO`]; TLE: under [`TLE_FRAGILE_RATIO`].
    pub fragile: bool,
}

impl Margin {
    /// The margin of a submission that must be accepted (`tle` false) or time out.
    pub fn new(
        test: &str,
        slowest: Duration,
        at_least: bool,
        limit: Duration,
        tle: bool,
    ) -> Margin {
        let ratio = slowest.as_secs_f64() / limit.as_secs_f64().max(1e-9);
        // A run stopped exactly at a limit of 1.5x is not under it: 0.6 / 0.4 is
        // 1.4999999999999998 in floating point, so the comparison allows for rounding.
        const ROUNDING: f64 = 1e-9;
        Margin {
            test: test.to_string(),
            slowest_ms: slowest.as_millis() as u64,
            limit_ms: limit.as_millis() as u64,
            ratio,
            at_least,
            fragile: if tle {
                ratio < TLE_FRAGILE_RATIO - ROUNDING
            } else {
                ratio > AC_FRAGILE_RATIO + ROUNDING
            },
        }
    }

    /// `margin 0.02x the 1 s limit`, `margin >= 1.50x the 1 s limit`; when fragile, why.
    pub fn describe(&self, tle: bool) -> String {
        let at_least = if self.at_least { ">= " } else { "" };
        let limit = crate::kattis::timelimit::secs(Duration::from_millis(self.limit_ms));
        let why = match (self.fragile, tle) {
            (false, _) => String::new(),
            (true, true) => format!(
                ", under {TLE_FRAGILE_RATIO}x: fragile (a faster machine may accept it; make a test slower for it)"
            ),
            (true, false) => format!(
                ", over {AC_FRAGILE_RATIO}x: fragile (a slower machine may time it out)"
            ),
        };
        format!(
            "margin {at_least}{:.2}x the {limit} limit on {}{why}",
            self.ratio, self.test
        )
    }
}

/// The wall time of test `test`'s run when it was a TLE stopped by the wall clock with its CPU
/// time under `limit` (the program waited: a wall-clock backstop, not the CPU limit).
pub(crate) fn waited(results: &[TestResult], test: &str, limit: Duration) -> Option<Duration> {
    let t = results.iter().find(|t| t.name == test)?;
    let cpu = Duration::from_millis(t.time_ms);
    let wall = Duration::from_millis(t.wall_ms);
    (t.verdict == Verdict::TLE && cpu < limit && wall >= limit).then_some(wall)
}

/// For a must-TLE submission whose first TLE test is fragile: the first of the later `tests`
/// that its raised CPU limit `high` stops, run alone one at a time under `limits` (the raised
/// limit's own), if any. The first TLE test decides the verdict, but the margin is the largest
/// the tests show: a naive solution may time out narrowly on one test and far on another.
/// These runs are remembered as the pool's are (a blocked program costs the raised limit's
/// wall clock on every test it searches).
pub(crate) fn later_tle(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    tests: &[TestCase],
    high: Duration,
) -> Result<Option<TestResult>> {
    let key = grader
        .memo
        .as_ref()
        .and_then(|m| Some((m, m.plan_key(&pkg.dir, prog, limits, "later TLE")?)));
    let test_keys = key.as_ref().map(|(m, _)| m.test_keys(tests));
    let memo = key
        .as_ref()
        .zip(test_keys.as_deref())
        .map(|((m, k), t)| m.plan(k, t));
    let suspect_from = limits.cpu_time.mul_f64(Options::default().rerun_fraction);
    for (i, test) in tests.iter().enumerate() {
        let r = match memo.and_then(|m| m.recall(i)) {
            Some(r) => Some(r),
            None => {
                let r = run_alone(grader, pkg, prog, limits, test)?;
                if let (Some(m), Some(r)) = (memo, &r) {
                    m.remember([(i, r)], suspect_from);
                }
                r
            }
        };
        match r.map(|r| (later_step(&r, high), r)) {
            Some((Later::Found, r)) => return Ok(Some(r)),
            Some((Later::Stop, _)) => return Ok(None),
            _ => {}
        }
    }
    Ok(None)
}

/// What one run alone of [`later_tle`]'s search says.
#[derive(Debug, PartialEq, Eq)]
enum Later {
    /// Stopped by the raised CPU limit: the test the margin is read on.
    Found,
    /// Stopped by the wall clock below the raised CPU limit: the program waits (sleeps or
    /// blocks, e.g. an interactive one that never flushes) or cannot get a CPU, so the search
    /// for a test its CPU limit stops ends; each such run costs the wall clock of the raised
    /// limit (problemtools' `guess_no_flush.cc`: 8 s on each of 9 tests).
    Stop,
    /// Finished (or failed) within the raised limit: the next test.
    Next,
}

fn later_step(r: &TestResult, high: Duration) -> Later {
    if super::stopped_at_high(r, high) {
        Later::Found
    } else if r.verdict == Verdict::TLE {
        Later::Stop
    } else {
        Later::Next
    }
}

/// One run of `test` alone under `limits` (no other run of this judge beside it).
fn run_alone(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    test: &TestCase,
) -> Result<Option<TestResult>> {
    let results = run_tests(
        grader.sandbox.as_ref(),
        prog,
        limits,
        std::slice::from_ref(test),
        pkg.logic.as_ref(),
        &Options::default(),
        &|_| {},
    )?
    .complete()?;
    Ok(results.into_iter().next())
}

/// What the repeated runs of a randomised jury submission got.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRuns {
    pub runs: u32,
    /// Runs that passed every test.
    pub passed: u32,
    /// Runs per verdict (`AC`, `WA`, ...).
    pub verdicts: std::collections::BTreeMap<String, u32>,
    /// Runs per test that was their first failure.
    pub first_failures: std::collections::BTreeMap<String, u32>,
}

/// Runs of a randomised jury submission unless `--random-runs` says otherwise: a wrong one
/// that fails each run with probability 1 - p passes one of 20 with probability 1 - (1 - p)^20
/// (p = 0.05: 64 %), so passing none is worth something.
pub const RANDOM_RUNS: u32 = 20;

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
            let alone = time_runs(grader, pkg, &prog, limits, test, 1, Settle::Majority)?;
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
            Settle::FirstStop,
        )?)),
        _ => Ok(None),
    }
}

/// Runs of an accepted submission's slowest test that may be enough (see [`Settle::Agree`]).
pub const AGREEING_RUNS: usize = 3;

/// How [`time_runs`] may stop before its last run.
pub(crate) enum Settle<'a> {
    /// Once a majority of the runs were stopped by a limit: the median is then certain to be
    /// at the limit, whatever the remaining runs take.
    Majority,
    /// A must-TLE submission re-timed at the raised limit: its first run stopped by a limit
    /// (its CPU limit, or the wall clock counting only time it did not wait for a CPU, so no
    /// load makes such a stop) already says "still a TLE there". After a first run that was
    /// not stopped, the runs disagree: [`Settle::Majority`] (2 of 3).
    FirstStop,
    /// An accepted submission: after [`AGREEING_RUNS`] runs, none stopped, that agree (see
    /// [`agree`]) and for which `same(least, most)` (see [`same_figures`]). The median of all
    /// the runs would lie between the least and the most of these, whatever the others took
    /// (of 5 runs, the 3rd smallest is at least the least of any 3 and at most their most).
    Agree(&'a dyn Fn(Duration, Duration) -> bool),
}

/// Whether the runs so far (`samples`, `capped` of them stopped by a limit) of a timing of
/// `runs` runs settle it under `settle`.
fn settled(settle: &Settle, runs: u32, samples: &[Duration], capped: usize) -> bool {
    // The median is the element `runs / 2` of the sorted times.
    let majority = capped as u32 >= runs - runs / 2;
    let least = samples.iter().min().copied().unwrap_or_default();
    let most = samples.iter().max().copied().unwrap_or_default();
    majority
        || match settle {
            Settle::Majority => false,
            Settle::FirstStop => samples.len() == 1 && capped == 1,
            Settle::Agree(same) => {
                capped == 0
                    && samples.len() >= AGREEING_RUNS
                    && agree(least, most)
                    && same(least, most)
            }
        }
}

/// Whether runs of `least` and `most` agree closely: within 5 % of the least, or within
/// 2 ms (CPU times are read to the millisecond; a few ms apart is no spread for a margin).
pub fn agree(least: Duration, most: Duration) -> bool {
    most.saturating_sub(least) <= (least / 20).max(Duration::from_millis(2))
}

/// Whether every figure verify reads from an accepted submission's median is the same for a
/// median of `least` and one of `most`, when its limit is `own` (its language's) under
/// `rules`: both far from the limit (under [`AC_FRAGILE_RATIO`] of it, and fitting it x
/// `ac_to_time_limit`), and the same computed time limit and suggested time limit.
pub fn same_figures(
    least: Duration,
    most: Duration,
    own: Duration,
    rules: &crate::package::TimeRules,
) -> bool {
    let ms = |d: Duration| d.as_millis() as u64;
    let far = most < own.mul_f64(AC_FRAGILE_RATIO) && most.mul_f64(rules.ac_to_time_limit) <= own;
    far && rules.from_slowest(least) == rules.from_slowest(most)
        && super::suggest_time_limit(ms(least), None, 100).time_limit_ms
            == super::suggest_time_limit(ms(most), None, 100).time_limit_ms
}

/// Runs `test` alone up to `runs` times (CPU time), fewer once `settle` says the runs so far
/// settle it: then a median at the limit is reported as a lower bound (the least of the runs
/// stopped there).
pub(crate) fn time_runs(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    test: &TestCase,
    runs: u32,
    settle: Settle,
) -> Result<Timing> {
    let key = grader
        .memo
        .as_ref()
        .and_then(|m| Some((m, m.plan_key(&pkg.dir, prog, limits, "timing")?)));
    let test_key = key
        .as_ref()
        .map(|(m, _)| m.test_keys(std::slice::from_ref(test)));
    let memo = key
        .as_ref()
        .zip(test_key.as_deref())
        .map(|((m, k), t)| m.plan(k, t));
    if let Some(timing) = memo.and_then(|m| m.recall_timing::<Timing>(0, runs)) {
        return Ok(planned(timing, runs));
    }
    let mut samples = Vec::new();
    // The CPU times of the runs stopped by a limit (a wall-clock stop can leave one below the
    // CPU limit, so they are kept apart rather than assumed to be the largest samples).
    let mut capped = Vec::new();
    for _ in 0..runs {
        if settled(&settle, runs, &samples, capped.len()) {
            break;
        }
        if let Some(r) = run_alone(grader, pkg, prog, limits, test)? {
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
    let mut timing = Timing::from_samples(&test.name, samples, !capped.is_empty());
    if timing.runs < runs && timing.capped {
        // Stopped at the limit: the median of all `runs` would be at least the least of the
        // runs stopped there, as `capped` says.
        timing.median_ms = capped.iter().copied().min().unwrap_or(timing.median_ms);
    }
    if let Some(m) = memo {
        m.remember_timing(0, runs, timing.runs, &timing);
    }
    Ok(planned(timing, runs))
}

/// The timing of an accepted submission's slowest `test`: up to [`TIMING_RUNS`] runs alone
/// under `limits`, [`AGREEING_RUNS`] when they agree and give the same figures under `rules`.
pub(crate) fn time_accepted(
    grader: &Grader,
    pkg: &Package,
    prog: &crate::grade::Program,
    limits: &crate::sandbox::Limits,
    test: &TestCase,
    rules: &crate::package::TimeRules,
) -> Result<Timing> {
    let own = limits.cpu_time;
    let same = |least, most| same_figures(least, most, own, rules);
    time_runs(
        grader,
        pkg,
        prog,
        limits,
        test,
        TIMING_RUNS,
        Settle::Agree(&same),
    )
}

/// `timing` (of up to `runs` runs) with the runs it stands for: one run stopped at the limit
/// stands for itself, as does a timing whose runs agreed early (its median is of those);
/// one stopped at the limit after more runs stands for all `runs` (a lower bound of their
/// median).
fn planned(mut timing: Timing, runs: u32) -> Timing {
    timing.planned = if timing.capped && timing.runs > 1 {
        runs
    } else {
        timing.runs
    };
    timing
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
    fn a_tle_stopped_by_the_wall_clock_under_the_cpu_limit_waited() {
        let limit = ms(1000);
        let mut slept = run("s", Verdict::TLE, 3);
        slept.wall_ms = 2000;
        let results = [slept, run("t", Verdict::TLE, 1500)];
        assert_eq!(waited(&results, "s", limit), Some(ms(2000)));
        assert_eq!(
            waited(&results, "t", limit),
            None,
            "stopped by the CPU limit"
        );
        assert_eq!(waited(&results, "u", limit), None);
        assert!(!Margin::new("s", ms(2000), true, limit, true).fragile);
    }

    fn run(name: &str, verdict: Verdict, time_ms: u64) -> TestResult {
        TestResult::sample(name, verdict, time_ms)
    }

    #[test]
    fn margins_are_fragile_over_half_the_limit_or_under_one_and_a_half_times_it() {
        let ac = Margin::new("t", ms(400), false, ms(1000), false);
        assert!(!ac.fragile && (ac.ratio - 0.4).abs() < 1e-9);
        assert_eq!(ac.describe(false), "margin 0.40x the 1 s limit on t");
        let slow = Margin::new("t", ms(620), false, ms(1000), false);
        assert!(slow.fragile);
        assert!(slow
            .describe(false)
            .contains("0.62x the 1 s limit on t, over 0.5x: fragile"));
        let tle = Margin::new("u", ms(1500), true, ms(1000), true);
        assert!(!tle.fragile);
        assert_eq!(tle.describe(true), "margin >= 1.50x the 1 s limit on u");
        // Stopped at exactly 1.5x a limit whose ratio has no exact binary form: not fragile.
        let exact = Margin::new("u", ms(600), true, ms(400), true);
        assert!(!exact.fragile, "{exact:?}");
        let narrow = Margin::new("u", ms(1210), false, ms(1000), true);
        assert!(narrow.fragile);
        assert!(narrow
            .describe(true)
            .contains("1.21x the 1 s limit on u, under 1.5x: fragile"));
    }

    #[test]
    fn the_later_tle_search_ends_at_a_cpu_stop_or_a_wall_clock_stop() {
        let high = ms(1500);
        assert_eq!(
            later_step(&run("t", Verdict::TLE, 1500), high),
            Later::Found
        );
        // Stopped by the wall clock, hardly using its CPU: it waits; searching on costs the
        // raised limit's wall clock per test and cannot find a CPU stop.
        assert_eq!(later_step(&run("t", Verdict::TLE, 3), high), Later::Stop);
        assert_eq!(later_step(&run("t", Verdict::AC, 1200), high), Later::Next);
        assert_eq!(later_step(&run("t", Verdict::WA, 10), high), Later::Next);
    }

    fn rules(ac_to_time_limit: f64, time_resolution: f64) -> crate::package::TimeRules {
        crate::package::TimeRules {
            fixed: Some(ms(1000)),
            ac_to_time_limit,
            time_limit_to_tle: 1.5,
            time_resolution,
            tight_limit_fails: true,
            sensitive_tle_fails: true,
            source: "problem.yaml",
        }
    }

    #[test]
    fn an_accepted_timing_stops_after_three_runs_that_agree_far_from_the_limit() {
        let two = rules(2.0, 1.0);
        let same = |least, most| same_figures(least, most, ms(1000), &two);
        let agreeing = Settle::Agree(&same);
        let runs = |t: &[u64]| t.iter().map(|&t| ms(t)).collect::<Vec<_>>();
        assert!(settled(&agreeing, 5, &runs(&[110, 113, 111]), 0));
        assert!(!settled(&agreeing, 5, &runs(&[100, 103]), 0), "two runs");
        assert!(!settled(&agreeing, 5, &runs(&[110, 120, 111]), 0), "noisy");
        assert!(
            settled(&agreeing, 5, &runs(&[10, 12, 11]), 0),
            "within 2 ms"
        );
        // Near the limit: over half of it, all 5 runs.
        assert!(!settled(&agreeing, 5, &runs(&[480, 490, 500]), 0));
        assert!(!settled(&Settle::Majority, 5, &runs(&[110, 113, 111]), 0));
        // Every figure read from the median is the same at either end of the runs.
        assert!(same_figures(ms(45), ms(47), ms(1000), &two));
        assert!(
            !same_figures(ms(48), ms(52), ms(1000), &two),
            "suggested limit 0.1 s or 0.2 s"
        );
        assert!(
            !same_figures(ms(240), ms(252), ms(1000), &rules(2.0, 0.5)),
            "computed limit 0.5 s or 1 s"
        );
        assert!(!same_figures(ms(300), ms(310), ms(1000), &rules(4.0, 1.0)));
        // The median of 3 agreeing runs, as a median of 3.
        let t = planned(Timing::from_samples("t", runs(&[110, 113, 111]), false), 5);
        assert_eq!(t.describe(), "0.111 s (median of 3, 0.110-0.113) on t");
    }

    #[test]
    fn a_must_tle_timing_stops_at_its_first_run_stopped_by_the_limit() {
        let runs = |t: &[u64]| t.iter().map(|&t| ms(t)).collect::<Vec<_>>();
        assert!(settled(&Settle::FirstStop, 3, &runs(&[1500]), 1));
        assert!(!settled(&Settle::Majority, 3, &runs(&[1500]), 1));
        // A first run that finished within the raised limit: 2 of 3 decide.
        assert!(!settled(&Settle::FirstStop, 3, &runs(&[1400]), 0));
        assert!(!settled(&Settle::FirstStop, 3, &runs(&[1400, 1500]), 1));
        assert!(settled(
            &Settle::FirstStop,
            3,
            &runs(&[1400, 1500, 1500]),
            2
        ));
        let one = planned(Timing::from_samples("t", runs(&[1500]), true), 3);
        assert_eq!(one.describe(), "> 1.500 s (one run) on t");
        let two = planned(Timing::from_samples("t", runs(&[1500, 1500]), true), 3);
        assert_eq!(
            two.describe(),
            "> 1.500 s (median of 3, at the raised limit after 2 runs, 1.500-1.500) on t"
        );
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
}
