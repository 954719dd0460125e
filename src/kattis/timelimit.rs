//! The time limit of a package without `limits.time_limit`: from the slowest accepted
//! submission, as problemtools computes it (`time_multiplier` / `ac_to_time_limit`, rounded
//! up to `time_resolution`, at least one step). Running the submissions to measure them is
//! the grader's: `verify::timelimit`.

use std::time::Duration;

use super::config;
use super::submissions::JurySubmission;

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
