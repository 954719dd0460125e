//! The `judge verify --json` contract, strictly: unknown or missing fields fail the test.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyReport {
    pub ok: bool,
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
    pub timing: Option<Timing>,
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
