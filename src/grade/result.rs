//! The results of grading one submission, as the grader returns them: what `judge grade
//! --json` prints (one [`SubmissionReport`] per line; field names are stable, documented in
//! docs/grading.md, "The JSON report"). Reporters (`report`) only render them.

use serde::{Deserialize, Serialize};

use super::TestResult;
use crate::verdict::score::ScoreReport;
use crate::verdict::Verdict;

/// The grading report of one submission (the `--json` root object).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionReport {
    /// Problem package name.
    pub problem: String,
    /// The submission's path as given on the command line.
    pub submission: String,
    /// Language id (`c`, `cpp`, `rust`, `python`, `java`).
    pub language: String,
    /// What it ran with, on one line: the compiler's or runtime's version and the standard
    /// (`PyPy 7.3.11`, `g++ 12.2.0, gnu++23`); `null` when not known.
    #[serde(default)]
    pub runtime: Option<String>,
    /// Overall verdict: CE, or the first non-AC test in test-plan order, or AC. `None` (JSON
    /// `null`) when an interruption left it open.
    pub verdict: Option<Verdict>,
    /// `None` (JSON `null`) when interrupted before the compilation finished.
    pub compile: Option<CompileReport>,
    /// Tests run, in test-plan order (up to the first failure unless `--all`; when
    /// interrupted, the tests that finished).
    pub tests: Vec<TestResult>,
    /// Number of tests in the test set (including those not run; in a partial report, the
    /// tests of every part).
    pub tests_total: usize,
    /// The limits applied (after per-language overrides).
    pub limits: LimitsReport,
    /// True when judge was stopped (SIGINT/SIGTERM) before grading this submission finished:
    /// the report holds what was done until then.
    pub interrupted: bool,
    /// Only in a partial report (`--partition K/N`): which part, and what a merge needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<GradePartition>,
    /// Only for a scoring problem, once every test ran (or it did not compile): the score,
    /// each group's, and each test's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreReport>,
}

/// The part of the work a partial grade report covers (`judge grade --partition K/N`): the
/// tests `i` (0-based, in plan order) with `i mod count = index - 1`. Its `tests`, `verdict`
/// and `interrupted` are those of the part; `judge report merge` joins the parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradePartition {
    /// 1-based part number.
    pub index: u32,
    /// Number of parts.
    pub count: u32,
    /// Graded with `--all` (every test), else up to the first failure of the part.
    pub all: bool,
    /// The names of every test of the whole test set, in plan order.
    pub plan: Vec<String>,
    /// A scoring problem's rules (its groups and how each aggregates), so that the merge
    /// scores the whole run; absent for a pass-fail problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<crate::verdict::score::Scoring>,
}

/// How compilation went.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileReport {
    pub ok: bool,
    /// Compiler diagnostics, trimmed (empty on success without warnings).
    pub message: String,
    /// Wall time of the compilation in milliseconds (0 on a cache hit).
    pub time_ms: u64,
    /// The binary came from the compile cache.
    pub cached: bool,
}

/// Limits as applied to a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsReport {
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_mib: u64,
    pub output_mib: u64,
}
