//! `judge grade`: compile and run submissions on a problem's tests, report verdicts.

use anyhow::{Context, Result};

use super::{load_package_with, Status};
use crate::cli::GradeArgs;
use crate::compile::Submission;
use crate::grade::submission::Grader;
use crate::grade::{Event, Options};
use crate::report::{self, progress};
use crate::testset;
use crate::verdict::Verdict;

pub fn run(args: GradeArgs) -> Result<Status> {
    let jobs = args.run.jobs();
    let mut pkg = load_package_with(&args.problem, jobs, args.run.languages.as_deref())?;
    let tests = match &args.tests {
        Some(dir) => testset::from_dir(dir, pkg.logic.as_ref())?,
        None => testset::full(&pkg)
            .with_context(|| format!("cannot build the tests of {}", pkg.name))?,
    };
    // Resolve every submission before any work, so a typo fails fast.
    let submissions = args
        .submissions
        .iter()
        .map(|p| Submission::from_path(p, args.lang))
        .collect::<Result<Vec<_>, _>>()?;
    let grader = Grader::new(jobs, args.run.languages.as_deref())?;
    if pkg.kattis.is_some() {
        let all = testset::full(&pkg)?;
        if let Some(note) = crate::kattis::timelimit::settle(&mut pkg, &grader, &all, jobs)? {
            eprintln!("note: {note}");
        }
    }
    let options = Options {
        jobs,
        all: args.all,
        ..Options::default()
    };
    let mut all_accepted = true;
    for submission in &submissions {
        let bar = progress::bar(tests.len() as u64, &submission.path.display().to_string());
        let on_event = |e: Event| match e {
            Event::TestDone { result } => {
                bar.inc(1);
                if result.verdict != Verdict::AC {
                    bar.set_message(format!("{} {}", result.name, result.verdict));
                }
            }
            Event::Rerun { name } => bar.set_message(format!("re-running {name} alone")),
        };
        let report = grader.grade(&pkg, submission, &tests, &options, &on_event)?;
        bar.finish_and_clear();
        all_accepted &= report.verdict == Some(Verdict::AC);
        if args.json {
            println!("{}", report::render_json(&report));
        } else {
            print!("{}", report::render_table(&report));
        }
        // Asked to stop: the report so far is out; the exit status says interrupted.
        if report.interrupted || crate::interrupt::requested().is_some() {
            break;
        }
    }
    Ok(if all_accepted {
        Status::Success
    } else {
        Status::Rejected
    })
}
