//! The jury submissions of any package: each must get what its package says (its folder's
//! verdict, `submissions.yaml` rules over the per-test verdicts, ...: see
//! [`crate::verdict::expectation`]); the time limit is the package's, or computed from the
//! accepted submissions (problemtools' rule); submissions that must time out must still time
//! out with the limit raised by the package's `time_limit_to_tle`
//! ([`crate::package::TimeRules`]).
//!
//! ```text
//!   compile every submission (--jobs at once)
//!   pool of (submission, test) runs, each submission until its rules are decided:
//!     lower-bound (accepted) submissions at the fixed limit, or at MEASURE_LIMIT ─► time limit
//!     every other submission at the time limit (with a fixed limit: in the same pool);
//!     must-TLE ones at limit x time_limit_to_tle, which tells both verdicts
//!   timing runs alone ─► report lines in submission order
//! ```

use std::time::{Duration, Instant};

use anyhow::Result;

use super::run::Event;
use super::submissions::{
    first_line, later_tle, needs_timing, one_run, time_accepted, tle_timing, waited, Margin,
    RandomRuns, SubmissionResult,
};
use super::{read_at_limit, stopped_at_high, Check, Status, Timing, View};
use crate::compile::{CompileOutcome, Compiled, Submission};
use crate::grade::result::SubmissionReport;
use crate::grade::submission::{limits_for, program, report, Grader};
use crate::grade::{run_decided, Cutoff, Goal, Options, Plan, Program, TestResult, TestRun};
use crate::kattis::timelimit::secs;
use crate::kattis::MEASURE_LIMIT;
use crate::package::Package;
use crate::sandbox::Limits;
use crate::testset::TestCase;
use crate::verdict::expectation::{JurySubmission, Seen};
use crate::verdict::score::Scoring;
use crate::verdict::Verdict;

mod prepare;
mod randomised;
mod rules;

pub use prepare::{prepare, Prepared};

use randomised::{copies, rerun_failures_first, Lines};
use rules::{judge_rules, no_accepted, RulesGoal};

/// One jury submission to grade (one run of a randomised one: see [`copies`]).
#[derive(Clone)]
struct Graded<'a> {
    jury: &'a JurySubmission,
    submission: Submission,
    compiled: Compiled,
    /// The limits its tests run under (raised for a must-TLE one read through [`View::Raised`]).
    limits: Limits,
    view: View,
    /// The results the report covers, in test order.
    results: Vec<TestResult>,
    /// Its position among the graded submissions (its runs, for a randomised one, in a row).
    index: usize,
    /// Which run of a randomised submission this is, from 0 ([`copies`]); 0 for any other.
    run: u32,
    /// The order its tests run in, when not the test set's ([`rerun_failures_first`]).
    order: Option<Vec<TestCase>>,
    /// How far its tests run.
    scope: Scope,
}

/// How far a jury submission's tests run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Until what it must get is decided.
    Decided,
    /// Until its first failure, which its rules are read at
    /// ([`JurySubmission::first_failure`]).
    FirstFailure,
    /// Every test (`--all-tests`).
    All,
}

/// Adds a timed submission's margin to its result and its line: fragile warns.
fn add_margin(j: &mut Judged, margin: Margin, tle: bool) {
    if j.check.status == Status::Fail {
        return;
    }
    j.check.message = format!("{}; {}", j.check.message, margin.describe(tle));
    if margin.fragile && j.check.status == Status::Ok {
        j.check.status = Status::Warn;
    }
    if let Some(r) = j.result.as_mut() {
        r.margin = Some(margin);
    }
}

impl Graded<'_> {
    fn seen(&self) -> Vec<Seen<'_>> {
        self.results.iter().map(|t| self.view.see(t)).collect()
    }

    fn program(&self) -> Option<Program> {
        program(&self.compiled, &self.limits)
    }

    /// Its slowest test, if it ran all `tests` and passed them.
    fn slowest_if_passed(&self, tests: usize) -> Option<&TestResult> {
        let passed =
            self.results.len() == tests && self.results.iter().all(|t| t.verdict == Verdict::AC);
        self.results
            .iter()
            .max_by_key(|t| t.time_ms)
            .filter(|_| passed)
    }
}

fn name(j: &JurySubmission) -> String {
    format!("submissions/{}", j.rel)
}

/// The limits a must-TLE submission runs under: CPU `high`, wall clock as for any limit.
fn raised(mut limits: Limits, high: Duration) -> Limits {
    limits.cpu_time = high;
    limits.wall_time = (high * 2).max(high + Duration::from_secs(1));
    limits
}

/// How long a submission's tests run.
#[derive(Debug, Clone, Copy)]
enum Until {
    /// Its rules are decided (see [`RulesGoal`]).
    Decided,
    /// Measuring for the time limit: every test, or up to the first failure when only AC is
    /// permitted (the rules are checked at the limit once it is known).
    Measured,
}

impl Until {
    fn goal<'g>(self, g: &'g Graded, tests: &'g [TestCase], scored: bool) -> Box<dyn Goal + 'g> {
        if scored || g.scope == Scope::All {
            // A score needs every test.
            return Box::new(Cutoff { all: true });
        }
        match self {
            Until::Decided => Box::new(RulesGoal {
                jury: g.jury,
                names: tests.iter().map(|t| t.name.as_str()).collect(),
                view: g.view,
                first_failure: g.scope == Scope::FirstFailure,
            }),
            Until::Measured => Box::new(Cutoff {
                all: !g.jury.accept_only(),
            }),
        }
    }
}

/// Runs the tests of every graded submission in one pool, each `until` its goal is decided,
/// and stores the results each report covers. True if judge was asked to stop.
fn run_all(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    graded: &mut [Graded],
    until: Until,
    jobs: usize,
) -> Result<bool> {
    let programs: Vec<Option<Program>> = graded.iter().map(Graded::program).collect();
    let runnable: Vec<usize> = (0..graded.len())
        .filter(|&i| programs[i].is_some())
        .collect();
    let goals: Vec<Box<dyn Goal + '_>> = runnable
        .iter()
        .map(|&i| {
            let g = &graded[i];
            until.goal(
                g,
                g.order.as_deref().unwrap_or(tests),
                pkg.scoring().is_some(),
            )
        })
        .collect();
    let suspect_from = |g: &Graded| g.view.limit().mul_f64(Options::default().rerun_fraction);
    // A scoring problem's runs too: a result keeps what the output validator said of its score.
    let memo = grader.memo.as_ref();
    let keys: Vec<Option<String>> = runnable
        .iter()
        .map(|&i| {
            let g = &graded[i];
            let how = format!("{:?} {:?}", suspect_from(g), g.view.trusted_from());
            let how = randomised::memo_how(g, tests, how)?;
            memo?.plan_key(&pkg.dir, programs[i].as_ref()?, &g.limits, &how)
        })
        .collect();
    let test_keys = memo.map(|m| m.test_keys(tests));
    let plans: Vec<Plan> = runnable
        .iter()
        .zip(&goals)
        .zip(&keys)
        .filter_map(|((&i, goal), key)| {
            let g = &graded[i];
            Some(Plan {
                program: programs[i].as_ref()?,
                limits: &g.limits,
                tests: g.order.as_deref().unwrap_or(tests),
                goal: goal.as_ref(),
                suspect_from: suspect_from(g),
                // A must-TLE one's runs far over the limit are TLEs at the limit whatever ran
                // beside them; its first TLE is confirmed alone at `high` when timed.
                trusted_from: g.view.trusted_from(),
                memo: memo
                    .zip(key.as_deref())
                    .zip(test_keys.as_deref())
                    .map(|((m, k), t)| m.plan(k, t)),
            })
        })
        .collect();
    let (covered, interrupted) =
        run_decided(grader.sandbox.as_ref(), pkg.logic.as_ref(), &plans, jobs)?;
    drop(plans);
    drop(goals);
    for (i, rs) in runnable.into_iter().zip(covered) {
        graded[i].results = rs;
    }
    Ok(interrupted.is_some())
}

/// What grading one jury submission found: its report line, its JSON result (when it must
/// get one verdict) and its grading report (tests run, first failure).
struct Judged {
    /// Its path, relative to the package.
    path: String,
    check: Check,
    result: Option<SubmissionResult>,
    report: SubmissionReport,
}

/// What verifying the jury submissions of a package found so far.
#[derive(Debug, Default)]
pub struct Outcome {
    pub checks: Vec<Check>,
    pub results: Vec<SubmissionResult>,
    /// The grading report of each submission in `results`, in the same order.
    pub graded: Vec<SubmissionReport>,
    /// Judge was asked to stop before every submission was judged.
    pub interrupted: bool,
    /// Wall time of the runs on `jobs` threads (with their confirmations alone).
    pub runs: Duration,
    /// Wall time of the timing runs alone (accepted submissions, must-TLE ones at the raised
    /// limit).
    pub timing: Duration,
}

/// Verifies the jury submissions of a package (`prepared` from [`prepare`]) into `out`; sets
/// `pkg.limits.time` to the time limit (the package's, or the computed one). `on_event` sees
/// each line as it is decided. `Err` when the harness cannot run (then `out` holds what was
/// decided before).
pub fn check(
    grader: &Grader,
    pkg: &mut Package,
    tests: &[TestCase],
    jobs: usize,
    on_event: &dyn Fn(Event),
    out: &mut Outcome,
    prepared: Prepared,
) -> Result<()> {
    let rules = pkg.time_rules();
    let interactive = pkg.interactive();
    let emit = |c: Check, out: &mut Outcome| {
        on_event(Event::Check(&c));
        out.checks.push(c);
    };
    // A judged submission's line, JSON result and grading report, with its progress events.
    let emit_judged = |j: Judged, out: &mut Outcome| {
        on_event(Event::SubmissionStarted { path: &j.path });
        emit(j.check, out);
        on_event(Event::SubmissionDone {
            result: j.result.as_ref(),
        });
        if let Some(r) = j.result {
            out.results.push(r);
            out.graded.push(j.report);
        }
    };
    let Prepared {
        subs,
        any_accepted,
        partial,
        warnings,
        compiled,
        random_runs,
        all_tests,
    } = prepared;
    for w in warnings {
        // A key of submissions.yaml given twice is read as the other YAML files are (the
        // last value): a warning, as the package's are.
        let check = match crate::kattis::yaml::is_duplicate_warning(&w) {
            true => Check::warn,
            false => Check::fail,
        };
        emit(check("submissions", w), out);
    }
    let selected_only = partial.is_some();
    if let Some(c) = partial {
        emit(c, out);
    }
    on_event(Event::SubmissionsStarted {
        count: subs.iter().filter(|s| s.skipped.is_none()).count(),
    });
    if !any_accepted {
        emit(no_accepted(rules.fixed.is_some()), out);
    }
    for s in subs.iter().filter(|s| s.skipped.is_some()) {
        emit(
            Check::warn(name(s), s.skipped.clone().unwrap_or_default()),
            out,
        );
    }
    let fixed = rules.fixed;
    // Its time limit is that of its language (`limits_for`, at the package's limit).
    let raise = |g: &mut Graded| {
        let limit = g.limits.cpu_time;
        let high = limit.mul_f64(rules.time_limit_to_tle);
        // An interactive run's verdict at the limit cannot be read from a longer run (the
        // validator may have ended it first): those run at the limit, and are re-timed (as
        // are those whose raised limit is past the limit's wall-clock backstop).
        let at_high = read_at_limit(&g.limits, high);
        match at_high.filter(|_| g.jury.upper_bound && !interactive) {
            Some(l) => {
                g.limits = l;
                g.view = View::Raised { limit, high };
            }
            None => g.view = View::At(limit),
        }
    };

    // 1. Everything was compiled first, at once (`prepare`); then the submissions that bound
    // the time limit from below run (with a fixed limit, every other submission runs beside them).
    pkg.limits.time = fixed.unwrap_or(MEASURE_LIMIT);
    let runnable = subs.iter().filter(|s| s.skipped.is_none());
    let graded = runnable
        .zip(compiled)
        .map(|(jury, compiled)| {
            let (submission, compiled) = compiled?;
            let limits = limits_for(pkg, &compiled);
            Ok(Graded {
                jury,
                submission,
                view: View::At(limits.cpu_time),
                limits,
                compiled,
                results: Vec::new(),
                index: 0,
                run: 0,
                order: None,
                scope: match (all_tests, jury.first_failure) {
                    (true, _) => Scope::All,
                    (false, true) => Scope::FirstFailure,
                    (false, false) => Scope::Decided,
                },
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let graded = copies(graded, random_runs);
    let (mut lower, others): (Vec<Graded>, Vec<Graded>) =
        graded.into_iter().partition(|g| g.jury.lower_bound);
    // The later runs of randomised submissions that must not pass: after their first runs.
    let (mut held, mut others): (Vec<Graded>, Vec<Graded>) =
        others.into_iter().partition(|g| g.run > 0);
    let lower_count = lower.len();
    let clock = Instant::now();
    let first_pool = match fixed {
        Some(_) => {
            for g in &mut others {
                raise(g);
            }
            for g in &mut held {
                raise(g);
            }
            let mut all: Vec<Graded> = lower.drain(..).chain(others.drain(..)).collect();
            let stopped = run_all(grader, pkg, tests, &mut all, Until::Decided, jobs)?;
            others = all.split_off(lower_count);
            lower = all;
            stopped || rerun_failures_first(grader, pkg, tests, &others, &mut held, jobs)?
        }
        None => run_all(grader, pkg, tests, &mut lower, Until::Measured, jobs)?,
    };
    out.runs += clock.elapsed();
    if first_pool {
        out.interrupted = true;
        return Ok(());
    }
    // The slowest test of each lower bound that passed, re-timed alone: the slowest first,
    // then only those that could be slower than it (see `needs_timing`).
    let slowest_test = |g: &Graded| g.slowest_if_passed(tests.len()).map(|t| t.time_ms);
    let mut order: Vec<usize> = (0..lower.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(slowest_test(&lower[i])));
    let mut timed: Vec<Option<Timing>> = vec![None; lower.len()];
    // Of a randomised submission's runs, only its slowest is timed (they are one program).
    let mut timed_copy: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    // The slowest timed accepted run, its submission and its time limit (with a fixed limit,
    // the one closest to its language's limit).
    let mut slowest: Option<(Duration, String, Duration)> = None;
    let clock = Instant::now();
    for i in order {
        let g = &lower[i];
        let Some(t) = g.slowest_if_passed(tests.len()) else {
            continue;
        };
        let first_of_its_runs = !g.jury.randomised || timed_copy.insert(g.jury.rel.as_str());
        let timing = if first_of_its_runs && needs_timing(t, slowest.as_ref().map(|s| s.0)) {
            let test = tests.iter().find(|x| x.name == t.name);
            match (test, g.program()) {
                (Some(test), Some(prog)) => {
                    Some(time_accepted(grader, pkg, &prog, &g.limits, test, &rules)?)
                }
                _ => None,
            }
        } else {
            Some(one_run(t))
        };
        if let Some(t) = timing.as_ref().filter(|t| t.planned > 1) {
            let d = Duration::from_millis(t.median_ms);
            let own = g.limits.cpu_time;
            let ratio = |d: Duration, l: Duration| d.as_secs_f64() / l.as_secs_f64().max(1e-9);
            if slowest
                .as_ref()
                .is_none_or(|(m, _, l)| ratio(d, own) > ratio(*m, *l))
            {
                slowest = Some((d, name(g.jury), own));
            }
        }
        timed[i] = timing;
    }
    out.timing += clock.elapsed();

    // 2. The time limit.
    let source = rules.source;
    let limit = match (fixed, &slowest) {
        (Some(f), Some((t, who, own))) => {
            let need = t.as_secs_f64() * rules.ac_to_time_limit;
            if need > own.as_secs_f64() + 1e-9 {
                let why = format!(
                    "{} from {source} is below the slowest accepted run {:.3} s ({who}) x {} = {need:.3} s",
                    secs(*own),
                    t.as_secs_f64(),
                    rules.ac_to_time_limit
                );
                emit(
                    if rules.tight_limit_fails {
                        Check::fail("time limit", why)
                    } else {
                        Check::warn("time limit", format!("{why} (time-limit sensitive)"))
                    },
                    out,
                );
            } else {
                emit(
                    Check::ok(
                        "time limit",
                        format!(
                            "{} from {source}; slowest accepted {:.3} s ({who}) x {} fits",
                            secs(*own),
                            t.as_secs_f64(),
                            rules.ac_to_time_limit
                        ),
                    ),
                    out,
                );
            }
            f
        }
        (Some(f), None) => {
            emit(
                Check::ok("time limit", format!("{} from {source}", secs(f))),
                out,
            );
            f
        }
        (None, Some((t, who, _))) => {
            let l = rules.from_slowest(*t);
            emit(
                Check::ok(
                    "time limit",
                    format!(
                        "{} computed: slowest accepted {:.3} s ({who}) x {}, rounded up to a multiple of {}",
                        secs(l),
                        t.as_secs_f64(),
                        rules.ac_to_time_limit,
                        secs(Duration::from_secs_f64(rules.time_resolution))
                    ),
                ),
                out,
            );
            l
        }
        (None, None) => {
            let none = if selected_only {
                "no accepted submission selected by --submissions passes"
            } else {
                "no accepted submission passes"
            };
            emit(
                Check::fail(
                    "time limit",
                    format!("no limits.time_limit and {none} to compute it from"),
                ),
                out,
            );
            MEASURE_LIMIT
        }
    };
    // Neither given nor computed (the check above failed).
    let no_limit = fixed.is_none() && slowest.is_none();
    pkg.limits.time = limit;
    let mut lines = Lines {
        runs: random_runs,
        copies: Vec::new(),
    };
    for (g, timing) in lower.iter_mut().zip(timed) {
        let own = limits_for(pkg, &g.compiled).cpu_time;
        g.view = View::At(own);
        let mut judged = judge_rules(pkg, tests.len(), g, timing.clone());
        if let Some(t) = timing.filter(|_| judged.report.verdict == Some(Verdict::AC)) {
            let slowest = Duration::from_millis(t.median_ms);
            let m = Margin::new(&t.test, slowest, t.capped, own, false);
            add_margin(&mut judged, m, false);
        }
        lines.push(g, judged, &mut |j| emit_judged(j, out));
    }

    // The others are not run without a limit: at the measuring limit a must-TLE one would
    // take a minute a test to say nothing.
    if no_limit {
        let mut rest: Vec<&Graded> = others.iter().chain(&held).filter(|g| g.run == 0).collect();
        rest.sort_by_key(|g| g.index);
        for g in rest {
            let why = "not run: there is no time limit to run it at (see the time limit check)";
            emit(Check::warn(name(g.jury), why), out);
        }
        return Ok(());
    }

    // 3. Every other submission at the time limit (already run beside the lower bounds when
    // the limit is fixed).
    if fixed.is_none() {
        for g in others.iter_mut().chain(held.iter_mut()) {
            g.limits = limits_for(pkg, &g.compiled);
            raise(g);
        }
        let clock = Instant::now();
        let stopped = run_all(grader, pkg, tests, &mut others, Until::Decided, jobs)?
            || rerun_failures_first(grader, pkg, tests, &others, &mut held, jobs)?;
        out.runs += clock.elapsed();
        if stopped {
            out.interrupted = true;
            return Ok(());
        }
    }
    others.append(&mut held);
    others.sort_by_key(|g| g.index);
    let clock = Instant::now();
    for g in &others {
        let mut judged = judge_rules(pkg, tests.len(), g, None);
        let c = &mut judged.check;
        let mut timing = None;
        // A later test its raised limit stops, when the first TLE test does not show that.
        let mut later: Option<TestResult> = None;
        if g.jury.upper_bound && c.status == Status::Ok {
            let limit = g.view.limit();
            let high = limit.mul_f64(rules.time_limit_to_tle);
            let first_tle = g
                .results
                .iter()
                .find(|t| g.view.see(t).verdict == Verdict::TLE);
            // The run at `high` decides when its CPU limit stopped it (confirmed alone when it
            // ran beside others); one that finished within it, or was stopped by the limit's
            // wall-clock backstop, is re-timed at `high`'s own limits.
            let t = match first_tle {
                Some(t) => {
                    let at_high = matches!(g.view, View::Raised { .. }) && stopped_at_high(t, high);
                    let retime = raised(limits_for(pkg, &g.compiled), high);
                    let (c, l) = (&g.compiled, &g.limits);
                    tle_timing(grader, pkg, c, l, &retime, tests, t, at_high, jobs)?
                }
                None => None,
            };
            if let Some(t) = t {
                // Finishing within the raised limit on its first TLE test is not the end of
                // it: at the raised limit the submission still times out if a later test does.
                if !t.capped {
                    let after = tests
                        .iter()
                        .position(|x| x.name == t.test)
                        .map_or(0, |i| i + 1);
                    let retime = raised(limits_for(pkg, &g.compiled), high);
                    if let Some(prog) = program(&g.compiled, &retime) {
                        later = later_tle(grader, pkg, &prog, &retime, &tests[after..], high)?;
                    }
                }
                if let Some(r) = later.as_ref().filter(|_| !t.capped) {
                    c.message = format!(
                        "{}; finishes in {} within {} there, but still TLE at {} (limit x {}) on `{}`",
                        c.message,
                        t.describe(),
                        secs(high),
                        secs(high),
                        rules.time_limit_to_tle,
                        r.name
                    );
                } else if !t.capped {
                    let why = format!(
                        "TLE at {}, but finishes in {} within {} = the limit x {} (time-limit sensitive)",
                        secs(limit),
                        t.describe(),
                        secs(high),
                        rules.time_limit_to_tle
                    );
                    *c = if rules.sensitive_tle_fails {
                        Check::fail(name(g.jury), why)
                    } else {
                        Check::warn(name(g.jury), why)
                    };
                } else {
                    c.message = format!(
                        "{}; still TLE at {} (limit x {})",
                        c.message,
                        secs(high),
                        rules.time_limit_to_tle
                    );
                }
                timing = Some(t);
            }
        }
        // The margin of one that timed out: its first TLE test (timed alone when it could
        // be), a lower bound when stopped by the raised limit.
        let tle_margin = g
            .jury
            .upper_bound
            .then(|| {
                let slowest = match &timing {
                    Some(t) => (t.test.clone(), t.median_ms, t.capped),
                    None => {
                        let first = g
                            .results
                            .iter()
                            .find(|t| g.view.see(t).verdict == Verdict::TLE)?;
                        (
                            first.name.clone(),
                            first.time_ms,
                            first.verdict == Verdict::TLE,
                        )
                    }
                };
                Some(slowest)
            })
            .flatten()
            .filter(|_| judged.report.verdict == Some(Verdict::TLE));
        if let Some(r) = judged.result.as_mut() {
            r.timing = timing;
        }
        if let Some((test, ms, at_least)) = tle_margin {
            let limit = g.view.limit();
            let mut m = Margin::new(&test, Duration::from_millis(ms), at_least, limit, true);
            // One stopped by the wall clock while it waited (slept, or blocked on a pipe, as an
            // interactive one that never flushes) is not made faster by a faster machine: its
            // margin is the wall time it waited, a lower bound.
            if let Some(wall) = waited(&g.results, &test, limit) {
                m = Margin::new(&test, wall, true, limit, true);
                judged.check.message = format!(
                    "{}; it waits (CPU under the limit): margin by wall time",
                    judged.check.message
                );
            }
            // A fragile first TLE: the first later test that times out far, if one does.
            if m.fragile && judged.check.status != Status::Fail {
                if later.is_none() {
                    let high = limit.mul_f64(rules.time_limit_to_tle);
                    let retime = raised(limits_for(pkg, &g.compiled), high);
                    let after = tests
                        .iter()
                        .position(|t| t.name == test)
                        .map_or(0, |i| i + 1);
                    if let Some(prog) = program(&g.compiled, &retime) {
                        later = later_tle(grader, pkg, &prog, &retime, &tests[after..], high)?;
                    }
                }
                if let Some(r) = later {
                    let d = Duration::from_millis(r.time_ms);
                    judged.check.message = format!(
                        "{}; {:.2}x the limit on {} only",
                        judged.check.message, m.ratio, m.test
                    );
                    m = Margin::new(&r.name, d, true, limit, true);
                }
            }
            add_margin(&mut judged, m, true);
        }
        lines.push(g, judged, &mut |j| emit_judged(j, out));
    }
    out.timing += clock.elapsed();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::expectation::{Outcome, Rule};

    fn rule(permitted: &[Outcome], required: &[Outcome]) -> Rule {
        Rule {
            tests: None,
            permitted: permitted.iter().copied().collect(),
            required: required.iter().copied().collect(),
            message: None,
            origin: "rule".into(),
        }
    }

    fn result(name: &str, verdict: Verdict, ms: u64) -> Option<TestResult> {
        Some(TestResult::sample(name, verdict, ms))
    }

    /// A jury submission that must satisfy `rule` alone.
    fn only(rule: Rule) -> JurySubmission {
        JurySubmission {
            path: "submissions/x/a.c".into(),
            rel: "x/a.c".into(),
            folder: "x".into(),
            language: None,
            rules: vec![rule],
            verdicts: None,
            score: None,
            group_scores: Vec::new(),
            lower_bound: false,
            upper_bound: false,
            skipped: None,
            entrypoint: None,
            randomised: false,
            first_failure: false,
        }
    }

    fn goal<'a>(jury: &'a JurySubmission, names: &[&'a str], view: View) -> RulesGoal<'a> {
        RulesGoal {
            jury,
            names: names.to_vec(),
            view,
            first_failure: false,
        }
    }

    const ALL: [Outcome; 4] = [Outcome::AC, Outcome::WA, Outcome::TLE, Outcome::RTE];
    const LIMIT: Duration = Duration::from_secs(1);

    #[test]
    fn the_report_covers_the_shortest_prefix_that_decides_and_its_first_failure() {
        use Verdict::*;
        let names = ["a", "b", "c", "d"];
        let at = View::At(LIMIT);
        // Any verdict permitted, a WA required: decided at the first WA.
        let some_wa = only(rule(&ALL, &[Outcome::WA]));
        let g = goal(&some_wa, &names, at);
        let decided = |rs: &[Option<TestResult>]| g.decided(rs);
        assert_eq!(
            decided(&[
                result("a", AC, 1),
                result("b", WA, 1),
                result("c", AC, 1),
                None
            ]),
            Some(2)
        );
        assert_eq!(
            decided(&[result("a", AC, 1), None, result("c", WA, 1), None]),
            None,
            "test b may come first"
        );
        // A required WA seen, but a later test may still break `permitted`.
        let no_crash = only(rule(&[Outcome::AC, Outcome::WA], &[Outcome::WA]));
        let g = goal(&no_crash, &names, at);
        assert_eq!(
            g.decided(&[result("a", WA, 1), result("b", AC, 1), None, None]),
            None
        );
        assert_eq!(
            g.decided(&[result("a", WA, 1), result("b", RE, 1), None, None]),
            Some(2)
        );
        // Only AC permitted: every test runs unless one fails; all AC is decided at the end.
        let accepted = only(rule(&[Outcome::AC], &ALL));
        let g = goal(&accepted, &names, at);
        let all_ac: Vec<_> = names.iter().map(|n| result(n, AC, 1)).collect();
        assert_eq!(
            g.decided(
                &all_ac[..3]
                    .iter()
                    .cloned()
                    .chain([None])
                    .collect::<Vec<_>>()
            ),
            None
        );
        assert_eq!(g.decided(&all_ac), Some(4));
        // Rules satisfied by all-AC tests are not enough: the report names the first failure.
        let anything = only(rule(&ALL, &ALL));
        let g = goal(&anything, &names, at);
        assert_eq!(g.decided(&[result("a", AC, 1), None, None, None]), None);
        assert_eq!(
            g.decided(&[result("a", AC, 1), result("b", TLE, 1), None, None]),
            Some(2)
        );
    }

    #[test]
    fn a_submission_read_at_its_first_failure_is_decided_there() {
        use Verdict::*;
        let names = ["a", "b", "c"];
        // A legacy wrong_answer folder: AC/WA permitted, WA required.
        let wrong = only(rule(&[Outcome::AC, Outcome::WA], &[Outcome::WA]));
        let mut g = goal(&wrong, &names, View::At(LIMIT));
        let first_wa = [result("a", AC, 1), result("b", WA, 1), None];
        assert_eq!(
            g.decided(&first_wa),
            None,
            "a later test may still time out"
        );
        g.first_failure = true;
        assert_eq!(g.decided(&first_wa), Some(2));
        // Not before every earlier test has run, and the prefix is the shortest one.
        assert_eq!(g.decided(&[None, result("b", WA, 1), None]), None);
        let later = [result("a", TLE, 1), result("b", WA, 1), result("c", AC, 1)];
        assert_eq!(g.decided(&later), Some(1));
        // All accepted: decided only at the end.
        assert_eq!(
            g.decided(&[result("a", AC, 1), result("b", AC, 1), None]),
            None
        );
    }

    #[test]
    fn runs_are_read_at_the_time_limit() {
        use Verdict::*;
        let names = ["a", "b"];
        let must_tle = only(rule(&ALL, &[Outcome::TLE]));
        let raised = View::Raised {
            limit: LIMIT,
            high: LIMIT * 3 / 2,
        };
        // Finished at the raised limit, but over the limit: a TLE there.
        let slow = result("a", AC, 1200).unwrap();
        let seen = raised.see(&slow);
        assert_eq!(seen.verdict, TLE);
        assert!(
            seen.message.contains("1.200 s over the 1 s limit"),
            "{}",
            seen.message
        );
        assert_eq!(
            goal(&must_tle, &names, raised).decided(&[Some(slow.clone()), None]),
            Some(1)
        );
        // Stopped at the raised limit: a TLE at both.
        let stopped = result("a", TLE, 1500).unwrap();
        assert_eq!(raised.see(&stopped).verdict, TLE);
        // Within the limit: as it ran; a judge error stays one.
        assert_eq!(raised.see(&result("a", WA, 900).unwrap()).verdict, WA);
        assert_eq!(raised.see(&result("a", JE, 1400).unwrap()).verdict, JE);
        // Stopped by its CPU limit at `high`: still a TLE there; stopped by the limit's
        // wall-clock backstop (a sleeping one), or finished: re-timed at `high`'s own limits.
        assert!(stopped_at_high(
            &result("a", TLE, 1500).unwrap(),
            LIMIT * 3 / 2
        ));
        assert!(!stopped_at_high(
            &result("a", TLE, 20).unwrap(),
            LIMIT * 3 / 2
        ));
        assert!(!stopped_at_high(&slow, LIMIT * 3 / 2));
        // The raised run keeps the limit's backstop, so a sleeper is stopped where it would
        // be at the limit; a raised limit past that backstop is not read from a longer run.
        let at_limit = Limits {
            cpu_time: LIMIT,
            wall_time: LIMIT * 2,
            memory_bytes: 1 << 26,
            output_bytes: 1 << 20,
            stderr_bytes: 1 << 16,
            processes: 1,
        };
        let l = read_at_limit(&at_limit, LIMIT * 3 / 2).unwrap();
        assert_eq!((l.cpu_time, l.wall_time), (LIMIT * 3 / 2, LIMIT * 2));
        assert!(read_at_limit(&at_limit, LIMIT * 3).is_none());
        // Measured at a higher limit: an AC over the limit is a TLE, a WA stays a WA.
        let at = View::At(LIMIT);
        assert_eq!(at.see(&slow).verdict, TLE);
        assert_eq!(at.see(&result("a", WA, 1200).unwrap()).verdict, WA);
    }
}
