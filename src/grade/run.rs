//! One run of one test: the program in the sandbox (or with the problem's interactive jury
//! program), then the verdict from the outcome and the checker's judgement.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{OutputHead, Program, TestResult};
use crate::interrupt;
use crate::problems::{Interaction, Judgement, Passes, Problem, TestCase, ValidatorScore};
use crate::sandbox::{
    LimitHit, Limits, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin, Stdout,
};
use crate::verdict::{decide, Verdict};

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

/// One program under its limits, run on a test and judged by the problem's checker.
pub(super) struct Runner<'a> {
    pub(super) sandbox: &'a dyn Sandbox,
    pub(super) program: &'a Program,
    pub(super) limits: &'a Limits,
    pub(super) logic: &'a dyn Problem,
}

impl Runner<'_> {
    /// Runs one test in a fresh private working directory and judges it.
    /// [`SandboxError::Interrupted`] when judge is asked to stop before or during the run: a
    /// program killed by the terminal's SIGINT is no verdict.
    pub(super) fn run_one(&self, test: &TestCase) -> Result<TestResult, SandboxError> {
        self.run_measured(test).map(|(result, _)| result)
    }

    /// [`Runner::run_one`], also returning the exact CPU time.
    pub(super) fn run_measured(
        &self,
        test: &TestCase,
    ) -> Result<(TestResult, Duration), SandboxError> {
        interrupt::check()?;
        let request = RunRequest {
            argv: self.program.argv.clone(),
            env: self.program.env.clone(),
            stdin: Stdin::Bytes(test.input.as_bytes().to_vec()),
            stdout: Stdout::Capture,
            read_only: self.program.read_only.clone(),
            work_dir: None,
            work_files: self.program.work_files.clone(),
            limits: self.limits.clone(),
            stop: None,
            companions: None,
        };
        if let Some(passes) = self.logic.passes(test) {
            return self.run_passes(test, request, passes?);
        }
        if let Some(interaction) = self.logic.interact(self.sandbox, request.clone(), test) {
            let interaction = interaction?;
            let cpu = interaction.outcome.cpu_time;
            return Ok((self.judge_interaction(test, interaction), cpu));
        }
        let outcome = self.sandbox.run(&request)?;
        interrupt::check()?;
        Ok((self.judge(test, &outcome), outcome.cpu_time))
    }

    /// A multi-pass test: the submission runs once per pass, a fresh process each time, on
    /// the test's input and then on each input the jury side asks for, until a pass is not
    /// accepted or no further pass is asked for. The last pass decides the verdict; the time
    /// and memory are the largest of any pass (the limits hold for each pass on its own).
    fn run_passes(
        &self,
        test: &TestCase,
        request: RunRequest,
        mut passes: Box<dyn Passes + '_>,
    ) -> Result<(TestResult, Duration), SandboxError> {
        let mut input = test.input.as_bytes().to_vec();
        let (mut cpu, mut wall_ms, mut memory_kib) = (Duration::ZERO, 0, 0);
        for pass in 1.. {
            interrupt::check()?;
            let mut request = request.clone();
            request.stdin = Stdin::Bytes(input.clone());
            let (mut result, pass_cpu, next) = if passes.interactive() {
                let mut i = passes.interact(self.sandbox, request, &input)?;
                let next = i.next_pass.take();
                let pass_cpu = i.outcome.cpu_time;
                (self.judge_interaction(test, i), pass_cpu, next)
            } else {
                let outcome = self.sandbox.run(&request)?;
                interrupt::check()?;
                let mut next = None;
                let result = self.judge_with(test, &outcome, |out| {
                    let p = passes.check(&input, out);
                    next = p.next_pass;
                    (p.judgement, p.score)
                });
                (result, outcome.cpu_time, next)
            };
            cpu = cpu.max(pass_cpu);
            wall_ms = result.wall_ms.max(wall_ms);
            memory_kib = result.memory_kib.max(memory_kib);
            match next {
                Some(next) if result.verdict == Verdict::AC => input = next,
                _ => {
                    result.time_ms = cpu.as_millis() as u64;
                    result.wall_ms = wall_ms;
                    result.memory_kib = memory_kib;
                    result.passes = Some(pass);
                    return Ok((result, cpu));
                }
            }
        }
        unreachable!("the passes of a test end")
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
            shared: false,
            settled: i.outcome.settled && verdict == Verdict::TLE,
            // The submission's output went to the jury program.
            output: None,
            validator_score: i.score.filter(|_| verdict == Verdict::AC),
            passes: None,
        }
    }

    fn judge(&self, test: &TestCase, outcome: &RunOutcome) -> TestResult {
        self.judge_with(test, outcome, |out| self.logic.check_test_scored(test, out))
    }

    /// A run's verdict, its output judged by `check` (called only for a run that ended
    /// normally).
    fn judge_with(
        &self,
        test: &TestCase,
        outcome: &RunOutcome,
        check: impl FnOnce(&[u8]) -> (Judgement, Option<ValidatorScore>),
    ) -> TestResult {
        if outcome.limit_hit == Some(LimitHit::Overloaded) {
            warn_overloaded();
        }
        let mut validator_score = None;
        let (verdict, message) = decide(outcome, self.limits, &self.program.out_of_memory, |out| {
            let (judgement, score) = check(out);
            validator_score = score;
            judgement
        });
        TestResult {
            name: test.name.clone(),
            verdict,
            time_ms: outcome.cpu_time.as_millis() as u64,
            wall_ms: outcome.wall_time.as_millis() as u64,
            memory_kib: outcome.peak_memory_kib,
            message,
            runs: 1,
            shared: false,
            settled: outcome.settled && verdict == Verdict::TLE,
            output: (verdict != Verdict::AC).then(|| OutputHead::of(&outcome.stdout)),
            validator_score: validator_score.filter(|_| verdict == Verdict::AC),
            passes: None,
        }
    }
}
