//! `judge verify --submissions`: which jury submissions a verify runs.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Check;

/// The `--submissions` patterns. A jury submission is verified if its path relative to the
/// package (`submissions/accepted/forced.cpp`) contains one of them; with no pattern, every
/// one is. Remembers which patterns selected something, so that a typo is an error.
#[derive(Debug, Default)]
pub struct Selection {
    patterns: Vec<(String, AtomicBool)>,
    /// `--random-runs`: runs of each randomised jury submission (`None`: the default).
    random_runs: Option<u32>,
    /// `--all-tests`: every jury submission runs on every test.
    all_tests: bool,
}

impl Selection {
    pub fn new(patterns: &[String]) -> Selection {
        Selection {
            patterns: patterns
                .iter()
                .map(|p| (p.clone(), AtomicBool::new(false)))
                .collect(),
            random_runs: None,
            all_tests: false,
        }
    }

    /// With `--all-tests`: every jury submission on every test (the full matrix), where a
    /// verify runs each only until what it must get is decided.
    pub fn with_all_tests(mut self, all: bool) -> Selection {
        self.all_tests = all;
        self
    }

    /// Whether every jury submission runs on every test.
    pub fn all_tests(&self) -> bool {
        self.all_tests
    }

    /// With `--random-runs N`.
    pub fn with_random_runs(mut self, runs: Option<u32>) -> Selection {
        self.random_runs = runs;
        self
    }

    /// How many times each randomised jury submission runs (`@RANDOMISED@`).
    pub fn random_runs(&self) -> u32 {
        self.random_runs
            .unwrap_or(super::submissions::RANDOM_RUNS)
            .max(1)
    }

    /// Every jury submission (no `--submissions`).
    pub fn all() -> Selection {
        Selection::default()
    }

    pub fn is_all(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether the submission at `rel` (relative to the package) is verified.
    pub fn selects(&self, rel: &str) -> bool {
        let mut hit = self.is_all();
        for (p, matched) in &self.patterns {
            if rel.contains(p.as_str()) {
                matched.store(true, Ordering::Relaxed);
                hit = true;
            }
        }
        hit
    }

    /// The patterns that selected no submission so far.
    pub fn unmatched(&self) -> Vec<&str> {
        self.patterns
            .iter()
            .filter(|(_, m)| !m.load(Ordering::Relaxed))
            .map(|(p, _)| p.as_str())
            .collect()
    }

    /// The warning a partial verify shows (the verdicts of the others were not checked), or
    /// `None` without `--submissions`.
    pub fn check(&self, selected: usize, total: usize) -> Option<Check> {
        if self.is_all() {
            return None;
        }
        Some(Check::warn(
            "submissions",
            format!(
                "{selected} of {total} jury submissions verified (--submissions); the timing and time-limit checks see only these"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_is_selected_by_any_pattern_it_contains() {
        let s = Selection::new(&["wrong_answer/".into(), "forced.cpp".into()]);
        assert!(s.selects("submissions/wrong_answer/a.py"));
        assert!(s.selects("submissions/accepted/forced.cpp"));
        assert!(!s.selects("submissions/accepted/forced.py"));
        assert!(s.unmatched().is_empty());
        let s = Selection::new(&["nope".into(), "a.py".into()]);
        assert!(s.selects("submissions/wrong_answer/a.py"));
        assert_eq!(s.unmatched(), vec!["nope"]);
        assert!(Selection::all().selects("anything"));
        assert!(Selection::all().check(3, 3).is_none());
        let c = s.check(1, 9).unwrap();
        assert_eq!(c.status, super::super::Status::Warn);
        assert!(
            c.message.starts_with("1 of 9 jury submissions verified"),
            "{}",
            c.message
        );
    }
}
