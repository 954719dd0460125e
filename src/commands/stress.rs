//! `judge stress`: find, shrink and save a counterexample for a submission.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::{load_package_with, Status};
use crate::cli::StressArgs;
use crate::compile::Submission;
use crate::fsutil::write_atomic;
use crate::grade::submission::{limits_for, program, Grader};
use crate::report::progress;
use crate::stress::{search, shrink, Budget, Source, Target};
use crate::text::count;

/// Submission runs spent on shrinking at most.
const SHRINK_RUNS: u32 = 400;

pub fn run(args: StressArgs) -> Result<Status> {
    let pkg = load_package_with(
        &args.problem,
        args.run.jobs(),
        args.run.languages.as_deref(),
    )?;
    if pkg.logic.generators().is_empty() {
        bail!(
            "{} has no generators to make stress tests with (judge runs no generators of a Kattis package); grade on its tests with `judge grade`",
            pkg.name
        );
    }
    let submission = Submission::from_path(&args.submission, args.lang)?;
    if let Some(g) = &args.generator {
        if !pkg.logic.generators().iter().any(|s| s.name == g) {
            let known: Vec<_> = pkg.logic.generators().iter().map(|s| s.name).collect();
            bail!("unknown generator `{g}` (available: {})", known.join(", "));
        }
    }
    let jobs = args.run.jobs();
    let grader = Grader::new(jobs, args.run.languages.as_deref())?;
    let compiled = grader.compile(&submission)?;
    let limits = limits_for(&pkg, &compiled);
    let Some(program) = program(&compiled, &limits) else {
        println!(
            "CE  {} does not compile; nothing to stress",
            submission.path.display()
        );
        return Ok(Status::Rejected);
    };
    let budget = match (args.count, args.seconds) {
        (Some(n), _) => Budget::Count(n),
        (None, Some(s)) => Budget::Time(Duration::from_secs_f64(s)),
        (None, None) => Budget::Time(Duration::from_secs(10)),
    };
    // Random, not the clock: two runs started in the same second must differ. Printed below,
    // so `--seed` reproduces the run.
    let base_seed = args.seed.unwrap_or_else(rand::random);
    let sources = Source::from_plan(&pkg, args.generator.as_deref());
    let target = Target {
        sandbox: grader.sandbox.as_ref(),
        program: &program,
        limits: &limits,
        pkg: &pkg,
    };
    eprintln!(
        "stress {} on {} with seed {base_seed} ({}, {})",
        submission.path.display(),
        pkg.name,
        count(sources.len(), "generator setup"),
        count(jobs, "job"),
    );
    let counter = progress::counter("tests run:");
    let outcome = search(&target, &sources, base_seed, budget, jobs, &|n| {
        counter.set_position(n)
    })?;
    counter.finish_and_clear();
    let Some(failure) = outcome.failure else {
        println!(
            "no failure in {} ({:.1} s, seed {base_seed}){}",
            count(outcome.tests_run, "test"),
            outcome.elapsed.as_secs_f64(),
            if outcome.interrupted {
                "; interrupted"
            } else {
                ""
            }
        );
        return Ok(Status::Success);
    };
    println!(
        "{} on stress test #{} after {} ({:.1} s): {}",
        failure.result.verdict,
        failure.index,
        count(outcome.tests_run, "test"),
        outcome.elapsed.as_secs_f64(),
        failure.result.message
    );
    println!(
        "reproduce the input: judge gen {} {}",
        pkg.name,
        failure.source.reproduce(failure.seed)
    );
    let shrunk = shrink(
        &target,
        &failure,
        SHRINK_RUNS,
        Duration::from_secs_f64(args.shrink_seconds),
    )
    .with_context(|| format!("cannot run {}", submission.path.display()))?;
    println!(
        "shrunk in {} ({}{}): {} {}",
        count(shrunk.steps, "step"),
        count(shrunk.runs, "run"),
        if shrunk.interrupted {
            "; interrupted, keeping the smallest so far"
        } else {
            ""
        },
        shrunk.result.verdict,
        shrunk.result.message
    );
    let dir = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("stress-{}-{base_seed}", pkg.name)));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_atomic(&dir.join("counterexample.in"), shrunk.test.input.as_bytes())?;
    write_atomic(
        &dir.join("counterexample.ans"),
        shrunk.test.answer.as_bytes(),
    )?;
    // The unshrunk input goes one level down, so `--tests DIR` grades the counterexample only.
    let original = dir.join("original");
    std::fs::create_dir_all(&original)
        .with_context(|| format!("cannot create {}", original.display()))?;
    write_atomic(&original.join("original.in"), failure.test.input.as_bytes())?;
    write_atomic(
        &original.join("original.ans"),
        failure.test.answer.as_bytes(),
    )?;
    println!(
        "saved {}/counterexample.in and .ans (the unshrunk input: original/original.in)",
        dir.display()
    );
    println!(
        "check it: judge grade {} {} --tests {}",
        pkg.name,
        submission.path.display(),
        dir.display()
    );
    Ok(Status::Rejected)
}
