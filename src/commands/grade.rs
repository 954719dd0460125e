//! `judge grade`: compile and run submissions on a problem's tests, report verdicts.

use anyhow::{Context, Result};

use super::{load_package_with, Status};
use crate::cli::GradeArgs;
use crate::compile::Submission;
use crate::fsutil::write_atomic;
use crate::grade::submission::Grader;
use crate::grade::{Event, Options};
use crate::report::html::grade::{self as html_grade, first_failures, GradePage};
use crate::report::summary::{SummaryRow, SummaryTable};
use crate::report::{self, progress, GradePartition};
use crate::testset;
use crate::verdict::Verdict;

pub fn run(args: GradeArgs) -> Result<Status> {
    let partition = args.partition.resolve()?;
    let jobs = args.run.jobs();
    let mut pkg = load_package_with(&args.problem, jobs, args.run.languages.as_deref())?;
    // A `--tests` folder is validated before anything is set up or compiled.
    let given = match &args.tests {
        Some(dir) => Some(testset::from_dir(dir, pkg.logic.as_ref())?),
        None => None,
    };
    // Resolve every submission before any work, so a typo fails fast.
    let submissions = args
        .submissions
        .iter()
        .map(|p| Submission::from_path(p, args.lang))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = &args.html {
        check_writable_folder(path)?;
    }
    // A language the package does not take: graded all the same (judge is no contest
    // system), with one line saying so.
    for s in &submissions {
        if let Some(why) = pkg.unlisted_language(s.language) {
            eprintln!("warning: {}: {why}; graded all the same", s.path.display());
        }
    }
    let mut grader = Grader::new(jobs, args.run.languages.as_deref())?;
    grader.table =
        crate::compile::LanguageTable::for_package(args.run.languages.as_deref(), &pkg.dir)?;
    // A submission whose compiler or runtime this machine lacks: one line naming the Debian
    // package that brings it; the others are graded, and the exit status is 2 at the end.
    let mut missing = 0;
    let submissions: Vec<Submission> = submissions
        .into_iter()
        .filter(
            |s| match crate::compile::missing_toolchain(&grader.table, s.language) {
                Some(e) => {
                    eprintln!("error: {}: not graded: {e}", s.path.display());
                    missing += 1;
                    false
                }
                None => true,
            },
        )
        .collect();
    if submissions.is_empty() {
        return Ok(Status::Incomplete);
    }
    let tests = match given {
        Some(tests) => tests,
        None => testset::cache::full(&pkg, grader.cache.dir())
            .with_context(|| format!("cannot build the tests of {}", pkg.name))?,
    };
    pkg.settle_scoring(&tests).map_err(anyhow::Error::msg)?;
    if pkg.time_rules().fixed.is_none() {
        // The package's own tests set its time limit: those being graded, unless a `--tests`
        // folder replaced them.
        let own = match &args.tests {
            Some(_) => Some(testset::full(&pkg)?),
            None => None,
        };
        let all = own.as_deref().unwrap_or(&tests);
        if let Some(note) = crate::verify::timelimit::settle(&mut pkg, &grader, all, jobs)? {
            eprintln!("note: {note}");
        }
    }
    // A part grades its share of the tests (test `i` in part `i mod N + 1`), each submission.
    let plan: Vec<String> = tests.iter().map(|t| t.name.clone()).collect();
    let tests_total = tests.len();
    let tests = match partition {
        Some(p) => p.select(&tests),
        None => tests,
    };
    let options = Options {
        jobs,
        // A score needs every test.
        all: args.all || pkg.scoring().is_some(),
        ..Options::default()
    };
    // Several submissions: one summary table, a row printed as each one finishes. One: its
    // table of tests.
    let table = (submissions.len() > 1 && !args.json).then(|| {
        let names: Vec<String> = submissions
            .iter()
            .map(|s| s.path.display().to_string())
            .collect();
        let groups = pkg.scoring().map(|s| s.groups()).unwrap_or_default();
        let t = SummaryTable::new(names.iter().map(String::as_str)).with_groups(&groups);
        print!("{}", t.header());
        t
    });
    let mut verdicts = Vec::new();
    let mut reports = Vec::new();
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
        let mut report = grader.grade(&pkg, submission, &tests, &options, &on_event)?;
        if let Some(p) = partition {
            report.tests_total = tests_total;
            report.partition = Some(GradePartition {
                index: p.index,
                count: p.count,
                all: options.all,
                plan: plan.clone(),
                scoring: pkg.scoring().cloned(),
            });
        }
        bar.finish_and_clear();
        verdicts.push(report.verdict);
        if args.json {
            println!("{}", report::render_json(&report));
        } else if let Some(table) = &table {
            print!(
                "{}",
                table.row(&report.submission, &SummaryRow::of(&report))
            );
        } else {
            print!("{}", report::render_table(&report));
        }
        // Asked to stop: the report so far is out; the exit status says interrupted.
        let stop = report.interrupted || crate::interrupt::requested().is_some();
        if args.html.is_some() {
            reports.push(report);
        }
        if stop {
            break;
        }
    }
    if table.is_some() {
        print!("{}", SummaryTable::footer(&verdicts));
    }
    if let Some(path) = &args.html {
        let page = GradePage {
            problem: &pkg.name,
            title: &pkg.title,
            tests: &tests,
            reports: &reports,
            failures: first_failures(&reports, &tests, pkg.logic.as_ref()),
        };
        write_atomic(path, html_grade::render(&page).as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(if missing > 0 {
        Status::Incomplete
    } else if verdicts.iter().all(|&v| v == Some(Verdict::AC)) {
        Status::Success
    } else {
        Status::Rejected
    })
}

/// Fails early (before any grading) when the folder of an output file does not exist.
pub(super) fn check_writable_folder(path: &std::path::Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        anyhow::bail!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}
