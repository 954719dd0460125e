//! A legacy package's custom grader (`graders/`, used by groups with `grading: custom`), run
//! as problemtools runs it: the group's children's results on standard input, one
//! `VERDICT SCORE` line each (`AC 1`, `WA 0`; verdicts AC WA TLE RTE MLE OLE JE), the words
//! of `grader_flags` as arguments; it prints the group's `VERDICT SCORE` and exits 0.
//!
//! The grader is a jury program: built with the compile cache like the validators, run in
//! the jury sandbox under the package's validation limits. Anything else it does (a crash,
//! a limit, another exit status, output not of that form) is a judge error naming it. Its
//! answers are kept by input, so a grader runs once per distinct group result.

use std::collections::HashMap;
use std::sync::Mutex;

use super::problem::{last_line, limit_text, RunDir};
use super::programs::Program;
use super::{jury_error, KattisPackage};
use crate::sandbox::{Stdin, Stdout, Termination};
use crate::verdict::score::CustomGrader;
use crate::verdict::{signal_name, Verdict};

/// The grader's answers so far, by flags and input.
type Table = HashMap<(Vec<String>, String), Result<(Verdict, f64), String>>;
pub type Answers = Mutex<Table>;

/// A verdict as the grader protocol writes it.
fn protocol_name(v: Verdict) -> &'static str {
    match v {
        Verdict::AC => "AC",
        Verdict::WA => "WA",
        Verdict::TLE => "TLE",
        Verdict::MLE => "MLE",
        Verdict::RE => "RTE",
        Verdict::OLE => "OLE",
        Verdict::CE | Verdict::JE => "JE",
    }
}

fn from_protocol(name: &str) -> Option<Verdict> {
    Some(match name {
        "AC" => Verdict::AC,
        "WA" => Verdict::WA,
        "TLE" => Verdict::TLE,
        "MLE" => Verdict::MLE,
        "RTE" => Verdict::RE,
        "OLE" => Verdict::OLE,
        "JE" => Verdict::JE,
        _ => return None,
    })
}

/// The grader's input for these children: `AC 1\nWA 0\n`.
pub fn input(children: &[(Verdict, f64)]) -> String {
    children
        .iter()
        .map(|(v, s)| format!("{} {s}\n", protocol_name(*v)))
        .collect()
}

/// The grader's answer, as problemtools accepts it (`^(AC|WA|...)\s+-?[0-9.]+\s*$`).
pub fn parse(output: &[u8]) -> Result<(Verdict, f64), String> {
    let text = String::from_utf8_lossy(output);
    let bad = || {
        let shown: String = text.trim().chars().take(60).collect();
        format!(
            "printed `{}`, not one `VERDICT SCORE` line (AC, WA, TLE, RTE, MLE, OLE or JE, then a number)",
            shown.escape_debug()
        )
    };
    if text.starts_with(char::is_whitespace) {
        return Err(bad());
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let [verdict, score] = words[..] else {
        return Err(bad());
    };
    let number = score.strip_prefix('-').unwrap_or(score);
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    match (from_protocol(verdict), score.parse::<f64>()) {
        (Some(v), Ok(s)) if s.is_finite() => Ok((v, s)),
        _ => Err(bad()),
    }
}

impl KattisPackage {
    /// Runs the grader on `children` with `flags`; the group's result or why it failed.
    fn run_grader(
        &self,
        grader: &Program,
        flags: &[String],
        stdin: &str,
    ) -> Result<(Verdict, f64), String> {
        let dir = RunDir::new().map_err(|e| e.0)?;
        let limits = self.validation_limits();
        let outcome = self
            .jury
            .run(
                grader,
                flags,
                Stdin::Bytes(stdin.as_bytes().to_vec()),
                Stdout::Capture,
                &dir.feedback,
                &[],
                &limits,
            )
            .map_err(|e| e.0)?;
        let fail = |what: String| Err(jury_error(grader, what).0);
        let tail = || {
            last_line(&outcome.stderr)
                .map(|l| format!(" ({l})"))
                .unwrap_or_default()
        };
        if let Some(hit) = outcome.limit_hit {
            return fail(limit_text(hit, &limits));
        }
        match outcome.termination {
            Termination::Signaled(s) => fail(format!("killed by {}{}", signal_name(s), tail())),
            Termination::Exited(0) => parse(&outcome.stdout).or_else(fail),
            Termination::Exited(c) => fail(format!(
                "exited with status {c}; a grader must exit 0{}",
                tail()
            )),
        }
    }
}

impl CustomGrader for KattisPackage {
    fn grade(
        &self,
        flags: &[String],
        children: &[(Verdict, f64)],
    ) -> Result<(Verdict, f64), String> {
        let Some(grader) = &self.grader else {
            return Err("grading: custom, but graders/ holds no program".into());
        };
        let stdin = input(children);
        let key = (flags.to_vec(), stdin);
        if let Some(known) = self.lock_answers().get(&key) {
            return known.clone();
        }
        let answer = self.run_grader(grader, flags, &key.1);
        self.lock_answers().insert(key, answer.clone());
        answer
    }
}

impl KattisPackage {
    fn lock_answers(&self) -> std::sync::MutexGuard<'_, Table> {
        self.grader_answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocol_reads_and_writes_as_problemtools() {
        assert_eq!(
            input(&[(Verdict::AC, 1.0), (Verdict::RE, 0.0), (Verdict::WA, 2.5)]),
            "AC 1\nRTE 0\nWA 2.5\n"
        );
        assert_eq!(parse(b"AC 50\n"), Ok((Verdict::AC, 50.0)));
        assert_eq!(parse(b"RTE 0.000000\n\n"), Ok((Verdict::RE, 0.0)));
        assert_eq!(parse(b"WA\t-1.5"), Ok((Verdict::WA, -1.5)));
        for bad in [
            &b""[..],
            b" AC 1",
            b"AC",
            b"AC 1 2",
            b"PE 1",
            b"AC one",
            b"AC 1.2.3",
            b"AC 1e3",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("not one `VERDICT SCORE` line"), "{e}");
        }
    }
}
