//! Grading one submission end to end: compile (cached) → run every test in the sandbox →
//! a [`SubmissionReport`]. Shared by `grade`, `verify` and `stress`.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use super::result::{CompileReport, LimitsReport, SubmissionReport};
use super::{run_tests, Event, Options, Program};
use crate::compile::{
    self, Cache, CompileLimits, CompileOutcome, Compiled, Language, LanguageTable, PchPolicy,
    Submission,
};
use crate::package::{Included, Package};
use crate::sandbox::{Limits, Sandbox};
use crate::testset::TestCase;
use crate::verdict::score::{CustomGrader, ScoreReport, Scoring, TestScore};
use crate::verdict::Verdict;

/// Bytes of contestant stderr kept per run.
const STDERR_BYTES: u64 = 64 * 1024;

/// Everything needed to compile and run submissions: the sandbox, the language table and the
/// compile cache. Built once per command.
pub struct Grader {
    pub sandbox: Box<dyn Sandbox>,
    pub table: LanguageTable,
    pub cache: Cache,
    pub compile_limits: CompileLimits,
    /// Runs remembered between verifies (`verify` sets it; see [`super::memo`]).
    pub memo: Option<super::memo::RunMemo>,
}

impl Grader {
    /// The real Linux sandbox with `slots` parallel slots, the language table (built-in, or
    /// `languages` overriding it) and the default compile cache. Prints the sandbox's warning
    /// (missing mechanisms) once to stderr.
    pub fn new(slots: usize, languages: Option<&Path>) -> Result<Grader> {
        let sandbox = crate::sandbox::linux::LinuxSandbox::new(slots.max(1))
            .context("cannot set up the sandbox")?;
        if let Some(w) = sandbox.warning() {
            eprintln!("warning: {w}");
        }
        Grader::with_sandbox(Box::new(sandbox), languages)
    }

    /// Like [`Grader::new`] with a given sandbox (tests use a scripted one).
    pub fn with_sandbox(sandbox: Box<dyn Sandbox>, languages: Option<&Path>) -> Result<Grader> {
        let table = LanguageTable::load(languages)?;
        Ok(Grader {
            sandbox,
            table,
            cache: Cache::for_this_user().map_err(anyhow::Error::msg)?,
            compile_limits: CompileLimits::default(),
            memo: None,
        })
    }

    /// Compiles `submission` (or takes it from the cache), with the files its package adds
    /// to submissions in its language ([`Package::included`]).
    pub fn compile(&self, included: &Included, submission: &Submission) -> Result<Compiled> {
        self.compile_with(included, submission, PchPolicy::Lazy)
    }

    /// [`Grader::compile`], building a precompiled header it needs as `pch` says.
    fn compile_with(
        &self,
        included: &Included,
        submission: &Submission,
        pch: PchPolicy,
    ) -> Result<Compiled> {
        let included = included
            .files(submission.language)
            .map_err(anyhow::Error::msg)?;
        compile::compile_with_files(
            submission,
            &included,
            &self.table,
            &self.compile_limits,
            &self.cache,
            pch,
        )
        .with_context(|| format!("cannot compile {}", submission.path.display()))
    }

    /// Compiles (or takes from the cache) every submission of `submissions` on `jobs` threads;
    /// the results in the same order. Compilers are seconds each on a cold cache, and
    /// independent.
    pub fn compile_many(
        &self,
        included: &Included,
        submissions: &[Submission],
        jobs: usize,
    ) -> Vec<Result<Compiled>> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let out: Vec<std::sync::Mutex<Option<Result<Compiled>>>> = submissions
            .iter()
            .map(|_| std::sync::Mutex::new(None))
            .collect();
        let plan = compile::batch_order(submissions, &self.table);
        std::thread::scope(|s| {
            for _ in 0..jobs.clamp(1, submissions.len().max(1)) {
                s.spawn(|| loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&(i, pch)) = plan.get(k) else {
                        break;
                    };
                    let submission = &submissions[i];
                    let compiled = self.compile_with(included, submission, pch);
                    *out[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(compiled);
                });
            }
        });
        out.into_iter()
            .zip(submissions)
            .map(|(slot, submission)| {
                slot.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| {
                        Err(anyhow::anyhow!(
                            "cannot compile {}: not attempted",
                            submission.path.display()
                        ))
                    })
            })
            .collect()
    }

    /// Compiles and grades `submission` on `tests`. Interrupted (see [`crate::interrupt`]),
    /// it returns the report so far, marked `interrupted`.
    pub fn grade(
        &self,
        pkg: &Package,
        submission: &Submission,
        tests: &[TestCase],
        options: &Options,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Result<SubmissionReport> {
        let compiled = match self.compile(&pkg.included(), submission) {
            Ok(c) => c,
            Err(e) if crate::interrupt::in_chain(&e).is_some() => {
                let mut report = empty_report(pkg, submission, tests.len());
                report.interrupted = true;
                return Ok(report);
            }
            Err(e) => return Err(e),
        };
        self.grade_compiled(pkg, submission, &compiled, tests, options, on_event)
    }

    /// Grades an already compiled `submission` on `tests`.
    pub fn grade_compiled(
        &self,
        pkg: &Package,
        submission: &Submission,
        compiled: &Compiled,
        tests: &[TestCase],
        options: &Options,
        on_event: &(dyn Fn(Event) + Sync),
    ) -> Result<SubmissionReport> {
        let limits = limits_for(pkg, compiled);
        let runtime = crate::compile::runtime(&self.table, compiled.language);
        let Some(program) = program(compiled, &limits) else {
            let mut report = report(pkg, submission, compiled, tests.len(), None);
            report.runtime = runtime;
            return Ok(report);
        };
        let run = run_tests(
            self.sandbox.as_ref(),
            &program,
            &limits,
            tests,
            pkg.logic.as_ref(),
            options,
            on_event,
        )
        .with_context(|| format!("cannot run {}", submission.path.display()))?;
        let mut report = report(pkg, submission, compiled, tests.len(), Some(run));
        report.runtime = runtime;
        Ok(report)
    }
}

/// The report of `compiled` on a test set of `tests_total` tests: a compile error (no `run`),
/// or the results of `run`.
pub fn report(
    pkg: &Package,
    submission: &Submission,
    compiled: &Compiled,
    tests_total: usize,
    run: Option<super::TestRun>,
) -> SubmissionReport {
    let mut report = empty_report(pkg, submission, tests_total);
    report.compile = Some(compile_report(compiled));
    match run {
        None => report.verdict = Some(Verdict::CE),
        Some(run) => {
            report.tests = run.results;
            report.verdict = run.verdict;
            report.interrupted = run.interrupted.is_some();
        }
    }
    report.score = score(pkg, &report);
    mark_score_error(&mut report);
    report
}

/// A score that could not be computed (a grader or validator broke the protocol, a group
/// out of its range) makes the submission's verdict a judge error.
pub fn mark_score_error(report: &mut SubmissionReport) {
    if report.score.as_ref().is_some_and(|s| s.error.is_some()) {
        report.verdict = Some(Verdict::JE);
    }
}

/// The score of a scoring problem's report, once every test ran (a compile error scores
/// nothing anywhere).
pub fn score(pkg: &Package, report: &SubmissionReport) -> Option<ScoreReport> {
    score_with(pkg.scoring()?, pkg.grader(), report)
}

/// [`score`] by these rules and custom grader (`judge report merge` has no package).
pub fn score_with(
    scoring: &Scoring,
    grader: Option<&dyn CustomGrader>,
    report: &SubmissionReport,
) -> Option<ScoreReport> {
    if report.verdict == Some(Verdict::CE) {
        return Some(scoring.evaluate_with(
            &|_| {
                Some(TestScore {
                    verdict: Verdict::CE,
                    validator: None,
                })
            },
            grader,
        ));
    }
    if report.interrupted || report.tests.len() < report.tests_total {
        return None;
    }
    // A part of a partitioned run scores nothing (the merge scores the whole).
    let ran: std::collections::HashSet<&str> =
        report.tests.iter().map(|t| t.name.as_str()).collect();
    if scoring.tests().iter().any(|t| !ran.contains(t.as_str())) {
        return None;
    }
    Some(scoring.evaluate_with(
        &|name| {
            report
                .tests
                .iter()
                .find(|t| t.name == name)
                .map(|t| TestScore {
                    verdict: t.verdict,
                    validator: t.validator_score,
                })
        },
        grader,
    ))
}

/// A report for `submission` with nothing compiled or run yet (verdict open).
fn empty_report(pkg: &Package, submission: &Submission, tests_total: usize) -> SubmissionReport {
    let limits = language_limits(pkg, submission.language);
    SubmissionReport {
        problem: pkg.name.clone(),
        submission: submission.path.display().to_string(),
        language: submission.language.id().to_string(),
        runtime: None,
        verdict: None,
        compile: None,
        tests: Vec::new(),
        tests_total,
        limits: LimitsReport {
            time_ms: limits.cpu_time.as_millis() as u64,
            wall_ms: limits.wall_time.as_millis() as u64,
            memory_mib: limits.memory_bytes >> 20,
            output_mib: limits.output_bytes >> 20,
        },
        interrupted: false,
        partition: None,
        score: None,
    }
}

/// The run limits for a compiled submission: the problem's limits after per-language
/// overrides; wall clock = max(2 x CPU, CPU + 1 s); processes = the problem's, or the
/// language's minimum if that is more.
pub fn limits_for(pkg: &Package, compiled: &Compiled) -> Limits {
    let limits = language_limits(pkg, compiled.language);
    Limits {
        processes: compiled.processes.max(limits.processes),
        ..limits
    }
}

/// [`limits_for`] before compiling: the problem's processes.
fn language_limits(pkg: &Package, language: Language) -> Limits {
    let (time, memory_mib) = pkg.limits.for_language(language.id());
    Limits {
        cpu_time: time,
        wall_time: (time * 2).max(time + Duration::from_secs(1)),
        memory_bytes: memory_mib << 20,
        output_bytes: pkg.limits.output_mib << 20,
        stderr_bytes: STDERR_BYTES,
        processes: pkg.limits.processes.max(1),
    }
}

/// How to run a compiled submission under `limits`; `None` after a compile error.
pub fn program(compiled: &Compiled, limits: &Limits) -> Option<Program> {
    Some(Program {
        argv: compiled.run_argv(limits.memory_bytes)?,
        env: compiled.env.clone(),
        read_only: compiled.read_only.clone(),
        work_files: compiled.work_files.clone(),
        out_of_memory: compiled.out_of_memory.clone(),
    })
}

/// The report of how `compiled` came to be.
pub fn compile_report(compiled: &Compiled) -> CompileReport {
    let (ok, message) = match &compiled.outcome {
        CompileOutcome::Ok => (true, String::new()),
        CompileOutcome::Failed { message } => (false, message.clone()),
    };
    CompileReport {
        ok,
        message,
        time_ms: if compiled.cached {
            0
        } else {
            compiled.compile_time.as_millis() as u64
        },
        cached: compiled.cached,
    }
}
