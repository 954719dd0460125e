//! Helpers for the time limit of a package: how a limit is written, and which jury
//! submissions bound it from below. The rule that computes it is the package's
//! (`TimeRules::from_slowest`); running the submissions to measure them is the grader's:
//! `verify::timelimit`.

use std::time::Duration;

use super::submissions::JurySubmission;

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

    #[test]
    fn whole_seconds_print_without_a_fraction() {
        assert_eq!(secs(Duration::from_secs(2)), "2 s");
        assert_eq!(secs(Duration::from_millis(500)), "0.5 s");
    }
}
