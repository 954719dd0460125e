//! The jury submissions of a Kattis package and what each must get: folder defaults (legacy
//! meaning, or 2025-09's), and 2025-09 `submissions/submissions.yaml` rules (globs over
//! submissions and test groups; `permitted` / `required` verdict sets; `message`).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::config::Version;
use super::yaml::{self, Map};
use crate::compile::Language;
use crate::fsutil::is_tool_litter;
use crate::verdict::Verdict;

/// A test-case verdict as the package format names it (MLE and OLE are RTE there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    AC,
    WA,
    TLE,
    RTE,
}

impl Outcome {
    /// The format's verdict for one of judge's; `None` for CE and JE (never acceptable).
    pub fn of(v: Verdict) -> Option<Outcome> {
        Some(match v {
            Verdict::AC => Outcome::AC,
            Verdict::WA => Outcome::WA,
            Verdict::TLE => Outcome::TLE,
            Verdict::MLE | Verdict::RE | Verdict::OLE => Outcome::RTE,
            Verdict::CE | Verdict::JE => return None,
        })
    }

    fn parse(s: &str) -> Option<Outcome> {
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

const ALL: [Outcome; 4] = [Outcome::AC, Outcome::WA, Outcome::TLE, Outcome::RTE];

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
    fn new(permitted: &[Outcome], required: &[Outcome], origin: &str) -> Rule {
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
        if self.requires_some()
            && !scope
                .iter()
                .any(|s| Outcome::of(s.verdict).is_some_and(|o| self.required.contains(&o)))
        {
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
        Outcome::of(v).is_some_and(|o| self.permitted.contains(&o))
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
            || (self.requires_some()
                && !scope()
                    .any(|s| Outcome::of(s.verdict).is_some_and(|o| self.required.contains(&o))))
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
    /// Lower-bounds the time limit (the slowest accepted submission).
    pub lower_bound: bool,
    /// Upper-bounds the time limit (must time out even with the safety margin).
    pub upper_bound: bool,
    /// Why it is not checked (unsupported language, scoring-only folder, ...).
    pub skipped: Option<String>,
}

impl JurySubmission {
    /// The verdict its folder names, for reports (`AC`, `WA`, ...; `rejected` for others).
    pub fn expected_label(&self) -> String {
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
        !self.rules.is_empty() && self.rules.iter().all(Rule::accept_only)
    }
}

/// The default rules of a folder, or `None` when the folder has none (ignored unless
/// `submissions.yaml` gives it rules).
fn folder_rules(version: Version, folder: &str) -> Option<Vec<Rule>> {
    use Outcome::*;
    let origin = format!("folder {folder}");
    let rule = |p: &[Outcome], r: &[Outcome]| Some(vec![Rule::new(p, r, &origin)]);
    match (version, folder) {
        (_, "accepted") => rule(&[AC], &ALL),
        // Legacy: "WA for some test case, but not too slow and no crash".
        (_, "wrong_answer") => rule(&[AC, WA], &[WA]),
        (Version::Legacy, "time_limit_exceeded") => rule(&[AC, WA, TLE], &[TLE]),
        (Version::Legacy, "run_time_error") => rule(&ALL, &[RTE]),
        (Version::V2025, "time_limit_exceeded") => rule(&[AC, TLE], &[TLE]),
        (Version::V2025, "run_time_error") => rule(&[AC, RTE], &[RTE]),
        (Version::V2025, "rejected") => rule(&ALL, &[RTE, TLE, WA]),
        (Version::V2025, "brute_force") => rule(&[AC, RTE, TLE], &[RTE, TLE]),
        _ => None,
    }
}

/// Every submission under `dir/submissions`, sorted, with its rules.
pub fn load(dir: &Path, version: Version) -> Result<(Vec<JurySubmission>, Vec<String>), String> {
    let root = dir.join("submissions");
    let mut warnings = Vec::new();
    let yaml_rules = match version {
        Version::V2025 if root.join("submissions.yaml").is_file() => {
            parse_yaml(&root.join("submissions.yaml"), &mut warnings)?
        }
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let Ok(folders) = std::fs::read_dir(&root) else {
        return Ok((out, warnings));
    };
    let mut folders: Vec<PathBuf> = folders
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder_path in folders {
        let folder = file_name(&folder_path);
        if folder_path.file_name().is_some_and(is_tool_litter) {
            continue;
        }
        let defaults = folder_rules(version, &folder);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder_path)
            .map_err(|e| format!("cannot read {}: {e}", folder_path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| !p.file_name().is_some_and(is_tool_litter))
            .collect();
        entries.sort();
        for path in entries {
            let rel = format!("{folder}/{}", file_name(&path));
            let mut rules = Vec::new();
            let mut replaced_default = false;
            let mut lower = None;
            let mut upper = None;
            for y in &yaml_rules {
                if !(matches_path(&y.glob, &rel)) {
                    continue;
                }
                if y.glob == folder {
                    replaced_default = true;
                }
                rules.extend(y.rules.iter().cloned());
                lower = lower.or(y.use_lower);
                upper = upper.or(y.use_upper);
            }
            if !replaced_default {
                if let Some(d) = &defaults {
                    rules.extend(d.iter().cloned());
                }
            } else if let Some(d) = &defaults {
                // A rule for the folder's own name overrides the default key by key.
                let mut merged = yaml_rules
                    .iter()
                    .filter(|y| y.glob == folder)
                    .flat_map(|y| y.raw_top.clone())
                    .collect::<Vec<_>>();
                rules
                    .retain(|r| !(r.tests.is_none() && r.origin.ends_with(&format!(": {folder}"))));
                for (p, r, m) in merged.drain(..) {
                    let base = &d[0];
                    rules.push(Rule {
                        tests: None,
                        permitted: p.unwrap_or_else(|| base.permitted.clone()),
                        required: r.unwrap_or_else(|| base.required.clone()),
                        message: m,
                        origin: format!("submissions.yaml: {folder}"),
                    });
                }
            }
            let language = if path.is_file() {
                Language::from_path(&path)
            } else {
                // A program given as a folder: the language of most of its files.
                Language::of_folder(&path, None)
                    .ok()
                    .flatten()
                    .map(|(language, _)| language)
            };
            let skipped = if rules.is_empty() {
                Some(match version {
                    Version::Legacy if folder == "partially_accepted" => {
                        "partially_accepted is for scoring problems; not checked".to_string()
                    }
                    _ => format!(
                        "folder `{folder}` has no meaning in this format version; not checked"
                    ),
                })
            } else if let Some(word) = language
                .filter(|_| version == Version::Legacy && Language::detect(&path).is_none())
                .and_then(Language::not_shebang)
            {
                // problemtools' rule: `#!...python2` makes a .py file Python 2.
                Some(format!(
                    "its #! line says {word}, which judge does not grade; not checked"
                ))
            } else if language.is_none() {
                Some(format!(
                    "not in a language judge compiles ({}); not checked",
                    Language::id_list()
                ))
            } else {
                None
            };
            let tle_free = rules.iter().any(|r| !r.permitted.contains(&Outcome::TLE));
            let must_tle = rules
                .iter()
                .any(|r| r.required.len() == 1 && r.required.contains(&Outcome::TLE));
            out.push(JurySubmission {
                path,
                rel,
                folder: folder.clone(),
                language,
                // Only accepted submissions lower-bound the limit by default (as problemtools
                // does; the spec also counts WA/RTE ones).
                lower_bound: lower.unwrap_or(
                    folder == "accepted"
                        || (tle_free && rules.iter().all(|r| r.permitted.len() == 1)),
                ),
                upper_bound: upper.unwrap_or(must_tle),
                rules,
                skipped,
            });
        }
    }
    Ok((out, warnings))
}

/// Marks the submissions whose language's compiler or runtime is missing here as not checked
/// (the reason names the Debian package that brings it), so that the others still run.
pub fn skip_missing_toolchains(subs: &mut [JurySubmission], table: &crate::compile::LanguageTable) {
    for s in subs.iter_mut().filter(|s| s.skipped.is_none()) {
        if let Some(why) = s
            .language
            .and_then(|l| crate::compile::missing_toolchain(table, l))
        {
            s.skipped = Some(format!("{why}; not checked"));
        }
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// One top-level entry of `submissions.yaml`.
struct YamlRule {
    glob: String,
    rules: Vec<Rule>,
    /// The entry's own (not per-group) `permitted`, `required`, `message`.
    raw_top: Vec<Sets>,
    use_lower: Option<bool>,
    use_upper: Option<bool>,
}

fn parse_yaml(path: &Path, warnings: &mut Vec<String>) -> Result<Vec<YamlRule>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
    let value = yaml::parse(&text).map_err(at)?;
    let yaml_serde::Value::Mapping(top) = &value else {
        return Err(at("must be a map from globs to rules".into()));
    };
    let mut out = Vec::new();
    for (k, v) in top {
        let glob = yaml::scalar_text(k).ok_or_else(|| at("keys must be globs".into()))?;
        let mut m = Map::new(v, &format!("{glob}."), &glob).map_err(at)?;
        let (p, r, msg) = read_sets(&mut m).map_err(at)?;
        let mut rules = Vec::new();
        let origin = format!("submissions.yaml: {glob}");
        if p.is_some() || r.is_some() || msg.is_some() {
            rules.push(Rule {
                tests: None,
                permitted: p.clone().unwrap_or_else(|| ALL.into_iter().collect()),
                required: r.clone().unwrap_or_else(|| ALL.into_iter().collect()),
                message: msg.clone(),
                origin: origin.clone(),
            });
        }
        let (lower, upper) = use_for_time_limit(m.take_any("use_for_time_limit")).map_err(at)?;
        m.known(&[
            "language",
            "entrypoint",
            "authors",
            "model_solution",
            "score",
        ]);
        // Remaining map-valued keys are test groups.
        if let yaml_serde::Value::Mapping(inner) = v {
            for (gk, gv) in inner {
                let Some(group) = yaml::scalar_text(gk) else {
                    continue;
                };
                if !gv.is_mapping()
                    || [
                        "language",
                        "entrypoint",
                        "authors",
                        "model_solution",
                        "score",
                        "permitted",
                        "required",
                        "message",
                        "use_for_time_limit",
                    ]
                    .contains(&group.as_str())
                {
                    continue;
                }
                m.known(&[group.as_str()]);
                let mut g = Map::new(gv, &format!("{glob}.{group}."), &group).map_err(at)?;
                let (gp, gr, gmsg) = read_sets(&mut g).map_err(at)?;
                g.known(&["use_for_time_limit", "score"]);
                for key in g.unknown_keys() {
                    warnings.push(format!("{}: unknown key `{key}`", path.display()));
                }
                rules.push(Rule {
                    tests: Some(group.clone()),
                    permitted: gp.unwrap_or_else(|| ALL.into_iter().collect()),
                    required: gr.unwrap_or_else(|| ALL.into_iter().collect()),
                    message: gmsg,
                    origin: format!("submissions.yaml: {glob} / {group}"),
                });
            }
        }
        for key in m.unknown_keys() {
            warnings.push(format!("{}: unknown key `{key}`", path.display()));
        }
        out.push(YamlRule {
            glob,
            rules,
            raw_top: vec![(p, r, msg)],
            use_lower: lower,
            use_upper: upper,
        });
    }
    Ok(out)
}

type Sets = (
    Option<BTreeSet<Outcome>>,
    Option<BTreeSet<Outcome>>,
    Option<String>,
);

fn read_sets(m: &mut Map) -> Result<Sets, String> {
    let mut set = |key: &str| -> Result<Option<BTreeSet<Outcome>>, String> {
        let Some(list) = m.take_strings(key)? else {
            return Ok(None);
        };
        list.iter()
            .map(|s| {
                Outcome::parse(s).ok_or_else(|| {
                    format!("{}: `{s}` is not a verdict (AC, WA, TLE, RTE)", m.name(key))
                })
            })
            .collect::<Result<BTreeSet<_>, _>>()
            .map(Some)
    };
    let p = set("permitted")?;
    let r = set("required")?;
    let msg = m.take_str("message")?;
    Ok((p, r, msg))
}

fn use_for_time_limit(
    v: Option<&yaml_serde::Value>,
) -> Result<(Option<bool>, Option<bool>), String> {
    Ok(match v {
        None => (None, None),
        Some(yaml_serde::Value::Bool(false)) => (Some(false), Some(false)),
        Some(yaml_serde::Value::Bool(true)) => (None, None),
        Some(yaml_serde::Value::String(s)) if s == "lower" => (Some(true), None),
        Some(yaml_serde::Value::String(s)) if s == "upper" => (None, Some(true)),
        Some(other) => {
            return Err(format!(
                "use_for_time_limit must be true, false, lower or upper, found {}",
                yaml::kind(other)
            ))
        }
    })
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
        .flat_map(|alt| expand_braces(&format!("{head}{alt}{tail}")))
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
        assert!(matches_path("*/sol.py", "accepted/sol.py"));
        assert!(!matches_path("*", "accepted/sol.py") || matches_path("*", "accepted"));
        assert!(matches_path("accepted/{a,b}.py", "accepted/b.py"));
        assert!(!matches_path("accepted/{a,b}.py", "accepted/c.py"));
        assert!(matches_path("secret/*-easy", "secret/03-easy"));
        assert!(!matches_path("secret/*-easy", "secret/g/03-easy"));
        assert!(matches_path("secret/g1", "secret/g1/01"));
        assert!(!matches_path("secret/g1", "secret/g10/01"));
    }

    fn r(v: &[(&'static str, Verdict)]) -> Vec<Seen<'static>> {
        v.iter()
            .map(|(t, v)| Seen {
                test: t,
                verdict: *v,
                message: Cow::Borrowed(""),
            })
            .collect()
    }

    #[test]
    fn rules_check_permitted_and_required_sets() {
        let wa = folder_rules(Version::V2025, "wrong_answer")
            .unwrap()
            .remove(0);
        assert!(wa
            .check(&r(&[("a", Verdict::AC), ("b", Verdict::WA)]))
            .is_ok());
        let e = wa
            .check(&r(&[("a", Verdict::WA), ("b", Verdict::TLE)]))
            .unwrap_err();
        assert!(e.contains("TLE on test `b`"), "{e}");
        let e = wa.check(&r(&[("a", Verdict::AC)])).unwrap_err();
        assert!(e.contains("requires"), "{e}");
        // Legacy TLE folder: may also WA, not crash; MLE counts as a crash.
        let tle = folder_rules(Version::Legacy, "time_limit_exceeded")
            .unwrap()
            .remove(0);
        assert!(tle
            .check(&r(&[("a", Verdict::WA), ("b", Verdict::TLE)]))
            .is_ok());
        assert!(tle
            .check(&r(&[("a", Verdict::MLE), ("b", Verdict::TLE)]))
            .is_err());
        let rte = folder_rules(Version::Legacy, "run_time_error")
            .unwrap()
            .remove(0);
        assert!(rte.check(&r(&[("a", Verdict::MLE)])).is_ok());
        // A judge error never satisfies a rule.
        let ac = folder_rules(Version::Legacy, "accepted").unwrap().remove(0);
        assert!(ac.check(&r(&[("a", Verdict::JE)])).is_err());
        assert!(ac.accept_only());
    }

    /// Every rule set from a family of folder defaults and `submissions.yaml`-like rules, on
    /// every prefix of verdicts over three tests: when `decided` says the prefix decides, every
    /// completion (in the four verdicts of the format) gives exactly that result, message
    /// included; with every test done it is the plain check.
    #[test]
    fn a_decided_prefix_gives_what_every_completion_gives() {
        use Outcome::*;
        let names = ["sample/1", "secret/a/1", "secret/b/1"];
        let sets: [&[Outcome]; 5] = [&ALL, &[AC], &[AC, WA], &[AC, TLE], &[WA]];
        let required: [&[Outcome]; 5] = [&ALL, &[WA], &[TLE], &[RTE, TLE, WA], &[AC]];
        let mut singles = Vec::new();
        for p in sets {
            for r in required {
                for message in [None, Some("m".to_string())] {
                    for tests in [None, Some("secret/a".to_string()), Some("sample".into())] {
                        singles.push(Rule {
                            tests,
                            message: message.clone(),
                            ..Rule::new(p, r, "rule")
                        });
                    }
                }
            }
        }
        let mut rule_sets: Vec<Vec<Rule>> = singles.iter().map(|r| vec![r.clone()]).collect();
        for (i, a) in singles.iter().enumerate().step_by(7) {
            for b in singles.iter().skip(i % 5).step_by(31) {
                rule_sets.push(vec![a.clone(), b.clone()]);
            }
        }
        for version in [Version::Legacy, Version::V2025] {
            for folder in [
                "accepted",
                "wrong_answer",
                "time_limit_exceeded",
                "run_time_error",
            ] {
                rule_sets.extend(folder_rules(version, folder));
            }
        }
        let verdict = |c: usize| -> (Verdict, &'static str) {
            [
                (Verdict::AC, ""),
                (Verdict::WA, ""),
                (Verdict::WA, "a message m"),
                (Verdict::TLE, ""),
                (Verdict::MLE, ""),
                (Verdict::JE, ""),
            ][c]
        };
        let seen = |codes: &[usize]| -> Vec<Seen<'static>> {
            codes
                .iter()
                .enumerate()
                .map(|(i, &c)| Seen {
                    test: names[i],
                    verdict: verdict(c).0,
                    message: Cow::Borrowed(verdict(c).1),
                })
                .collect()
        };
        // Every sequence of `len` codes below `base`.
        let sequences = |len: usize, base: usize| -> Vec<Vec<usize>> {
            (0..base.pow(len as u32))
                .map(|mut n| {
                    (0..len)
                        .map(|_| {
                            let c = n % base;
                            n /= base;
                            c
                        })
                        .collect()
                })
                .collect()
        };
        let mut decided_early = 0;
        for rules in &rule_sets {
            for k in 0..=names.len() {
                // Prefixes may hold judge errors; the tests not run get the format's verdicts.
                for prefix in sequences(k, 6) {
                    let done = seen(&prefix);
                    let Some(said) = decided(rules, &done, &names[k..]) else {
                        assert!(k < names.len(), "all done but undecided: {rules:?}");
                        continue;
                    };
                    if k < names.len() {
                        decided_early += 1;
                    }
                    for rest in sequences(names.len() - k, 5) {
                        let full: Vec<usize> = prefix.iter().chain(&rest).copied().collect();
                        assert_eq!(
                            check_all(rules, &seen(&full)),
                            said,
                            "{rules:?} on {full:?}, decided after {k}"
                        );
                    }
                }
            }
        }
        assert!(decided_early > 1000, "{decided_early}");
    }

    #[test]
    fn submissions_yaml_adds_and_overrides_rules() {
        let d = tempfile::tempdir().unwrap();
        let s = d.path().join("submissions");
        for f in [
            "accepted/a.py",
            "wrong_answer/w.py",
            "time_limit_exceeded/t.cpp",
            "mixed/m.py",
            "accepted/x.f90",
            // What running or editing the submissions by hand leaves behind.
            "accepted/__pycache__/helper.cpython-311.pyc",
            "accepted/a.py~",
            "wrong_answer/.w.py.swp",
            "__pycache__/x.pyc",
        ] {
            std::fs::create_dir_all(s.join(f).parent().unwrap()).unwrap();
            std::fs::write(s.join(f), "").unwrap();
        }
        std::fs::write(
            s.join("submissions.yaml"),
            "mixed/m.py:\n  sample:\n    permitted: [AC]\n  secret/hard:\n    permitted: [AC, TLE]\n    required: [TLE]\ntime_limit_exceeded:\n  permitted: [AC, WA, TLE]\nwrong_answer/w.py:\n  message: too small\n  colour: red\n",
        )
        .unwrap();
        let (subs, warnings) = load(d.path(), Version::V2025).unwrap();
        let by = |rel: &str| subs.iter().find(|s| s.rel == rel).unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let m = by("mixed/m.py");
        assert_eq!(m.rules.len(), 2);
        assert_eq!(m.rules[1].tests.as_deref(), Some("secret/hard"));
        assert!(m.skipped.is_none());
        let t = by("time_limit_exceeded/t.cpp");
        assert_eq!(t.rules.len(), 1, "{:?}", t.rules);
        assert!(t.rules[0].permitted.contains(&Outcome::WA));
        assert!(t.rules[0].required.contains(&Outcome::TLE) && t.rules[0].required.len() == 1);
        assert!(t.upper_bound && !t.lower_bound);
        let w = by("wrong_answer/w.py");
        assert_eq!(w.rules.len(), 2);
        assert!(by("accepted/a.py").lower_bound);
        assert!(by("accepted/x.f90").skipped.is_some());
        let mut rels: Vec<&str> = subs.iter().map(|s| s.rel.as_str()).collect();
        rels.sort();
        assert_eq!(
            rels,
            [
                "accepted/a.py",
                "accepted/x.f90",
                "mixed/m.py",
                "time_limit_exceeded/t.cpp",
                "wrong_answer/w.py"
            ]
        );
    }
}
