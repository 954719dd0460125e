//! A whole stress run: search → shrink → save. The runner only emits [`Event`]s and returns a
//! [`StressReport`]; reporters (`report::stress`: terminal lines, JSON) render them.
//!
//! ```text
//!   Started ─► Progress* ─► Found ─► Shrunk ─► Saved        (a failure)
//!   Started ─► Progress*                                    (no failure within the budget)
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::{search, shrink, Budget, Source, Target};
use crate::fsutil::write_atomic;
use crate::grade::result::CompileReport;
use crate::partition::Partition;
use crate::verdict::Verdict;

/// What to do in a run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub sources: Vec<Source>,
    /// Base seed (test `k` uses `test_seed(seed, k)`).
    pub seed: u64,
    pub budget: Budget,
    pub jobs: usize,
    /// Submission runs spent on shrinking at most.
    pub shrink_runs: u32,
    /// Time spent on shrinking at most.
    pub shrink_time: Duration,
    /// Folder for the counterexample.
    pub out: PathBuf,
    /// Run only this part's test numbers (`--partition K/N`).
    pub partition: Option<Partition>,
}

/// Progress of a stress run, in order.
#[derive(Debug)]
pub enum Event<'a> {
    /// The search starts.
    Started {
        seed: u64,
        sources: usize,
        jobs: usize,
    },
    /// `count` tests have finished (possibly out of order across workers).
    Progress { count: u64 },
    /// The first failure (before shrinking).
    Found {
        failure: &'a FailureReport,
        tests_run: u64,
        elapsed_ms: u64,
    },
    /// Shrinking is done.
    Shrunk { shrunk: &'a ShrunkReport },
    /// The counterexample is saved in `dir`.
    Saved { dir: &'a Path },
}

/// The `judge stress --json` root object.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StressReport {
    /// Problem package name.
    pub problem: String,
    /// The submission's path as given on the command line.
    pub submission: String,
    /// Base seed of the run (`--seed`, or taken from the clock).
    pub seed: u64,
    /// AC when no test failed within the budget; CE when the submission does not compile;
    /// else the verdict of the failing test.
    pub verdict: Verdict,
    pub compile: CompileReport,
    /// Tests run before the search stopped.
    pub tests_run: u64,
    /// Wall time of the search in milliseconds (shrinking not included).
    pub elapsed_ms: u64,
    pub failure: Option<FailureReport>,
    /// Stopped by SIGINT/SIGTERM: the search (or the shrinking) ended early.
    pub interrupted: bool,
    /// Only in a partial report (`--partition K/N`): which part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<StressPartition>,
}

/// The part of the work a partial stress report covers (`judge stress --count N --partition
/// K/N`): the test numbers `k < tests` with `k mod count = index - 1`. Its `verdict` and
/// `failure` are those of the part; `judge report merge` joins the parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StressPartition {
    /// 1-based part number.
    pub index: u32,
    /// Number of parts.
    pub count: u32,
    /// Tests of the whole run (`--count`).
    pub tests: u64,
}

/// The failing test the search found.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureReport {
    /// 0-based number of the test in the run.
    pub index: u64,
    pub verdict: Verdict,
    pub message: String,
    /// The generator and parameters that made the input.
    pub generator: String,
    pub params: BTreeMap<String, i64>,
    /// The generator seed of the input.
    pub seed: u64,
    /// The arguments after `judge gen <problem>` that print the input.
    pub reproduce: String,
    /// The shrunk counterexample (absent only if shrinking failed to run).
    pub shrunk: Option<ShrunkReport>,
    /// The folder holding `counterexample.in`/`.ans` and `original/original.in`/`.ans`.
    pub saved: Option<String>,
}

/// The counterexample after shrinking.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShrunkReport {
    /// Accepted shrink steps.
    pub steps: u32,
    /// Submission runs spent.
    pub runs: u32,
    pub verdict: Verdict,
    pub message: String,
    /// The shrunk input.
    pub input: String,
    /// Shrinking was stopped by SIGINT/SIGTERM (the smallest input so far is kept).
    pub interrupted: bool,
}

impl StressReport {
    /// The report of a submission that does not compile.
    pub fn compile_error(
        problem: &str,
        submission: &str,
        seed: u64,
        compile: CompileReport,
    ) -> StressReport {
        StressReport {
            problem: problem.into(),
            submission: submission.into(),
            seed,
            verdict: Verdict::CE,
            compile,
            tests_run: 0,
            elapsed_ms: 0,
            failure: None,
            interrupted: false,
            partition: None,
        }
    }
}

/// Runs `plan` against `target`: random tests until one fails, then shrinks the failure and
/// saves it. `Err` only for harness failures (sandbox, files).
pub fn run(
    target: &Target,
    submission: &str,
    compile: CompileReport,
    plan: &Plan,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<StressReport> {
    on_event(Event::Started {
        seed: plan.seed,
        sources: plan.sources.len(),
        jobs: plan.jobs,
    });
    let outcome = search(
        target,
        &plan.sources,
        plan.seed,
        plan.budget,
        plan.jobs,
        plan.partition,
        &|count| on_event(Event::Progress { count }),
    )?;
    let mut report = StressReport {
        problem: target.pkg.name.clone(),
        submission: submission.into(),
        seed: plan.seed,
        verdict: Verdict::AC,
        compile,
        tests_run: outcome.tests_run,
        elapsed_ms: outcome.elapsed.as_millis() as u64,
        failure: None,
        interrupted: outcome.interrupted,
        partition: None,
    };
    let Some(failure) = outcome.failure else {
        return Ok(report);
    };
    report.verdict = failure.result.verdict;
    let mut found = FailureReport {
        index: failure.index,
        verdict: failure.result.verdict,
        message: failure.result.message.clone(),
        generator: failure.source.generator.clone(),
        params: failure.source.params.0.clone(),
        seed: failure.seed,
        reproduce: failure.source.reproduce(failure.seed),
        shrunk: None,
        saved: None,
    };
    on_event(Event::Found {
        failure: &found,
        tests_run: report.tests_run,
        elapsed_ms: report.elapsed_ms,
    });
    let shrunk = shrink(target, &failure, plan.shrink_runs, plan.shrink_time)
        .with_context(|| format!("cannot run {submission}"))?;
    let shrunk_report = ShrunkReport {
        steps: shrunk.steps,
        runs: shrunk.runs,
        verdict: shrunk.result.verdict,
        message: shrunk.result.message.clone(),
        input: shrunk.test.input.clone(),
        interrupted: shrunk.interrupted,
    };
    report.interrupted |= shrunk.interrupted;
    on_event(Event::Shrunk {
        shrunk: &shrunk_report,
    });
    found.shrunk = Some(shrunk_report);
    save(&plan.out, &shrunk.test, &failure.test)?;
    on_event(Event::Saved { dir: &plan.out });
    found.saved = Some(plan.out.display().to_string());
    report.failure = Some(found);
    Ok(report)
}

/// Writes the counterexample and, one level down (so `--tests DIR` grades the counterexample
/// only), the unshrunk input.
fn save(
    dir: &Path,
    shrunk: &crate::testset::TestCase,
    original: &crate::testset::TestCase,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_atomic(&dir.join("counterexample.in"), shrunk.input.as_bytes())?;
    write_atomic(&dir.join("counterexample.ans"), shrunk.answer.as_bytes())?;
    let sub = dir.join("original");
    std::fs::create_dir_all(&sub).with_context(|| format!("cannot create {}", sub.display()))?;
    write_atomic(&sub.join("original.in"), original.input.as_bytes())?;
    write_atomic(&sub.join("original.ans"), original.answer.as_bytes())?;
    Ok(())
}
