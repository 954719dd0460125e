//! What a jury submission must get, decided on the tests run so far ([`RulesGoal`]), and
//! the check of its results against it ([`judge_rules`]).

use super::*;
use crate::verdict::expectation::ScoreExpectation;

/// A submission's goal: what it must get decided on the tests run so far (see
/// [`JurySubmission::decided`]), and its first rejected test known, so the report says what
/// running every test would.
pub(super) struct RulesGoal<'a> {
    pub(super) jury: &'a JurySubmission,
    pub(super) names: Vec<&'a str>,
    pub(super) view: View,
    /// Its rules are read at its first failure ([`JurySubmission::first_failure`]): decided
    /// there.
    pub(super) first_failure: bool,
}

impl RulesGoal<'_> {
    fn decisive(&self, seen: &[Seen], k: usize) -> bool {
        k == self.names.len()
            || (seen[..k].iter().any(|s| s.verdict != Verdict::AC)
                && (self.first_failure
                    || self.jury.decided(&seen[..k], &self.names[k..]).is_some()))
    }
}

impl Goal for RulesGoal<'_> {
    fn decided(&self, results: &[Option<TestResult>]) -> Option<usize> {
        let seen: Vec<Seen> = results
            .iter()
            .map_while(|r| r.as_ref().map(|r| self.view.see(r)))
            .collect();
        if !self.decisive(&seen, seen.len()) {
            return None;
        }
        // The shortest decisive prefix (a longer one decides the same), so the report does not
        // depend on which later tests happened to finish too.
        let (mut lo, mut hi) = (0, seen.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.decisive(&seen, mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(hi)
    }
}

/// The check for a package with no accepted submission. Required (the format asks for one;
/// problemtools refuses the package without), but with the time limit given every other check
/// can be made (BAPCtools runs such a package): a warning then, a failure with --strict.
/// Without it, the time limit cannot be computed: a failure.
pub(super) fn no_accepted(fixed_limit: bool) -> Check {
    let what = "submissions/accepted/ holds no submission: at least one is required";
    match fixed_limit {
        true => Check::warn(
            "submissions",
            format!("{what} (the time limit is the package's own, so nothing else depends on one)"),
        ),
        false => Check::fail("submissions", what),
    }
}

/// Whether a legacy scoring package's submission expected to get TLE by the package's rules
/// gets it with the tests judge ended at the output limit (OLE) read as time-outs, when that
/// gives it TLE. problemtools sets no output limit on a run: it checks the time first and
/// measures the output only once the run ends, so such a test is TLE there when the program
/// would have run past the time limit (as one printing in a loop does), and judge cannot
/// tell which. False when there is no such test, or reading them so does not help.
fn past_output_limit(pkg: &Package, report: &SubmissionReport, expected: ScoreExpectation) -> bool {
    if expected != ScoreExpectation::Verdict(Verdict::TLE)
        || !report.tests.iter().any(|t| t.verdict == Verdict::OLE)
    {
        return false;
    }
    let mut as_tle = report.clone();
    for t in &mut as_tle.tests {
        if t.verdict == Verdict::OLE {
            t.verdict = Verdict::TLE;
        }
    }
    crate::grade::submission::score(pkg, &as_tle).is_some_and(|s| s.verdict == Verdict::TLE)
}

/// Checks what `g` must get on its results.
pub(super) fn judge_rules(
    pkg: &Package,
    tests: usize,
    g: &Graded,
    timing: Option<Timing>,
) -> Judged {
    let seen = g.seen();
    let compile_error = match &g.compiled.outcome {
        CompileOutcome::Failed { message } => Some(message.as_str()),
        CompileOutcome::Ok => None,
    };
    let first_bad = seen.iter().find(|s| s.verdict != Verdict::AC);
    let actual = match (first_bad, compile_error) {
        (_, Some(_)) => Verdict::CE,
        (Some(s), None) => s.verdict,
        (None, None) => Verdict::AC,
    };
    let run = compile_error.is_none().then(|| TestRun {
        results: g
            .results
            .iter()
            .zip(&seen)
            .map(|(t, s)| TestResult {
                verdict: s.verdict,
                message: s.message.clone().into_owned(),
                ..t.clone()
            })
            .collect(),
        verdict: Some(actual),
        interrupted: None,
    });
    let report = report(pkg, &g.submission, &g.compiled, tests, run);
    let score = report.score.clone();
    let as_tle = match (g.jury.score, pkg.scoring()) {
        (Some(expected), Some(Scoring::Legacy(_))) => past_output_limit(pkg, &report, expected),
        _ => false,
    };
    // A legacy scoring package's rejected submission is checked on the verdict its graders
    // give the whole (problemtools' rule): that is its verdict, not its first failure's.
    let whole = match (g.jury.score, &score) {
        (Some(ScoreExpectation::Verdict(_)), Some(s)) if compile_error.is_none() => s.verdict,
        _ => actual,
    };
    let result = g
        .jury
        .permitted_verdicts()
        .map(|permitted| SubmissionResult {
            path: name(g.jury),
            expected: *permitted
                .iter()
                .find(|&&v| v == whole)
                .unwrap_or(&permitted[0]),
            actual: whole,
            permitted,
            timing: timing.clone(),
            margin: None,
            randomised: None,
        });
    let judged = |check| Judged {
        path: name(g.jury),
        check,
        result,
        report,
    };
    if let Some(message) = compile_error {
        let allowed = g
            .jury
            .verdicts
            .as_ref()
            .is_some_and(|v| v.contains(&Verdict::CE));
        return judged(if allowed {
            Check::ok(
                name(g.jury),
                format!("CE: {} (CE expected)", first_line(message)),
            )
        } else if g.jury.verdicts.is_some() {
            Check::fail(
                name(g.jury),
                format!(
                    "expected {}, got CE: {}",
                    g.jury.expected_label(),
                    first_line(message)
                ),
            )
        } else {
            Check::fail(
                name(g.jury),
                format!("does not compile: {}", first_line(message)),
            )
        });
    }
    if let Err(why) = g.jury.check(&seen) {
        return judged(Check::fail(name(g.jury), why));
    }
    let scored = match (&score, g.jury.score) {
        (Some(got), Some(expected)) => {
            let min = pkg.scoring().map_or(0.0, |s| s.bounds().0);
            let legacy = matches!(pkg.scoring(), Some(Scoring::Legacy(_)));
            if let Err(why) = expected.check(got, min, legacy) {
                if as_tle {
                    return judged(Check::warn(
                        name(g.jury),
                        format!(
                            "{why}; but problemtools, which measures the output only once a run ends, gives TLE by the package's rules if the runs judge ended at the output limit would go on past the time limit"
                        ),
                    ));
                }
                let warns = expected.only_warns(got, legacy);
                return judged(Check::fail(name(g.jury), why).warn_if(warns));
            }
            format!(", score {}", got.describe())
        }
        (Some(got), None) => format!(", score {}", got.describe()),
        (None, Some(_)) => {
            return judged(Check::fail(
                name(g.jury),
                "a score is expected, but the problem is not scored (type: scoring) or not every test ran",
            ))
        }
        (None, None) => String::new(),
    };
    if let Err(why) = g.jury.check_group_scores(score.as_ref()) {
        return judged(Check::fail(name(g.jury), why));
    }
    let summary = match first_bad {
        None => format!(
            "AC on {} tests{scored}{}",
            seen.len(),
            timing
                .as_ref()
                .map(|t| format!(", slowest {}", t.describe()))
                .unwrap_or_default()
        ),
        Some(s) if !scored.is_empty() => format!(
            "{} by the package's rules{scored} ({} expected); first rejected: {}",
            score.as_ref().map_or(Verdict::JE, |r| r.verdict),
            g.jury.expected_label(),
            s.describe()
        ),
        Some(s) => format!("{} ({} expected)", s.describe(), g.jury.expected_label()),
    };
    judged(Check::ok(name(g.jury), summary))
}
