//! The `judge verify --json` contract, strictly: unknown or missing fields fail the test.

use serde::Deserialize;

use super::{judge_timed, Run};

/// `judge verify --json ARGS` (at most `seconds`), and its report parsed strictly.
#[allow(dead_code)]
pub fn verify_json(seconds: u32, args: &[&str]) -> (Run, VerifyReport) {
    let mut all = vec!["verify", "--json"];
    all.extend(args);
    let run = judge_timed(seconds, &all);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    (run, report)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyReport {
    pub ok: bool,
    /// Written only by `--strict`.
    #[serde(default)]
    pub strict: bool,
    pub interrupted: bool,
    pub problems: Vec<ProblemReport>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemReport {
    pub problem: String,
    pub checks: Vec<Check>,
    pub submissions: Vec<Submission>,
    pub suggested_time_limit: Option<Suggestion>,
    pub time: TimeSpent,
}

/// Where the verify of a package spent its wall time, in ms.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpent {
    pub total_ms: u64,
    pub static_checks_ms: u64,
    pub compile_wait_ms: u64,
    pub compiles: u32,
    pub compile_time_ms: u64,
    pub runs_ms: u64,
    pub timing_ms: u64,
}

impl ProblemReport {
    /// The check named `name`.
    #[allow(dead_code)]
    pub fn check(&self, name: &str) -> &Check {
        self.checks
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no check `{name}`: {:?}", self.checks))
    }

    /// Fails the test on the first check that failed, naming it.
    #[allow(dead_code)]
    pub fn assert_no_check_failed(&self) {
        for c in &self.checks {
            assert_ne!(c.status, "fail", "{}: {}", c.name, c.message);
        }
    }

    /// Each jury submission's path and verdict, in the report's order.
    #[allow(dead_code)]
    pub fn verdicts(&self) -> Vec<(&str, &str)> {
        self.submissions
            .iter()
            .map(|s| (s.path.as_str(), s.actual.as_str()))
            .collect()
    }

    /// The jury submission whose path ends with `end`.
    #[allow(dead_code)]
    pub fn submission(&self, end: &str) -> &Submission {
        self.submissions
            .iter()
            .find(|s| s.path.ends_with(end))
            .unwrap_or_else(|| panic!("no submission `{end}`: {:?}", self.submissions))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub name: String,
    pub status: String,
    pub message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub path: String,
    pub expected: String,
    pub actual: String,
    pub permitted: Vec<String>,
    pub timing: Option<Timing>,
    pub margin: Option<Margin>,
    pub randomised: Option<RandomRuns>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Margin {
    pub test: String,
    pub slowest_ms: u64,
    pub limit_ms: u64,
    pub ratio: f64,
    pub at_least: bool,
    pub fragile: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRuns {
    pub runs: u32,
    pub passed: u32,
    pub verdicts: std::collections::BTreeMap<String, u32>,
    pub first_failures: std::collections::BTreeMap<String, u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    pub test: String,
    pub runs: u32,
    pub median_ms: u64,
    pub min_ms: u64,
    pub max_ms: u64,
    pub capped: bool,
    pub samples_ms: Vec<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suggestion {
    pub time_limit_ms: u64,
    pub slowest_accepted_ms: u64,
    pub fastest_tle_ms: Option<u64>,
    pub consistent: bool,
}
