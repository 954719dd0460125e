//! The 2025-09 evaluation: a group's tests score their share of its maximum (or what the
//! output validator says), the group aggregates them (`pass-fail`, `sum`, `min`) once the
//! groups it requires passed.

use super::{Aggregation, Child, GroupScore, SpecGroup, TestPoints, TestScore, ValidatorScore};
use crate::verdict::Verdict;

/// The number of tests directly in a 2025-09 group.
fn direct_tests(g: &SpecGroup) -> usize {
    g.children
        .iter()
        .filter(|c| matches!(c, Child::Test(_)))
        .count()
}

/// True if every test in the group named `name` passed: a group under `root`, or `sample`
/// (its tests `samples`).
fn all_passed(
    root: &SpecGroup,
    samples: &[String],
    name: &str,
    result: &dyn Fn(&str) -> Option<TestScore>,
) -> bool {
    fn find<'a>(g: &'a SpecGroup, name: &str) -> Option<&'a SpecGroup> {
        if g.name == name {
            return Some(g);
        }
        g.children.iter().find_map(|c| match c {
            Child::Group(sub) => find(sub, name),
            Child::Test(_) => None,
        })
    }
    fn passed(g: &SpecGroup, result: &dyn Fn(&str) -> Option<TestScore>) -> bool {
        g.children.iter().all(|c| match c {
            Child::Test(t) => result(t).is_some_and(|r| r.verdict == Verdict::AC),
            Child::Group(sub) => passed(sub, result),
        })
    }
    let ok = |t: &String| result(t).is_some_and(|r| r.verdict == Verdict::AC);
    match find(root, name) {
        Some(g) => passed(g, result),
        None if name == "sample" => samples.iter().all(ok),
        None => false,
    }
}

/// What a 2025-09 evaluation reads besides the group at hand.
pub(super) struct SpecContext<'a> {
    pub root: &'a SpecGroup,
    pub samples: &'a [String],
    pub result: &'a dyn Fn(&str) -> Option<TestScore>,
}

/// A 2025-09 group's verdict (AC when every test passed) and score; its groups (and itself,
/// last) appended to `groups`.
pub(super) fn spec(
    ctx: &SpecContext,
    g: &SpecGroup,
    groups: &mut Vec<GroupScore>,
    tests: &mut Vec<TestPoints>,
    error: &mut Option<String>,
) -> (Verdict, f64) {
    let result = ctx.result;
    let n = direct_tests(g).max(1) as f64;
    let test_max = g.max_score.map(|m| match g.aggregation {
        Aggregation::Sum => m / n,
        Aggregation::Min | Aggregation::PassFail => m,
    });
    let mut verdict = Verdict::AC;
    let mut scores = Vec::new();
    for c in &g.children {
        let (v, s) = match c {
            Child::Group(sub) => spec(ctx, sub, groups, tests, error),
            Child::Test(name) => {
                match result(name) {
                    None => {
                        error.get_or_insert_with(|| format!("test `{name}` was not run"));
                        (Verdict::JE, 0.0)
                    }
                    Some(t) if t.verdict != Verdict::AC => {
                        if t.validator.is_some() {
                            error.get_or_insert_with(|| {
                            format!("test `{name}`: the validator gave a score to a rejected output")
                        });
                        }
                        (t.verdict, 0.0)
                    }
                    Some(t) => match (t.validator, test_max) {
                        (Some(_), _) if g.aggregation == Aggregation::PassFail => {
                            error.get_or_insert_with(|| {
                            format!("test `{name}`: the validator gave a score in a pass-fail group")
                        });
                            (Verdict::AC, 0.0)
                        }
                        (Some(ValidatorScore::Score(s)), Some(max)) if s > max + 1e-9 => {
                            error.get_or_insert_with(|| {
                            format!("test `{name}`: score.txt says {s}, over the test's maximum {max}")
                        });
                            (Verdict::AC, s)
                        }
                        (Some(ValidatorScore::Score(s)), _) => (Verdict::AC, s),
                        (Some(ValidatorScore::Multiplier(m)), Some(max)) => (Verdict::AC, m * max),
                        (Some(ValidatorScore::Multiplier(_)), None) => {
                            error.get_or_insert_with(|| {
                            format!("test `{name}`: score_multiplier.txt in a group of unbounded score")
                        });
                            (Verdict::AC, 0.0)
                        }
                        (None, Some(max)) => (Verdict::AC, max),
                        (None, None) => {
                            error.get_or_insert_with(|| {
                                format!("test `{name}`: no score.txt in a group of unbounded score")
                            });
                            (Verdict::AC, 0.0)
                        }
                    },
                }
            }
        };
        if verdict == Verdict::AC && v != Verdict::AC {
            verdict = v;
        }
        if let Child::Test(name) = c {
            tests.push(TestPoints {
                test: name.clone(),
                score: s,
            });
        }
        scores.push(s);
    }
    let required = g
        .require_pass
        .iter()
        .all(|r| all_passed(ctx.root, ctx.samples, r, result));
    let score = if !required {
        0.0
    } else {
        match g.aggregation {
            Aggregation::PassFail if verdict == Verdict::AC => g.max_score.unwrap_or(0.0),
            Aggregation::PassFail => 0.0,
            Aggregation::Sum => scores.iter().sum(),
            Aggregation::Min if scores.is_empty() => 0.0,
            Aggregation::Min => scores.iter().copied().fold(f64::INFINITY, f64::min),
        }
    };
    if let Some(max) = g.max_score.filter(|m| score > m + 1e-6) {
        error.get_or_insert_with(|| {
            format!(
                "group `{}` scored {score}, over its max_score {max}",
                g.name
            )
        });
    }
    groups.push(GroupScore {
        group: g.name.clone(),
        score,
        max: g.max_score,
        aggregation: g.aggregation.name().into(),
        verdict,
    });
    (verdict, score)
}
