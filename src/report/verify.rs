//! Reporters of `judge verify`: terminal lines per [`Event`] (a line per check, then a table of
//! the jury submissions and the suggested time limit per problem), and the JSON report.

use super::summary::{SummaryRow, SummaryTable};
use crate::verify::run::{Event, ProblemReport, VerifyReport};
use crate::verify::{Check, Status};

/// Terminal options.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    /// Print the suggested time limit of each problem.
    pub suggest_time_limit: bool,
}

/// The terminal text for one event (empty for progress events).
pub fn event_text(e: &Event, options: TextOptions) -> String {
    match e {
        Event::ProblemStarted { name, title } => format!("{name} ({title})\n"),
        Event::Check(c) => check_line(c),
        Event::SubmissionsStarted { .. }
        | Event::SubmissionStarted { .. }
        | Event::SubmissionDone { .. } => String::new(),
        Event::ProblemDone { report } => problem_footer(report, options),
    }
}

/// `  ok    checker: rejects all 422 mutated answers`.
pub fn check_line(c: &Check) -> String {
    format!("  {:4}  {}: {}\n", c.status.label(), c.name, c.message)
}

/// The table of the graded jury submissions and, when asked, the suggested time limit.
pub fn problem_footer(r: &ProblemReport, options: TextOptions) -> String {
    let mut s = String::new();
    if !r.graded.is_empty() {
        let table = SummaryTable::new(r.submissions.iter().map(|x| x.path.as_str()))
            .with_groups(&super::summary::groups_of(&r.graded));
        for line in table.header().lines() {
            s.push_str(&format!("  {line}\n"));
        }
        for (result, graded) in r.submissions.iter().zip(&r.graded) {
            s.push_str("  ");
            s.push_str(&table.row(&result.path, &SummaryRow::of(graded)));
        }
    }
    if options.suggest_time_limit {
        s.push_str(&match &r.suggested_time_limit {
            Some(t) => format!(
                "  suggested time limit: {:.1} s (slowest accepted {:.3} s x 2, rounded up{})\n",
                t.time_limit_ms as f64 / 1000.0,
                t.slowest_accepted_ms as f64 / 1000.0,
                match t.fastest_tle_ms {
                    Some(f) if t.consistent =>
                        format!("; below fastest TLE {:.3} s / 1.5", f as f64 / 1000.0),
                    Some(f) => format!(
                        "; WARNING: not below fastest TLE {:.3} s / 1.5, no limit separates them safely",
                        f as f64 / 1000.0
                    ),
                    None => String::new(),
                }
            ),
            None => "  suggested time limit: none (no timed accepted submission)\n".into(),
        });
    }
    // Where the time went (a report from before it was kept has none).
    if r.time.total_ms > 0 {
        s.push_str(&format!("  time: {}\n", r.time.describe()));
    }
    s
}

/// `verify: 2 problems: 50 ok, 0 warnings, 0 failed`.
pub fn summary_line(r: &VerifyReport) -> String {
    let n = r.problems.len();
    let warn = r.count(Status::Warn);
    format!(
        "verify: {n} problem{}: {} ok, {warn} warning{}, {} failed{}\n",
        if n == 1 { "" } else { "s" },
        r.count(Status::Ok),
        if warn == 1 { "" } else { "s" },
        r.count(Status::Fail),
        if r.strict && warn > 0 {
            " (--strict: the warnings fail)"
        } else {
            ""
        }
    )
}

/// The report as one pretty-printed JSON object.
pub fn render_json(r: &VerifyReport) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")) + "\n"
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::tests::report;
    use crate::verdict::Verdict;
    use crate::verify::run::TimeSpent;
    use crate::verify::submissions::SubmissionResult;
    use crate::verify::{suggest_time_limit, Timing};

    pub(crate) fn problem() -> ProblemReport {
        let mut wa = report();
        wa.submission = "problems/magic-square/submissions/wrong_answer/sol.cpp".into();
        let mut ac = report();
        ac.verdict = Some(Verdict::AC);
        ac.tests.truncate(1);
        ac.tests_total = 1;
        ProblemReport {
            problem: "magic-square".into(),
            checks: vec![
                Check::ok("validator", "all 63 test inputs are valid"),
                Check::warn("submissions/accepted/slow.py", "AC, but slow"),
                Check::fail("submissions/wrong_answer/sol.cpp", "expected WA, got AC"),
            ],
            submissions: vec![
                SubmissionResult {
                    path: "submissions/accepted/fast.cpp".into(),
                    expected: Verdict::AC,
                    actual: Verdict::AC,
                    permitted: vec![Verdict::AC],
                    timing: Some(Timing::from_samples(
                        "large-02",
                        [12, 10, 11, 15, 11]
                            .map(std::time::Duration::from_millis)
                            .to_vec(),
                        false,
                    )),
                    margin: None,
                    randomised: None,
                },
                SubmissionResult {
                    path: "submissions/wrong_answer/sol.cpp".into(),
                    expected: Verdict::WA,
                    actual: Verdict::WA,
                    permitted: vec![Verdict::WA],
                    timing: None,
                    margin: None,
                    randomised: None,
                },
            ],
            suggested_time_limit: Some(suggest_time_limit(11, Some(3004), 100)),
            title: "Magic Square".into(),
            tests: Vec::new(),
            graded: vec![ac, wa],
            interrupted: false,
            time: TimeSpent {
                total_ms: 31_560,
                static_checks_ms: 1_840,
                compile_wait_ms: 5_460,
                compiles: 22,
                compile_time_ms: 15_500,
                runs_ms: 14_330,
                timing_ms: 9_980,
            },
        }
    }

    #[test]
    fn problem_footer_has_a_table_row_per_jury_submission_and_the_suggestion() {
        let s = problem_footer(
            &problem(),
            TextOptions {
                suggest_time_limit: true,
            },
        );
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("  SUBMISSION "), "{s}");
        assert!(
            lines[1].starts_with("  submissions/accepted/fast.cpp     AC "),
            "{s}"
        );
        assert!(
            lines[2].contains("large-02: row 2 sums to 14, expected 15"),
            "{s}"
        );
        assert_eq!(
            lines[3],
            "  suggested time limit: 0.1 s (slowest accepted 0.011 s x 2, rounded up; below fastest TLE 3.004 s / 1.5)"
        );
        assert_eq!(
            lines[4],
            "  time: 31.6 s: static checks 1.8 s, waiting for 22 compiles 5.5 s, runs 14.3 s, timing alone 10.0 s"
        );
        // A phase that took no time is left out; a report without the figures has no line.
        let mut p = problem();
        p.time.compile_wait_ms = 0;
        assert!(problem_footer(&p, TextOptions::default())
            .ends_with("  time: 31.6 s: static checks 1.8 s, runs 14.3 s, timing alone 10.0 s\n"));
        p.time = TimeSpent::default();
        assert!(!problem_footer(&p, TextOptions::default()).contains("time:"));
    }

    #[test]
    fn check_lines_and_the_summary_count_statuses() {
        let r = VerifyReport::new(vec![problem()], false, false);
        assert!(!r.ok);
        assert_eq!(
            check_line(&r.problems[0].checks[2]),
            "  FAIL  submissions/wrong_answer/sol.cpp: expected WA, got AC\n"
        );
        assert_eq!(
            summary_line(&r),
            "verify: 1 problem: 1 ok, 1 warning, 1 failed\n"
        );
        let v: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(
            v["problems"][0]["submissions"][0]["timing"]["samples_ms"],
            serde_json::json!([10, 11, 11, 12, 15])
        );
        assert!(v["problems"][0].get("graded").is_none());
    }
}
