//! `judge stress`: find, shrink and save a counterexample for a submission. The run is
//! [`crate::stress::run`]; this module picks the reporter (terminal lines or `--json`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::{load_package_with, Status};
use crate::cli::StressArgs;
use crate::compile::Submission;
use crate::grade::submission::{compile_report, limits_for, program, Grader};
use crate::report::progress;
use crate::report::stress::{self as stress_report, Line};
use crate::stress::run::{self as stress_run, Event, Plan, StressPartition, StressReport};
use crate::stress::{Budget, Source, Target};
use crate::verdict::Verdict;

/// Submission runs spent on shrinking at most.
const SHRINK_RUNS: u32 = 400;

pub fn run(args: StressArgs) -> Result<Status> {
    // A part runs the test numbers `k < --count` with `k mod N + 1` = its index.
    let part = args.partition.resolve()?;
    if part.is_some() && args.count.is_none() {
        bail!("--partition needs --count N on stress: the parts split the test numbers 0..N");
    }
    let partition = part.zip(args.count).map(|(p, tests)| StressPartition {
        index: p.index,
        count: p.count,
        tests,
    });
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
    let compiled = grader.compile(&pkg.included(), &submission)?;
    let limits = limits_for(&pkg, &compiled);
    let name = submission.path.display().to_string();
    // Random, not the clock: two runs started in the same second must differ. Printed at the
    // start, so `--seed` reproduces the run.
    let base_seed = args.seed.unwrap_or_else(rand::random);
    let compile = compile_report(&compiled);
    let Some(program) = program(&compiled, &limits) else {
        let mut report = StressReport::compile_error(&pkg.name, &name, base_seed, compile);
        report.partition = partition;
        return finish(&report, args.json);
    };
    let budget = Budget::of(args.count, args.seconds, None, 10);
    let sources = Source::from_plan(&pkg, args.generator.as_deref());
    let target = Target {
        sandbox: grader.sandbox.as_ref(),
        program: &program,
        limits: &limits,
        pkg: &pkg,
    };
    let plan = Plan {
        sources,
        seed: base_seed,
        budget,
        jobs,
        shrink_runs: SHRINK_RUNS,
        shrink_time: Duration::from_secs_f64(args.shrink_seconds),
        out: args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("stress-{}-{base_seed}", pkg.name))),
        partition: part,
    };
    let counter = progress::counter("tests run:");
    let on_event = |e: Event| {
        if let Event::Progress { count } = e {
            counter.set_position(count);
            return;
        }
        if args.json {
            return;
        }
        counter.suspend(|| {
            for line in stress_report::event_lines(&pkg.name, &name, &e) {
                match line {
                    Line::Stdout(l) => println!("{l}"),
                    Line::Stderr(l) => eprintln!("{l}"),
                }
            }
        });
    };
    let report = stress_run::run(&target, &name, compile, &plan, &on_event);
    counter.finish_and_clear();
    let mut report = report?;
    report.partition = partition;
    finish(&report, args.json)
}

/// Prints the closing line (or the JSON report) and decides the exit status.
fn finish(report: &StressReport, json: bool) -> Result<Status> {
    if json {
        println!("{}", stress_report::render_json(report));
    } else if let Some(line) = stress_report::closing_line(report) {
        println!("{line}");
    }
    Ok(if report.verdict == Verdict::AC {
        Status::Success
    } else {
        Status::Rejected
    })
}
