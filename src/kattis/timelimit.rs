//! The time limit of a package without `limits.time_limit`: from the slowest accepted
//! submission, as problemtools computes it (`time_multiplier` / `ac_to_time_limit`, rounded
//! up to `time_resolution`, at least one step).

use std::time::Duration;

use anyhow::{bail, Result};

use super::config;
use super::submissions::JurySubmission;
use crate::compile::Submission;
use crate::grade::submission::Grader;
use crate::grade::Options;
use crate::package::Package;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// The limit for a slowest accepted run of `slowest`.
pub fn from_slowest(slowest: Duration, limits: &config::Limits) -> Duration {
    let res = limits.time_resolution;
    let exact = slowest.as_secs_f64() * limits.ac_to_time_limit;
    // A hair below an exact multiple stays on it (floating-point noise).
    let steps = (exact / res - 1e-9).ceil().max(1.0);
    Duration::from_secs_f64(steps * res)
}

/// `1 s`, `0.5 s`.
pub fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if (s - s.round()).abs() < 1e-9 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// The submissions that bound the limit from below and can be run.
pub fn lower_bounds(subs: &[JurySubmission]) -> Vec<&JurySubmission> {
    subs.iter()
        .filter(|s| s.lower_bound && s.skipped.is_none())
        .collect()
}

/// For `grade`: if the package has no explicit time limit, runs its accepted submissions at
/// [`super::MEASURE_LIMIT`] and sets `pkg.limits.time` from the slowest. Returns a note for
/// the user, or `None` when nothing was computed.
pub fn settle(
    pkg: &mut Package,
    grader: &Grader,
    tests: &[TestCase],
    jobs: usize,
) -> Result<Option<String>> {
    let Some(k) = pkg.kattis.clone() else {
        return Ok(None);
    };
    if k.config.limits.time_limit.is_some() {
        return Ok(None);
    }
    let (subs, _) = k.submissions().map_err(anyhow::Error::msg)?;
    let bounds = lower_bounds(&subs);
    if bounds.is_empty() {
        bail!(
            "{}: no limits.time_limit in problem.yaml and no accepted submission judge can run to compute it from; set limits.time_limit",
            pkg.name
        );
    }
    pkg.limits.time = super::MEASURE_LIMIT;
    let mut slowest: Option<(Duration, &str)> = None;
    for s in bounds {
        let submission = Submission::from_path(&s.path, s.language)?;
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
                .unwrap_or_default();
            bail!(
                "cannot compute the time limit: submissions/{} gets {}{at} (limit {} while measuring); run `judge verify`, or set limits.time_limit",
                s.rel,
                report.verdict.map_or("no verdict".into(), |v| v.to_string()),
                secs(super::MEASURE_LIMIT)
            );
        }
        let max = report.tests.iter().map(|t| t.time_ms).max().unwrap_or(0);
        let t = Duration::from_millis(max);
        if slowest.is_none_or(|(m, _)| t > m) {
            slowest = Some((t, &s.rel));
        }
    }
    let (t, who) = slowest.unwrap_or((Duration::ZERO, ""));
    let limit = from_slowest(t, &k.config.limits);
    pkg.limits.time = limit;
    Ok(Some(format!(
        "time limit {}: slowest accepted submission {:.3} s (submissions/{who}) x {}, rounded up to a multiple of {}",
        secs(limit),
        t.as_secs_f64(),
        k.config.limits.ac_to_time_limit,
        secs(Duration::from_secs_f64(k.config.limits.time_resolution))
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(mult: f64, res: f64) -> config::Limits {
        config::Limits {
            time_limit: None,
            ac_to_time_limit: mult,
            time_limit_to_tle: 2.0,
            time_resolution: res,
            memory: 64,
            output: 8,
            validation_time: 60,
            validation_memory: 64,
            validation_output: 8,
        }
    }

    #[test]
    fn rounds_up_to_the_resolution_with_one_step_at_least() {
        let ms = Duration::from_millis;
        assert_eq!(
            from_slowest(ms(10), &limits(5.0, 1.0)),
            Duration::from_secs(1)
        );
        assert_eq!(
            from_slowest(ms(210), &limits(5.0, 1.0)),
            Duration::from_secs(2)
        );
        assert_eq!(
            from_slowest(ms(200), &limits(5.0, 1.0)),
            Duration::from_secs(1)
        );
        assert_eq!(from_slowest(ms(260), &limits(2.0, 0.1)), ms(600));
        assert_eq!(from_slowest(ms(0), &limits(2.0, 0.5)), ms(500));
        assert_eq!(secs(Duration::from_secs(2)), "2 s");
        assert_eq!(secs(ms(500)), "0.5 s");
    }
}
