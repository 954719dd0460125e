//! `judge report merge`: reads the partial `--json` reports of `--partition K/N` runs, joins
//! them ([`crate::report::merge`]) and renders the result with the commands' own reporters.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;

use super::grade::check_writable_folder;
use super::Status;
use crate::cli::{MergeArgs, ReportCommand};
use crate::fsutil::write_atomic;
use crate::partition::Partition;
use crate::report::html::grade::{self as html_grade, GradePage};
use crate::report::html::verify as html_verify;
use crate::report::html::Failure;
use crate::report::merge::{self, MergeError, Part};
use crate::report::stress::{self as stress_report, Line};
use crate::report::summary::{SummaryRow, SummaryTable};
use crate::report::verify as verify_report;
use crate::report::{self, SubmissionReport};
use crate::stress::run::{Event, StressReport};
use crate::testset::{Origin, TestCase};
use crate::verdict::Verdict;
use crate::verify::run::VerifyReport;

pub fn run(command: ReportCommand) -> Result<Status> {
    match command {
        ReportCommand::Merge(args) => merge_command(&args),
    }
}

/// Which command wrote a partial report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Grade,
    Stress,
    Verify,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Grade => "grade",
            Kind::Stress => "stress",
            Kind::Verify => "verify",
        }
    }
}

/// One file's JSON values, with the command that wrote them and the partition they cover.
struct Loaded {
    file: String,
    kind: Kind,
    partition: Partition,
    values: Vec<serde_json::Value>,
}

fn load(path: &Path) -> Result<Loaded> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {file}"))?;
    let values = serde_json::Deserializer::from_str(&text)
        .into_iter::<serde_json::Value>()
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("{file} is not a JSON report"))?;
    let mut found: Option<(Kind, Partition)> = None;
    for v in &values {
        let Some(p) = v.get("partition").filter(|p| !p.is_null()) else {
            return Err(MergeError::NotPartial { file }.into());
        };
        let kind = if v.get("tests").is_some() {
            Kind::Grade
        } else if v.get("seed").is_some() {
            Kind::Stress
        } else if v.get("problems").is_some() {
            Kind::Verify
        } else {
            return Err(MergeError::NotPartial { file }.into());
        };
        let partition =
            partition_of(p).with_context(|| format!("{file}: its `partition` is not K/N"))?;
        match found {
            None => found = Some((kind, partition)),
            Some(f) if f == (kind, partition) => {}
            Some(_) => return Err(MergeError::MixedFile { file }.into()),
        }
    }
    let Some((kind, partition)) = found else {
        return Err(MergeError::Empty { file }.into());
    };
    Ok(Loaded {
        file,
        kind,
        partition,
        values,
    })
}

/// The `index` and `count` of a partial report's `partition` object.
fn partition_of(v: &serde_json::Value) -> Result<Partition> {
    let number = |key: &str| {
        v.get(key)
            .and_then(serde_json::Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    match (number("index"), number("count")) {
        (Some(index), Some(count)) => Ok(Partition::new(
            u64::from(index),
            count,
            &format!("{index}/{count}"),
        )?),
        _ => bail!("no `index` and `count`"),
    }
}

fn typed<T: DeserializeOwned>(loaded: Loaded) -> Result<Part<T>> {
    let file = loaded.file;
    let reports = loaded
        .values
        .into_iter()
        .map(|v| {
            serde_json::from_value(v).with_context(|| {
                format!("{file}: not a report of this judge version (unknown or missing fields)")
            })
        })
        .collect::<Result<Vec<T>>>()?;
    Ok(Part {
        file,
        partition: loaded.partition,
        reports,
    })
}

fn merge_command(args: &MergeArgs) -> Result<Status> {
    if let Some(path) = &args.html {
        check_writable_folder(path)?;
    }
    let loaded = args
        .reports
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>>>()?;
    let kind = loaded[0].kind;
    if let Some(other) = loaded.iter().find(|l| l.kind != kind) {
        bail!(
            "the partial reports differ in command: {} ({}) and {} ({})",
            loaded[0].file,
            kind.name(),
            other.file,
            other.kind.name()
        );
    }
    match kind {
        Kind::Grade => {
            let parts = loaded.into_iter().map(typed).collect::<Result<_>>()?;
            let merged = merge::grade(parts)?;
            for n in &merged.notes {
                eprintln!("note: {n}");
            }
            let reports = merged.reports;
            print_grade(&reports, args.json);
            if let Some(path) = &args.html {
                write_atomic(path, grade_html(&reports, merged.plan).as_bytes())?;
                eprintln!("wrote {}", path.display());
            }
            Ok(if reports.iter().all(|r| r.verdict == Some(Verdict::AC)) {
                Status::Success
            } else {
                Status::Rejected
            })
        }
        Kind::Verify => {
            let parts = loaded.into_iter().map(typed).collect::<Result<_>>()?;
            let report = merge::verify(parts)?;
            print_verify(&report, args.json);
            if let Some(path) = &args.html {
                write_atomic(path, html_verify::render(&report, &[]).as_bytes())?;
                eprintln!("wrote {}", path.display());
            }
            Ok(if report.ok {
                Status::Success
            } else {
                Status::Rejected
            })
        }
        Kind::Stress => {
            if args.html.is_some() {
                bail!("--html: stress reports have no HTML report (grade reports do)");
            }
            let parts = loaded.into_iter().map(typed).collect::<Result<_>>()?;
            let report = merge::stress(parts)?;
            print_stress(&report, args.json);
            Ok(if report.verdict == Verdict::AC {
                Status::Success
            } else {
                Status::Rejected
            })
        }
    }
}

/// What `judge grade` prints for these reports: JSON lines, one table, or a summary table.
fn print_grade(reports: &[SubmissionReport], json: bool) {
    if json {
        for r in reports {
            println!("{}", report::render_json(r));
        }
        return;
    }
    if let [r] = reports {
        print!("{}", report::render_table(r));
        return;
    }
    let table = SummaryTable::new(reports.iter().map(|r| r.submission.as_str()))
        .with_groups(&crate::report::summary::groups_of(reports.iter()));
    print!("{}", table.header());
    for r in reports {
        print!("{}", table.row(&r.submission, &SummaryRow::of(r)));
    }
    let verdicts: Vec<Option<Verdict>> = reports.iter().map(|r| r.verdict).collect();
    print!("{}", SummaryTable::footer(&verdicts));
}

/// What `judge verify` prints for this report: each problem's check lines, then the count
/// (JSON reports keep no grading tables).
fn print_verify(r: &VerifyReport, json: bool) {
    if json {
        print!("{}", verify_report::render_json(r));
        return;
    }
    for p in &r.problems {
        println!("{}", p.problem);
        for c in &p.checks {
            print!("{}", verify_report::check_line(c));
        }
    }
    print!("{}", verify_report::summary_line(r));
}

/// What `judge stress` prints for this report: the failure's lines or the closing line.
fn print_stress(r: &StressReport, json: bool) {
    if json {
        println!("{}", stress_report::render_json(r));
        return;
    }
    let mut events = Vec::new();
    if let Some(f) = &r.failure {
        events.push(Event::Found {
            failure: f,
            tests_run: r.tests_run,
            elapsed_ms: r.elapsed_ms,
        });
        if let Some(s) = &f.shrunk {
            events.push(Event::Shrunk { shrunk: s });
        }
        if let Some(dir) = &f.saved {
            events.push(Event::Saved {
                dir: Path::new(dir),
            });
        }
    }
    for e in &events {
        for line in stress_report::event_lines(&r.problem, &r.submission, e) {
            match line {
                Line::Stdout(l) | Line::Stderr(l) => println!("{l}"),
            }
        }
    }
    if let Some(line) = stress_report::closing_line(r) {
        println!("{line}");
    }
}

/// The grade HTML report of merged reports on the test plan `plan`. JSON reports keep no test
/// files or outputs, so the first failures show their verdict and message without the files.
fn grade_html(reports: &[SubmissionReport], plan: Vec<String>) -> String {
    let tests: Vec<TestCase> = plan
        .into_iter()
        .map(|name| TestCase {
            origin: Origin::External(format!("{name}.in").into()),
            name,
            input: String::new(),
            answer: String::new(),
        })
        .collect();
    let failures = reports
        .iter()
        .map(|r| {
            let result = r.tests.iter().find(|t| t.verdict != Verdict::AC)?;
            Some(Failure {
                result,
                input: "",
                answer: "",
                picture: None,
            })
        })
        .collect();
    let problem = reports.first().map_or("", |r| r.problem.as_str());
    let page = GradePage {
        problem,
        title: problem,
        tests: &tests,
        reports,
        failures,
    };
    html_grade::render(&page)
}
