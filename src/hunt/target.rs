//! What a hunt measures an input on: a submission run in the sandbox (score = its CPU time),
//! or one of the problem's built-in solvers (score = its search nodes, exact and
//! deterministic).

use std::time::Duration;

use crate::grade::{run_single, Program};
use crate::package::Package;
use crate::problems::Hunt;
use crate::sandbox::{Limits, Sandbox};
use crate::testset::{Origin, TestCase};
use crate::verdict::Verdict;

/// What a score counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreKind {
    /// CPU time of a sandboxed run, in microseconds (noisy).
    CpuMicros,
    /// Search nodes of a built-in solver (exact).
    Nodes,
}

/// One input measured.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// AC, or how the input broke the target (a built-in solver that reaches its node cap is
    /// a TLE).
    pub verdict: Verdict,
    /// CPU microseconds or search nodes (see [`ScoreKind`]); higher is worse for the target.
    pub score: u64,
    /// CPU time in milliseconds (0 for a built-in solver).
    pub time_ms: u64,
    /// The checker's reason, the limit, or empty.
    pub message: String,
    /// The jury answer of the input (from the reference solver).
    pub answer: String,
}

/// Something a hunt can measure inputs on.
pub trait Target: Sync {
    /// What [`Evaluation::score`] counts.
    fn kind(&self) -> ScoreKind;

    /// Measures one valid input. `Err` only when the harness could not run it.
    fn evaluate(&self, input: &str) -> anyhow::Result<Evaluation>;
}

/// A compiled submission in the sandbox, judged by the problem's checker.
pub struct SandboxTarget<'a> {
    pub sandbox: &'a dyn Sandbox,
    pub program: &'a Program,
    pub limits: &'a Limits,
    pub pkg: &'a Package,
}

impl SandboxTarget<'_> {
    /// The test case for `input`, answered by the reference solver (`Err`: the jury's
    /// solver failed, a judge error).
    pub fn test(&self, input: &str) -> anyhow::Result<TestCase> {
        Ok(TestCase {
            name: "hunt".into(),
            origin: Origin::External("hunt".into()),
            input: input.to_string(),
            answer: self.pkg.logic.solve(input)?,
        })
    }
}

impl Target for SandboxTarget<'_> {
    fn kind(&self) -> ScoreKind {
        ScoreKind::CpuMicros
    }

    fn evaluate(&self, input: &str) -> anyhow::Result<Evaluation> {
        let test = self.test(input)?;
        let (result, cpu) = run_single(
            self.sandbox,
            self.program,
            self.limits,
            self.pkg.logic.as_ref(),
            &test,
        )?;
        // A run killed at the limit may report a little less than it; rank it at the limit.
        let cpu = if result.verdict == Verdict::TLE {
            cpu.max(self.limits.cpu_time)
        } else {
            cpu
        };
        Ok(Evaluation {
            verdict: result.verdict,
            score: micros(cpu),
            time_ms: result.time_ms,
            message: result.message,
            answer: test.answer,
        })
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A built-in solver of the problem, scored by its search nodes up to `cap`.
pub struct SolverTarget<'a> {
    pub hooks: &'a dyn Hunt,
    pub pkg: &'a Package,
    pub solver: &'a str,
    pub cap: u64,
}

impl Target for SolverTarget<'_> {
    fn kind(&self) -> ScoreKind {
        ScoreKind::Nodes
    }

    fn evaluate(&self, input: &str) -> anyhow::Result<Evaluation> {
        let nodes = self
            .hooks
            .work(self.solver, input, self.cap)
            .ok_or_else(|| anyhow::anyhow!("no built-in solver `{}`", self.solver))?;
        let capped = nodes >= self.cap;
        Ok(Evaluation {
            verdict: if capped { Verdict::TLE } else { Verdict::AC },
            score: nodes,
            time_ms: 0,
            message: if capped {
                format!("reached the cap of {} nodes", self.cap)
            } else {
                String::new()
            },
            answer: self.pkg.logic.solve(input)?,
        })
    }
}
