//! Timing jury submissions: statistics over repeated runs of one test, how verdicts are read
//! at a time limit, and the time limit the accepted submissions support.

use std::borrow::Cow;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::grade::TestResult;
use crate::kattis::submissions::Seen;
use crate::kattis::timelimit::secs;
use crate::verdict::Verdict;

/// Timing statistics over repeated runs of one test.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// The test that was timed.
    pub test: String,
    pub runs: u32,
    pub median_ms: u64,
    pub min_ms: u64,
    pub max_ms: u64,
    /// True if at least one run hit the (raised) limit, so the figures are lower bounds.
    pub capped: bool,
    /// Every run's CPU time, sorted.
    pub samples_ms: Vec<u64>,
    /// The runs asked for; more than `runs` when the median was certain to be at the raised
    /// limit before the last run (the remaining runs could not change any figure but `max`).
    #[serde(skip)]
    pub planned: u32,
}

impl Timing {
    pub fn from_samples(test: &str, mut samples: Vec<Duration>, capped: bool) -> Timing {
        samples.sort();
        let ms = |d: &Duration| d.as_millis() as u64;
        Timing {
            test: test.to_string(),
            runs: samples.len() as u32,
            median_ms: samples.get(samples.len() / 2).map(ms).unwrap_or(0),
            min_ms: samples.first().map(ms).unwrap_or(0),
            max_ms: samples.last().map(ms).unwrap_or(0),
            capped,
            samples_ms: samples.iter().map(ms).collect(),
            planned: samples.len() as u32,
        }
    }

    /// `0.412 s (median of 5, 0.405-0.431) on large-03`; `> 1.601 s (median of 3, at the raised
    /// limit after 2 runs, 1.601-1.603) on sample-2` when the timing stopped early.
    pub fn describe(&self) -> String {
        let s = |ms: u64| format!("{:.3}", ms as f64 / 1000.0);
        let over = if self.capped { "> " } else { "" };
        if self.planned == 1 {
            return format!("{over}{} s (one run) on {}", s(self.median_ms), self.test);
        }
        if self.runs < self.planned {
            return format!(
                "> {} s (median of {}, at the raised limit after {} runs, {}-{}) on {}",
                s(self.median_ms),
                self.planned,
                self.runs,
                s(self.min_ms),
                s(self.max_ms),
                self.test
            );
        }
        format!(
            "{over}{} s (median of {}, {}-{}) on {}",
            s(self.median_ms),
            self.runs,
            s(self.min_ms),
            s(self.max_ms),
            self.test
        )
    }
}

/// The limits a must-TLE submission runs under so that one run tells both its verdict at
/// `limits` (read through [`View::Raised`]) and whether it still times out at CPU `high`:
/// the CPU limit raised to `high`, the wall-clock backstop (time not running) left at the
/// limit's. A sleeping or blocked program is then stopped when it would be at the limit, and
/// one that is not stopped there would not be at the limit either; a CPU-bound one reaches
/// `high` before that backstop (`high` within it). `None` when `high` is past the backstop:
/// such a submission runs at the limit and is re-timed at `high` as before.
pub(crate) fn read_at_limit(
    limits: &crate::sandbox::Limits,
    high: Duration,
) -> Option<crate::sandbox::Limits> {
    (high <= limits.wall_time).then(|| crate::sandbox::Limits {
        cpu_time: high,
        ..limits.clone()
    })
}

/// Whether a run under [`read_at_limit`]'s limits was stopped by its raised CPU limit `high`
/// (so it is still a TLE there), not by the wall-clock backstop (which says nothing about
/// `high`: it is re-timed at `high`'s own limits).
pub(crate) fn stopped_at_high(t: &TestResult, high: Duration) -> bool {
    t.verdict == Verdict::TLE && Duration::from_millis(t.time_ms) >= high
}

/// How the verdicts at the time limit are read from a submission's runs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum View {
    /// Run at `limit`, or at a higher measuring limit: an AC over `limit` is a TLE.
    At(Duration),
    /// Run at `high` (the limit x `time_limit_to_tle`) under [`read_at_limit`]'s limits: a
    /// run over `limit` is a TLE at the limit, as problemtools reads it (one stopped by the
    /// backstop is one anyway); the run itself says whether it is still one at `high` (see
    /// [`stopped_at_high`]).
    Raised { limit: Duration, high: Duration },
}

impl View {
    /// The time limit the verdicts are read at.
    pub(crate) fn limit(&self) -> Duration {
        match *self {
            View::At(limit) | View::Raised { limit, .. } => limit,
        }
    }

    /// The CPU time from which a run beside others is over the limit alone too (see
    /// [`crate::grade::LOAD_CPU_FACTOR`]): for a raised run only, whose CPU limit is past it
    /// (a run at the limit is stopped there, a time no load can vouch for).
    pub(crate) fn trusted_from(&self) -> Option<Duration> {
        match *self {
            View::At(_) => None,
            View::Raised { limit, .. } => Some(limit.mul_f64(crate::grade::LOAD_CPU_FACTOR)),
        }
    }

    pub(crate) fn see<'a>(&self, t: &'a TestResult) -> Seen<'a> {
        let over = |limit: Duration| Duration::from_millis(t.time_ms) > limit;
        let (verdict, message) = match *self {
            View::At(limit) if t.verdict == Verdict::AC && over(limit) => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "{:.3} s over the {} limit",
                    t.time_ms as f64 / 1000.0,
                    secs(limit)
                )),
            ),
            View::Raised { limit, high } if t.verdict == Verdict::TLE => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "over the {} limit; with the limit raised to {}: {}",
                    secs(limit),
                    secs(high),
                    t.message
                )),
            ),
            View::Raised { limit, high } if t.verdict != Verdict::JE && over(limit) => (
                Verdict::TLE,
                Cow::Owned(format!(
                    "{:.3} s over the {} limit (finished within {})",
                    t.time_ms as f64 / 1000.0,
                    secs(limit),
                    secs(high)
                )),
            ),
            _ => (t.verdict, Cow::Borrowed(t.message.as_str())),
        };
        Seen {
            test: &t.name,
            verdict,
            message,
        }
    }
}

/// The time limit the accepted submissions support, as problemtools and BAPCtools derive it:
/// slowest accepted x 2, rounded up to `resolution`; it must stay below fastest TLE / 1.5.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suggestion {
    pub time_limit_ms: u64,
    pub slowest_accepted_ms: u64,
    /// Fastest TLE submission time (lower bound if capped), if any.
    pub fastest_tle_ms: Option<u64>,
    /// False if slowest x 2 is not below fastest TLE / 1.5: no limit separates them safely.
    pub consistent: bool,
}

pub fn suggest_time_limit(
    slowest_ac_ms: u64,
    fastest_tle_ms: Option<u64>,
    resolution_ms: u64,
) -> Suggestion {
    let raw = slowest_ac_ms.saturating_mul(2).max(1);
    let limit = raw.div_ceil(resolution_ms) * resolution_ms;
    let consistent = fastest_tle_ms.is_none_or(|t| (limit as f64) < t as f64 / 1.5);
    Suggestion {
        time_limit_ms: limit,
        slowest_accepted_ms: slowest_ac_ms,
        fastest_tle_ms,
        consistent,
    }
}
