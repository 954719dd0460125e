//! `judge verify`: run every check a problem setter needs; exit 0 only if all pass. The work is
//! [`crate::verify::run`]; this module picks the reporters (terminal lines, `--json`, `--html`).

use anyhow::Result;

use super::grade::check_writable_folder;
use super::{load_package_with, Status};
use crate::cli::VerifyArgs;
use crate::fsutil::write_atomic;
use crate::grade::memo::RunMemo;
use crate::grade::submission::Grader;
use crate::report::html::grade::first_failures;
use crate::report::html::verify as html_verify;
use crate::report::progress;
use crate::report::verify::{self as verify_report, TextOptions};
use crate::verify::run::{verify_problem, Event, VerifyPartition, VerifyReport};
use crate::verify::select::Selection;
use crate::verify::Faulty;

pub fn run(args: VerifyArgs) -> Result<Status> {
    // A part verifies its share of the problems (problem `i` in part `i mod N + 1`), each whole.
    let partition = args.partition.resolve()?;
    if let Some(path) = &args.html {
        check_writable_folder(path)?;
    }
    let jobs = args.run.jobs();
    let mut grader = if args.no_submissions {
        None
    } else {
        let mut grader = Grader::new(jobs, args.run.languages.as_deref())?;
        // An injected fault changes the checker under the same key: nothing is remembered.
        if args.inject_fault.is_none() {
            let host = grader.sandbox.warning().unwrap_or_default();
            grader.memo = RunMemo::new(grader.cache.dir(), !args.fresh, &host);
        }
        Some(grader)
    };
    let options = TextOptions {
        suggest_time_limit: args.suggest_time_limit,
    };
    let select = Selection::new(&args.submissions)
        .with_random_runs(args.random_runs)
        .with_all_tests(args.all_tests);
    let mut reports = Vec::new();
    let mut logics = Vec::new();
    let mut interrupted = false;
    for (i, name) in args.problems.iter().enumerate() {
        if partition.is_some_and(|p| !p.contains(i as u64)) {
            continue;
        }
        if crate::interrupt::requested().is_some() {
            interrupted = true;
            break;
        }
        let mut pkg = load_package_with(name, jobs, args.run.languages.as_deref())?;
        if let Some(grader) = grader.as_mut() {
            grader.table = crate::compile::LanguageTable::for_package(
                args.run.languages.as_deref(),
                &pkg.dir,
            )?;
        }
        if args.fresh || args.inject_fault.is_some() {
            pkg.validate_afresh();
        }
        if let Some(fault) = args.inject_fault {
            pkg.logic = std::sync::Arc::new(Faulty {
                inner: pkg.logic.clone(),
                fault,
            });
        }
        let bar = std::cell::RefCell::new(None::<indicatif::ProgressBar>);
        let on_event = |e: Event| {
            match &e {
                Event::SubmissionsStarted { count } => {
                    *bar.borrow_mut() = Some(progress::bar(*count as u64, "jury submissions"));
                }
                Event::SubmissionStarted { path } => {
                    if let Some(b) = bar.borrow().as_ref() {
                        b.set_message(path.to_string());
                    }
                }
                Event::SubmissionDone { .. } => {
                    if let Some(b) = bar.borrow().as_ref() {
                        b.inc(1);
                    }
                }
                Event::ProblemDone { .. } => {
                    if let Some(b) = bar.borrow_mut().take() {
                        b.finish_and_clear();
                    }
                }
                _ => {}
            }
            if args.json {
                return;
            }
            let text = verify_report::event_text(&e, options);
            if text.is_empty() {
                return;
            }
            match bar.borrow().as_ref() {
                Some(b) => b.suspend(|| print!("{text}")),
                None => print!("{text}"),
            }
        };
        let report = verify_problem(&mut pkg, grader.as_ref(), jobs, &select, &on_event)?;
        interrupted |= report.interrupted;
        reports.push(report);
        logics.push(pkg.logic);
    }
    // A pattern that selected nothing is a typo (unless the run stopped before every problem).
    if let Some(p) = select.unmatched().first().filter(|_| !interrupted) {
        anyhow::bail!("--submissions {p}: no jury submission's path contains it");
    }
    let mut report = VerifyReport::new(reports, interrupted, args.strict);
    report.partition = partition.map(|p| VerifyPartition {
        index: p.index,
        count: p.count,
        plan: args.problems.clone(),
    });
    if args.json {
        print!("{}", verify_report::render_json(&report));
    } else {
        print!("{}", verify_report::summary_line(&report));
        if let Some(memo) = grader.as_ref().and_then(|g| g.memo.as_ref()) {
            let (recalled, made) = memo.counts();
            if recalled > 0 {
                println!(
                    "{recalled} of {} runs remembered from an earlier verify (same program, test, \
                     limits and jury side); --fresh runs them again",
                    recalled + made
                );
            }
        }
    }
    if let Some(path) = &args.html {
        let failures: Vec<_> = report
            .problems
            .iter()
            .zip(&logics)
            .map(|(p, logic)| first_failures(&p.graded, &p.tests, logic.as_ref()))
            .collect();
        write_atomic(path, html_verify::render(&report, &failures).as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(if report.ok {
        Status::Success
    } else {
        Status::Rejected
    })
}
