//! Grading: run one compiled program on a test set in the sandbox and decide a verdict per test.
//!
//! ```text
//!   tests ─► workers (--jobs) ─► Sandbox::run ─► verdict::decide (checker) ─► TestResult
//!                 │                                                          │
//!                 └──── TLE / near-limit under parallel load: re-run alone ◄─┘
//! ```
//!
//! The runner only produces [`Event`]s and results; reporters render them. When judge is asked
//! to stop ([`crate::interrupt`]), no new test starts, a run in progress is discarded, and the
//! finished results are returned with the interruption.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::interrupt::Interrupted;
use crate::problems::Problem;
use crate::sandbox::{Limits, Sandbox, SandboxError};
use crate::testset::TestCase;
use crate::verdict::Verdict;

pub mod memo;
pub mod result;
mod run;
pub mod submission;

pub use run::run_single;
use run::Runner;

/// How to start the program under test (from the compile stage).
#[derive(Debug, Clone, Default)]
pub struct Program {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Folders the program must be able to read (its binary, a runtime).
    pub read_only: Vec<PathBuf>,
    /// Files in its working directory (see [`crate::compile::Compiled::work_files`]).
    pub work_files: Vec<PathBuf>,
    /// Stderr markers meaning the runtime ran out of memory (see [`decide`]).
    pub out_of_memory: Vec<String>,
}

/// Grading options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Parallel runs (>= 1).
    pub jobs: usize,
    /// Run every test instead of stopping after the first failure in test-plan order.
    pub all: bool,
    /// Results at or above this fraction of the CPU limit seen under parallel load are re-run
    /// alone before they are reported.
    pub rerun_fraction: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: 1,
            all: false,
            rerun_fraction: 0.8,
        }
    }
}

/// The result of one test, as reported.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestResult {
    /// Test name (`sample-1`, `distinct-03`).
    pub name: String,
    pub verdict: Verdict,
    /// CPU time in milliseconds.
    pub time_ms: u64,
    /// Wall-clock time in milliseconds.
    pub wall_ms: u64,
    /// Peak memory in KiB.
    pub memory_kib: u64,
    /// Checker reason (WA), signal or exit code (RE), limit (TLE/MLE/OLE), or empty.
    pub message: String,
    /// How many times the test was run (more than 1 when a parallel result was re-checked alone).
    pub runs: u32,
    /// The run had company: another run of this judge was in flight at some moment of it, so
    /// its CPU time may be inflated by them (see [`LOAD_CPU_FACTOR`]). A result that had none
    /// is as good as one re-run alone. Not part of the JSON.
    #[serde(skip)]
    pub shared: bool,
    /// A TLE by the wall-clock backstop that a run alone would get too, every wait the machine
    /// could have caused being measured and left out (see [`crate::sandbox::RunOutcome::settled`]): it is not
    /// re-run alone. Not part of the JSON.
    #[serde(skip)]
    pub settled: bool,
    /// The start of the program's standard output, kept for a non-AC test only (for the HTML
    /// report and pictures; not part of the JSON).
    #[serde(skip)]
    pub output: Option<OutputHead>,
    /// What the output validator said about the score of an accepted output (a scoring
    /// problem): JSON `{"score": 12.5}` (`score.txt`) or `{"multiplier": 0.5}`
    /// (`score_multiplier.txt`), absent when it said nothing; the score the test counts for
    /// is in the report's `score`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "validator_score_json"
    )]
    pub validator_score: Option<crate::problems::ValidatorScore>,
    /// A multi-pass problem's passes: how many ran (the last one decided the verdict; the
    /// times and memory are the largest of any pass, each pass being under the limits on its
    /// own). Absent for any other problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
}

#[cfg(test)]
impl TestResult {
    /// A result for unit tests: `name`'s run with `verdict`, `time_ms` of CPU and of wall
    /// clock, run once, nothing else set.
    pub(crate) fn sample(name: &str, verdict: Verdict, time_ms: u64) -> TestResult {
        TestResult {
            name: name.into(),
            verdict,
            time_ms,
            wall_ms: time_ms,
            memory_kib: 0,
            message: String::new(),
            runs: 1,
            shared: false,
            settled: false,
            output: None,
            validator_score: None,
            passes: None,
        }
    }
}

/// [`TestResult::validator_score`] in JSON (the type itself stays free of serde: it is
/// exported into standalone validators).
mod validator_score_json {
    use crate::problems::ValidatorScore;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case", deny_unknown_fields)]
    enum Json {
        Score(f64),
        Multiplier(f64),
    }

    pub fn serialize<S: Serializer>(v: &Option<ValidatorScore>, s: S) -> Result<S::Ok, S::Error> {
        v.map(|v| match v {
            ValidatorScore::Score(x) => Json::Score(x),
            ValidatorScore::Multiplier(x) => Json::Multiplier(x),
        })
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<ValidatorScore>, D::Error> {
        Ok(Option::<Json>::deserialize(d)?.map(|j| match j {
            Json::Score(x) => ValidatorScore::Score(x),
            Json::Multiplier(x) => ValidatorScore::Multiplier(x),
        }))
    }
}

/// Bytes of a failed test's standard output kept in its [`TestResult`].
pub const KEPT_OUTPUT: usize = 64 * 1024;

/// The first [`KEPT_OUTPUT`] bytes of a program's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputHead {
    pub bytes: Vec<u8>,
    /// The length of the whole output.
    pub len: usize,
}

impl OutputHead {
    pub fn of(stdout: &[u8]) -> OutputHead {
        OutputHead {
            bytes: stdout[..stdout.len().min(KEPT_OUTPUT)].to_vec(),
            len: stdout.len(),
        }
    }
}

/// Progress events for reporters (progress bars, live counters).
#[derive(Debug)]
pub enum Event<'a> {
    /// A test finished (possibly before a confirming re-run).
    TestDone { result: &'a TestResult },
    /// A result is being re-run alone to confirm it.
    Rerun { name: &'a str },
}

/// What [`run_tests`] produced.
#[derive(Debug)]
pub struct TestRun {
    /// Results in test-plan order: every test with `--all`, otherwise the tests up to and
    /// including the first non-AC one. When interrupted: only the tests that finished (a
    /// parallel result still waiting for its confirming re-run is left out).
    pub results: Vec<TestResult>,
    /// The overall verdict (the first non-AC result in test-plan order, else AC), or `None`
    /// when an interruption left it open: a test before the first failure did not finish.
    pub verdict: Option<Verdict>,
    /// Set when judge was asked to stop before every test the verdict needs had run.
    pub interrupted: Option<Interrupted>,
}

impl TestRun {
    /// The results of a run that was not interrupted.
    pub fn complete(self) -> Result<Vec<TestResult>, Interrupted> {
        match self.interrupted {
            Some(i) => Err(i),
            None => Ok(self.results),
        }
    }
}

/// Runs `program` on `tests` (see [`TestRun`] for what comes back).
///
/// `Err` only when the harness could not run a test at all (sandbox failure); an
/// interruption is not an error here: the finished results are still worth reporting.
pub fn run_tests(
    sandbox: &dyn Sandbox,
    program: &Program,
    limits: &Limits,
    tests: &[TestCase],
    logic: &dyn Problem,
    options: &Options,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<TestRun, SandboxError> {
    let goal = Cutoff { all: options.all };
    let plan = Plan {
        program,
        limits,
        tests,
        goal: &goal,
        suspect_from: limits.cpu_time.mul_f64(options.rerun_fraction),
        trusted_from: None,
        memo: None,
    };
    let (mut results, interrupted) = run_plans(
        sandbox,
        logic,
        std::slice::from_ref(&plan),
        options.jobs,
        &|_, e| on_event(e),
    )?;
    let concluded = conclude(results.remove(0), options.all);
    Ok(TestRun {
        results: concluded.results,
        verdict: concluded.verdict,
        // A stop after everything the report covers had run leaves nothing missing.
        interrupted: interrupted.filter(|_| concluded.missing),
    })
}

/// When the results of a test plan decide everything reported about it, so that the other
/// tests need not run (see [`run_plans`]).
pub trait Goal: Sync {
    /// `Some(k)` when the first `k` results (in plan order; `None`: not run) are all present
    /// and decide the outcome whatever the other tests would give: the report covers them.
    /// `None` while undecided. Once `Some(k)`, a longer prefix must decide the same.
    fn decided(&self, results: &[Option<TestResult>]) -> Option<usize>;

    /// Tests from this index on cannot matter, whatever the missing results are (they are
    /// not started). Every test below it having a result must make [`Goal::decided`] `Some`.
    fn horizon(&self, results: &[Option<TestResult>]) -> usize {
        results.len()
    }
}

/// `grade`'s goal: every test (`all`), or the tests up to the first failure.
pub struct Cutoff {
    pub all: bool,
}

impl Goal for Cutoff {
    fn decided(&self, results: &[Option<TestResult>]) -> Option<usize> {
        let k = cutoff(results, self.all);
        results[..k].iter().all(Option::is_some).then_some(k)
    }

    fn horizon(&self, results: &[Option<TestResult>]) -> usize {
        cutoff(results, self.all)
    }
}

/// One program on a test plan, for [`run_plans`].
pub struct Plan<'a> {
    pub program: &'a Program,
    pub limits: &'a Limits,
    pub tests: &'a [TestCase],
    pub goal: &'a dyn Goal,
    /// A result seen under parallel load that is a TLE or JE, or takes at least this much CPU
    /// time, is re-run alone before it counts, if the report covers it (usually
    /// `limits.cpu_time` x [`Options::rerun_fraction`]).
    pub suspect_from: Duration,
    /// A result (not a judge error) that took at least this much CPU time is over the limit
    /// its verdict is read at whatever ran beside it, so it is not re-run alone (see
    /// [`LOAD_CPU_FACTOR`]). Set for runs at a raised CPU limit whose verdicts are read at a
    /// lower one: must-TLE jury submissions.
    pub trusted_from: Option<Duration>,
    /// Where its runs are remembered between verifies (see [`memo`]), if they are.
    pub memo: Option<memo::PlanMemo<'a>>,
}

pub use crate::sandbox::LOAD_CPU_FACTOR;

impl Plan<'_> {
    fn runner<'s>(&'s self, sandbox: &'s dyn Sandbox, logic: &'s dyn Problem) -> Runner<'s> {
        Runner {
            sandbox,
            program: self.program,
            limits: self.limits,
            logic,
        }
    }
}

/// The results of each plan, in plan order (`None`: not run), and whether judge was asked to
/// stop.
pub type PlanResults = (Vec<Vec<Option<TestResult>>>, Option<Interrupted>);

/// Runs several plans on `jobs` threads at once: a pool over (plan, test) pairs, so that
/// short plans and slow tests of one plan do not leave threads idle. A thread takes a test of
/// the plan with the fewest runs in flight, then the fewest tests started (then the first
/// plan), so one plan's slow tests rarely run side by side; a plan gets no new test once its
/// [`Goal`] is decided. Then every suspect result the report covers (see
/// [`Plan::suspect_from`]) is re-run alone, one at a time; a changed result can undo a
/// decision, and the pool runs again.
///
/// Each plan's results are what its tests gave, whatever ran beside them; which tests past
/// a decision also ran depends on scheduling, so callers report a decided prefix only. When
/// interrupted, unconfirmed suspect results are left out. `Err` when the harness could not
/// run a test at all.
pub fn run_plans(
    sandbox: &dyn Sandbox,
    logic: &dyn Problem,
    plans: &[Plan],
    jobs: usize,
    on_event: &(dyn Fn(usize, Event) + Sync),
) -> Result<PlanResults, SandboxError> {
    let mut results: Vec<Vec<Option<TestResult>>> =
        plans.iter().map(|p| vec![None; p.tests.len()]).collect();
    // A result seen under parallel load that must be confirmed by a re-run alone.
    let suspect = |p: &Plan, r: &TestResult| {
        let time = Duration::from_millis(r.time_ms);
        jobs > 1
            && r.runs == 1
            // A run that had no other run of this judge beside it was already alone.
            && r.shared
            // A judge error may be the machine being overloaded by our own parallel runs. An
            // accepted run near the limit is timed (its time counts); any other failure cannot
            // change alone, where it only runs faster (a program's wrong answer, crash or
            // output is its own; an interactive validator's WA before a TLE is causal). A TLE
            // by the wall-clock backstop with every wait of the machine measured is settled.
            && !r.settled
            && (matches!(r.verdict, Verdict::TLE | Verdict::JE)
                || (r.verdict == Verdict::AC && time >= p.suspect_from))
            && (r.verdict == Verdict::JE || p.trusted_from.is_none_or(|t| time < t))
    };
    // How many results of plan `p` the report covers, as far as they go.
    let covered =
        |p: &Plan, r: &[Option<TestResult>]| p.goal.decided(r).unwrap_or_else(|| p.goal.horizon(r));
    let mut interrupted = None;
    'rounds: loop {
        let stop = pool(sandbox, logic, plans, &mut results, jobs, on_event)?;
        if stop.is_some() {
            interrupted = stop;
            break;
        }
        let mut rerun = false;
        for (k, (p, rs)) in plans.iter().zip(results.iter_mut()).enumerate() {
            let upto = covered(p, rs).min(p.tests.len());
            for (slot, test) in rs[..upto].iter_mut().zip(p.tests) {
                let Some(r) = slot.as_ref().filter(|r| suspect(p, r)) else {
                    continue;
                };
                on_event(k, Event::Rerun { name: &r.name });
                match p.runner(sandbox, logic).run_one(test) {
                    Ok(mut again) => {
                        again.runs = 2;
                        *slot = Some(again);
                        rerun = true;
                    }
                    Err(SandboxError::Interrupted(stop)) => {
                        interrupted = Some(stop);
                        break 'rounds;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        if !rerun {
            break;
        }
    }
    if interrupted.is_some() {
        // Unconfirmed results are no verdicts.
        for (p, rs) in plans.iter().zip(results.iter_mut()) {
            for r in rs.iter_mut() {
                if r.as_ref().is_some_and(|r| suspect(p, r)) {
                    *r = None;
                }
            }
        }
    }
    for (p, rs) in plans.iter().zip(&results) {
        if let Some(m) = p.memo {
            let done = rs
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some((i, r.as_ref()?)));
            m.remember(done.filter(|(_, r)| !suspect(p, r)), p.suspect_from);
        }
    }
    Ok((results, interrupted))
}

/// [`run_plans`], keeping of each plan the results its report covers: the prefix its goal
/// decides (all it ran when interrupted before that).
pub fn run_decided(
    sandbox: &dyn Sandbox,
    logic: &dyn Problem,
    plans: &[Plan],
    jobs: usize,
) -> Result<(Vec<Vec<TestResult>>, Option<Interrupted>), SandboxError> {
    let (results, interrupted) = run_plans(sandbox, logic, plans, jobs, &|_, _| {})?;
    let covered = plans
        .iter()
        .zip(results)
        .map(|(p, rs)| {
            let k = p.goal.decided(&rs).unwrap_or(rs.len());
            rs.into_iter().take(k).flatten().collect()
        })
        .collect();
    Ok((covered, interrupted))
}

/// The scheduling state of [`pool`], behind one lock.
struct PoolState<'r> {
    results: &'r mut [Vec<Option<TestResult>>],
    /// Per plan and test: handed to a thread in this round (or done before it).
    started: Vec<Vec<bool>>,
    in_flight: Vec<usize>,
    /// Per plan: tests started (or done).
    taken: Vec<usize>,
    /// Per plan: its goal is decided (no new tests).
    decided: Vec<bool>,
    /// The (plan, test) pairs running now.
    active: Vec<(usize, usize)>,
    /// Per plan and test: the run had company (see [`TestResult::shared`]).
    shared: Vec<Vec<bool>>,
    error: Option<SandboxError>,
}

impl PoolState<'_> {
    /// The next (plan, test) to run, if any.
    fn next(&mut self, plans: &[Plan]) -> Option<(usize, usize)> {
        if self.error.is_some() {
            return None;
        }
        let mut best: Option<(usize, usize, usize, usize)> = None;
        for (k, p) in plans.iter().enumerate() {
            if self.decided[k] {
                continue;
            }
            let horizon = p.goal.horizon(&self.results[k]).min(p.tests.len());
            let Some(i) = (0..horizon).find(|&i| !self.started[k][i]) else {
                continue;
            };
            let key = (self.in_flight[k], self.taken[k], k, i);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
        let (_, _, k, i) = best?;
        self.started[k][i] = true;
        self.in_flight[k] += 1;
        self.taken[k] += 1;
        // Every run now in flight has company, this one too, if any is.
        if !self.active.is_empty() {
            self.shared[k][i] = true;
            for &(a, b) in &self.active {
                self.shared[a][b] = true;
            }
        }
        self.active.push((k, i));
        Some((k, i))
    }

    /// Ends the run of test `i` of plan `k`: whether it had company.
    fn finish(&mut self, k: usize, i: usize) -> bool {
        self.in_flight[k] -= 1;
        self.active.retain(|&run| run != (k, i));
        self.shared[k][i]
    }
}

/// One round of [`run_plans`]: runs on `jobs` threads every test a plan still needs. Returns
/// the interruption if judge was asked to stop (then some tests did not run).
fn pool(
    sandbox: &dyn Sandbox,
    logic: &dyn Problem,
    plans: &[Plan],
    results: &mut [Vec<Option<TestResult>>],
    jobs: usize,
    on_event: &(dyn Fn(usize, Event) + Sync),
) -> Result<Option<Interrupted>, SandboxError> {
    // Remembered results first, in plan order until the plan is decided: a worker must not
    // start a test beside a remembered failure that decides its plan at once.
    for (k, p) in plans.iter().enumerate() {
        let Some(memo) = p.memo else {
            continue;
        };
        let mut decided = p.goal.decided(&results[k]).is_some();
        for i in 0..p.tests.len() {
            if decided {
                break;
            }
            if results[k][i].is_some() {
                continue;
            }
            if let Some(mut r) = memo.recall(i) {
                // A remembered result was confirmed when it was made.
                r.shared = false;
                on_event(k, Event::TestDone { result: &r });
                results[k][i] = Some(r);
                decided = p.goal.decided(&results[k]).is_some();
            }
        }
    }
    let started: Vec<Vec<bool>> = results
        .iter()
        .map(|rs| rs.iter().map(Option::is_some).collect())
        .collect();
    let taken = started
        .iter()
        .map(|s| s.iter().filter(|b| **b).count())
        .collect();
    let decided: Vec<bool> = plans
        .iter()
        .zip(results.iter())
        .map(|(p, r)| p.goal.decided(r).is_some())
        .collect();
    // Tests that may run in this round (at most): no more threads than that.
    let work: usize = plans
        .iter()
        .zip(results.iter())
        .zip(&decided)
        .filter(|(_, d)| !**d)
        .map(|((p, r), _)| {
            let horizon = p.goal.horizon(r).min(p.tests.len());
            r[..horizon].iter().filter(|x| x.is_none()).count()
        })
        .sum();
    if work == 0 {
        return Ok(None);
    }
    let shared = plans.iter().map(|p| vec![false; p.tests.len()]).collect();
    let state = Mutex::new(PoolState {
        results,
        started,
        in_flight: vec![0; plans.len()],
        taken,
        decided,
        active: Vec::new(),
        shared,
        error: None,
    });
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, work) {
            s.spawn(|| loop {
                let Some((k, i)) = lock().next(plans) else {
                    break;
                };
                let p = &plans[k];
                let mut outcome = p.runner(sandbox, logic).run_one(&p.tests[i]);
                let shared = lock().finish(k, i);
                if let Ok(r) = &mut outcome {
                    r.shared = shared;
                    on_event(k, Event::TestDone { result: r });
                }
                let mut st = lock();
                match outcome {
                    Ok(r) => {
                        st.results[k][i] = Some(r);
                        st.decided[k] = p.goal.decided(&st.results[k]).is_some();
                    }
                    Err(e) => {
                        st.error.get_or_insert(e);
                        break;
                    }
                }
            });
        }
    });
    match state.into_inner().unwrap_or_else(|e| e.into_inner()).error {
        Some(SandboxError::Interrupted(stop)) => Ok(Some(stop)),
        Some(e) => Err(e),
        None => Ok(None),
    }
}

/// What the results of a test plan conclude (see [`conclude`]).
#[derive(Debug)]
pub struct Concluded {
    /// The results the report covers, in plan order (see [`TestRun::results`]).
    pub results: Vec<TestResult>,
    /// The overall verdict (see [`TestRun::verdict`]).
    pub verdict: Option<Verdict>,
    /// A test the report covers has no result.
    pub missing: bool,
}

/// Concludes a run from its results in plan order (`None`: not run): the verdict, and the
/// results the report covers (all with `all`, else up to the first failure). The one rule
/// for both a run and the merge of partial reports (`judge report merge`).
pub fn conclude(results: Vec<Option<TestResult>>, all: bool) -> Concluded {
    let verdict = decided(&results);
    let cutoff = cutoff(&results, all);
    let missing = results[..cutoff].iter().any(Option::is_none);
    Concluded {
        results: results.into_iter().take(cutoff).flatten().collect(),
        verdict,
        missing,
    }
}

/// The first non-AC result in test-plan order if every test before it has a result; AC if
/// every test has one and passed; `None` while a test before the first failure is missing.
fn decided(results: &[Option<TestResult>]) -> Option<Verdict> {
    for r in results {
        match r {
            None => return None,
            Some(r) if r.verdict != Verdict::AC => return Some(r.verdict),
            Some(_) => {}
        }
    }
    Some(Verdict::AC)
}

/// How many tests (in plan order) the report covers: all with `--all`, else up to and
/// including the first failure seen so far.
fn cutoff(results: &[Option<TestResult>], all: bool) -> usize {
    if all {
        results.len()
    } else {
        first_failure(results).map_or(results.len(), |i| i + 1)
    }
}

fn first_failure(results: &[Option<TestResult>]) -> Option<usize> {
    results
        .iter()
        .position(|r| r.as_ref().is_some_and(|r| r.verdict != Verdict::AC))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{GenError, GenParams, GeneratorSpec, Judgement, JuryError, Validation};
    use crate::sandbox::fake::ScriptedSandbox;
    use crate::sandbox::{LimitHit, RunOutcome, RunRequest, Stdin, Termination};
    use crate::testset::Origin;

    /// A problem whose checker accepts exactly "ok".
    struct Echo;
    impl Problem for Echo {
        fn name(&self) -> &'static str {
            "echo"
        }
        fn generators(&self) -> &'static [GeneratorSpec] {
            &[]
        }
        fn generate(&self, g: &str, _: &GenParams, _: u64) -> Result<String, GenError> {
            Err(GenError::UnknownGenerator {
                name: g.into(),
                available: String::new(),
            })
        }
        fn validate(&self, _: &[u8]) -> Validation {
            Ok(Ok(()))
        }
        fn solve(&self, _: &str) -> Result<String, JuryError> {
            Ok("ok\n".into())
        }
        fn check(&self, _: &str, _: &str, out: &[u8]) -> Judgement {
            if out == b"ok\n" {
                Judgement::Accepted
            } else {
                Judgement::Rejected("expected ok".into())
            }
        }
        fn mutate_answer(&self, _: &str, _: &str) -> Vec<(String, String)> {
            Vec::new()
        }
        fn shrink(&self, _: &str) -> Vec<String> {
            Vec::new()
        }
    }

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(2),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            stderr_bytes: 1024,
            processes: 1,
        }
    }

    fn ok(cpu_ms: u64) -> RunOutcome {
        RunOutcome {
            termination: Termination::Exited(0),
            limit_hit: None,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms + 1),
            cpu_wait: None,
            peak_memory_kib: 2048,
            forks_refused: 0,
            settled: false,
            stdout: b"ok\n".to_vec(),
            stderr: Vec::new(),
        }
    }

    fn killed(hit: LimitHit) -> RunOutcome {
        RunOutcome {
            termination: Termination::Signaled(libc::SIGKILL),
            limit_hit: Some(hit),
            ..ok(1000)
        }
    }

    fn tests(n: usize) -> Vec<TestCase> {
        (1..=n)
            .map(|i| TestCase {
                name: format!("t-{i}"),
                origin: Origin::External(format!("t-{i}.in").into()),
                input: String::new(),
                answer: "ok\n".into(),
            })
            .collect()
    }

    fn program() -> Program {
        Program {
            argv: vec!["/bin/true".into()],
            ..Program::default()
        }
    }

    fn grade_run(script: Vec<RunOutcome>, n: usize, options: &Options) -> TestRun {
        let sandbox = ScriptedSandbox::new(script);
        run_tests(
            &sandbox,
            &program(),
            &limits(),
            &tests(n),
            &Echo,
            options,
            &|_| {},
        )
        .unwrap()
    }

    #[test]
    fn stops_at_first_failure_by_default() {
        let run = grade_run(
            vec![ok(5), killed(LimitHit::Memory), ok(5)],
            3,
            &Options::default(),
        );
        let verdicts: Vec<_> = run.results.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, vec![Verdict::AC, Verdict::MLE]);
        assert_eq!(run.verdict, Some(Verdict::MLE));
    }

    #[test]
    fn all_runs_every_test_and_reports_each_verdict() {
        let mut wrong = ok(5);
        wrong.stdout = b"no\n".to_vec();
        let script = vec![
            killed(LimitHit::CpuTime),
            wrong,
            killed(LimitHit::Output),
            RunOutcome {
                termination: Termination::Signaled(libc::SIGSEGV),
                ..ok(3)
            },
            ok(2),
        ];
        let options = Options {
            all: true,
            ..Options::default()
        };
        let run = grade_run(script, 5, &options);
        let got: Vec<_> = run
            .results
            .iter()
            .map(|r| (r.verdict, r.message.as_str()))
            .collect();
        assert_eq!(got[0].0, Verdict::TLE);
        assert_eq!(got[1], (Verdict::WA, "expected ok"));
        assert_eq!(got[2].0, Verdict::OLE);
        assert_eq!(got[3], (Verdict::RE, "killed by SIGSEGV"));
        assert_eq!(got[4].0, Verdict::AC);
        assert_eq!(run.verdict, Some(Verdict::TLE));
    }

    #[test]
    fn parallel_tle_is_confirmed_alone_and_can_turn_into_ac() {
        // Two workers; test 2 times out under load, then passes when re-run alone.
        let options = Options {
            jobs: 2,
            all: true,
            ..Options::default()
        };
        let results = two_overlapping(vec![ok(5), killed(LimitHit::CpuTime), ok(400)], &options);
        // Which test got which scripted outcome depends on scheduling; exactly one needed a rerun.
        assert!(results.iter().all(|r| r.verdict == Verdict::AC));
        assert_eq!(results.iter().filter(|r| r.runs == 2).count(), 1);
    }

    #[test]
    fn a_settled_wall_clock_tle_is_not_rerun_alone() {
        // Two workers, both tests stopped by the wall-clock backstop under load: the one whose
        // every wait was measured stands, the other is confirmed alone (and passes there).
        let options = Options {
            jobs: 2,
            all: true,
            ..Options::default()
        };
        let wall = |settled| RunOutcome {
            settled,
            ..killed(LimitHit::WallTime)
        };
        let results = two_overlapping(vec![wall(true), wall(false), ok(5)], &options);
        let mut got: Vec<_> = results.iter().map(|r| (r.verdict, r.runs)).collect();
        got.sort_by_key(|&(_, runs)| runs);
        assert_eq!(got, [(Verdict::TLE, 1), (Verdict::AC, 2)]);
    }

    /// Two tests whose first runs overlap (see [`Meeting`]), run with `script`'s outcomes.
    fn two_overlapping(script: Vec<RunOutcome>, options: &Options) -> Vec<TestResult> {
        let sandbox = Meeting::new(2, ScriptedSandbox::new(script));
        run_tests(
            &sandbox,
            &program(),
            &limits(),
            &tests(2),
            &Echo,
            options,
            &|_| {},
        )
        .unwrap()
        .results
    }

    /// Makes the first `n` runs wait for each other inside the sandbox, so that they overlap
    /// whatever the scheduling (the pool re-runs alone only results that had company).
    struct Meeting<S> {
        n: usize,
        arrived: Mutex<usize>,
        all_here: std::sync::Condvar,
        inner: S,
    }

    impl<S> Meeting<S> {
        fn new(n: usize, inner: S) -> Meeting<S> {
            Meeting {
                n,
                arrived: Mutex::new(0),
                all_here: std::sync::Condvar::new(),
                inner,
            }
        }
    }

    impl<S: Sandbox> Sandbox for Meeting<S> {
        fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
            let mut arrived = self.arrived.lock().unwrap();
            if *arrived < self.n {
                *arrived += 1;
                self.all_here.notify_all();
                let wait = Duration::from_secs(10);
                let (_all, timeout) = self
                    .all_here
                    .wait_timeout_while(arrived, wait, |a| *a < self.n)
                    .unwrap();
                assert!(!timeout.timed_out(), "the first {} runs never met", self.n);
            } else {
                drop(arrived);
            }
            self.inner.run(request)
        }
    }

    /// Answers by the test's input (`ok...`, `wa...`, `tle...`) and logs every run's input.
    struct ByInput(Mutex<Vec<String>>);

    impl ByInput {
        fn new() -> ByInput {
            ByInput(Mutex::new(Vec::new()))
        }
        fn log(&self) -> Vec<String> {
            self.0.lock().unwrap().clone()
        }
        fn runs_of(&self, input: &str) -> usize {
            self.log().iter().filter(|i| *i == input).count()
        }
    }

    impl Sandbox for ByInput {
        fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
            let Stdin::Bytes(input) = &request.stdin else {
                panic!("tests give their input as bytes");
            };
            let input = String::from_utf8(input.clone()).unwrap();
            self.0.lock().unwrap().push(input.clone());
            Ok(if input.starts_with("tle") {
                killed(LimitHit::CpuTime)
            } else if input.starts_with("slowwa") {
                RunOutcome {
                    stdout: b"no\n".to_vec(),
                    ..ok(900)
                }
            } else if input.starts_with("slowok") {
                ok(900)
            } else if input.starts_with("wa") {
                RunOutcome {
                    stdout: b"no\n".to_vec(),
                    ..ok(5)
                }
            } else {
                ok(5)
            })
        }
    }

    fn named(inputs: &[&str]) -> Vec<TestCase> {
        inputs
            .iter()
            .map(|i| TestCase {
                name: i.to_string(),
                origin: Origin::External(format!("{i}.in").into()),
                input: i.to_string(),
                answer: "ok\n".into(),
            })
            .collect()
    }

    fn plan<'a>(
        program: &'a Program,
        tests: &'a [TestCase],
        goal: &'a dyn Goal,
        limits: &'a Limits,
    ) -> Plan<'a> {
        Plan {
            program,
            limits,
            tests,
            goal,
            suspect_from: limits.cpu_time.mul_f64(0.8),
            trusted_from: None,
            memo: None,
        }
    }

    #[test]
    fn plans_take_turns_and_a_decided_plan_gets_no_more_tests() {
        let first_failure = Cutoff { all: false };
        let every = Cutoff { all: true };
        let a = named(&["ok-a1", "wa-a2", "ok-a3", "ok-a4"]);
        let b = named(&["ok-b1", "ok-b2", "ok-b3", "ok-b4"]);
        let (lim, prog) = (limits(), program());
        let plans = [
            plan(&prog, &a, &first_failure, &lim),
            plan(&prog, &b, &every, &lim),
        ];
        let sandbox = ByInput::new();
        let (results, stop) = run_plans(&sandbox, &Echo, &plans, 1, &|_, _| {}).unwrap();
        assert!(stop.is_none());
        assert_eq!(
            sandbox.log(),
            ["ok-a1", "ok-b1", "wa-a2", "ok-b2", "ok-b3", "ok-b4"],
            "one test of each plan in turn; nothing after a's failure"
        );
        assert_eq!(first_failure.decided(&results[0]), Some(2));
        assert_eq!(results[0][1].as_ref().unwrap().verdict, Verdict::WA);
        assert!(results[0][2].is_none() && results[0][3].is_none());
        assert!(results[1]
            .iter()
            .all(|r| r.as_ref().unwrap().verdict == Verdict::AC));
    }

    /// Decided after two tests, whatever they gave.
    struct FirstTwo;
    impl Goal for FirstTwo {
        fn decided(&self, results: &[Option<TestResult>]) -> Option<usize> {
            results[..2].iter().all(Option::is_some).then_some(2)
        }
    }

    #[test]
    fn a_goal_decides_when_a_plan_stops() {
        let tests = named(&["ok-1", "ok-2", "ok-3", "ok-4", "ok-5"]);
        let (lim, prog) = (limits(), program());
        let sandbox = ByInput::new();
        let plans = [plan(&prog, &tests, &FirstTwo, &lim)];
        let (results, _) = run_plans(&sandbox, &Echo, &plans, 1, &|_, _| {}).unwrap();
        assert_eq!(sandbox.log(), ["ok-1", "ok-2"]);
        assert_eq!(results[0].iter().flatten().count(), 2);
    }

    #[test]
    fn only_suspects_the_report_covers_are_rerun_alone() {
        // Two threads on one plan that stops at its first failure: the TLE of test 1 decides
        // and is confirmed alone; a TLE past it (test 2, if it started) is not re-run.
        let goal = Cutoff { all: false };
        let tests = named(&["tle-1", "tle-2", "tle-3"]);
        let (lim, prog) = (limits(), program());
        let sandbox = Meeting::new(2, ByInput::new());
        let plans = [plan(&prog, &tests, &goal, &lim)];
        let (results, _) = run_plans(&sandbox, &Echo, &plans, 2, &|_, _| {}).unwrap();
        let log = &sandbox.inner;
        assert_eq!(log.runs_of("tle-1"), 2, "{:?}", log.log());
        assert!(log.runs_of("tle-2") <= 1, "{:?}", log.log());
        assert_eq!(log.runs_of("tle-3"), 0, "{:?}", log.log());
        let first = results[0][0].as_ref().unwrap();
        assert_eq!((first.verdict, first.runs), (Verdict::TLE, 2));
        assert_eq!(goal.decided(&results[0]), Some(1));
    }

    #[test]
    fn only_accepted_runs_near_the_limit_are_rerun_alone() {
        // Both at 0.9 s of a 1 s limit, beside each other: the accepted run's time counts, so
        // it is confirmed alone; the wrong answer would only be faster alone, still wrong.
        let goal = Cutoff { all: true };
        let tests = named(&["slowok-1", "slowwa-2"]);
        let (lim, prog) = (limits(), program());
        let sandbox = Meeting::new(2, ByInput::new());
        let plans = [plan(&prog, &tests, &goal, &lim)];
        let (results, _) = run_plans(&sandbox, &Echo, &plans, 2, &|_, _| {}).unwrap();
        let log = &sandbox.inner;
        assert_eq!(log.runs_of("slowok-1"), 2, "{:?}", log.log());
        assert_eq!(log.runs_of("slowwa-2"), 1, "{:?}", log.log());
        let wa = results[0][1].as_ref().unwrap();
        assert_eq!((wa.verdict, wa.runs), (Verdict::WA, 1));
    }

    #[test]
    fn runs_far_over_the_limit_are_not_rerun_alone() {
        // A must-TLE plan runs at a raised CPU limit and reads its verdicts at a lower one:
        // results at or past `trusted_from` are over that one whatever ran beside them, so
        // only the others are confirmed alone.
        let goal = Cutoff { all: true };
        let tests = named(&["tle-1", "tle-2", "ok-3"]);
        let (lim, prog) = (limits(), program());
        let rerun_with = |trusted_ms: Option<u64>| {
            let sandbox = Meeting::new(2, ByInput::new());
            let plans = [Plan {
                trusted_from: trusted_ms.map(Duration::from_millis),
                memo: None,
                ..plan(&prog, &tests, &goal, &lim)
            }];
            let (results, _) = run_plans(&sandbox, &Echo, &plans, 2, &|_, _| {}).unwrap();
            assert!(results[0].iter().all(Option::is_some));
            let log = &sandbox.inner;
            (log.runs_of("tle-1"), log.runs_of("tle-2"))
        };
        // The scripted TLEs took 1000 ms of CPU time.
        assert_eq!(rerun_with(Some(1000)), (1, 1));
        assert_eq!(rerun_with(Some(1001)), (2, 2));
        assert_eq!(rerun_with(None), (2, 2));
    }

    #[test]
    fn a_run_without_company_is_not_rerun_alone() {
        // Two threads, but one test, or tests that never overlap: every run was alone, so a
        // TLE is final at once (re-running it alone would only repeat it).
        let goal = Cutoff { all: true };
        let (lim, prog) = (limits(), program());
        let tests = named(&["tle-1"]);
        let sandbox = ByInput::new();
        let plans = [plan(&prog, &tests, &goal, &lim)];
        let (results, _) = run_plans(&sandbox, &Echo, &plans, 2, &|_, _| {}).unwrap();
        assert_eq!(sandbox.runs_of("tle-1"), 1, "{:?}", sandbox.log());
        let r = results[0][0].as_ref().unwrap();
        assert_eq!((r.verdict, r.runs, r.shared), (Verdict::TLE, 1, false));
        // Two tests that met inside the sandbox: both had company, the TLE is confirmed.
        let tests = named(&["ok-1", "tle-2"]);
        let sandbox = Meeting::new(2, ByInput::new());
        let plans = [plan(&prog, &tests, &goal, &lim)];
        let (results, _) = run_plans(&sandbox, &Echo, &plans, 2, &|_, _| {}).unwrap();
        assert_eq!(sandbox.inner.runs_of("tle-2"), 2);
        assert!(results[0].iter().flatten().all(|r| r.shared || r.runs == 2));
    }

    #[test]
    fn sandbox_failure_is_an_error_not_a_verdict() {
        let sandbox = ScriptedSandbox::new(vec![]);
        let err = run_tests(
            &sandbox,
            &program(),
            &limits(),
            &tests(1),
            &Echo,
            &Options::default(),
            &|_| {},
        );
        assert!(err.is_err());
    }

    /// Plays `script` and then reports an interruption (as the sandbox does when judge is
    /// asked to stop during a run).
    struct InterruptedAfter(ScriptedSandbox);

    impl Sandbox for InterruptedAfter {
        fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
            self.0.run(request).map_err(|_| {
                SandboxError::Interrupted(Interrupted {
                    signal: libc::SIGINT,
                })
            })
        }
    }

    fn interrupted_run(script: Vec<RunOutcome>, n: usize, options: &Options) -> TestRun {
        let sandbox = Meeting::new(
            options.jobs.min(n),
            InterruptedAfter(ScriptedSandbox::new(script)),
        );
        run_tests(
            &sandbox,
            &program(),
            &limits(),
            &tests(n),
            &Echo,
            options,
            &|_| {},
        )
        .expect("an interruption is not an error")
    }

    #[test]
    fn interruption_keeps_the_finished_tests_and_leaves_the_verdict_open() {
        let run = interrupted_run(vec![ok(5), ok(5)], 4, &Options::default());
        let names: Vec<_> = run.results.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["t-1", "t-2"]);
        assert_eq!(run.verdict, None);
        assert_eq!(
            run.interrupted.map(|i| i.signal),
            Some(libc::SIGINT),
            "tests are missing"
        );
        assert!(run.complete().is_err());
    }

    #[test]
    fn a_failure_before_the_interruption_decides_the_verdict() {
        let mut wrong = ok(5);
        wrong.stdout = b"no\n".to_vec();
        let all = Options {
            all: true,
            ..Options::default()
        };
        let run = interrupted_run(vec![ok(5), wrong], 4, &all);
        assert_eq!(run.verdict, Some(Verdict::WA));
        assert_eq!(run.results.len(), 2);
        assert!(
            run.interrupted.is_some(),
            "--all: tests 3 and 4 are missing"
        );
    }

    #[test]
    fn an_unconfirmed_parallel_tle_is_not_reported_when_interrupted() {
        // Two workers: one test passes, the other times out under load; the interruption
        // comes during the confirming re-run alone.
        let options = Options {
            jobs: 2,
            all: true,
            ..Options::default()
        };
        let run = interrupted_run(vec![ok(5), killed(LimitHit::CpuTime)], 2, &options);
        assert_eq!(run.results.len(), 1, "{:?}", run.results);
        assert_eq!(run.results[0].verdict, Verdict::AC);
        assert_eq!(run.verdict, None);
        assert!(run.interrupted.is_some());
    }
}
