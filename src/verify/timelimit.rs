//! The time limit of a package that does not fix one (a Kattis package without
//! `limits.time_limit`), for `grade`: measured on its accepted submissions by the grader, then
//! computed as problemtools does ([`crate::package::TimeRules::from_slowest`]).

use std::time::Duration;

use anyhow::{bail, Result};

use crate::grade::submission::Grader;
use crate::grade::Options;
use crate::kattis::timelimit::{lower_bounds, secs};
use crate::kattis::MEASURE_LIMIT;
use crate::package::Package;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// For `grade`: if the package does not fix its time limit, runs its accepted submissions at
/// [`MEASURE_LIMIT`] and sets `pkg.limits.time` from the slowest. Returns a note for
/// the user, or `None` when nothing was computed.
pub fn settle(
    pkg: &mut Package,
    grader: &Grader,
    tests: &[TestCase],
    jobs: usize,
) -> Result<Option<String>> {
    let rules = pkg.time_rules();
    if rules.fixed.is_some() {
        return Ok(None);
    }
    let (mut subs, _) = pkg.jury_submissions().map_err(anyhow::Error::msg)?;
    crate::kattis::submissions::skip_missing_toolchains(&mut subs, &grader.table);
    let bounds = lower_bounds(&subs);
    if bounds.is_empty() {
        bail!(
            "{}: no limits.time_limit in {} and no accepted submission judge can run to compute it from; set limits.time_limit",
            pkg.name,
            rules.source
        );
    }
    pkg.limits.time = MEASURE_LIMIT;
    let mut slowest: Option<(Duration, &str)> = None;
    for s in bounds {
        let submission = s.submission()?;
        let options = Options {
            jobs,
            ..Options::default()
        };
        let report = grader.grade(pkg, &submission, tests, &options, &|_| {})?;
        if report.verdict != Some(Verdict::AC) {
            let at = report
                .tests
                .iter()
                .find(|t| t.verdict != Verdict::AC)
                .map(|t| format!(" on test `{}`: {}", t.name, t.message))
                .or_else(|| {
                    let e = report.score.as_ref()?.error.as_ref()?;
                    Some(format!(" while scoring: {e}"))
                })
                .unwrap_or_default();
            bail!(
                "cannot compute the time limit: submissions/{} gets {}{at} (limit {} while measuring); run `judge verify`, or set limits.time_limit",
                s.rel,
                report.verdict.map_or("no verdict".into(), |v| v.to_string()),
                secs(MEASURE_LIMIT)
            );
        }
        let max = report.tests.iter().map(|t| t.time_ms).max().unwrap_or(0);
        let t = Duration::from_millis(max);
        if slowest.is_none_or(|(m, _)| t > m) {
            slowest = Some((t, &s.rel));
        }
    }
    let (t, who) = slowest.unwrap_or((Duration::ZERO, ""));
    let limit = rules.from_slowest(t);
    pkg.limits.time = limit;
    Ok(Some(format!(
        "time limit {}: slowest accepted submission {:.3} s (submissions/{who}) x {}, rounded up to a multiple of {}",
        secs(limit),
        t.as_secs_f64(),
        rules.ac_to_time_limit,
        secs(Duration::from_secs_f64(rules.time_resolution))
    )))
}
