//! Renderers for a hunt: the terminal text and the `--json` object. Pure functions of a
//! [`HuntReport`].

use serde::Serialize;

use super::target::ScoreKind;
use super::{Found, Outcome};

/// Where the worst input was saved.
#[derive(Debug, Clone, Serialize)]
pub struct Saved {
    /// The `.in` file.
    pub input: String,
    /// The `.ans` file (the reference solver's answer).
    pub answer: String,
}

/// Everything a hunt reports (the `--json` root object; field names are stable).
#[derive(Debug, Clone, Serialize)]
pub struct HuntReport {
    pub problem: String,
    /// The submission's path, or `solver:<name>` for a built-in solver.
    pub target: String,
    /// What `worst.score` counts: `cpu-micros` (a submission) or `nodes` (a solver).
    pub score: ScoreKind,
    pub seed: u64,
    /// Parallel chains.
    pub jobs: usize,
    /// Inputs measured.
    pub runs: u64,
    pub elapsed_ms: u64,
    /// judge's own CPU time during the hunt: all of a built-in solver's search (a
    /// submission's runs are in the sandbox, not counted here).
    pub cpu_ms: u64,
    /// The submission's CPU time limit (`null` for a solver).
    pub limit_ms: Option<u64>,
    /// The solver's node cap (`null` for a submission).
    pub cap: Option<u64>,
    /// Whether an input made the target fail (`worst.verdict` is not AC).
    pub failed: bool,
    /// The failing input, else the one with the highest score.
    pub worst: Found,
    /// The `judge hunt` command line that runs this hunt again.
    pub reproduce: String,
    /// The `judge grade` command line that grades the saved input (`null` when not saved).
    pub check: Option<String>,
    pub saved: Option<Saved>,
}

impl HuntReport {
    /// The report of `outcome`; the caller fills in where it came from.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        problem: &str,
        target: String,
        outcome: Outcome,
        seed: u64,
        limit_ms: Option<u64>,
        cap: Option<u64>,
        reproduce: String,
    ) -> Self {
        HuntReport {
            problem: problem.to_string(),
            target,
            score: outcome.kind,
            seed,
            jobs: outcome.chains,
            runs: outcome.runs,
            elapsed_ms: u64::try_from(outcome.elapsed.as_millis()).unwrap_or(u64::MAX),
            cpu_ms: u64::try_from(outcome.cpu.as_millis()).unwrap_or(u64::MAX),
            limit_ms,
            cap,
            failed: outcome.failed(),
            worst: outcome.worst,
            reproduce,
            check: None,
            saved: None,
        }
    }

    /// The worst score in words: `CPU 0.412 s (41 % of the 1.000 s limit)` or
    /// `123456 nodes (1 % of the cap of 10000000)`.
    pub fn worst_in_words(&self) -> String {
        let w = &self.worst;
        match self.score {
            ScoreKind::CpuMicros => {
                let secs = w.score as f64 / 1e6;
                match self.limit_ms {
                    Some(limit) if limit > 0 => format!(
                        "CPU {secs:.3} s ({:.0} % of the {:.3} s limit)",
                        100.0 * w.score as f64 / (limit as f64 * 1000.0),
                        limit as f64 / 1000.0
                    ),
                    _ => format!("CPU {secs:.3} s"),
                }
            }
            ScoreKind::Nodes => match self.cap {
                Some(cap) if cap > 0 => format!(
                    "{} nodes ({:.0} % of the cap of {cap})",
                    w.score,
                    100.0 * w.score as f64 / cap as f64
                ),
                _ => format!("{} nodes", w.score),
            },
        }
    }
}

/// Inputs up to this size are printed in full.
const SHOW_LINES: usize = 25;
const SHOW_BYTES: usize = 4000;

/// The human-readable report.
pub fn render_text(r: &HuntReport) -> String {
    let w = &r.worst;
    let secs = r.elapsed_ms as f64 / 1000.0;
    let mut s = String::new();
    if r.failed {
        let message = if w.message.is_empty() {
            String::new()
        } else {
            format!(": {}", w.message)
        };
        s.push_str(&format!(
            "{} on run {} of {} ({secs:.1} s){message}\n",
            w.verdict, w.run, r.runs
        ));
    } else {
        s.push_str(&format!("no failure in {} runs ({secs:.1} s)\n", r.runs));
    }
    s.push_str(&format!(
        "worst input: {}, run {} (chain {}), {} change{} from {}\n",
        r.worst_in_words(),
        w.run,
        w.chain + 1,
        w.mutations,
        if w.mutations == 1 { "" } else { "s" },
        w.start
    ));
    if w.input.lines().count() <= SHOW_LINES && w.input.len() <= SHOW_BYTES {
        for line in w.input.lines() {
            s.push_str(&format!("  {line}\n"));
        }
    } else {
        s.push_str(&format!("  ({} bytes; --out saves it)\n", w.input.len()));
    }
    if let Some(saved) = &r.saved {
        s.push_str(&format!("saved {} and {}\n", saved.input, saved.answer));
    }
    s.push_str(&format!("reproduce: {}\n", r.reproduce));
    if let Some(check) = &r.check {
        s.push_str(&format!("check it: {check}\n"));
    }
    s
}

/// The report as one JSON object on one line.
pub fn render_json(r: &HuntReport) -> String {
    serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use std::time::Duration;

    fn report(verdict: Verdict) -> HuntReport {
        let outcome = Outcome {
            kind: ScoreKind::CpuMicros,
            runs: 40,
            elapsed: Duration::from_millis(12_345),
            cpu: Duration::from_millis(12_000),
            chains: 2,
            worst: Found {
                input: "3\n1 1 1 1 1 1 1 1 1\n".into(),
                answer: "1 1 1\n1 1 1\n1 1 1\n".into(),
                verdict,
                score: 412_000,
                time_ms: 412,
                message: if verdict == Verdict::AC {
                    String::new()
                } else {
                    "row 1 sums to 2, expected 3".into()
                },
                chain: 1,
                run: 37,
                mutations: 5,
                start: "--generator random --seed 9 --param n=3".into(),
            },
        };
        HuntReport::new(
            "magic-square",
            "sol.cpp".into(),
            outcome,
            7,
            Some(1000),
            None,
            "judge hunt magic-square sol.cpp --seed 7 --count 40 --jobs 2".into(),
        )
    }

    #[test]
    fn text_names_the_failure_the_worst_input_and_how_to_reproduce_it() {
        let t = render_text(&report(Verdict::WA));
        assert!(
            t.starts_with("WA on run 37 of 40 (12.3 s): row 1 sums to 2, expected 3\n"),
            "{t}"
        );
        assert!(t.contains("worst input: CPU 0.412 s (41 % of the 1.000 s limit), run 37 (chain 2), 5 changes from --generator random --seed 9 --param n=3\n  3\n  1 1 1 1 1 1 1 1 1\n"), "{t}");
        assert!(t.ends_with(
            "reproduce: judge hunt magic-square sol.cpp --seed 7 --count 40 --jobs 2\n"
        ));
        let t = render_text(&report(Verdict::AC));
        assert!(
            t.starts_with("no failure in 40 runs (12.3 s)\nworst input: "),
            "{t}"
        );
    }

    #[test]
    fn node_scores_are_shown_against_the_cap() {
        let mut r = report(Verdict::AC);
        r.score = ScoreKind::Nodes;
        r.limit_ms = None;
        r.cap = Some(1_000_000);
        assert_eq!(
            r.worst_in_words(),
            "412000 nodes (41 % of the cap of 1000000)"
        );
    }

    #[test]
    fn json_is_one_line() {
        let j = render_json(&report(Verdict::TLE));
        assert!(!j.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["worst"]["verdict"], "TLE");
        assert_eq!(v["score"], "cpu-micros");
        assert_eq!(v["failed"], true);
    }
}
