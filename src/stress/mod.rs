//! Stress testing: random tests from the problem's generators until a submission fails, then
//! shrink the counterexample while it still fails the same way.
//!
//! Test `k` of a run with base seed `S` uses the test plan's groups round-robin (generator and
//! parameters), with seed `fnv1a64("stress:S:k")`, so every failing input is reproducible with
//! `judge gen <P> --generator G --seed X [--param ...]`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub mod run;

use crate::grade::{run_tests, Options, Program, TestResult};
use crate::package::{fnv1a64, Package};
use crate::partition::Partition;
use crate::problems::{GenParams, JuryError};
use crate::sandbox::{Limits, Sandbox, SandboxError};
use crate::testset::{Origin, TestCase};
use crate::verdict::Verdict;

/// When to stop searching.
#[derive(Debug, Clone, Copy)]
pub enum Budget {
    /// Stop after this much wall time.
    Time(Duration),
    /// Stop after this many tests.
    Count(u64),
    /// Stop after this much CPU time of judge's own process (all its threads, not the
    /// programs it runs in the sandbox): a search by built-in solvers gets the same work done
    /// whatever else the machine runs.
    Cpu(Duration),
}

impl Budget {
    /// From the command line: `--count`, else `--cpu-seconds`, else `--seconds`, else
    /// `default_seconds` of wall time.
    pub fn of(
        count: Option<u64>,
        seconds: Option<f64>,
        cpu_seconds: Option<f64>,
        default_seconds: u64,
    ) -> Budget {
        match (count, cpu_seconds, seconds) {
            (Some(n), _, _) => Budget::Count(n),
            (None, Some(s), _) => Budget::Cpu(Duration::from_secs_f64(s)),
            (None, None, Some(s)) => Budget::Time(Duration::from_secs_f64(s)),
            (None, None, None) => Budget::Time(Duration::from_secs(default_seconds)),
        }
    }

    /// `1000 runs`, `30 s`, `3600 CPU s`.
    pub fn describe(&self) -> String {
        match self {
            Budget::Count(n) => format!("{n} runs"),
            Budget::Time(t) => format!("{:.0} s", t.as_secs_f64()),
            Budget::Cpu(t) => format!("{:.0} CPU s", t.as_secs_f64()),
        }
    }

    /// A clock for this budget, started now: whether it is spent, given the runs made.
    pub fn start(self) -> BudgetClock {
        BudgetClock {
            budget: self,
            wall: Instant::now(),
            cpu: own_cpu(),
        }
    }
}

/// A [`Budget`] being spent (see [`Budget::start`]).
#[derive(Debug, Clone, Copy)]
pub struct BudgetClock {
    budget: Budget,
    wall: Instant,
    cpu: Duration,
}

impl BudgetClock {
    /// Whether the budget is spent after `runs` runs.
    pub fn spent(&self, runs: u64) -> bool {
        match self.budget {
            Budget::Count(n) => runs >= n,
            Budget::Time(t) => self.wall.elapsed() >= t,
            Budget::Cpu(t) => own_cpu().saturating_sub(self.cpu) >= t,
        }
    }

    /// Wall time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time of judge's own process since the clock started.
    pub fn cpu_used(&self) -> Duration {
        own_cpu().saturating_sub(self.cpu)
    }
}

/// User and system CPU time of this process so far (every thread; not its children).
pub fn own_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage struct.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// One generator invocation that stress cycles through.
#[derive(Debug, Clone)]
pub struct Source {
    pub generator: String,
    pub params: GenParams,
}

impl Source {
    /// The test plan's distinct (generator, params) pairs, in plan order; restricted to
    /// `only` when given (a generator not in the plan is used with its default parameters).
    pub fn from_plan(pkg: &Package, only: Option<&str>) -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        for g in &pkg.groups {
            if only.is_some_and(|o| o != g.generator) {
                continue;
            }
            if !out
                .iter()
                .any(|s| s.generator == g.generator && s.params == g.params)
            {
                out.push(Source {
                    generator: g.generator.clone(),
                    params: g.params.clone(),
                });
            }
        }
        if out.is_empty() {
            let names: Vec<&str> = match only {
                Some(o) => vec![o],
                None => pkg.logic.generators().iter().map(|g| g.name).collect(),
            };
            out = names
                .into_iter()
                .map(|n| Source {
                    generator: n.to_string(),
                    params: GenParams::default(),
                })
                .collect();
        }
        out
    }

    /// `--generator G --seed X --param k=v ...`
    pub fn reproduce(&self, seed: u64) -> String {
        let mut s = format!("--generator {} --seed {seed}", self.generator);
        for (k, v) in &self.params.0 {
            s.push_str(&format!(" --param {k}={v}"));
        }
        s
    }
}

/// A failing test found by [`search`].
#[derive(Debug, Clone)]
pub struct Failure {
    /// 0-based number of the test in the stress run.
    pub index: u64,
    pub source: Source,
    pub seed: u64,
    pub test: TestCase,
    pub result: TestResult,
}

/// What a search did.
#[derive(Debug)]
pub struct SearchOutcome {
    pub tests_run: u64,
    pub elapsed: Duration,
    pub failure: Option<Failure>,
    /// Judge was asked to stop ([`crate::interrupt`]) before the budget was spent (and
    /// before a failure was confirmed).
    pub interrupted: bool,
}

/// Everything a stress run needs to execute the submission.
pub struct Target<'a> {
    pub sandbox: &'a dyn Sandbox,
    pub program: &'a Program,
    pub limits: &'a Limits,
    pub pkg: &'a Package,
}

impl Target<'_> {
    /// Runs the submission on one test, alone, and returns its result.
    pub fn run(&self, test: &TestCase) -> Result<TestResult, SandboxError> {
        let results = run_tests(
            self.sandbox,
            self.program,
            self.limits,
            std::slice::from_ref(test),
            self.pkg.logic.as_ref(),
            &Options::default(),
            &|_| {},
        )?
        .complete()?;
        results
            .into_iter()
            .next()
            .ok_or_else(|| SandboxError::Setup("no result for a stress test".into()))
    }

    fn make_test(&self, source: &Source, seed: u64, name: String) -> Result<TestCase, String> {
        let input = self
            .pkg
            .logic
            .generate(&source.generator, &source.params, seed)
            .map_err(|e| e.to_string())?;
        self.test_from_input(input, name, source, seed)
            .map_err(|e| e.to_string())
    }

    fn test_from_input(
        &self,
        input: String,
        name: String,
        source: &Source,
        seed: u64,
    ) -> Result<TestCase, JuryError> {
        let answer = self.pkg.logic.solve(&input)?;
        Ok(TestCase {
            name,
            origin: Origin::Generated {
                group: "stress".into(),
                generator: source.generator.clone(),
                params: source.params.clone(),
                seed,
                index: 0,
            },
            input,
            answer,
        })
    }
}

/// The seed of stress test `index` for base seed `base`.
pub fn test_seed(base: u64, index: u64) -> u64 {
    fnv1a64(format!("stress:{base}:{index}").as_bytes())
}

/// Runs random tests on `jobs` threads until one fails (a TLE seen under parallel load only
/// counts if a re-run alone confirms it) or the budget is spent. `on_test` is called after
/// every test (for a live counter). With a `partition`, only its test numbers run (the
/// budget still counts test numbers of the whole run).
#[allow(clippy::too_many_arguments)]
pub fn search(
    target: &Target,
    sources: &[Source],
    base_seed: u64,
    budget: Budget,
    jobs: usize,
    partition: Option<Partition>,
    on_test: &(dyn Fn(u64) + Sync),
) -> Result<SearchOutcome, anyhow::Error> {
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    // The `j`-th test this process runs is test number `number(j)` of the whole run.
    let number = |j: u64| partition.map_or(j, |p| p.nth(j));
    let clock = budget.start();
    let over_budget = |j: u64| clock.spent(number(j));
    let interrupted = |done: &AtomicU64| SearchOutcome {
        tests_run: done.load(Ordering::SeqCst),
        elapsed: start.elapsed(),
        failure: None,
        interrupted: true,
    };
    loop {
        let phase = search_phase(
            target,
            sources,
            base_seed,
            jobs,
            &next,
            &done,
            &over_budget,
            &number,
            on_test,
        );
        let failure = match phase {
            Err(_) if crate::interrupt::requested().is_some() => return Ok(interrupted(&done)),
            other => other?,
        };
        let confirmed = match failure {
            Some(f) if jobs > 1 && f.result.verdict == Verdict::TLE => match target.run(&f.test) {
                Ok(again) => (again.verdict != Verdict::AC).then_some(f),
                Err(SandboxError::Interrupted(_)) => return Ok(interrupted(&done)),
                Err(e) => return Err(e.into()),
            },
            other => other,
        };
        // Stop at a confirmed failure, or when the budget ended the phase; an unconfirmed
        // TLE (load noise) lets the search go on from where it was.
        if confirmed.is_some() || over_budget(next.load(Ordering::SeqCst)) {
            return Ok(SearchOutcome {
                tests_run: done.into_inner(),
                elapsed: start.elapsed(),
                failure: confirmed,
                interrupted: false,
            });
        }
    }
}

/// Workers take test numbers from `next` until one fails, an error occurs or the budget is
/// spent; returns the failure with the smallest test number.
#[allow(clippy::too_many_arguments)]
fn search_phase(
    target: &Target,
    sources: &[Source],
    base_seed: u64,
    jobs: usize,
    next: &AtomicU64,
    done: &AtomicU64,
    over_budget: &(dyn Fn(u64) -> bool + Sync),
    number: &(dyn Fn(u64) -> u64 + Sync),
    on_test: &(dyn Fn(u64) + Sync),
) -> Result<Option<Failure>, anyhow::Error> {
    let stop = AtomicBool::new(false);
    let found: Mutex<Option<Failure>> = Mutex::new(None);
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                while !stop.load(Ordering::SeqCst) {
                    let j = next.fetch_add(1, Ordering::SeqCst);
                    if over_budget(j) {
                        break;
                    }
                    let k = number(j);
                    let source = &sources[(k % sources.len() as u64) as usize];
                    let seed = test_seed(base_seed, k);
                    let outcome = target
                        .make_test(source, seed, format!("stress-{k}"))
                        .map_err(anyhow::Error::msg)
                        .and_then(|t| Ok((target.run(&t)?, t)));
                    match outcome {
                        Ok((result, test)) => {
                            on_test(done.fetch_add(1, Ordering::SeqCst) + 1);
                            if result.verdict != Verdict::AC {
                                let mut f = found.lock().unwrap_or_else(|p| p.into_inner());
                                if f.as_ref().is_none_or(|f| k < f.index) {
                                    *f = Some(Failure {
                                        index: k,
                                        source: source.clone(),
                                        seed,
                                        test,
                                        result,
                                    });
                                }
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                        Err(e) => {
                            error
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(found.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// The result of shrinking.
#[derive(Debug)]
pub struct Shrunk {
    pub test: TestCase,
    pub result: TestResult,
    /// Accepted shrink steps.
    pub steps: u32,
    /// Submission runs spent.
    pub runs: u32,
    /// Judge was asked to stop ([`crate::interrupt`]) while shrinking: `test` is the
    /// smallest failing input found until then.
    pub interrupted: bool,
}

/// Greedily replaces the failing input by the first simpler candidate (from the problem's
/// shrink hook) on which the submission fails with the same verdict, until no candidate
/// fails, `max_runs` runs are spent, `budget` has passed (a TLE costs a full time limit
/// per run) or judge is asked to stop.
pub fn shrink(
    target: &Target,
    failure: &Failure,
    max_runs: u32,
    budget: Duration,
) -> Result<Shrunk, SandboxError> {
    let start = Instant::now();
    let mut best = Shrunk {
        test: failure.test.clone(),
        result: failure.result.clone(),
        steps: 0,
        runs: 0,
        interrupted: false,
    };
    'outer: while best.runs < max_runs {
        for candidate in target.pkg.logic.shrink(&best.test.input) {
            if best.runs >= max_runs || start.elapsed() >= budget {
                break 'outer;
            }
            // A candidate the jury cannot validate or solve is not a usable counterexample.
            if !matches!(target.pkg.logic.validate(candidate.as_bytes()), Ok(Ok(()))) {
                continue;
            }
            let Ok(test) = target.test_from_input(
                candidate,
                "counterexample".into(),
                &failure.source,
                failure.seed,
            ) else {
                continue;
            };
            let result = match target.run(&test) {
                Ok(r) => r,
                Err(SandboxError::Interrupted(_)) => {
                    best.interrupted = true;
                    break 'outer;
                }
                Err(e) => return Err(e),
            };
            best.runs += 1;
            if result.verdict == failure.result.verdict {
                best.test = test;
                best.result = result;
                best.steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    Ok(best)
}
