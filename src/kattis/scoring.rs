//! The scoring rules of a Kattis package (`type: scoring`), read from the group files under
//! `data/` into [`Scoring`]: legacy `testdata.yaml` keys (`accept_score`, `reject_score`,
//! `range`, `on_reject`, `grading`, `grader_flags`, inherited by subfolders) as problemtools
//! reads them (`grading: custom` hands a group to the package's grader program), or the 2025-09 keys (`max_score`, `score_aggregation`, `require_pass`; the
//! 2023-07 draft's `scoring: {score, aggregation}`), per folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use yaml_serde::Value;

use super::data::Case;
use super::yaml::{self, MAX_SCORE};
use crate::verdict::score::{
    Aggregation, Child, LegacyGroup, LegacyRule, ScoreRule, Scoring, SpecGroup, VerdictRule,
};

/// The top-level keys of each group file, by group path under `data/` (`` for `data/`).
type Files = BTreeMap<String, Vec<(String, Value)>>;

const LEGACY_KEYS: [&str; 6] = [
    "accept_score",
    "reject_score",
    "range",
    "on_reject",
    "grading",
    "grader_flags",
];
const SPEC_KEYS: [&str; 4] = ["max_score", "score_aggregation", "require_pass", "scoring"];

/// The scoring rules of the package in `dir` with these tests (in judging order); `Err` names
/// the file and what is wrong. `spec_default`: a 2025-09 package, whose rules are 2025-09's
/// unless its group files use legacy keys only (as the 2023-07 draft's examples do).
pub fn load(dir: &Path, tests: &[Case], spec_default: bool) -> Result<Scoring, String> {
    let data = dir.join("data");
    let folders = folders(tests);
    let mut files = Files::new();
    for folder in folders.keys().chain(std::iter::once(&String::new())) {
        for name in ["testdata.yaml", "test_group.yaml"] {
            let path = data.join(folder).join(name);
            // Under the package's rule (no link out of it, no FIFO): data.rs read it first.
            let rel = Path::new("data").join(folder).join(name);
            let read = crate::fsutil::beneath::read_text_beneath(
                dir,
                &rel,
                crate::fsutil::beneath::SMALL_CAP,
                "the package",
            );
            if let Ok(text) = read {
                let at = |e: String| format!("{}: {e}", path.display());
                // data.rs warned of its keys given twice.
                let value = yaml::parse_value(&text).map_err(at)?;
                let keys = match value {
                    Value::Mapping(m) => m
                        .into_iter()
                        .filter_map(|(k, v)| Some((yaml::scalar_text(&k)?, v)))
                        .collect(),
                    Value::Null => Vec::new(),
                    other => {
                        return Err(at(format!("must be a map, found {}", yaml::kind(&other))))
                    }
                };
                files.insert(folder.clone(), keys);
            }
        }
    }
    empty_groups(&data, &folders)?;
    let has = |keys: &[&str]| {
        files
            .values()
            .any(|m| m.iter().any(|(k, _)| keys.contains(&k.as_str())))
    };
    if (has(&SPEC_KEYS) || spec_default) && !has(&LEGACY_KEYS) {
        spec(&data, &files, &folders, tests)
    } else if has(&SPEC_KEYS) {
        Err(format!(
            "{}: the group files mix legacy scoring keys ({}) with 2025-09 ones ({}); use one set",
            data.display(),
            LEGACY_KEYS.join(", "),
            SPEC_KEYS.join(", ")
        ))
    } else {
        legacy(&data, &files, &folders, "", &BTreeMap::new()).map(|g| match g {
            Some(g) => Scoring::Legacy(g),
            None => Scoring::Legacy(LegacyGroup {
                name: String::new(),
                rule: LegacyRule::default(),
                children: Vec::new(),
            }),
        })
    }
}

/// Every folder under `data/` that holds tests (directly or below), with its children in
/// judging order: test names and subfolder paths.
fn folders(tests: &[Case]) -> BTreeMap<String, Vec<Child<String>>> {
    let mut out: BTreeMap<String, Vec<Child<String>>> = BTreeMap::new();
    for t in tests {
        let parts: Vec<&str> = t.name.split('/').collect();
        for depth in 0..parts.len() {
            let folder = parts[..depth].join("/");
            let child = if depth + 1 == parts.len() {
                Child::Test(t.name.clone())
            } else {
                Child::Group(parts[..=depth].join("/"))
            };
            let list = out.entry(folder).or_default();
            if !list.contains(&child) {
                list.push(child);
            }
        }
    }
    // Tests and folders by name, as problemtools lists a folder.
    for list in out.values_mut() {
        list.sort_by(|a, b| base(a).cmp(base(b)));
    }
    out
}

fn base(c: &Child<String>) -> &str {
    let (Child::Test(p) | Child::Group(p)) = c;
    p.rsplit('/').next().unwrap_or(p)
}

/// A folder of `data/secret` with a group file but no test is a group with no tests.
fn empty_groups(data: &Path, folders: &BTreeMap<String, Vec<Child<String>>>) -> Result<(), String> {
    fn walk(
        data: &Path,
        rel: &str,
        folders: &BTreeMap<String, Vec<Child<String>>>,
    ) -> Result<(), String> {
        let Ok(read) = std::fs::read_dir(data.join(rel)) else {
            return Ok(());
        };
        let mut subs: Vec<String> = read
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| format!("{rel}/{}", e.file_name().to_string_lossy()))
            .collect();
        subs.sort();
        for sub in subs {
            let file = ["testdata.yaml", "test_group.yaml"]
                .iter()
                .any(|f| data.join(&sub).join(f).is_file());
            if file && !folders.contains_key(&sub) {
                return Err(format!(
                    "{}: a test group with no tests (no .in with its .ans in it)",
                    data.join(&sub).display()
                ));
            }
            walk(data, &sub, folders)?;
        }
        Ok(())
    }
    walk(data, "secret", folders)
}

/// The legacy group at `folder` with `inherited` keys from its parents.
fn legacy(
    data: &Path,
    files: &Files,
    folders: &BTreeMap<String, Vec<Child<String>>>,
    folder: &str,
    inherited: &BTreeMap<String, Value>,
) -> Result<Option<LegacyGroup>, String> {
    let Some(children) = folders.get(folder) else {
        return Ok(None);
    };
    let mut keys = inherited.clone();
    for (k, v) in files.get(folder).into_iter().flatten() {
        keys.insert(k.clone(), v.clone());
    }
    let file = data.join(folder).join("testdata.yaml");
    let at = |e: String| format!("{}: {e}", file.display());
    let mut rule = LegacyRule::default();
    if let Some(v) = keys.get("on_reject") {
        rule.break_on_reject = match yaml::scalar_text(v).as_deref() {
            Some("break") => true,
            Some("continue") => false,
            _ => return Err(at("on_reject must be break or continue".into())),
        };
    }
    let custom = match keys.get("grading").map(yaml::scalar_text) {
        None => false,
        Some(g) => match g.as_deref() {
            Some("default") => false,
            Some("custom") => true,
            _ => return Err(at("grading must be default or custom".into())),
        },
    };
    let flags = keys
        .get("grader_flags")
        .and_then(yaml::scalar_text)
        .unwrap_or_default();
    if custom {
        // The custom grader's own arguments: not the default grader's flags.
        rule.custom = Some(flags.split_whitespace().map(str::to_string).collect());
    } else {
        for flag in flags.split_whitespace() {
            match flag {
                "worst_error" | "no_errors" => rule.verdicts = VerdictRule::WorstError,
                "first_error" => rule.verdicts = VerdictRule::FirstError,
                "always_accept" => rule.verdicts = VerdictRule::AlwaysAccept,
                "sum" => rule.scores = ScoreRule::Sum,
                "avg" => rule.scores = ScoreRule::Avg,
                "min" => rule.scores = ScoreRule::Min,
                "max" => rule.scores = ScoreRule::Max,
                "ignore_sample" => rule.ignore_sample = true,
                "accept_if_any_accepted" => rule.accept_if_any_accepted = true,
                other => return Err(at(format!("grader_flags: unknown flag `{other}`"))),
            }
        }
    }
    for (key, slot) in [
        ("accept_score", &mut rule.accept_score),
        ("reject_score", &mut rule.reject_score),
    ] {
        if let Some(v) = keys.get(key) {
            *slot = yaml::number_in(v, key, -MAX_SCORE, MAX_SCORE).map_err(at)?;
        }
    }
    if let Some(v) = keys.get("range") {
        let text = yaml::scalar_text(v).unwrap_or_default();
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 2 {
            return Err(at(format!("range `{text}` is not two numbers")));
        }
        let bounds: Vec<f64> = words
            .iter()
            .map(|b| yaml::text_number_in(b, "range", -MAX_SCORE, MAX_SCORE))
            .collect::<Result<_, _>>()
            .map_err(at)?;
        match bounds[..] {
            [lo, hi] if lo <= hi => rule.range = (lo, hi),
            _ => {
                return Err(at(format!(
                    "range `{text}` is not two numbers, low then high"
                )))
            }
        }
    }
    let mut out = Vec::new();
    for c in children {
        out.push(match c {
            Child::Test(t) => Child::Test(t.clone()),
            Child::Group(g) => match legacy(data, files, folders, g, &keys)? {
                Some(sub) => Child::Group(sub),
                None => continue,
            },
        });
    }
    Ok(Some(LegacyGroup {
        name: folder.to_string(),
        rule,
        children: out,
    }))
}

/// The 2025-09 rules: `secret` and its groups.
fn spec(
    data: &Path,
    files: &Files,
    folders: &BTreeMap<String, Vec<Child<String>>>,
    tests: &[Case],
) -> Result<Scoring, String> {
    let secret = spec_group(data, files, folders, "secret")?;
    let bounded_children = |g: &SpecGroup| {
        g.children.iter().all(|c| match c {
            Child::Group(sub) => sub.max_score.is_some(),
            Child::Test(_) => true,
        })
    };
    if secret.max_score.is_some() && !bounded_children(&secret) {
        return Err(format!(
            "{}: every test group of secret needs a max_score when secret's is bounded (100 by default)",
            data.join("secret").display()
        ));
    }
    let groups: BTreeSet<String> = folders.keys().cloned().collect();
    let mut pending = vec![&secret];
    while let Some(g) = pending.pop() {
        for r in &g.require_pass {
            if r != "sample" && !groups.contains(r) {
                return Err(format!(
                    "{}: require_pass names `{r}`, which is not a test group",
                    data.join(&g.name).display()
                ));
            }
        }
        pending.extend(g.children.iter().filter_map(|c| match c {
            Child::Group(sub) => Some(sub),
            Child::Test(_) => None,
        }));
    }
    Ok(Scoring::Spec {
        samples: tests
            .iter()
            .filter(|t| t.name.starts_with("sample/"))
            .map(|t| t.name.clone())
            .collect(),
        secret,
    })
}

fn spec_group(
    data: &Path,
    files: &Files,
    folders: &BTreeMap<String, Vec<Child<String>>>,
    folder: &str,
) -> Result<SpecGroup, String> {
    let file = data.join(folder).join("test_group.yaml");
    let at = |e: String| format!("{}: {e}", file.display());
    let is_secret = folder == "secret";
    let mut max_score = if is_secret { Some(100.0) } else { None };
    let mut max_given = false;
    let mut aggregation = if is_secret {
        Aggregation::Sum
    } else {
        Aggregation::PassFail
    };
    let mut require_pass = Vec::new();
    let parse_max = |v: &Value| -> Result<Option<f64>, String> {
        if yaml::scalar_text(v).as_deref() == Some("unbounded") {
            return Ok(None);
        }
        yaml::number_in(v, "max_score", 0.0, MAX_SCORE)
            .map(Some)
            .map_err(|e| at(format!("{e} (or `unbounded`)")))
    };
    let parse_aggregation = |v: &Value| match yaml::scalar_text(v).as_deref() {
        Some("pass-fail") => Ok(Aggregation::PassFail),
        Some("sum") => Ok(Aggregation::Sum),
        Some("min") => Ok(Aggregation::Min),
        _ => Err(at("score_aggregation must be pass-fail, sum or min".into())),
    };
    for (k, v) in files.get(folder).into_iter().flatten() {
        match k.as_str() {
            "max_score" => {
                max_score = parse_max(v)?;
                max_given = true;
            }
            "score_aggregation" => aggregation = parse_aggregation(v)?,
            "require_pass" => {
                require_pass = match v {
                    Value::Sequence(items) => items
                        .iter()
                        .filter_map(yaml::scalar_text)
                        .collect::<Vec<_>>(),
                    other => yaml::scalar_text(other).into_iter().collect(),
                }
                .into_iter()
                .map(|r| {
                    if r == "sample" {
                        r
                    } else {
                        format!("secret/{r}")
                    }
                })
                .collect();
            }
            // The 2023-07 draft: `scoring: {score, aggregation}`.
            "scoring" => {
                let Value::Mapping(m) = v else {
                    return Err(at("scoring must be a map with score and aggregation".into()));
                };
                for (sk, sv) in m {
                    match yaml::scalar_text(sk).as_deref() {
                        Some("score") => {
                            max_score = parse_max(sv)?;
                            max_given = true;
                        }
                        Some("aggregation") => aggregation = parse_aggregation(sv)?,
                        Some(other) => return Err(at(format!("scoring: unknown key `{other}`"))),
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    let mut children = Vec::new();
    for c in folders.get(folder).into_iter().flatten() {
        children.push(match c {
            Child::Test(t) => Child::Test(t.clone()),
            Child::Group(g) => Child::Group(spec_group(data, files, folders, g)?),
        });
    }
    // The 2023-07 draft's example leaves secret's score to its groups' sum.
    if is_secret && !max_given {
        let scores: Option<Vec<f64>> = children
            .iter()
            .filter_map(|c| match c {
                Child::Group(g) => Some(g.max_score),
                Child::Test(_) => None,
            })
            .collect();
        if let Some(s) = scores.filter(|s| !s.is_empty()) {
            max_score = Some(s.iter().sum());
        }
    }
    if aggregation == Aggregation::PassFail && max_score.is_none() {
        return Err(at("a pass-fail group needs a bounded max_score".into()));
    }
    Ok(SpecGroup {
        name: folder.to_string(),
        max_score,
        aggregation,
        require_pass,
        children,
    })
}
