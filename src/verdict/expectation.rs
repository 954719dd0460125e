//! What a jury submission must get, whatever format said it: per-test rules (the package
//! format's `permitted` / `required` verdict sets over test groups, a checker `message`) and
//! the verdicts allowed for the submission as a whole (judge's own folders, DOMjudge's
//! `@EXPECTED_RESULTS@`). The package formats fill these in (`kattis::submissions`,
//! `package`); the runners check them (`verify`).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::score::fmt_score;
use super::Verdict;
use crate::compile::Language;

/// A test-case verdict as the package format names it (MLE is RTE there; an OLE is RTE or
/// TLE: [`Outcome::satisfied_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    AC,
    WA,
    TLE,
    RTE,
}

impl Outcome {
    /// The format's verdicts a test with judge's verdict `v` satisfies in a rule's `permitted`
    /// and `required`: MLE and RE are RTE, CE and JE none (never acceptable), and an OLE
    /// stands for TLE as well as RTE. judge stops a program at the output limit (8 MiB unless
    /// the package says otherwise), where BAPCtools, problemtools and DOMjudge let it write on
    /// (discarding the rest, or checking the size afterwards) until it exits or runs out of
    /// time: a program that writes forever is TLE there (BAPCtools' `hello` expects TLE of its
    /// `test-fill-stdout.cc`), and one that writes too much and stops is a rejection the
    /// format names no verdict for. What it would have done had it been let run on is not
    /// known, so either expectation is met; no other is (a `wrong_answer` submission must not
    /// write past the limit).
    pub fn satisfied_by(v: Verdict) -> &'static [Outcome] {
        match v {
            Verdict::OLE => &[Outcome::TLE, Outcome::RTE],
            Verdict::AC => &[Outcome::AC],
            Verdict::WA => &[Outcome::WA],
            Verdict::TLE => &[Outcome::TLE],
            Verdict::MLE | Verdict::RE => &[Outcome::RTE],
            Verdict::CE | Verdict::JE => &[],
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Outcome> {
        Some(match s {
            "AC" => Outcome::AC,
            "WA" => Outcome::WA,
            "TLE" => Outcome::TLE,
            "RTE" => Outcome::RTE,
            _ => return None,
        })
    }

    pub fn code(self) -> &'static str {
        match self {
            Outcome::AC => "AC",
            Outcome::WA => "WA",
            Outcome::TLE => "TLE",
            Outcome::RTE => "RTE",
        }
    }
}

pub const ALL: [Outcome; 4] = [Outcome::AC, Outcome::WA, Outcome::TLE, Outcome::RTE];

/// One test's verdict as the rules see it (at the time limit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen<'a> {
    pub test: &'a str,
    pub verdict: Verdict,
    /// The checker's message, or why the verdict is what it is.
    pub message: Cow<'a, str>,
}

impl Seen<'_> {
    /// `WA on test `secret/03`: expected 5, got 4`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} on test `{}`", self.verdict, self.test);
        if !self.message.is_empty() {
            s.push_str(": ");
            s.push_str(&self.message);
        }
        s
    }
}

/// The rules checked in order on the whole plan: the first failure, else `Ok`.
pub fn check_all(rules: &[Rule], results: &[Seen]) -> Result<(), String> {
    rules.iter().try_for_each(|r| r.check(results))
}

/// What [`check_all`] gives on the whole plan, if the first tests `done` decide it whatever
/// the tests named in `rest` get (see [`Rule::decided`]); `None` while undecided.
pub fn decided(rules: &[Rule], done: &[Seen], rest: &[&str]) -> Option<Result<(), String>> {
    for r in rules {
        match r.decided(done, rest)? {
            Ok(()) => {}
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(()))
}

/// One requirement on a submission's test verdicts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Test-group glob it is limited to (`secret/group1`), or `None` for every test.
    pub tests: Option<String>,
    /// Every test in scope has one of these.
    pub permitted: BTreeSet<Outcome>,
    /// At least one test in scope has one of these.
    pub required: BTreeSet<Outcome>,
    /// Must appear in the checker message of some test in scope.
    pub message: Option<String>,
    /// Where the rule was defined, for messages (`folder accepted`, `submissions.yaml: wrong_answer/*`).
    pub origin: String,
}

impl Rule {
    pub(crate) fn new(permitted: &[Outcome], required: &[Outcome], origin: &str) -> Rule {
        Rule {
            tests: None,
            permitted: permitted.iter().copied().collect(),
            required: required.iter().copied().collect(),
            message: None,
            origin: origin.to_string(),
        }
    }

    /// True if the rule applies to the test named `test` (`secret/g1/03`).
    pub fn covers(&self, test: &str) -> bool {
        self.tests.as_deref().is_none_or(|g| matches_path(g, test))
    }

    /// Whether `results` (in test order) satisfy the rule: `Err` says why not (the first
    /// test in scope with a verdict it does not permit, else the missing required verdict,
    /// else the missing message).
    pub fn check(&self, results: &[Seen]) -> Result<(), String> {
        let scope: Vec<&Seen> = results.iter().filter(|s| self.covers(s.test)).collect();
        if let Some(s) = scope.iter().find(|s| !self.permits(s.verdict)) {
            return Err(format!(
                "{}, but {} permits only {}",
                s.describe(),
                self.origin,
                list(&self.permitted)
            ));
        }
        if self.requires_some() && !scope.iter().any(|s| self.requires(s.verdict)) {
            return Err(format!(
                "no test{} got {}, which {} requires",
                self.tests
                    .as_deref()
                    .map(|g| format!(" in `{g}`"))
                    .unwrap_or_default(),
                list(&self.required),
                self.origin
            ));
        }
        if let Some(msg) = &self.message {
            if !scope.iter().any(|s| s.message.contains(msg.as_str())) {
                return Err(format!(
                    "no checker message contains `{msg}` ({})",
                    self.origin
                ));
            }
        }
        Ok(())
    }

    fn permits(&self, v: Verdict) -> bool {
        Outcome::satisfied_by(v)
            .iter()
            .any(|o| self.permitted.contains(o))
    }

    /// Whether a test with verdict `v` is one of those `required` asks for.
    fn requires(&self, v: Verdict) -> bool {
        Outcome::satisfied_by(v)
            .iter()
            .any(|o| self.required.contains(o))
    }

    /// `required` names a proper subset of the verdicts (all four require nothing).
    fn requires_some(&self) -> bool {
        self.required.len() < ALL.len()
    }

    /// What [`Rule::check`] gives on the whole plan, if `done` (the first tests, in order)
    /// already decide it whatever verdicts the tests named in `rest` get: `None` while they
    /// could change it. A verdict the format has no name for (a judge error) on a test not
    /// run yet is not foreseen: it would fail every rule, and no rule can be decided without
    /// running everything.
    pub fn decided(&self, done: &[Seen], rest: &[&str]) -> Option<Result<(), String>> {
        if !rest.iter().any(|t| self.covers(t)) {
            return Some(self.check(done));
        }
        let scope = || done.iter().filter(|s| self.covers(s.test));
        // The first test it does not permit is among those done: no later test comes first.
        if scope().any(|s| !self.permits(s.verdict)) {
            return Some(self.check(done));
        }
        let open = self.permitted.len() < ALL.len()
            || (self.requires_some() && !scope().any(|s| self.requires(s.verdict)))
            || self
                .message
                .as_ref()
                .is_some_and(|m| !scope().any(|s| s.message.contains(m.as_str())));
        (!open).then_some(Ok(()))
    }

    /// True when only "accepted on every test" can satisfy it.
    pub fn accept_only(&self) -> bool {
        self.tests.is_none() && self.permitted.len() == 1 && self.permitted.contains(&Outcome::AC)
    }
}

fn list(set: &BTreeSet<Outcome>) -> String {
    set.iter().map(|o| o.code()).collect::<Vec<_>>().join("/")
}

/// The score a jury submission of a scoring problem must get.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScoreExpectation {
    /// The maximum, accepted (an accepted submission of a scoring problem).
    Full,
    /// Accepted by the format's rules, with a score strictly between the least and the most
    /// (`partially_accepted`, as problemtools checks it).
    Partial,
    /// Exactly this (`submissions.yaml`: `score: 30`).
    Exactly(f64),
    /// In this inclusive range (`score: [20, 40]`).
    Range(f64, f64),
    /// This verdict by the format's rules (a legacy scoring package's `wrong_answer`,
    /// `time_limit_exceeded` and `run_time_error` folders, as problemtools checks them; RE
    /// stands for any run-time error).
    Verdict(Verdict),
}

impl ScoreExpectation {
    /// True when failing it is only a warning: a legacy package's partially accepted
    /// submission that got the full score (problemtools: "was fully accepted", a warning;
    /// often a matter of the time limit).
    pub fn only_warns(&self, got: &crate::verdict::score::ScoreReport, legacy: bool) -> bool {
        legacy
            && *self == ScoreExpectation::Partial
            && ScoreExpectation::Full.check(got, 0.0, true).is_ok()
    }

    /// Whether a score report satisfies it (`min` is the least score); `legacy`: the
    /// verdict by problemtools' rules must be AC for a partial score too (2025-09 has no
    /// such verdict). `Err` says what was expected.
    pub fn check(
        &self,
        got: &crate::verdict::score::ScoreReport,
        min: f64,
        legacy: bool,
    ) -> Result<(), String> {
        let max = got.max;
        let ok = match *self {
            ScoreExpectation::Full => {
                got.verdict == Verdict::AC && max.is_none_or(|m| (got.score - m).abs() < 1e-6)
            }
            ScoreExpectation::Partial => {
                (got.verdict == Verdict::AC || !legacy)
                    && got.score > min + 1e-6
                    && max.is_none_or(|m| got.score < m - 1e-6)
            }
            ScoreExpectation::Exactly(s) => (got.score - s).abs() < 1e-6,
            ScoreExpectation::Range(a, b) => got.score >= a - 1e-6 && got.score <= b + 1e-6,
            ScoreExpectation::Verdict(v) => {
                let crash = |x: Verdict| matches!(x, Verdict::RE | Verdict::MLE | Verdict::OLE);
                got.verdict == v || (crash(v) && crash(got.verdict))
            }
        };
        if ok {
            return Ok(());
        }
        let wanted = match *self {
            ScoreExpectation::Full => "the full score".to_string(),
            ScoreExpectation::Partial => format!(
                "a score strictly between {} and {}{}",
                fmt_score(min),
                max.map_or("unbounded".into(), fmt_score),
                if legacy { ", accepted" } else { "" }
            ),
            ScoreExpectation::Exactly(s) => format!("score {}", fmt_score(s)),
            ScoreExpectation::Range(a, b) => {
                format!("a score in {}..{}", fmt_score(a), fmt_score(b))
            }
            ScoreExpectation::Verdict(v) => format!("{v} by the package's rules"),
        };
        Err(format!(
            "expected {wanted}, got {} ({})",
            got.describe(),
            got.verdict
        ))
    }
}

/// A score the groups matching a glob must get (`submissions.yaml`: a test group's `score`,
/// which bounds the group's aggregated score).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupScoreRule {
    /// A glob over group paths under `data/` (`secret/group1`, `secret/*`).
    pub group: String,
    /// `Exactly` or `Range`.
    pub score: ScoreExpectation,
    /// Where it was written, for messages (`submissions.yaml: partial.py / secret/group1`).
    pub origin: String,
}

impl GroupScoreRule {
    /// Whether the groups of `got` it names scored as it says; `Err` names the first group
    /// that did not, or says that it names none.
    pub fn check(&self, got: &crate::verdict::score::ScoreReport) -> Result<(), String> {
        let matched: Vec<_> = got
            .groups
            .iter()
            .filter(|g| matches_group(&self.group, &g.group))
            .collect();
        if matched.is_empty() {
            return Err(format!(
                "{}: `{}` names no scored test group",
                self.origin, self.group
            ));
        }
        for g in matched {
            let ok = match self.score {
                ScoreExpectation::Exactly(s) => (g.score - s).abs() < 1e-6,
                ScoreExpectation::Range(a, b) => g.score >= a - 1e-6 && g.score <= b + 1e-6,
                _ => true,
            };
            if !ok {
                let wanted = match self.score {
                    ScoreExpectation::Range(a, b) => {
                        format!("a score in {}..{}", fmt_score(a), fmt_score(b))
                    }
                    ScoreExpectation::Exactly(s) => format!("score {}", fmt_score(s)),
                    _ => String::new(),
                };
                return Err(format!(
                    "{}: expected {wanted} for group `{}`, got {}",
                    self.origin,
                    g.group,
                    match g.max {
                        Some(m) => format!("{}/{}", fmt_score(g.score), fmt_score(m)),
                        None => fmt_score(g.score),
                    }
                ));
            }
        }
        Ok(())
    }
}

/// A jury submission and its rules.
#[derive(Debug, Clone)]
pub struct JurySubmission {
    pub path: PathBuf,
    /// Relative to `submissions/`: `accepted/sol.cpp`.
    pub rel: String,
    /// The folder directly under `submissions/`.
    pub folder: String,
    pub language: Option<Language>,
    pub rules: Vec<Rule>,
    /// The verdicts it may get as a whole — its first failing test's in test order, AC when
    /// it passes every test, CE when it does not compile — or `None` when only `rules` apply
    /// (judge's own folders and DOMjudge's `@EXPECTED_RESULTS@` give these).
    pub verdicts: Option<BTreeSet<Verdict>>,
    /// The score it must get (a scoring problem).
    pub score: Option<ScoreExpectation>,
    /// The scores given groups must get (2025-09 `submissions.yaml`: `secret/group1:
    /// {score: 0}`).
    pub group_scores: Vec<GroupScoreRule>,
    /// Lower-bounds the time limit (the slowest accepted submission).
    pub lower_bound: bool,
    /// Upper-bounds the time limit (must time out even with the safety margin).
    pub upper_bound: bool,
    /// Why it is not checked (unsupported language, scoring-only folder, ...).
    pub skipped: Option<String>,
    /// The entry point of a submission given as a folder, when `submissions.yaml` names it
    /// (`entrypoint: ac.py`); else the folder's own rule picks it.
    pub entrypoint: Option<PathBuf>,
    /// Marked `@RANDOMISED@` in its source ([`randomised_header`]): its verdict may differ
    /// from run to run, so verify runs it several times and every run must get what it must.
    pub randomised: bool,
    /// Its rules are read at its first failing test, as problemtools reads a legacy package's
    /// folders (the verdict of a pass-fail submission is its first rejected test's): they are
    /// checked on the tests up to its first failure, and the others need not run (unless the
    /// full matrix is asked for, when they are checked on every test).
    pub first_failure: bool,
}

impl JurySubmission {
    /// Whether `score` could be computed, and its groups got what `group_scores` say (no
    /// score at all fails when it has any).
    pub fn check_group_scores(
        &self,
        score: Option<&crate::verdict::score::ScoreReport>,
    ) -> Result<(), String> {
        if let Some(e) = score.and_then(|s| s.error.as_ref()) {
            return Err(format!("judge error while scoring: {e}"));
        }
        for rule in &self.group_scores {
            match score {
                None => return Err(format!(
                    "{}: a group score is expected, but the problem is not scored (type: scoring) or not every test ran",
                    rule.origin
                )),
                Some(s) => rule.check(s)?,
            }
        }
        Ok(())
    }

    /// The program to compile: its file, or its folder with the entry point
    /// `submissions.yaml` names.
    pub fn submission(
        &self,
    ) -> Result<crate::compile::Submission, crate::compile::SubmissionError> {
        let mut s = crate::compile::Submission::from_path(&self.path, self.language)?;
        if let Some(entry) = &self.entrypoint {
            if s.entry.is_some() && entry.is_file() {
                s.entry = Some(entry.clone());
            }
        }
        Ok(s)
    }

    /// What it must get, for reports: its verdicts (`WA`, `WA/TLE`), else the verdict its
    /// folder names (`AC`, `RTE`, ...; the folder's name for others, such as `rejected`).
    pub fn expected_label(&self) -> String {
        if let Some(v) = &self.verdicts {
            return v.iter().map(|v| v.code()).collect::<Vec<_>>().join("/");
        }
        match self.folder.as_str() {
            "accepted" => "AC".into(),
            "wrong_answer" => "WA".into(),
            "time_limit_exceeded" => "TLE".into(),
            "run_time_error" => "RTE".into(),
            other => other.into(),
        }
    }

    /// Only "accepted on every test" satisfies it (so grading may stop at a failure).
    pub fn accept_only(&self) -> bool {
        let verdicts = self
            .verdicts
            .as_ref()
            .is_none_or(|v| v.len() == 1 && v.contains(&Verdict::AC));
        let rules = self.rules.iter().all(Rule::accept_only);
        verdicts && rules && (self.verdicts.is_some() || !self.rules.is_empty())
    }

    /// The verdicts it may get as a whole (for the JSON report): those it is given, or its
    /// folder's; `None` when only rules or a score say what it must get.
    pub fn permitted_verdicts(&self) -> Option<Vec<Verdict>> {
        match &self.verdicts {
            Some(v) if !v.is_empty() => Some(v.iter().copied().collect()),
            Some(_) => None,
            None => Verdict::from_folder(&self.folder)
                .filter(|v| matches!(v, Verdict::AC | Verdict::WA | Verdict::TLE | Verdict::RE))
                .map(|v| vec![v]),
        }
    }

    /// Whether `results` (its tests in order, read at the time limit) satisfy it: `Err` says
    /// why not (its verdict as a whole first, then its rules in order).
    pub fn check(&self, results: &[Seen]) -> Result<(), String> {
        if let Some(allowed) = &self.verdicts {
            let first_bad = results.iter().find(|s| s.verdict != Verdict::AC);
            let got = first_bad.map_or(Verdict::AC, |s| s.verdict);
            if !allowed.contains(&got) {
                let detail = match first_bad {
                    Some(s) => format!(" on test `{}`: {}", s.test, s.message),
                    None => format!(" ({} passed)", crate::text::all(results.len(), "test")),
                };
                return Err(format!(
                    "expected {}, got {got}{detail}",
                    verdict_list(allowed)
                ));
            }
        }
        check_all(&self.rules, results)
    }

    /// What [`JurySubmission::check`] gives on the whole plan, if the first tests `done`
    /// decide it whatever the tests named in `rest` get; `None` while undecided. Its verdict
    /// as a whole is decided at its first failing test.
    pub fn decided(&self, done: &[Seen], rest: &[&str]) -> Option<Result<(), String>> {
        if self.verdicts.is_some() {
            let failed = done.iter().any(|s| s.verdict != Verdict::AC);
            if !failed && !rest.is_empty() {
                return None;
            }
            if let Err(e) = self.check(done) {
                return Some(Err(e));
            }
        }
        decided(&self.rules, done, rest)
    }
}

/// `WA`, `WA or TLE`.
fn verdict_list(set: &BTreeSet<Verdict>) -> String {
    set.iter()
        .map(|v| v.code())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The verdicts a DOMjudge `@EXPECTED_RESULTS@:` header allows (`// @EXPECTED_RESULTS@:
/// CORRECT, TIMELIMIT` anywhere in the file, names case-insensitive, DOMjudge's or BAPCtools'),
/// `None` when the file has none. `Err` names a verdict that is not one.
pub fn expected_results_header(path: &Path) -> Result<Option<BTreeSet<Verdict>>, String> {
    const KEY: &str = "@EXPECTED_RESULTS@:";
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&bytes);
    let Some(line) = text.lines().find(|l| l.to_ascii_uppercase().contains(KEY)) else {
        return Ok(None);
    };
    let at = line.to_ascii_uppercase().find(KEY).unwrap_or(0) + KEY.len();
    let mut out = BTreeSet::new();
    for name in line[at..]
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let verdicts: &[Verdict] = match name.to_ascii_uppercase().as_str() {
            "CORRECT" | "ACCEPTED" | "AC" => &[Verdict::AC],
            "WRONG-ANSWER" | "WRONG_ANSWER" | "NO-OUTPUT" | "WA" => &[Verdict::WA],
            "TIMELIMIT" | "TIME_LIMIT_EXCEEDED" | "TLE" => &[Verdict::TLE],
            // A run-time error as the package format counts it (a crash, memory, output).
            "RUN-ERROR" | "RUN_TIME_ERROR" | "RTE" => &[Verdict::RE, Verdict::MLE, Verdict::OLE],
            "MEMORY-LIMIT" | "MEMORY_LIMIT_EXCEEDED" | "MLE" => &[Verdict::MLE],
            "OUTPUT-LIMIT" | "OUTPUT_LIMIT_EXCEEDED" | "OLE" => &[Verdict::OLE],
            "COMPILER-ERROR" | "COMPILE_ERROR" | "CE" => &[Verdict::CE],
            _ => {
                return Err(format!(
                    "@EXPECTED_RESULTS@: `{name}` is not a verdict (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, MEMORY-LIMIT, OUTPUT-LIMIT, COMPILER-ERROR, NO-OUTPUT, or BAPCtools' ACCEPTED, WRONG_ANSWER, TIME_LIMIT_EXCEEDED, RUN_TIME_ERROR)"
                ))
            }
        };
        out.extend(verdicts.iter().copied());
    }
    if out.is_empty() {
        return Err("@EXPECTED_RESULTS@: names no verdict".into());
    }
    Ok(Some(out))
}

/// Whether a jury submission's source marks it randomised: `@RANDOMISED@` (or
/// `@RANDOMIZED@`, any case) anywhere in the file, usually in a comment beside DOMjudge's
/// `@EXPECTED_RESULTS@`. Such a program seeds itself differently in each process (the clock,
/// `/dev/urandom`); verify runs it several times and reports its pass rate.
pub fn randomised_header(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes).to_ascii_uppercase();
    text.contains("@RANDOMISED@") || text.contains("@RANDOMIZED@")
}

/// The glob dialect of `submissions.yaml`: `*` within one path segment, `{a,b}` braces,
/// everything else literal. A path matches if it or one of its parent folders matches.
pub fn matches_path(glob: &str, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    (1..=parts.len()).any(|n| {
        let prefix = parts[..n].join("/");
        expand_braces(glob)
            .iter()
            .any(|g| glob_match(g.as_bytes(), prefix.as_bytes()))
    })
}

/// True if a group's path under `data/` (`secret/group1`) is what `glob` names (itself, not
/// a group below it).
pub fn matches_group(glob: &str, group: &str) -> bool {
    expand_braces(glob)
        .iter()
        .any(|g| glob_match(g.as_bytes(), group.as_bytes()))
}

fn expand_braces(glob: &str) -> Vec<String> {
    let Some(open) = glob.find('{') else {
        return vec![glob.to_string()];
    };
    let Some(close) = glob[open..].find('}').map(|c| open + c) else {
        return vec![glob.to_string()];
    };
    let (head, tail) = (&glob[..open], &glob[close + 1..]);
    glob[open + 1..close]
        .split(',')
        // Each alternative without its surrounding spaces, as BAPCtools reads `{ 4 }`.
        .flat_map(|alt| expand_braces(&format!("{head}{}{tail}", alt.trim())))
        .collect()
}

fn glob_match(g: &[u8], s: &[u8]) -> bool {
    match g.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len())
            .take_while(|&i| i == 0 || s[i - 1] != b'/')
            .any(|i| glob_match(rest, &s[i..])),
        Some((c, rest)) => s.first() == Some(c) && glob_match(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_within_segments_and_parents() {
        assert!(matches_path("accepted", "accepted/sol.py"));
        assert!(matches_path("accepted/*", "accepted/sol.py"));
        // Spaces around brace alternatives are trimmed, as BAPCtools reads them.
        assert!(matches_path("secret/*{ 4 }{ 2 }", "secret/142"));
        assert!(matches_path("wa/{ a.py , b.py }", "wa/b.py"));
        assert!(matches_path("*/sol.py", "accepted/sol.py"));
        assert!(!matches_path("*", "accepted/sol.py") || matches_path("*", "accepted"));
        assert!(matches_path("accepted/{a,b}.py", "accepted/b.py"));
        assert!(!matches_path("accepted/{a,b}.py", "accepted/c.py"));
        assert!(matches_path("secret/*-easy", "secret/03-easy"));
        assert!(!matches_path("secret/*-easy", "secret/g/03-easy"));
        assert!(matches_path("secret/g1", "secret/g1/01"));
        assert!(!matches_path("secret/g1", "secret/g10/01"));
    }

    #[test]
    fn a_group_score_rule_checks_every_group_its_glob_names() {
        use crate::verdict::score::{GroupScore, ScoreReport};
        let group = |name: &str, score: f64| GroupScore {
            group: name.into(),
            score,
            max: Some(50.0),
            aggregation: "min".into(),
            verdict: Verdict::AC,
        };
        let got = ScoreReport {
            score: 70.0,
            max: Some(100.0),
            verdict: Verdict::AC,
            groups: vec![group("secret/g1", 50.0), group("secret/g2", 20.0)],
            tests: Vec::new(),
            error: None,
        };
        let rule = |glob: &str, score| GroupScoreRule {
            group: glob.into(),
            score,
            origin: "submissions.yaml: p.py / x".into(),
        };
        assert!(
            matches_group("secret/g{1,2}", "secret/g2") && !matches_group("secret", "secret/g1")
        );
        assert!(rule("secret/g1", ScoreExpectation::Exactly(50.0))
            .check(&got)
            .is_ok());
        assert!(rule("secret/*", ScoreExpectation::Range(20.0, 50.0))
            .check(&got)
            .is_ok());
        assert_eq!(
            rule("secret/*", ScoreExpectation::Exactly(50.0))
                .check(&got)
                .unwrap_err(),
            "submissions.yaml: p.py / x: expected score 50 for group `secret/g2`, got 20/50"
        );
        assert!(rule("secret/g3", ScoreExpectation::Exactly(0.0))
            .check(&got)
            .unwrap_err()
            .contains("names no scored test group"));
    }

    fn seen(v: &[(&'static str, Verdict)]) -> Vec<Seen<'static>> {
        v.iter()
            .map(|(t, v)| Seen {
                test: t,
                verdict: *v,
                message: Cow::Borrowed("why"),
            })
            .collect()
    }

    fn must_get(verdicts: &[Verdict]) -> JurySubmission {
        JurySubmission {
            path: PathBuf::from("submissions/x/a.c"),
            rel: "x/a.c".into(),
            folder: "x".into(),
            language: None,
            rules: Vec::new(),
            verdicts: Some(verdicts.iter().copied().collect()),
            score: None,
            group_scores: Vec::new(),
            lower_bound: false,
            upper_bound: false,
            skipped: None,
            entrypoint: None,
            randomised: false,
            first_failure: false,
        }
    }

    #[test]
    fn a_verdict_as_a_whole_is_the_first_failing_tests_and_decided_there() {
        use Verdict::*;
        let wa = must_get(&[WA]);
        let names = ["a", "b", "c"];
        // Decided at the first failure, whatever comes after it.
        let done = seen(&[("a", AC), ("b", WA)]);
        assert_eq!(wa.decided(&done, &names[2..]), Some(Ok(())));
        assert_eq!(wa.check(&seen(&[("a", AC), ("b", WA), ("c", TLE)])), Ok(()));
        // Not decided while every test so far passed.
        assert_eq!(wa.decided(&seen(&[("a", AC)]), &names[1..]), None);
        // A first failure of another kind is the mismatch, named with its test.
        let err = wa.check(&seen(&[("a", TLE), ("b", WA)])).unwrap_err();
        assert_eq!(err, "expected WA, got TLE on test `a`: why");
        let err = wa.check(&seen(&[("a", AC), ("b", AC)])).unwrap_err();
        assert!(err.starts_with("expected WA, got AC ("), "{err}");
        // Several allowed verdicts (DOMjudge's @EXPECTED_RESULTS@).
        let either = must_get(&[WA, TLE]);
        assert_eq!(either.check(&seen(&[("a", TLE)])), Ok(()));
        assert_eq!(either.expected_label(), "WA/TLE");
        assert_eq!(either.permitted_verdicts(), Some(vec![WA, TLE]));
        assert_eq!(wa.permitted_verdicts(), Some(vec![WA]));
        // Accepted: only every test passing satisfies it, so a run may stop at a failure.
        let ac = must_get(&[AC]);
        assert!(ac.accept_only());
        assert!(!wa.accept_only());
        assert_eq!(ac.decided(&seen(&[("a", AC)]), &names[1..]), None);
        assert!(matches!(
            ac.decided(&seen(&[("a", AC), ("b", RE)]), &names[2..]),
            Some(Err(_))
        ));
    }
}
