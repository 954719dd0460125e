//! The jury submissions of a Kattis package: each must satisfy its rules (folder defaults,
//! `submissions.yaml`) on the per-test verdicts; the time limit is the package's, or computed
//! from the accepted submissions (problemtools' rule); submissions that must time out are
//! re-timed with the limit raised by `time_limit_to_tle` / `time_safety_margin`.
//!
//! ```text
//!   lower-bound (accepted) submissions, at the fixed limit or at MEASURE_LIMIT ─► time limit
//!   every other submission at the time limit ─► rules on its per-test verdicts
//!   must-TLE submissions: first TLE test at limit x time_limit_to_tle ─► still TLE?
//! ```

use std::time::Duration;

use anyhow::Result;

use super::submissions::{first_line, time_runs, SubmissionResult, TIMING_RUNS, TLE_TIMING_RUNS};
use super::{Check, Timing};
use crate::compile::Submission;
use crate::grade::submission::{limits_for, program, Grader};
use crate::grade::{Options, TestResult};
use crate::kattis::submissions::JurySubmission;
use crate::kattis::timelimit::{self, secs};
use crate::kattis::{Version, MEASURE_LIMIT};
use crate::package::Package;
use crate::report::SubmissionReport;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// One graded jury submission.
struct Graded<'a> {
    jury: &'a JurySubmission,
    report: SubmissionReport,
    compiled: crate::compile::Compiled,
}

/// The verdict a folder names, where judge has one (for the JSON report).
fn folder_verdict(folder: &str) -> Option<Verdict> {
    match folder {
        "accepted" => Some(Verdict::AC),
        "wrong_answer" => Some(Verdict::WA),
        "time_limit_exceeded" => Some(Verdict::TLE),
        "run_time_error" => Some(Verdict::RE),
        _ => None,
    }
}

fn name(j: &JurySubmission) -> String {
    format!("submissions/{}", j.rel)
}

fn grade<'a>(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    jury: &'a JurySubmission,
    jobs: usize,
) -> Result<Graded<'a>> {
    let submission = Submission::from_path(&jury.path, jury.language)?;
    let compiled = grader.compile(&submission)?;
    let options = Options {
        jobs,
        all: !jury.accept_only(),
        ..Options::default()
    };
    let report = grader.grade_compiled(pkg, &submission, &compiled, tests, &options, &|_| {})?;
    Ok(Graded {
        jury,
        report,
        compiled,
    })
}

/// The per-test results as seen at `limit`: a run over it is a TLE.
fn at_limit(tests: &[TestResult], limit: Duration) -> Vec<(String, Verdict, String)> {
    tests
        .iter()
        .map(|t| {
            if Duration::from_millis(t.time_ms) > limit && t.verdict == Verdict::AC {
                (
                    t.name.clone(),
                    Verdict::TLE,
                    format!(
                        "{:.3} s over the {} limit",
                        t.time_ms as f64 / 1000.0,
                        secs(limit)
                    ),
                )
            } else {
                (t.name.clone(), t.verdict, t.message.clone())
            }
        })
        .collect()
}

/// Checks the rules of `g` on its results at `limit`; the report line and the JSON result.
fn judge_rules(
    g: &Graded,
    limit: Duration,
    timing: Option<Timing>,
) -> (Check, Option<SubmissionResult>) {
    let results = at_limit(&g.report.tests, limit);
    let actual = results
        .iter()
        .map(|(_, v, _)| *v)
        .find(|v| *v != Verdict::AC)
        .unwrap_or(if g.report.verdict == Some(Verdict::CE) {
            Verdict::CE
        } else {
            Verdict::AC
        });
    let result = folder_verdict(&g.jury.folder).map(|expected| SubmissionResult {
        path: name(g.jury),
        expected,
        actual,
        timing: timing.clone(),
    });
    if g.report.verdict == Some(Verdict::CE) {
        return (
            Check::fail(
                name(g.jury),
                format!(
                    "does not compile: {}",
                    first_line(g.report.compile.as_ref().map_or("", |c| c.message.as_str()))
                ),
            ),
            result,
        );
    }
    for rule in &g.jury.rules {
        if let Err(why) = rule.check(&results) {
            return (Check::fail(name(g.jury), why), result);
        }
    }
    let first_bad = results.iter().find(|(_, v, _)| *v != Verdict::AC);
    let summary = match first_bad {
        None => format!(
            "AC on {} tests{}",
            results.len(),
            timing
                .as_ref()
                .map(|t| format!(", slowest {}", t.describe()))
                .unwrap_or_default()
        ),
        Some((t, v, m)) => format!(
            "{v} on test `{t}`{} ({} expected)",
            if m.is_empty() {
                String::new()
            } else {
                format!(": {m}")
            },
            g.jury.expected_label()
        ),
    };
    (Check::ok(name(g.jury), summary), result)
}

/// Verifies the jury submissions of a Kattis package; sets `pkg.limits.time` to the time
/// limit (the package's, or the computed one). `print` shows each line as it is decided.
pub fn check(
    grader: &Grader,
    pkg: &mut Package,
    tests: &[TestCase],
    jobs: usize,
    print: &dyn Fn(&Check),
) -> Result<(Vec<Check>, Vec<SubmissionResult>)> {
    let Some(k) = pkg.kattis.clone() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut checks = Vec::new();
    let mut results = Vec::new();
    let emit = |c: Check, checks: &mut Vec<Check>| {
        print(&c);
        checks.push(c);
    };
    let (subs, warnings) = k.submissions().map_err(anyhow::Error::msg)?;
    for w in warnings {
        emit(Check::fail("submissions", w), &mut checks);
    }
    if !subs.iter().any(|s| s.folder == "accepted") {
        emit(
            Check::fail(
                "submissions",
                "submissions/accepted/ holds no submission: at least one is required",
            ),
            &mut checks,
        );
    }
    for s in subs.iter().filter(|s| s.skipped.is_some()) {
        emit(
            Check::warn(name(s), s.skipped.clone().unwrap_or_default()),
            &mut checks,
        );
    }
    let limits = &k.config.limits;
    let fixed = limits.time_limit.map(Duration::from_secs_f64);

    // 1. The submissions that bound the time limit from below, timed.
    pkg.limits.time = fixed.unwrap_or(MEASURE_LIMIT);
    let mut lower = Vec::new();
    let mut slowest: Option<(Duration, String)> = None;
    for s in timelimit::lower_bounds(&subs) {
        let g = grade(grader, pkg, tests, s, jobs)?;
        let timing = match g
            .report
            .tests
            .iter()
            .filter(|t| t.verdict == Verdict::AC)
            .max_by_key(|t| t.time_ms)
        {
            Some(t) if g.report.verdict == Some(Verdict::AC) => {
                let test = tests.iter().find(|x| x.name == t.name);
                let lim = limits_for(pkg, &g.compiled);
                match (test, program(&g.compiled, &lim)) {
                    (Some(test), Some(prog)) => {
                        Some(time_runs(grader, pkg, &prog, &lim, test, TIMING_RUNS)?)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(t) = &timing {
            let d = Duration::from_millis(t.median_ms);
            if slowest.as_ref().is_none_or(|(m, _)| d > *m) {
                slowest = Some((d, name(s)));
            }
        }
        lower.push((g, timing));
    }

    // 2. The time limit.
    let limit = match (fixed, &slowest) {
        (Some(f), Some((t, who))) => {
            let need = t.as_secs_f64() * limits.ac_to_time_limit;
            if need > f.as_secs_f64() + 1e-9 {
                emit(
                    Check::fail(
                        "time limit",
                        format!(
                            "{} from problem.yaml is below the slowest accepted run {:.3} s ({who}) x {} = {need:.3} s",
                            secs(f),
                            t.as_secs_f64(),
                            limits.ac_to_time_limit
                        ),
                    ),
                    &mut checks,
                );
            } else {
                emit(
                    Check::ok(
                        "time limit",
                        format!(
                            "{} from problem.yaml; slowest accepted {:.3} s ({who}) x {} fits",
                            secs(f),
                            t.as_secs_f64(),
                            limits.ac_to_time_limit
                        ),
                    ),
                    &mut checks,
                );
            }
            f
        }
        (Some(f), None) => {
            emit(
                Check::ok("time limit", format!("{} from problem.yaml", secs(f))),
                &mut checks,
            );
            f
        }
        (None, Some((t, who))) => {
            let l = timelimit::from_slowest(*t, limits);
            emit(
                Check::ok(
                    "time limit",
                    format!(
                        "{} computed: slowest accepted {:.3} s ({who}) x {}, rounded up to a multiple of {}",
                        secs(l),
                        t.as_secs_f64(),
                        limits.ac_to_time_limit,
                        secs(Duration::from_secs_f64(limits.time_resolution))
                    ),
                ),
                &mut checks,
            );
            l
        }
        (None, None) => {
            emit(
                Check::fail(
                    "time limit",
                    "no limits.time_limit and no accepted submission passes to compute it from",
                ),
                &mut checks,
            );
            MEASURE_LIMIT
        }
    };
    pkg.limits.time = limit;
    for (g, timing) in &lower {
        let (c, r) = judge_rules(g, limit, timing.clone());
        emit(c, &mut checks);
        results.extend(r);
    }

    // 3. Every other submission at the time limit.
    for s in subs
        .iter()
        .filter(|s| s.skipped.is_none() && !(s.lower_bound))
    {
        let g = grade(grader, pkg, tests, s, jobs)?;
        let (mut c, r) = judge_rules(&g, limit, None);
        let mut timing = None;
        if s.upper_bound && c.status == super::Status::Ok {
            // Must still time out with the safety margin.
            let first_tle = g.report.tests.iter().find(|t| t.verdict == Verdict::TLE);
            let test = first_tle.and_then(|t| tests.iter().find(|x| x.name == t.name));
            let mut lim = limits_for(pkg, &g.compiled);
            let high = limit.mul_f64(limits.time_limit_to_tle);
            lim.cpu_time = high;
            lim.wall_time = (high * 2).max(high + Duration::from_secs(1));
            if let (Some(test), Some(prog)) = (test, program(&g.compiled, &lim)) {
                let t = time_runs(grader, pkg, &prog, &lim, test, TLE_TIMING_RUNS)?;
                if !t.capped {
                    let why = format!(
                        "TLE at {}, but finishes in {} within {} = the limit x {} (time-limit sensitive)",
                        secs(limit),
                        t.describe(),
                        secs(high),
                        limits.time_limit_to_tle
                    );
                    c = match k.config.version {
                        Version::V2025 => Check::fail(name(s), why),
                        Version::Legacy => Check::warn(name(s), why),
                    };
                } else {
                    c.message = format!(
                        "{}; still TLE at {} (limit x {})",
                        c.message,
                        secs(high),
                        limits.time_limit_to_tle
                    );
                }
                timing = Some(t);
            }
        }
        emit(c, &mut checks);
        results.extend(r.map(|mut r| {
            r.timing = timing;
            r
        }));
    }
    Ok((checks, results))
}
