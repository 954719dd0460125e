//! `judge verify`: run every check a problem setter needs; exit 0 only if all pass.

use anyhow::Result;
use serde::Serialize;

use super::{load_package_with, Status};
use crate::cli::VerifyArgs;
use crate::grade::submission::Grader;
use crate::report::progress;
use crate::text::count;
use crate::verdict::Verdict;
use crate::verify::{self, submissions, Check, Faulty, Suggestion};

/// `judge verify --json` root object.
#[derive(Serialize)]
struct VerifyReport {
    /// True if no check failed (warnings allowed) and nothing was interrupted.
    ok: bool,
    /// True when judge was stopped (SIGINT/SIGTERM) before every check ran: `problems` holds
    /// the checks done until then.
    interrupted: bool,
    problems: Vec<ProblemReport>,
}

#[derive(Serialize)]
struct ProblemReport {
    problem: String,
    checks: Vec<Check>,
    submissions: Vec<submissions::SubmissionResult>,
    suggested_time_limit: Option<Suggestion>,
}

pub fn run(args: VerifyArgs) -> Result<Status> {
    let jobs = args.run.jobs();
    let grader = if args.no_submissions {
        None
    } else {
        Some(Grader::new(jobs, args.run.languages.as_deref())?)
    };
    let mut reports = Vec::new();
    let mut interrupted = false;
    for name in &args.problems {
        if crate::interrupt::requested().is_some() {
            interrupted = true;
            break;
        }
        let mut pkg = load_package_with(name, jobs, args.run.languages.as_deref())?;
        if let Some(fault) = args.inject_fault {
            pkg.logic = std::sync::Arc::new(Faulty {
                inner: pkg.logic.clone(),
                fault,
            });
        }
        if !args.json {
            println!("{} ({})", pkg.name, pkg.title);
        }
        let print = |c: &Check| {
            if !args.json {
                println!("  {:4}  {}: {}", c.status.label(), c.name, c.message);
            }
        };
        let (mut checks, tests) = verify::static_checks(&pkg)
            .map_err(|e| anyhow::anyhow!("{}: judge error: {e}", pkg.name))?;
        checks.iter().for_each(print);
        let mut results = Vec::new();
        if let (Some(grader), true) = (&grader, pkg.kattis.is_some()) {
            if !tests.is_empty() {
                let (lines, r) = verify::kattis::check(grader, &mut pkg, &tests, jobs, &print)?;
                checks.extend(lines);
                results = r;
            }
        } else if let Some(grader) = &grader {
            match verify::jury_submissions(&pkg) {
                Err(e) => {
                    let c = Check::fail("submissions", e);
                    print(&c);
                    checks.push(c);
                }
                Ok(list) if list.is_empty() => {
                    let c = Check::warn("submissions", "no jury submissions under submissions/");
                    print(&c);
                    checks.push(c);
                }
                Ok(list) if !tests.is_empty() => {
                    let bar = progress::bar(list.len() as u64, "jury submissions");
                    for jury in &list {
                        bar.set_message(verify::rel(&pkg, &jury.path));
                        let (lines, result) =
                            match submissions::check(grader, &pkg, &tests, jury, jobs) {
                                Ok(x) => x,
                                Err(_) if crate::interrupt::requested().is_some() => {
                                    interrupted = true;
                                    break;
                                }
                                Err(e) => {
                                    // A harness failure on one submission is reported, not fatal.
                                    let c = Check::fail(
                                        verify::rel(&pkg, &jury.path),
                                        format!("could not be graded: {e:#}"),
                                    );
                                    bar.suspend(|| print(&c));
                                    checks.push(c);
                                    bar.inc(1);
                                    continue;
                                }
                            };
                        bar.suspend(|| lines.iter().for_each(print));
                        checks.extend(lines);
                        results.push(result);
                        bar.inc(1);
                    }
                    bar.finish_and_clear();
                }
                Ok(_) => {}
            }
        }
        let suggestion = suggestion(&results);
        if args.suggest_time_limit && !args.json {
            match &suggestion {
                Some(s) => println!(
                    "  suggested time limit: {:.1} s (slowest accepted {:.3} s x 2, rounded up{})",
                    s.time_limit_ms as f64 / 1000.0,
                    s.slowest_accepted_ms as f64 / 1000.0,
                    match s.fastest_tle_ms {
                        Some(t) if s.consistent => format!("; below fastest TLE {:.3} s / 1.5", t as f64 / 1000.0),
                        Some(t) => format!("; WARNING: not below fastest TLE {:.3} s / 1.5, no limit separates them safely", t as f64 / 1000.0),
                        None => String::new(),
                    }
                ),
                None => println!("  suggested time limit: none (no timed accepted submission)"),
            }
        }
        reports.push(ProblemReport {
            problem: pkg.name.clone(),
            checks,
            submissions: results,
            suggested_time_limit: suggestion,
        });
    }
    let tally = |s: verify::Status| {
        reports
            .iter()
            .flat_map(|r| &r.checks)
            .filter(|c| c.status == s)
            .count()
    };
    let (ok, warn, fail) = (
        tally(verify::Status::Ok),
        tally(verify::Status::Warn),
        tally(verify::Status::Fail),
    );
    if args.json {
        let report = VerifyReport {
            ok: fail == 0 && !interrupted,
            interrupted,
            problems: reports,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "verify: {}: {ok} ok, {}, {fail} failed{}",
            count(args.problems.len(), "problem"),
            count(warn, "warning"),
            if interrupted { " (interrupted)" } else { "" },
        );
    }
    Ok(if fail == 0 {
        Status::Success
    } else {
        Status::Rejected
    })
}

fn suggestion(results: &[submissions::SubmissionResult]) -> Option<Suggestion> {
    let slowest = results
        .iter()
        .filter(|r| r.expected == Verdict::AC && r.actual == Verdict::AC)
        .filter_map(|r| r.timing.as_ref().map(|t| t.median_ms))
        .max()?;
    let fastest_tle = results
        .iter()
        .filter(|r| r.expected == Verdict::TLE && r.actual == Verdict::TLE)
        .filter_map(|r| r.timing.as_ref().map(|t| t.median_ms))
        .min();
    Some(verify::suggest_time_limit(slowest, fastest_tle, 100))
}
