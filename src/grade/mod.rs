//! Grading: run one compiled program on a test set in the sandbox and decide a verdict per test.
//!
//! ```text
//!   tests ─► workers (--jobs) ─► Sandbox::run ─► verdict::decide (checker) ─► TestResult
//!                 │                                                          │
//!                 └──── TLE / near-limit under parallel load: re-run alone ◄─┘
//! ```
//!
//! The runner only produces [`Event`]s and results; reporters render them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::problems::Problem;
use crate::sandbox::{Limits, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin};
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
#[derive(Debug, Clone, Serialize)]
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
}

/// Progress events for reporters (progress bars, live counters).
#[derive(Debug)]
pub enum Event<'a> {
    /// A test finished (possibly before a confirming re-run).
    TestDone { result: &'a TestResult },
    /// A result is being re-run alone to confirm it.
    Rerun { name: &'a str },
}

/// Runs `program` on `tests` and returns the results in test-plan order: every test with
/// `options.all`, otherwise the tests up to and including the first non-AC one.
///
/// `Err` only when the harness could not run a test at all (sandbox failure).
pub fn run_tests(
    sandbox: &dyn Sandbox,
    program: &Program,
    limits: &Limits,
    tests: &[TestCase],
    logic: &dyn Problem,
    options: &Options,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Vec<TestResult>, SandboxError> {
    let mut results: Vec<Option<TestResult>> = vec![None; tests.len()];
    let runner = Runner {
        sandbox,
        program,
        limits,
        logic,
    };
    loop {
        // Tests still to run: all not yet run, before the first failure unless --all.
        let cutoff = cutoff(&results, options.all);
        let pending: Vec<usize> = (0..cutoff).filter(|&i| results[i].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        let fresh = runner.run_parallel(tests, &pending, options, on_event)?;
        for (i, r) in fresh {
            results[i] = Some(r);
        }
        if options.jobs > 1 {
            let threshold = limits.cpu_time.mul_f64(options.rerun_fraction);
            for i in 0..results.len() {
                let Some(r) = &results[i] else { continue };
                let near = Duration::from_millis(r.time_ms) >= threshold;
                if r.runs == 1 && (r.verdict == Verdict::TLE || near) {
                    on_event(Event::Rerun { name: &r.name });
                    let mut again = runner.run_one(&tests[i])?;
                    again.runs = 2;
                    results[i] = Some(again);
                }
            }
        }
    }
    let cutoff = cutoff(&results, options.all);
    Ok(results.into_iter().take(cutoff).flatten().collect())
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

/// The overall verdict: the first non-AC result in test-plan order, else AC.
pub fn overall(results: &[TestResult]) -> Verdict {
    results
        .iter()
        .map(|r| r.verdict)
        .find(|&v| v != Verdict::AC)
        .unwrap_or(Verdict::AC)
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
    /// worker skips tests after the earliest failure seen so far.
    fn run_parallel(
        &self,
        tests: &[TestCase],
        pending: &[usize],
        options: &Options,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Result<Vec<(usize, TestResult)>, SandboxError> {
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
        if let Some(e) = error.into_inner().ok().flatten() {
            return Err(e);
        }
        Ok(out.into_inner().unwrap_or_default())
    }

    /// Runs one test in a fresh private working directory and judges it.
    fn run_one(&self, test: &TestCase) -> Result<TestResult, SandboxError> {
        self.run_measured(test).map(|(result, _)| result)
    }

    /// [`Runner::run_one`], also returning the exact CPU time.
    fn run_measured(&self, test: &TestCase) -> Result<(TestResult, Duration), SandboxError> {
        let work = tempfile::Builder::new().prefix("judge-run-").tempdir()?;
        let request = RunRequest {
            argv: self.program.argv.clone(),
            env: self.program.env.clone(),
            stdin: Stdin::Bytes(test.input.as_bytes().to_vec()),
            read_only: self.program.read_only.clone(),
            work_dir: work.path().to_path_buf(),
            limits: self.limits.clone(),
        };
        let outcome = self.sandbox.run(&request)?;
        Ok((self.judge(test, &outcome), outcome.cpu_time))
    }

    fn judge(&self, test: &TestCase, outcome: &RunOutcome) -> TestResult {
        let (verdict, message) = decide(outcome, self.limits, &self.program.out_of_memory, |out| {
            self.logic.check(&test.input, &test.answer, out)
        });
        TestResult {
            name: test.name.clone(),
            verdict,
            time_ms: outcome.cpu_time.as_millis() as u64,
            wall_ms: outcome.wall_time.as_millis() as u64,
            memory_kib: outcome.peak_memory_kib,
            message,
            runs: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{GenError, GenParams, GeneratorSpec, Judgement, Violation};
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
        fn validate(&self, _: &[u8]) -> Result<(), Violation> {
            Ok(())
        }
        fn solve(&self, _: &str) -> String {
            "ok\n".into()
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
            peak_memory_kib: 2048,
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

    fn grade(script: Vec<RunOutcome>, n: usize, options: &Options) -> Vec<TestResult> {
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
        let results = grade(
            vec![ok(5), killed(LimitHit::Memory), ok(5)],
            3,
            &Options::default(),
        );
        let verdicts: Vec<_> = results.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, vec![Verdict::AC, Verdict::MLE]);
        assert_eq!(overall(&results), Verdict::MLE);
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
        let results = grade(script, 5, &options);
        let got: Vec<_> = results
            .iter()
            .map(|r| (r.verdict, r.message.as_str()))
            .collect();
        assert_eq!(got[0].0, Verdict::TLE);
        assert_eq!(got[1], (Verdict::WA, "expected ok"));
        assert_eq!(got[2].0, Verdict::OLE);
        assert_eq!(got[3], (Verdict::RE, "killed by SIGSEGV"));
        assert_eq!(got[4].0, Verdict::AC);
        assert_eq!(overall(&results), Verdict::TLE);
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
        .unwrap();
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
}
