//! Reporters of `judge stress`: terminal lines per [`Event`], and the JSON report.

use crate::stress::run::{Event, StressReport};
use crate::text::count;

/// Where a rendered line goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Stdout(String),
    Stderr(String),
}

/// The terminal lines for one event of a stress run of `submission` on `problem` (none for
/// progress, which the live counter shows).
pub fn event_lines(problem: &str, submission: &str, event: &Event) -> Vec<Line> {
    match event {
        Event::Started {
            seed,
            sources,
            jobs,
        } => vec![Line::Stderr(format!(
            "stress {submission} on {problem} with seed {seed} ({}, {})",
            count(*sources, "generator setup"),
            count(*jobs, "job")
        ))],
        Event::Progress { .. } => Vec::new(),
        Event::Found {
            failure,
            tests_run,
            elapsed_ms,
        } => vec![
            Line::Stdout(format!(
                "{} on stress test #{} after {} ({:.1} s): {}",
                failure.verdict,
                failure.index,
                count(*tests_run as usize, "test"),
                *elapsed_ms as f64 / 1000.0,
                failure.message
            )),
            Line::Stdout(format!(
                "reproduce the input: judge gen {problem} {}",
                failure.reproduce
            )),
        ],
        Event::Shrunk { shrunk } => vec![Line::Stdout(format!(
            "shrunk in {} ({}{}): {} {}",
            count(shrunk.steps as usize, "step"),
            count(shrunk.runs as usize, "run"),
            if shrunk.interrupted {
                "; interrupted, keeping the smallest so far"
            } else {
                ""
            },
            shrunk.verdict,
            shrunk.message
        ))],
        Event::Saved { dir } => vec![
            Line::Stdout(format!(
                "saved {}/counterexample.in and .ans (the unshrunk input: original/original.in)",
                dir.display()
            )),
            Line::Stdout(format!(
                "check it: judge grade {problem} {submission} --tests {}",
                dir.display()
            )),
        ],
    }
}

/// The closing line of a run without a failure, or of a submission that does not compile.
pub fn closing_line(r: &StressReport) -> Option<String> {
    if !r.compile.ok {
        return Some(format!(
            "CE  {} does not compile; nothing to stress",
            r.submission
        ));
    }
    r.failure.is_none().then(|| {
        format!(
            "no failure in {} ({:.1} s, seed {}){}",
            count(r.tests_run as usize, "test"),
            r.elapsed_ms as f64 / 1000.0,
            r.seed,
            if r.interrupted { "; interrupted" } else { "" }
        )
    })
}

/// The report as one pretty-printed JSON object.
pub fn render_json(r: &StressReport) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CompileReport;
    use crate::stress::run::{FailureReport, ShrunkReport};
    use crate::verdict::Verdict;
    use std::path::Path;

    fn failure() -> FailureReport {
        FailureReport {
            index: 0,
            verdict: Verdict::WA,
            message: "uses 0, which is not in the input".into(),
            generator: "random".into(),
            params: [("n".to_string(), 3)].into_iter().collect(),
            seed: 15027954845680619076,
            reproduce: "--generator random --seed 15027954845680619076 --param n=3".into(),
            shrunk: Some(ShrunkReport {
                steps: 2,
                runs: 6,
                verdict: Verdict::WA,
                message: "uses 0, which is not in the input".into(),
                input: "3\n1 1 1 1 1 1 1 1 1\n".into(),
                interrupted: false,
            }),
            saved: Some("stress-magic-square-7".into()),
        }
    }

    fn report() -> StressReport {
        StressReport {
            problem: "magic-square".into(),
            submission: "int32_sums.cpp".into(),
            seed: 7,
            verdict: Verdict::WA,
            compile: CompileReport {
                ok: true,
                message: String::new(),
                time_ms: 0,
                cached: true,
            },
            tests_run: 2,
            elapsed_ms: 40,
            failure: Some(failure()),
            interrupted: false,
            partition: None,
        }
    }

    #[test]
    fn terminal_lines_follow_the_events() {
        let f = failure();
        let text = |e: Event| event_lines("magic-square", "int32_sums.cpp", &e);
        assert_eq!(
            text(Event::Started {
                seed: 7,
                sources: 26,
                jobs: 2
            }),
            vec![Line::Stderr(
                "stress int32_sums.cpp on magic-square with seed 7 (26 generator setups, 2 jobs)"
                    .into()
            )]
        );
        assert!(text(Event::Progress { count: 5 }).is_empty());
        assert_eq!(
            text(Event::Found { failure: &f, tests_run: 2, elapsed_ms: 40 }),
            vec![
                Line::Stdout("WA on stress test #0 after 2 tests (0.0 s): uses 0, which is not in the input".into()),
                Line::Stdout("reproduce the input: judge gen magic-square --generator random --seed 15027954845680619076 --param n=3".into()),
            ]
        );
        let s = f.shrunk.clone().unwrap();
        assert_eq!(
            text(Event::Shrunk { shrunk: &s }),
            vec![Line::Stdout(
                "shrunk in 2 steps (6 runs): WA uses 0, which is not in the input".into()
            )]
        );
        let lines = text(Event::Saved {
            dir: Path::new("cex"),
        });
        assert_eq!(
            lines[1],
            Line::Stdout("check it: judge grade magic-square int32_sums.cpp --tests cex".into())
        );
    }

    #[test]
    fn closing_line_only_without_a_failure() {
        let mut r = report();
        assert_eq!(closing_line(&r), None);
        r.failure = None;
        r.verdict = Verdict::AC;
        r.tests_run = 200;
        assert_eq!(
            closing_line(&r).unwrap(),
            "no failure in 200 tests (0.0 s, seed 7)"
        );
        r.compile.ok = false;
        assert!(closing_line(&r).unwrap().starts_with("CE  int32_sums.cpp"));
    }

    #[test]
    fn json_has_the_documented_fields() {
        let v: serde_json::Value = serde_json::from_str(&render_json(&report())).unwrap();
        assert_eq!(v["verdict"], "WA");
        assert_eq!(v["failure"]["seed"].as_u64(), Some(15027954845680619076));
        assert_eq!(v["failure"]["params"]["n"], 3);
        assert_eq!(v["failure"]["shrunk"]["input"], "3\n1 1 1 1 1 1 1 1 1\n");
        assert_eq!(v["failure"]["saved"], "stress-magic-square-7");
    }
}
