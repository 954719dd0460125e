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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::interrupt::{self, Interrupted};
use crate::problems::{Interaction, Judgement, Problem};
use crate::sandbox::{
    LimitHit, Limits, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin, Stdout,
};
use crate::testset::TestCase;
use crate::verdict::{decide, Verdict};

pub mod submission;

/// How to start the program under test (from the compile stage).
#[derive(Debug, Clone)]
pub struct Program {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Folders the program must be able to read (its binary, a runtime).
    pub read_only: Vec<PathBuf>,
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
    /// The start of the program's standard output, kept for a non-AC test only (for the HTML
    /// report and pictures; not part of the JSON).
    #[serde(skip)]
    pub output: Option<OutputHead>,
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
    let mut results: Vec<Option<TestResult>> = vec![None; tests.len()];
    let runner = Runner {
        sandbox,
        program,
        limits,
        logic,
    };
    let threshold = limits.cpu_time.mul_f64(options.rerun_fraction);
    // A result seen under parallel load that must be confirmed by a re-run alone.
    let suspect = |r: &TestResult| {
        options.jobs > 1
            && r.runs == 1
            // A judge error may be the machine being overloaded by our own parallel runs.
            && (matches!(r.verdict, Verdict::TLE | Verdict::JE)
                || Duration::from_millis(r.time_ms) >= threshold)
    };
    let mut interrupted = None;
    'plan: loop {
        // Tests still to run: all not yet run, before the first failure unless --all.
        let cutoff = cutoff(&results, options.all);
        let pending: Vec<usize> = (0..cutoff).filter(|&i| results[i].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        let (fresh, stop) = runner.run_parallel(tests, &pending, options, on_event)?;
        for (i, r) in fresh {
            results[i] = Some(r);
        }
        if stop.is_some() {
            interrupted = stop;
            break;
        }
        for i in 0..results.len() {
            let Some(r) = &results[i] else { continue };
            if suspect(r) {
                on_event(Event::Rerun { name: &r.name });
                match runner.run_one(&tests[i]) {
                    Ok(mut again) => {
                        again.runs = 2;
                        results[i] = Some(again);
                    }
                    Err(SandboxError::Interrupted(stop)) => {
                        interrupted = Some(stop);
                        break 'plan;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
    }
    if interrupted.is_some() {
        // Unconfirmed results are no verdicts.
        for r in results.iter_mut() {
            if r.as_ref().is_some_and(&suspect) {
                *r = None;
            }
        }
    }
    let concluded = conclude(results, options.all);
    Ok(TestRun {
        results: concluded.results,
        verdict: concluded.verdict,
        // A stop after everything the report covers had run leaves nothing missing.
        interrupted: interrupted.filter(|_| concluded.missing),
    })
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

/// Says once per process that the machine is too busy to judge (see
/// [`LimitHit::Overloaded`]); the affected results are judge errors.
fn warn_overloaded() {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::SeqCst) {
        eprintln!(
            "warning: this machine is overloaded: a program got too little CPU to be judged, \
             and its result is a judge error (JE), not a verdict; free some CPU or lower --jobs"
        );
    }
}

/// Runs `program` once on `test`, alone, and judges it. Also returns the exact CPU time (the
/// result's `time_ms` is rounded down to whole milliseconds), for searches that rank runs by
/// time.
pub fn run_single(
    sandbox: &dyn Sandbox,
    program: &Program,
    limits: &Limits,
    logic: &dyn Problem,
    test: &TestCase,
) -> Result<(TestResult, Duration), SandboxError> {
    Runner {
        sandbox,
        program,
        limits,
        logic,
    }
    .run_measured(test)
}

struct Runner<'a> {
    sandbox: &'a dyn Sandbox,
    program: &'a Program,
    limits: &'a Limits,
    logic: &'a dyn Problem,
}

impl Runner<'_> {
    /// Runs `pending` (indices into `tests`) on `options.jobs` threads. Without `--all`, a
    /// worker skips tests after the earliest failure seen so far. Returns the finished results
    /// and, if judge was asked to stop, the interruption (then some tests did not run).
    #[allow(clippy::type_complexity)]
    fn run_parallel(
        &self,
        tests: &[TestCase],
        pending: &[usize],
        options: &Options,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Result<(Vec<(usize, TestResult)>, Option<Interrupted>), SandboxError> {
        let next = AtomicUsize::new(0);
        let earliest_fail = AtomicUsize::new(usize::MAX);
        let out = Mutex::new(Vec::new());
        let error = Mutex::new(None);
        let workers = options.jobs.clamp(1, pending.len().max(1));
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&i) = pending.get(k) else { break };
                    if !options.all && i > earliest_fail.load(Ordering::SeqCst) {
                        continue;
                    }
                    if error.lock().map(|e| e.is_some()).unwrap_or(true) {
                        break;
                    }
                    match self.run_one(&tests[i]) {
                        Ok(r) => {
                            if r.verdict != Verdict::AC {
                                earliest_fail.fetch_min(i, Ordering::SeqCst);
                            }
                            on_event(Event::TestDone { result: &r });
                            if let Ok(mut o) = out.lock() {
                                o.push((i, r));
                            }
                        }
                        Err(e) => {
                            if let Ok(mut slot) = error.lock() {
                                slot.get_or_insert(e);
                            }
                            break;
                        }
                    }
                });
            }
        });
        let out = out.into_inner().unwrap_or_default();
        match error.into_inner().ok().flatten() {
            Some(SandboxError::Interrupted(stop)) => Ok((out, Some(stop))),
            Some(e) => Err(e),
            None => Ok((out, None)),
        }
    }

    /// Runs one test in a fresh private working directory and judges it.
    /// [`SandboxError::Interrupted`] when judge is asked to stop before or during the run: a
    /// program killed by the terminal's SIGINT is no verdict.
    fn run_one(&self, test: &TestCase) -> Result<TestResult, SandboxError> {
        self.run_measured(test).map(|(result, _)| result)
    }

    /// [`Runner::run_one`], also returning the exact CPU time.
    fn run_measured(&self, test: &TestCase) -> Result<(TestResult, Duration), SandboxError> {
        interrupt::check()?;
        let request = RunRequest {
            argv: self.program.argv.clone(),
            env: self.program.env.clone(),
            stdin: Stdin::Bytes(test.input.as_bytes().to_vec()),
            stdout: Stdout::Capture,
            read_only: self.program.read_only.clone(),
            work_dir: None,
            limits: self.limits.clone(),
        };
        if let Some(interaction) = self.logic.interact(self.sandbox, request.clone(), test) {
            let interaction = interaction?;
            let cpu = interaction.outcome.cpu_time;
            return Ok((self.judge_interaction(test, interaction), cpu));
        }
        let outcome = self.sandbox.run(&request)?;
        interrupt::check()?;
        Ok((self.judge(test, &outcome), outcome.cpu_time))
    }

    /// An interactive run's verdict, in problemtools' order: a failed jury program is a JE;
    /// a jury program that ended first with a rejection is a WA, whatever the submission did
    /// afterwards; otherwise the submission's limits and crashes come before the jury's verdict.
    fn judge_interaction(&self, test: &TestCase, i: Interaction) -> TestResult {
        let (verdict, message) = match i.judgement {
            Judgement::JudgeError(m) => (Verdict::JE, format!("checker: {m}")),
            Judgement::Rejected(m) if i.jury_first => (Verdict::WA, m),
            j => decide(&i.outcome, self.limits, &self.program.out_of_memory, |_| j),
        };
        TestResult {
            name: test.name.clone(),
            verdict,
            time_ms: i.outcome.cpu_time.as_millis() as u64,
            wall_ms: i.outcome.wall_time.as_millis() as u64,
            memory_kib: i.outcome.peak_memory_kib,
            message,
            runs: 1,
            // The submission's output went to the jury program.
            output: None,
        }
    }

    fn judge(&self, test: &TestCase, outcome: &RunOutcome) -> TestResult {
        if outcome.limit_hit == Some(LimitHit::Overloaded) {
            warn_overloaded();
        }
        let (verdict, message) = decide(outcome, self.limits, &self.program.out_of_memory, |out| {
            self.logic.check_test(test, out)
        });
        TestResult {
            name: test.name.clone(),
            verdict,
            time_ms: outcome.cpu_time.as_millis() as u64,
            wall_ms: outcome.wall_time.as_millis() as u64,
            memory_kib: outcome.peak_memory_kib,
            message,
            runs: 1,
            output: (verdict != Verdict::AC).then(|| OutputHead::of(&outcome.stdout)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{GenError, GenParams, GeneratorSpec, JuryError, Validation};
    use crate::sandbox::fake::ScriptedSandbox;
    use crate::sandbox::{LimitHit, Termination};
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
            env: Vec::new(),
            read_only: Vec::new(),
            out_of_memory: Vec::new(),
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
        let sandbox = ScriptedSandbox::new(vec![ok(5), killed(LimitHit::CpuTime), ok(400)]);
        let results = run_tests(
            &sandbox,
            &program(),
            &limits(),
            &tests(2),
            &Echo,
            &options,
            &|_| {},
        )
        .unwrap()
        .results;
        // Which test got which scripted outcome depends on scheduling; exactly one needed a rerun.
        assert!(results.iter().all(|r| r.verdict == Verdict::AC));
        assert_eq!(results.iter().filter(|r| r.runs == 2).count(), 1);
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
        let sandbox = InterruptedAfter(ScriptedSandbox::new(script));
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
