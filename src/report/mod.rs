//! Reports: pure renderers from result data to text. The runner never prints.
//!
//! `judge grade --json` prints one [`SubmissionReport`] per submission, each as one JSON
//! object on its own line; field names are stable (documented in docs/grading.md,
//! "The JSON report").

pub use crate::grade::result::{CompileReport, GradePartition, LimitsReport, SubmissionReport};
use crate::verdict::score::{fmt_score, ScoreReport};
use crate::verdict::Verdict;

pub mod html;
pub mod merge;
pub mod progress;
pub mod stress;
pub mod summary;
pub mod verify;

fn secs(ms: u64) -> String {
    format!("{:.3}s", ms as f64 / 1000.0)
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// The human-readable table for one submission.
pub fn render_table(r: &SubmissionReport) -> String {
    let language = match &r.runtime {
        Some(runtime) => format!("{}, {runtime}", r.language),
        None => r.language.clone(),
    };
    let mut s = format!(
        "{} · {} ({}) · limits {} CPU, {} MiB\n",
        r.problem,
        r.submission,
        language,
        secs(r.limits.time_ms),
        r.limits.memory_mib
    );
    match &r.compile {
        Some(c) if !c.ok => {
            s.push_str(&format!(
                "CE  compilation failed:\n{}\n",
                indent(&c.message)
            ));
            return s;
        }
        Some(_) => {}
        None => {
            s.push_str(&summary_line(r));
            s.push('\n');
            return s;
        }
    }
    let width = r
        .tests
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    s.push_str(&format!(
        "  {:width$}  {:7}  {:>8}  {:>8}  {:>10}  MESSAGE\n",
        "TEST", "VERDICT", "CPU", "WALL", "MEMORY"
    ));
    for t in &r.tests {
        let rerun = if t.runs > 1 { " (re-run alone)" } else { "" };
        let passes = t.passes.map(passes_note).unwrap_or_default();
        s.push_str(
            format!(
                "  {:width$}  {:7}  {:>8}  {:>8}  {:>10}  {}{passes}{rerun}",
                t.name,
                t.verdict.code(),
                secs(t.time_ms),
                secs(t.wall_ms),
                mib(t.memory_kib),
                t.message
            )
            .trim_end(),
        );
        s.push('\n');
    }
    s.push_str(&summary_line(r));
    s.push('\n');
    if let Some(score) = &r.score {
        s.push_str(&score_table(score));
    }
    s
}

/// ` (2 passes)`: how many passes of a multi-pass test ran (the last one decided it).
pub(crate) fn passes_note(n: u32) -> String {
    format!(" ({n} {})", if n == 1 { "pass" } else { "passes" })
}

/// A scoring problem's score and its groups, children before their parents.
pub fn score_table(score: &ScoreReport) -> String {
    let mut s = format!(
        "score {} ({} by the package's rules)\n",
        score.describe(),
        score.verdict
    );
    if let Some(e) = &score.error {
        s.push_str(&format!("  judge error: {e}\n"));
    }
    let name = |g: &str| {
        if g.is_empty() {
            "data".to_string()
        } else {
            g.to_string()
        }
    };
    let width = score
        .groups
        .iter()
        .map(|g| name(&g.group).len())
        .max()
        .unwrap_or(5)
        .max(5);
    s.push_str(&format!(
        "  {:width$}  {:7}  {:>8}  {:>8}  AGGREGATION\n",
        "GROUP", "VERDICT", "SCORE", "MAX"
    ));
    for g in &score.groups {
        s.push_str(&format!(
            "  {:width$}  {:7}  {:>8}  {:>8}  {}\n",
            name(&g.group),
            g.verdict.code(),
            fmt_score(g.score),
            g.max.map_or("-".into(), fmt_score),
            g.aggregation
        ));
    }
    s
}

/// `AC  52/52 tests passed · max CPU 0.012s · max memory 3.1 MiB · compiled in 0.41s`.
pub fn summary_line(r: &SubmissionReport) -> String {
    let Some(compile) = &r.compile else {
        return format!("--  {}: interrupted while compiling", r.submission);
    };
    if !compile.ok {
        return format!("CE  {}: compilation failed", r.submission);
    }
    let passed = r.tests.iter().filter(|t| t.verdict == Verdict::AC).count();
    let max_cpu = r.tests.iter().map(|t| t.time_ms).max().unwrap_or(0);
    let max_mem = r.tests.iter().map(|t| t.memory_kib).max().unwrap_or(0);
    let compiled = if compile.cached {
        "compile cached".to_string()
    } else {
        format!("compiled in {}", secs(compile.time_ms))
    };
    let mut line = format!(
        "{:<3} {passed}/{} tests passed",
        r.verdict.map_or("--", Verdict::code),
        r.tests_total
    );
    if let Some(first) = r.tests.iter().find(|t| t.verdict != Verdict::AC) {
        line.push_str(&format!(
            " · first failure: {} ({})",
            first.name, first.verdict
        ));
    }
    if r.tests.len() < r.tests_total {
        line.push_str(&format!(" · {} not run", r.tests_total - r.tests.len()));
    }
    if r.interrupted {
        line.push_str(" · interrupted");
    }
    line.push_str(&format!(
        " · max CPU {} · max memory {} · {compiled}",
        secs(max_cpu),
        mib(max_mem)
    ));
    line
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One submission's report as a single JSON line.
pub fn render_json(r: &SubmissionReport) -> String {
    serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::TestResult;

    pub(crate) fn report() -> SubmissionReport {
        SubmissionReport {
            problem: "magic-square".into(),
            submission: "sol.cpp".into(),
            language: "cpp".into(),
            runtime: None,
            verdict: Some(Verdict::WA),
            compile: Some(CompileReport {
                ok: true,
                message: String::new(),
                time_ms: 410,
                cached: false,
            }),
            tests: vec![
                TestResult {
                    name: "sample-1".into(),
                    verdict: Verdict::AC,
                    time_ms: 3,
                    wall_ms: 4,
                    memory_kib: 1536,
                    message: String::new(),
                    runs: 1,
                    shared: false,
                    settled: false,
                    output: None,
                    validator_score: None,
                    passes: None,
                },
                TestResult {
                    name: "large-02".into(),
                    verdict: Verdict::WA,
                    time_ms: 5,
                    wall_ms: 6,
                    memory_kib: 2048,
                    message: "row 2 sums to 14, expected 15".into(),
                    runs: 1,
                    shared: false,
                    settled: false,
                    output: Some(crate::grade::OutputHead::of(b"1 2 3\n")),
                    validator_score: None,
                    passes: None,
                },
            ],
            tests_total: 50,
            limits: LimitsReport {
                time_ms: 1000,
                wall_ms: 2000,
                memory_mib: 64,
                output_mib: 8,
            },
            interrupted: false,
            partition: None,
            score: None,
        }
    }

    #[test]
    fn table_shows_each_test_and_a_summary() {
        let t = render_table(&report());
        assert!(t.contains("  large-02  WA         0.005s    0.006s     2.0 MiB  row 2 sums to 14, expected 15\n"), "{t}");
        assert!(t.ends_with("WA  1/50 tests passed · first failure: large-02 (WA) · 48 not run · max CPU 0.005s · max memory 2.0 MiB · compiled in 0.410s\n"), "{t}");
    }

    #[test]
    fn json_is_one_line_with_stable_fields() {
        let j = render_json(&report());
        assert!(!j.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["verdict"], "WA");
        assert_eq!(v["compile"]["ok"], true);
        assert_eq!(v["tests"][1]["message"], "row 2 sums to 14, expected 15");
        assert_eq!(v["tests"][1]["memory_kib"], 2048);
    }

    #[test]
    fn compile_error_shows_the_message() {
        let mut r = report();
        r.verdict = Some(Verdict::CE);
        r.compile = Some(CompileReport {
            ok: false,
            message: "a.cpp:1: error: x".into(),
            time_ms: 5,
            cached: false,
        });
        r.tests.clear();
        assert!(render_table(&r).contains("    a.cpp:1: error: x"));
    }

    #[test]
    fn an_interrupted_report_says_so_and_leaves_the_verdict_open() {
        let mut r = report();
        r.verdict = None;
        r.interrupted = true;
        r.tests.truncate(1);
        let t = render_table(&r);
        assert!(
            t.ends_with("--  1/50 tests passed · 49 not run · interrupted · max CPU 0.003s · max memory 1.5 MiB · compiled in 0.410s\n"),
            "{t}"
        );
        let v: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap();
        assert_eq!(v["verdict"], serde_json::Value::Null);
        assert_eq!(v["interrupted"], true);

        r.compile = None;
        r.tests.clear();
        let t = render_table(&r);
        assert!(
            t.ends_with("--  sol.cpp: interrupted while compiling\n"),
            "{t}"
        );
        let v: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap();
        assert_eq!(v["compile"], serde_json::Value::Null);
    }
}
