//! Scores of a scoring problem: the test groups, how each aggregates the results of its tests
//! and subgroups, and the score of a submission from its test results.
//!
//! Two rule sets, as the package formats define them:
//!
//! - **legacy** (problemtools' `testdata.yaml`: `accept_score`, `reject_score`, `range`,
//!   `on_reject`, `grader_flags` for the default grader): every folder of `data/` is a group,
//!   and its result (a verdict and a score) is its grader's over its children's results in
//!   order, stopping at the first rejected child with `on_reject: break`;
//! - **2025-09** (`test_group.yaml`: `max_score`, `score_aggregation`, `require_pass`; the
//!   2023-07 draft's `scoring: {score, aggregation}` reads the same): only `secret` and its
//!   groups score; a test's score is its share of its group's maximum, or what the output
//!   validator says (`score.txt`, `score_multiplier.txt`).
//!
//! A package parses its files into these types (`kattis`, `package`); `grade` and `verify`
//! compute with them.

use serde::{Deserialize, Serialize};

use super::Verdict;

mod spec;
pub use crate::problems::ValidatorScore;
use spec::{spec, SpecContext};

/// One test's result as scoring reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestScore {
    pub verdict: Verdict,
    pub validator: Option<ValidatorScore>,
}

/// The scoring rules of a problem (in a partial grade report's `partition`, so that `judge
/// report merge` can score the merged results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Scoring {
    /// problemtools' legacy grading; the root is `data/`.
    Legacy(LegacyGroup),
    /// The 2025-09 rules; the root is `secret`. The samples (which do not score) may be
    /// required to pass by `require_pass: sample`.
    Spec {
        secret: SpecGroup,
        samples: Vec<String>,
    },
}

/// How a legacy group's verdict is made from its children's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictRule {
    /// The worst verdict (judge error first, accepted last): the default.
    WorstError,
    /// The first rejected child's verdict.
    FirstError,
    /// Always accepted.
    AlwaysAccept,
}

/// How a legacy group's score is made from its children's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreRule {
    Sum,
    Avg,
    Min,
    Max,
}

/// The settings of a legacy group (inherited from its parent where its file does not say).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyRule {
    /// `on_reject: break` (the default): children after the first rejected one do not count.
    pub break_on_reject: bool,
    pub verdicts: VerdictRule,
    pub scores: ScoreRule,
    /// Only the last child counts (the root's `secret` beside `sample`).
    pub ignore_sample: bool,
    /// Accepted when any child is.
    pub accept_if_any_accepted: bool,
    /// A test's score when accepted (unless the validator gives one), and when rejected.
    pub accept_score: f64,
    pub reject_score: f64,
    /// The scores the group may get; a score outside is the package's fault. (JSON: `[low,
    /// high]`, `null` for an infinite bound.)
    #[serde(with = "range_json")]
    pub range: (f64, f64),
    /// `grading: custom`: the package's grader program makes the group's result, given
    /// `flags` (the words of `grader_flags`) as arguments; `verdicts`, `scores` and the
    /// other flags are then unused.
    pub custom: Option<Vec<String>>,
}

impl Default for LegacyRule {
    fn default() -> Self {
        LegacyRule {
            break_on_reject: true,
            verdicts: VerdictRule::WorstError,
            scores: ScoreRule::Sum,
            ignore_sample: false,
            accept_if_any_accepted: false,
            accept_score: 1.0,
            reject_score: 0.0,
            range: (f64::NEG_INFINITY, f64::INFINITY),
            custom: None,
        }
    }
}

/// A legacy package's custom grader (its program in `graders/`, problemtools' protocol):
/// given a group's flags and its children's results in order, the group's verdict and score.
/// `Err` is one line saying how the grader failed: the group's result is a judge error.
pub trait CustomGrader: Send + Sync {
    fn grade(
        &self,
        flags: &[String],
        children: &[(Verdict, f64)],
    ) -> Result<(Verdict, f64), String>;
}

/// A legacy group: a folder of `data/` (the root is `data/` itself, named ``).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyGroup {
    /// Its path under `data/`: ``, `sample`, `secret/subtask1`.
    pub name: String,
    pub rule: LegacyRule,
    /// Tests and subgroups in the order they are judged.
    pub children: Vec<Child<LegacyGroup>>,
}

/// A test (by name) or a subgroup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Child<G> {
    Test(String),
    Group(G),
}

/// How a 2025-09 group's score is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregation {
    /// Its maximum when every test passes, else 0.
    PassFail,
    Sum,
    Min,
}

/// A 2025-09 group (the root is `secret`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecGroup {
    /// Its path under `data/`: `secret`, `secret/group1`.
    pub name: String,
    /// `None`: unbounded (every test's score comes from the validator).
    pub max_score: Option<f64>,
    pub aggregation: Aggregation,
    /// Groups (or `sample`) whose tests must all pass for this one to score.
    pub require_pass: Vec<String>,
    pub children: Vec<Child<SpecGroup>>,
}

/// The score of one group of a graded submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupScore {
    /// Its path under `data/` (`` for legacy `data/` itself).
    pub group: String,
    pub score: f64,
    /// Its maximum: the top of its legacy `range`, its 2025-09 `max_score`; `None` when
    /// unbounded.
    pub max: Option<f64>,
    /// How it was aggregated (`min`, `sum`, `pass-fail`, `first_error sum`, ...).
    pub aggregation: String,
    /// Its verdict by the format's rules (legacy: its grader's; 2025-09: AC when every test
    /// in it passed).
    pub verdict: Verdict,
}

/// The score one test counted for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestPoints {
    pub test: String,
    pub score: f64,
}

/// The score of a graded submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreReport {
    /// The submission's score: the root group's.
    pub score: f64,
    /// The most it can get (`None`: unbounded).
    pub max: Option<f64>,
    /// The verdict by the format's rules (legacy problemtools: the root grader's, so a
    /// partially accepted submission is AC with less than the maximum).
    pub verdict: Verdict,
    /// Every group, children before their parent, the root last.
    pub groups: Vec<GroupScore>,
    /// Every test that counted, in order, with the score it counted for (legacy: its
    /// group's accept or reject score, or the validator's; 2025-09: its share of its group's
    /// maximum). Tests after a legacy `on_reject: break` do not count and are not listed.
    pub tests: Vec<TestPoints>,
    /// What makes the score a judge error (a validator score out of range, a group over its
    /// maximum), if anything; then `verdict` is JE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A legacy `range` in JSON: `[low, high]`, an infinite bound as `null`.
mod range_json {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(r: &(f64, f64), s: S) -> Result<S::Ok, S::Error> {
        let finite = |x: f64| Some(x).filter(|x| x.is_finite());
        (finite(r.0), finite(r.1)).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<(f64, f64), D::Error> {
        let (lo, hi) = <(Option<f64>, Option<f64>)>::deserialize(d)?;
        Ok((lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY)))
    }
}

/// `50`, `12.5`.
pub fn fmt_score(s: f64) -> String {
    if (s - s.round()).abs() < 1e-9 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// True for the groups that get a column of their own in tables: those directly under
/// `secret` (`secret/subtask1`).
pub fn is_column(group: &str) -> bool {
    group
        .strip_prefix("secret/")
        .is_some_and(|rest| !rest.contains('/'))
}

impl ScoreReport {
    /// `50/100`, `12.5` (unbounded).
    pub fn describe(&self) -> String {
        match self.max {
            Some(m) => format!("{}/{}", fmt_score(self.score), fmt_score(m)),
            None => fmt_score(self.score),
        }
    }

    /// The score of the group at `group` (its path under `data/`), if it was scored.
    pub fn group_score(&self, group: &str) -> Option<f64> {
        self.groups
            .iter()
            .find(|g| g.group == group)
            .map(|g| g.score)
    }
}

impl Aggregation {
    /// As the files write it: `pass-fail`, `sum`, `min`.
    pub fn name(self) -> &'static str {
        match self {
            Aggregation::PassFail => "pass-fail",
            Aggregation::Sum => "sum",
            Aggregation::Min => "min",
        }
    }
}

impl Scoring {
    /// The score of a submission whose test results `result` gives (by test name; `None`:
    /// not run), with no custom grader (a group with `grading: custom` is a judge error).
    pub fn evaluate(&self, result: &dyn Fn(&str) -> Option<TestScore>) -> ScoreReport {
        self.evaluate_with(result, None)
    }

    /// [`Scoring::evaluate`] with the package's custom grader, if it has one.
    pub fn evaluate_with(
        &self,
        result: &dyn Fn(&str) -> Option<TestScore>,
        grader: Option<&dyn CustomGrader>,
    ) -> ScoreReport {
        let mut groups = Vec::new();
        let mut error = None;
        let mut tests = Vec::new();
        let (verdict, score, max) = match self {
            Scoring::Legacy(root) => {
                let ctx = LegacyContext { result, grader };
                let (v, s) = legacy(&ctx, root, &mut groups, &mut tests, &mut error);
                (v, s, Some(root.rule.range.1).filter(|m| m.is_finite()))
            }
            Scoring::Spec { secret, samples } => {
                let ctx = SpecContext {
                    root: secret,
                    samples,
                    result,
                };
                let (v, s) = spec(&ctx, secret, &mut groups, &mut tests, &mut error);
                (v, s, secret.max_score)
            }
        };
        ScoreReport {
            score,
            max,
            verdict: if error.is_some() {
                Verdict::JE
            } else {
                verdict
            },
            groups,
            tests,
            error,
        }
    }

    /// The most a submission can get, and the least (legacy: the root's `range`).
    pub fn bounds(&self) -> (f64, Option<f64>) {
        match self {
            Scoring::Legacy(root) => (
                root.rule.range.0.max(0.0).min(root.rule.range.1),
                Some(root.rule.range.1).filter(|m| m.is_finite()),
            ),
            Scoring::Spec { secret, .. } => (0.0, secret.max_score),
        }
    }

    /// Every group's path under `data/`, children before their parents (as in a report).
    pub fn groups(&self) -> Vec<String> {
        fn walk<G: Group>(g: &G, out: &mut Vec<String>) {
            for c in g.children() {
                if let Child::Group(sub) = c {
                    walk(sub, out);
                }
            }
            out.push(g.name().to_string());
        }
        let mut out = Vec::new();
        match self {
            Scoring::Legacy(g) => walk(g, &mut out),
            Scoring::Spec { secret, .. } => walk(secret, &mut out),
        }
        out
    }

    /// True when a group is graded by the package's custom grader (`grading: custom`).
    pub fn has_custom_grading(&self) -> bool {
        fn custom(g: &LegacyGroup) -> bool {
            g.rule.custom.is_some()
                || g.children.iter().any(|c| match c {
                    Child::Group(sub) => custom(sub),
                    Child::Test(_) => false,
                })
        }
        matches!(self, Scoring::Legacy(root) if custom(root))
    }

    /// Every test name the rules mention, in order.
    pub fn tests(&self) -> Vec<String> {
        fn walk<G>(children: &[Child<G>], sub: &dyn Fn(&G) -> &[Child<G>], out: &mut Vec<String>) {
            for c in children {
                match c {
                    Child::Test(t) => out.push(t.clone()),
                    Child::Group(g) => walk(sub(g), sub, out),
                }
            }
        }
        let mut out = Vec::new();
        match self {
            Scoring::Legacy(g) => walk(&g.children, &|g: &LegacyGroup| &g.children, &mut out),
            Scoring::Spec { secret, .. } => {
                walk(&secret.children, &|g: &SpecGroup| &g.children, &mut out)
            }
        }
        out
    }
}

/// A group of either rule set, as a tree.
trait Group: Sized {
    fn name(&self) -> &str;
    fn children(&self) -> &[Child<Self>];
}

impl Group for LegacyGroup {
    fn name(&self) -> &str {
        &self.name
    }
    fn children(&self) -> &[Child<Self>] {
        &self.children
    }
}

impl Group for SpecGroup {
    fn name(&self) -> &str {
        &self.name
    }
    fn children(&self) -> &[Child<Self>] {
        &self.children
    }
}

/// `first_error min`, as the flags would be written.
fn legacy_label(r: &LegacyRule) -> String {
    if let Some(flags) = &r.custom {
        return std::iter::once("custom")
            .chain(flags.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mut parts = vec![
        match r.verdicts {
            VerdictRule::WorstError => "worst_error",
            VerdictRule::FirstError => "first_error",
            VerdictRule::AlwaysAccept => "always_accept",
        },
        match r.scores {
            ScoreRule::Sum => "sum",
            ScoreRule::Avg => "avg",
            ScoreRule::Min => "min",
            ScoreRule::Max => "max",
        },
    ];
    if r.ignore_sample {
        parts.push("ignore_sample");
    }
    if r.accept_if_any_accepted {
        parts.push("accept_if_any_accepted");
    }
    parts.join(" ")
}

/// Legacy severity: judge error worst, accepted best (problemtools' default grader order).
fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::JE => 0,
        Verdict::RE | Verdict::CE => 1,
        Verdict::MLE => 2,
        Verdict::TLE => 3,
        Verdict::OLE => 4,
        Verdict::WA => 5,
        Verdict::AC => 6,
    }
}

/// What a legacy evaluation reads besides the group at hand.
struct LegacyContext<'a> {
    result: &'a dyn Fn(&str) -> Option<TestScore>,
    grader: Option<&'a dyn CustomGrader>,
}

/// A legacy group's verdict and score, as problemtools' default grader (or the package's
/// custom grader) gives them; its groups (and itself, last) appended to `groups`.
fn legacy(
    ctx: &LegacyContext,
    g: &LegacyGroup,
    groups: &mut Vec<GroupScore>,
    tests: &mut Vec<TestPoints>,
    error: &mut Option<String>,
) -> (Verdict, f64) {
    let result = ctx.result;
    let r = &g.rule;
    let mut children: Vec<(Verdict, f64)> = Vec::new();
    for c in &g.children {
        let (v, s) = match c {
            Child::Group(sub) => legacy(ctx, sub, groups, tests, error),
            Child::Test(name) => match result(name) {
                None => {
                    error.get_or_insert_with(|| format!("test `{name}` was not run"));
                    (Verdict::JE, 0.0)
                }
                Some(t) => match (t.verdict, t.validator) {
                    (Verdict::AC, Some(ValidatorScore::Score(s))) => (Verdict::AC, s),
                    (Verdict::AC, Some(ValidatorScore::Multiplier(m))) => {
                        (Verdict::AC, m * r.accept_score)
                    }
                    (Verdict::AC, None) => (Verdict::AC, r.accept_score),
                    (v, _) => (v, r.reject_score),
                },
            },
        };
        if let Child::Test(name) = c {
            tests.push(TestPoints {
                test: name.clone(),
                score: s,
            });
        }
        children.push((v, s));
        if v != Verdict::AC && r.break_on_reject {
            break;
        }
    }
    let (verdict, score) = if let Some(je) = children.iter().find(|c| c.0 == Verdict::JE) {
        *je
    } else if let Some(flags) = &r.custom {
        custom_grade(ctx.grader, flags, &children, &g.name, error)
    } else {
        let counted: &[(Verdict, f64)] = if r.ignore_sample && children.len() > 1 {
            &children[children.len() - 1..]
        } else {
            &children
        };
        let verdict = if r.accept_if_any_accepted && counted.iter().any(|c| c.0 == Verdict::AC) {
            Verdict::AC
        } else {
            match r.verdicts {
                VerdictRule::AlwaysAccept => Verdict::AC,
                VerdictRule::FirstError => counted
                    .iter()
                    .map(|c| c.0)
                    .find(|v| *v != Verdict::AC)
                    .unwrap_or(Verdict::AC),
                VerdictRule::WorstError => counted
                    .iter()
                    .map(|c| c.0)
                    .min_by_key(|v| severity(*v))
                    .unwrap_or(Verdict::AC),
            }
        };
        let scores = counted.iter().map(|c| c.1);
        let score = match r.scores {
            ScoreRule::Sum => scores.sum(),
            ScoreRule::Avg if counted.is_empty() => 0.0,
            ScoreRule::Avg => scores.sum::<f64>() / counted.len() as f64,
            ScoreRule::Min => scores.fold(f64::INFINITY, f64::min),
            ScoreRule::Max => scores.fold(f64::NEG_INFINITY, f64::max),
        };
        // An empty min/max group scores nothing.
        (verdict, if score.is_finite() { score } else { 0.0 })
    };
    if !(r.range.0 - 1e-9..=r.range.1 + 1e-9).contains(&score) && verdict != Verdict::JE {
        error.get_or_insert_with(|| {
            format!(
                "group `{}` scored {score}, outside its range {} {}",
                display_group(&g.name),
                r.range.0,
                r.range.1
            )
        });
    }
    groups.push(GroupScore {
        group: g.name.clone(),
        score,
        max: Some(r.range.1).filter(|m| m.is_finite()),
        aggregation: legacy_label(r),
        verdict,
    });
    (verdict, score)
}

/// A custom-graded group's result: the grader's, or a judge error naming how it failed (a
/// group with no child scores 0 unasked, as in problemtools; a compile error is passed on,
/// the protocol having no word for it).
fn custom_grade(
    grader: Option<&dyn CustomGrader>,
    flags: &[String],
    children: &[(Verdict, f64)],
    group: &str,
    error: &mut Option<String>,
) -> (Verdict, f64) {
    if children.is_empty() {
        return (Verdict::AC, 0.0);
    }
    if let Some(ce) = children.iter().find(|c| c.0 == Verdict::CE) {
        return (ce.0, 0.0);
    }
    let outcome = match grader {
        None => Err("grading: custom, but there is no grader program".to_string()),
        Some(g) => g.grade(flags, children),
    };
    match outcome {
        Ok((Verdict::JE, s)) => {
            error.get_or_insert_with(|| {
                format!(
                    "group `{}`: the custom grader said JE",
                    display_group(group)
                )
            });
            (Verdict::JE, s)
        }
        Ok(result) => result,
        Err(e) => {
            error.get_or_insert_with(|| format!("group `{}`: {e}", display_group(group)));
            (Verdict::JE, 0.0)
        }
    }
}

fn display_group(name: &str) -> &str {
    if name.is_empty() {
        "data"
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn tests(names: &[&str]) -> Vec<Child<LegacyGroup>> {
        names.iter().map(|n| Child::Test(n.to_string())).collect()
    }

    /// problemtools' `oddecho` example: samples worth nothing, two subtasks of 50 (min,
    /// break), secret `first_error accept_if_any_accepted`, the root `ignore_sample`.
    fn oddecho() -> Scoring {
        let root_rule = LegacyRule {
            break_on_reject: false,
            ignore_sample: true,
            range: (0.0, 100.0),
            ..LegacyRule::default()
        };
        let subtask = |name: &str, cases: &[&str]| LegacyGroup {
            name: name.into(),
            rule: LegacyRule {
                break_on_reject: true,
                scores: ScoreRule::Min,
                accept_score: 50.0,
                range: (0.0, 50.0),
                // `grader_flags: min` replaces the inherited flags as a whole.
                ignore_sample: false,
                ..root_rule.clone()
            },
            children: tests(cases),
        };
        Scoring::Legacy(LegacyGroup {
            name: String::new(),
            rule: root_rule.clone(),
            children: vec![
                Child::Group(LegacyGroup {
                    name: "sample".into(),
                    rule: LegacyRule {
                        verdicts: VerdictRule::FirstError,
                        accept_score: 0.0,
                        range: (0.0, 0.0),
                        ignore_sample: false,
                        ..root_rule.clone()
                    },
                    children: tests(&["sample/1", "sample/2"]),
                }),
                Child::Group(LegacyGroup {
                    name: "secret".into(),
                    rule: LegacyRule {
                        verdicts: VerdictRule::FirstError,
                        accept_if_any_accepted: true,
                        ignore_sample: false,
                        ..root_rule.clone()
                    },
                    children: vec![
                        Child::Group(subtask(
                            "secret/subtask1",
                            &["secret/subtask1/1", "secret/subtask1/2"],
                        )),
                        Child::Group(subtask(
                            "secret/subtask2",
                            &["secret/subtask2/1", "secret/subtask2/2"],
                        )),
                    ],
                }),
            ],
        })
    }

    fn with(verdicts: &[(&str, Verdict)]) -> impl Fn(&str) -> Option<TestScore> {
        let map: HashMap<String, Verdict> =
            verdicts.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        move |name: &str| {
            Some(TestScore {
                verdict: *map.get(name).unwrap_or(&Verdict::AC),
                validator: None,
            })
        }
    }

    #[test]
    fn legacy_scores_follow_problemtools_default_grader() {
        let s = oddecho();
        let full = s.evaluate(&with(&[]));
        assert_eq!(
            (full.verdict, full.score, full.max),
            (Verdict::AC, 100.0, Some(100.0))
        );
        // The partially accepted solution: subtask 2 fails, secret is still AC (any accepted).
        let partial = s.evaluate(&with(&[("secret/subtask2/2", Verdict::WA)]));
        assert_eq!((partial.verdict, partial.score), (Verdict::AC, 50.0));
        let sub2 = partial
            .groups
            .iter()
            .find(|g| g.group == "secret/subtask2")
            .unwrap();
        assert_eq!(
            (sub2.verdict, sub2.score, sub2.aggregation.as_str()),
            (Verdict::WA, 0.0, "worst_error min")
        );
        // A failing sample does not count at the root (ignore_sample).
        let sample = s.evaluate(&with(&[("sample/1", Verdict::WA)]));
        assert_eq!((sample.verdict, sample.score), (Verdict::AC, 100.0));
        // Nothing passes: WA, 0.
        let none = s.evaluate(&with(&[
            ("secret/subtask1/1", Verdict::WA),
            ("secret/subtask2/1", Verdict::TLE),
        ]));
        assert_eq!((none.verdict, none.score), (Verdict::WA, 0.0));
        assert_eq!(none.groups.last().unwrap().group, "");
        // A judge error anywhere is the result.
        let je = s.evaluate(&with(&[("secret/subtask1/2", Verdict::JE)]));
        assert_eq!(je.verdict, Verdict::JE);
        assert_eq!(s.bounds(), (0.0, Some(100.0)));
        assert_eq!(s.tests().len(), 6);
    }

    #[test]
    fn spec_scores_split_a_sum_groups_maximum_and_require_passes() {
        let group = |name: &str, max: f64, agg, cases: &[&str], req: &[&str]| {
            Child::Group(SpecGroup {
                name: name.into(),
                max_score: Some(max),
                aggregation: agg,
                require_pass: req.iter().map(|r| r.to_string()).collect(),
                children: cases.iter().map(|c| Child::Test(c.to_string())).collect(),
            })
        };
        let s = Scoring::Spec {
            secret: SpecGroup {
                name: "secret".into(),
                max_score: Some(100.0),
                aggregation: Aggregation::Sum,
                require_pass: Vec::new(),
                children: vec![
                    group(
                        "secret/g1",
                        30.0,
                        Aggregation::PassFail,
                        &["secret/g1/1", "secret/g1/2"],
                        &[],
                    ),
                    group(
                        "secret/g2",
                        70.0,
                        Aggregation::Sum,
                        &["secret/g2/1", "secret/g2/2"],
                        &["sample"],
                    ),
                ],
            },
            samples: vec!["sample/1".into()],
        };
        assert_eq!(s.evaluate(&with(&[])).score, 100.0);
        let r = s.evaluate(&with(&[("secret/g2/1", Verdict::WA)]));
        assert_eq!((r.score, r.verdict), (65.0, Verdict::WA));
        let r = s.evaluate(&with(&[("secret/g1/2", Verdict::TLE)]));
        assert_eq!(r.score, 70.0);
        // g2 needs the samples to pass.
        let r = s.evaluate(&with(&[("sample/1", Verdict::WA)]));
        assert_eq!(r.score, 30.0);
        // A validator's multiplier scales a test's share; score.txt over the share is a JE.
        let scored = |v| {
            move |name: &str| {
                Some(TestScore {
                    verdict: Verdict::AC,
                    validator: (name == "secret/g2/1").then_some(v),
                })
            }
        };
        let r = s.evaluate(&scored(ValidatorScore::Multiplier(0.5)));
        assert_eq!(r.score, 30.0 + 17.5 + 35.0);
        let r = s.evaluate(&scored(ValidatorScore::Score(40.0)));
        assert_eq!(r.verdict, Verdict::JE);
        assert!(r.error.unwrap().contains("over the test's maximum 35"));
    }
}
