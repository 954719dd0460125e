//! The jury submissions of a Kattis package and what each must get: folder defaults (legacy
//! meaning, or 2025-09's), and 2025-09 `submissions/submissions.yaml` rules (globs over
//! submissions and test groups; `permitted` / `required` verdict sets; `message`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::config::Version;
use super::yaml::{self, Map};
use crate::compile::Language;
use crate::fsutil::is_tool_litter;

pub use crate::verdict::expectation::{
    check_all, decided, expected_results_header, matches_path, GroupScoreRule, JurySubmission,
    Outcome, Rule, ScoreExpectation, Seen, ALL,
};
use crate::verdict::Verdict;

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
        // Not in the legacy format, but DOMjudge and BAPCtools give them this meaning in any.
        (_, "rejected") => rule(&ALL, &[RTE, TLE, WA]),
        (_, "brute_force") => rule(&[AC, RTE, TLE], &[RTE, TLE]),
        _ => None,
    }
}

/// Every submission under `dir/submissions`, sorted, with its rules.
pub fn load(
    dir: &Path,
    version: Version,
    scoring: bool,
    languages: Option<&[String]>,
) -> Result<(Vec<JurySubmission>, Vec<String>), String> {
    let root = dir.join("submissions");
    let mut warnings = Vec::new();
    let yaml_rules = match version {
        // BAPCtools reads it whatever the format version says.
        _ if root.join("submissions.yaml").is_file() => {
            parse_yaml(dir, &root.join("submissions.yaml"), &mut warnings)?
        }
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let Ok(folders) = std::fs::read_dir(&root) else {
        return Ok((out, warnings));
    };
    let (mut folders, mut loose): (Vec<PathBuf>, Vec<PathBuf>) = folders
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !p.file_name().is_some_and(is_tool_litter))
        .partition(|p| p.is_dir());
    folders.sort();
    loose.sort();

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
            crate::fsutil::beneath::check_tree(dir, &path, "the package")?;
            let rel = format!("{folder}/{}", file_name(&path));
            let mut rules = Vec::new();
            let mut replaced_default = false;
            let mut lower = None;
            let mut upper = None;
            let mut score = None;
            let mut group_scores = Vec::new();
            let mut entrypoint = None;
            let mut language_code: Option<String> = None;
            // The first `submissions.yaml` entry that names it.
            let mut named_by = None;
            for y in &yaml_rules {
                if !(matches_path(&y.glob, &rel)) {
                    continue;
                }
                named_by = named_by.or(Some(y.glob.as_str()));
                if y.glob == folder {
                    replaced_default = true;
                }
                rules.extend(y.rules.iter().cloned());
                lower = lower.or(y.use_lower);
                score = score.or(y.score);
                group_scores.extend(y.group_scores.iter().cloned());
                upper = upper.or(y.use_upper);
                entrypoint = entrypoint.or(y.entrypoint.clone());
                language_code = language_code.or(y.language.clone());
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
            // An entry that names it without `permitted`, `required` or `message` (only
            // `use_for_time_limit`, `authors`, ...) gives it the format's defaults: any of the
            // four verdicts (not CE, not a judge error). So a folder of its own is run and
            // checked, as BAPCtools runs it (`testexpectations`: `tle:` says only how it
            // bounds the time limit).
            if let (Some(glob), None) = (named_by, defaults.as_ref()) {
                if rules.is_empty() {
                    rules.push(Rule::new(&ALL, &ALL, &format!("submissions.yaml: {glob}")));
                }
            }
            // `submissions.yaml`'s `language:` over the file's extension (or, for a folder,
            // the language of most of its files).
            let named = language_code.as_deref().map(Language::from_package_code);
            // The file whose `#!` line problemtools reads: the submission, or a folder's entry.
            let (language, first_file) = match named {
                Some(named) => (named, path.clone()),
                None if path.is_file() => (Language::from_path(&path), path.clone()),
                None => match Language::of_folder(&path, None).ok().flatten() {
                    Some((language, entry)) => (Some(language), entry),
                    None => (None, path.clone()),
                },
            };
            // DOMjudge's header: the verdicts allowed as a whole (with the folder's rules, if
            // it has any: both must hold).
            let (verdicts, bad_header) = match path.is_file() {
                true => match expected_results_header(&path) {
                    Ok(v) => (v, None),
                    Err(e) => (None, Some(format!("submissions/{rel}: {e}"))),
                },
                false => (None, None),
            };
            // A scoring problem's folders: accepted ones must get the full score; partially
            // accepted ones less, but more than the least (problemtools' rule).
            let score = match (scoring, folder.as_str()) {
                (true, "accepted") => score.or(Some(ScoreExpectation::Full)),
                (true, "partially_accepted") => score.or(Some(ScoreExpectation::Partial)),
                // problemtools: the verdict by the legacy grader's rules is the folder's.
                (true, "wrong_answer") if version == Version::Legacy => {
                    score.or(Some(ScoreExpectation::Verdict(Verdict::WA)))
                }
                (true, "time_limit_exceeded") if version == Version::Legacy => {
                    score.or(Some(ScoreExpectation::Verdict(Verdict::TLE)))
                }
                (true, "run_time_error") if version == Version::Legacy => {
                    score.or(Some(ScoreExpectation::Verdict(Verdict::RE)))
                }
                _ => score,
            };
            let skipped = if let Some(e) = bad_header {
                warnings.push(e);
                Some("its @EXPECTED_RESULTS@ header cannot be read; not checked".to_string())
            } else if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(".disabled"))
            {
                // BAPCtools' way to switch a submission (file or folder) off.
                Some(
                    "a `.disabled` name switches it off (as BAPCtools reads it); not checked"
                        .into(),
                )
            } else if rules.is_empty()
                && verdicts.is_none()
                && score.is_none()
                && group_scores.is_empty()
            {
                Some(match version {
                    Version::Legacy if folder == "partially_accepted" => {
                        "partially_accepted is for scoring problems; not checked".to_string()
                    }
                    _ => format!(
                        "folder `{folder}` has no meaning in this format version{} and the file no @EXPECTED_RESULTS@ header; not checked",
                        near_folder(&folder)
                            .map(|f| format!(" (nor for problemtools, BAPCtools or DOMjudge: did you mean `{f}`?)"))
                            .unwrap_or_default()
                    ),
                })
            } else if let Some(word) = language
                .filter(|_| version == Version::Legacy && Language::detect(&first_file).is_none())
                .and_then(Language::not_shebang)
            {
                // problemtools' rule: `#!...python2` makes a .py file Python 2.
                Some(format!(
                    "its #! line says {word}, which judge does not grade; not checked"
                ))
            } else if let (Some(code), None) = (&language_code, language) {
                Some(format!(
                    "submissions.yaml gives it language `{code}`, which judge does not compile ({}); not checked",
                    Language::id_list()
                ))
            } else if let Some((l, allowed)) = language.zip(languages) {
                super::config::unlisted_language(allowed, l)
                    .map(|why| format!("{why}; not checked"))
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
            // Only accepted submissions lower-bound the limit by default (as problemtools does;
            // the spec also counts WA/RTE ones).
            let lower_bound = lower.unwrap_or(
                folder == "accepted"
                    || (tle_free && rules.iter().all(|r| r.permitted.len() == 1))
                    || verdicts == Some(BTreeSet::from([Verdict::AC])),
            );
            // problemtools checks a legacy scoring package's wrong_answer, time_limit_exceeded
            // and run_time_error submissions only on the verdict its graders give the whole
            // (`score` above): a sample or a group may get any verdict on the way (an RTE on
            // a sample that `ignore_sample` drops, an OLE in a group after a TLE one that
            // `first_error` passes over), so the folder's rules on each test do not apply.
            if matches!(score, Some(ScoreExpectation::Verdict(_))) && named_by.is_none() {
                let own = format!("folder {folder}");
                rules.retain(|r| r.origin != own);
            }
            let entrypoint = entrypoint.map(|e: String| path.join(e));
            let randomised = crate::verdict::expectation::randomised_header(&path);
            out.push(JurySubmission {
                path,
                rel,
                folder: folder.clone(),
                language,
                lower_bound,
                upper_bound: upper
                    .unwrap_or(must_tle || verdicts == Some(BTreeSet::from([Verdict::TLE]))),
                rules,
                entrypoint,
                verdicts,
                score,
                group_scores,
                skipped,
                randomised,
                // problemtools reads a legacy folder at the first failure; rules
                // `submissions.yaml` gives are about every test.
                first_failure: version == Version::Legacy && named_by.is_none() && !scoring,
            });
        }
    }
    // A program directly in submissions/: no tool runs it (problemtools, BAPCtools and
    // DOMjudge take submissions in folders), so judge says so rather than pass it over.
    for path in loose {
        crate::fsutil::beneath::check_tree(dir, &path, "the package")?;
        if let Some(language) = Language::from_path(&path) {
            out.push(loose_submission(path, language));
        }
    }
    Ok((out, warnings))
}

/// A program directly in `submissions/`, shown as not checked.
fn loose_submission(path: PathBuf, language: Language) -> JurySubmission {
    JurySubmission {
        rel: file_name(&path),
        folder: String::new(),
        language: Some(language),
        lower_bound: false,
        upper_bound: false,
        rules: Vec::new(),
        entrypoint: None,
        verdicts: None,
        score: None,
        group_scores: Vec::new(),
        skipped: Some(
            "directly in submissions/, in no folder that says what it must get (problemtools, BAPCtools and DOMjudge run only submissions in folders); not checked"
                .into(),
        ),
        randomised: false,
        first_failure: false,
        path,
    }
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

/// The verdict folder a folder name met in the wild stands for, which no tool reads as such
/// (`runtime_error` for `run_time_error`).
fn near_folder(folder: &str) -> Option<&'static str> {
    Some(match folder {
        "run_time_exception" | "runtime_error" | "runtime_exception" => "run_time_error",
        "wrong_answers" => "wrong_answer",
        _ => return None,
    })
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
    /// The score it must get (`score: 30` or `score: [20, 40]`).
    score: Option<ScoreExpectation>,
    /// The scores its test groups must get (`secret/group1: {score: 0}`).
    group_scores: Vec<GroupScoreRule>,
    use_lower: Option<bool>,
    use_upper: Option<bool>,
    /// The entry point of a folder submission (`entrypoint: ac.py`).
    entrypoint: Option<String>,
    /// Its language, as a package-format code (`language: python3`).
    language: Option<String>,
}

fn parse_yaml(
    pkg: &Path,
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<YamlRule>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    // Under the package's rule: a link leading outside it, a FIFO or a device is an error.
    let text = super::data::read_package_text(pkg, path)?;
    let (value, duplicates) = yaml::parse(&text).map_err(at)?;
    warnings.extend(duplicates.iter().map(|k| at(yaml::duplicate_warning(k))));
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
        let score = match m.take_any("score") {
            None => None,
            Some(v) => Some(score_expectation(v).map_err(|e| at(format!("{glob}.score: {e}")))?),
        };
        let entrypoint = m.take_str("entrypoint").map_err(at)?;
        let language = m.take_str("language").map_err(at)?;
        m.known(&["authors", "model_solution"]);
        // Remaining map-valued keys are test groups.
        let mut group_scores = Vec::new();
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
                if let Some(v) = g.take_any("score") {
                    group_scores.push(GroupScoreRule {
                        group: group.clone(),
                        score: score_expectation(v)
                            .map_err(|e| at(format!("{glob}.{group}.score: {e}")))?,
                        origin: format!("submissions.yaml: {glob} / {group}"),
                    });
                }
                g.known(&["use_for_time_limit"]);
                let group_rule = gp.is_some() || gr.is_some() || gmsg.is_some();
                for key in g.unknown_keys() {
                    warnings.push(format!("{}: unknown key `{key}`", path.display()));
                }
                if !group_rule {
                    continue;
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
            score,
            group_scores,
            use_lower: lower,
            use_upper: upper,
            entrypoint,
            language,
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

/// `score: 30` or `score: [20, 40]`.
fn score_expectation(v: &yaml_serde::Value) -> Result<ScoreExpectation, String> {
    let num = |v: &yaml_serde::Value| match v {
        yaml_serde::Value::Number(n) => n.as_f64().filter(|x| x.abs() <= yaml::MAX_SCORE),
        _ => None,
    };
    match v {
        yaml_serde::Value::Sequence(items) => {
            match items.iter().map(num).collect::<Option<Vec<f64>>>() {
                Some(b) if b.len() == 2 && b[0] <= b[1] => Ok(ScoreExpectation::Range(b[0], b[1])),
                _ => Err("must be a number or a list of two numbers, low then high".into()),
            }
        }
        other => num(other)
            .map(ScoreExpectation::Exactly)
            .ok_or_else(|| "must be a number or a list of two numbers".into()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use std::borrow::Cow;

    fn r(v: &[(&'static str, Verdict)]) -> Vec<Seen<'static>> {
        v.iter()
            .map(|(t, v)| Seen {
                test: t,
                verdict: *v,
                message: Cow::Borrowed(""),
            })
            .collect()
    }

    /// A folder of its own that `submissions.yaml` names without verdict sets (BAPCtools'
    /// `testexpectations`: `tle:` gives only `use_for_time_limit` per group) gets the format's
    /// default rule, any of the four verdicts; one it does not name is still not checked.
    #[test]
    fn a_folder_submissions_yaml_names_gets_the_default_rule() {
        let dir = tempfile::tempdir().unwrap();
        let subs = dir.path().join("submissions");
        for f in ["tle", "other"] {
            std::fs::create_dir_all(subs.join(f)).unwrap();
            std::fs::write(subs.join(f).join("sleep.py"), "").unwrap();
        }
        std::fs::write(
            subs.join("submissions.yaml"),
            "tle:\n  sample:\n    use_for_time_limit: lower\n  secret:\n    use_for_time_limit: upper\n",
        )
        .unwrap();
        let (subs, warnings) = load(dir.path(), Version::V2025, false, None).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let other = subs.iter().find(|s| s.rel == "other/sleep.py").unwrap();
        assert!(other
            .skipped
            .as_deref()
            .is_some_and(|w| w.contains("no meaning")));
        let tle = subs.iter().find(|s| s.rel == "tle/sleep.py").unwrap();
        assert_eq!(tle.skipped, None);
        assert_eq!(tle.rules, [Rule::new(&ALL, &ALL, "submissions.yaml: tle")]);
        assert!(tle.rules[0].check(&r(&[("s", Verdict::TLE)])).is_ok());
        assert!(tle.rules[0].check(&r(&[("s", Verdict::JE)])).is_err());
    }

    #[test]
    fn disabled_submissions_are_not_checked() {
        // BAPCtools' `.disabled` suffix, on a file and on a folder program.
        let dir = tempfile::tempdir().unwrap();
        let acc = dir.path().join("submissions/accepted");
        std::fs::create_dir_all(acc.join("prolog.disabled")).unwrap();
        std::fs::write(acc.join("prolog.disabled/main.pl"), "").unwrap();
        std::fs::write(acc.join("a.py.disabled"), "").unwrap();
        std::fs::write(acc.join("b.py"), "").unwrap();
        let (subs, _) = load(dir.path(), Version::V2025, false, None).unwrap();
        let skipped: Vec<(&str, bool)> = subs
            .iter()
            .map(|s| {
                let why = s.skipped.as_deref().unwrap_or("");
                (s.rel.as_str(), why.contains(".disabled"))
            })
            .collect();
        assert_eq!(
            skipped,
            [
                ("accepted/a.py.disabled", true),
                ("accepted/b.py", false),
                ("accepted/prolog.disabled", true)
            ]
        );
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
        // An OLE (judge stops the program at the output limit; the other tools let it write
        // on, to its time limit) meets a TLE or an RTE expectation, not a WA one.
        for folder in ["time_limit_exceeded", "run_time_error"] {
            let rule = folder_rules(Version::V2025, folder).unwrap().remove(0);
            assert!(
                rule.check(&r(&[("a", Verdict::AC), ("b", Verdict::OLE)]))
                    .is_ok(),
                "{folder}"
            );
        }
        let e = wa
            .check(&r(&[("a", Verdict::WA), ("b", Verdict::OLE)]))
            .unwrap_err();
        assert!(e.contains("OLE on test `b`"), "{e}");
        // A judge error never satisfies a rule.
        let ac = folder_rules(Version::Legacy, "accepted").unwrap().remove(0);
        assert!(ac.check(&r(&[("a", Verdict::JE)])).is_err());
        assert!(ac.accept_only());
    }

    /// Every rule set from a family of folder defaults and `submissions.yaml`-like rules, on
    /// every prefix of verdicts over three tests: when `decided` says the prefix decides, every
    /// completion (in the four verdicts of the format, and OLE) gives exactly that result, message
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
                (Verdict::OLE, ""),
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
                for prefix in sequences(k, 7) {
                    let done = seen(&prefix);
                    let Some(said) = decided(rules, &done, &names[k..]) else {
                        assert!(k < names.len(), "all done but undecided: {rules:?}");
                        continue;
                    };
                    if k < names.len() {
                        decided_early += 1;
                    }
                    for rest in sequences(names.len() - k, 6) {
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
        let (subs, warnings) = load(d.path(), Version::V2025, false, None).unwrap();
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

    /// problemtools checks a legacy scoring package's rejected folders on the verdict its
    /// graders give the whole only: they get no rule on each test (an RTE on an ignored sample
    /// is fine in wrong_answer/), only the verdict by the package's rules. A pass-fail
    /// package's keep the folder's rule, and an accepted one its rule too.
    #[test]
    fn legacy_scoring_rejected_folders_are_checked_on_the_graded_verdict_only() {
        let dir = tempfile::tempdir().unwrap();
        let subs = dir.path().join("submissions");
        for f in [
            "accepted",
            "wrong_answer",
            "time_limit_exceeded",
            "run_time_error",
        ] {
            std::fs::create_dir_all(subs.join(f)).unwrap();
            std::fs::write(subs.join(f).join("s.py"), "").unwrap();
        }
        let (scored, _) = load(dir.path(), Version::Legacy, true, None).unwrap();
        for (folder, verdict) in [
            ("wrong_answer", Verdict::WA),
            ("time_limit_exceeded", Verdict::TLE),
            ("run_time_error", Verdict::RE),
        ] {
            let s = scored.iter().find(|s| s.folder == folder).unwrap();
            assert!(s.rules.is_empty(), "{folder}: {:?}", s.rules);
            assert_eq!(s.score, Some(ScoreExpectation::Verdict(verdict)));
            assert!(s.skipped.is_none(), "{folder}: {:?}", s.skipped);
            assert!(!s.lower_bound, "{folder}");
        }
        let tle = scored
            .iter()
            .find(|s| s.folder == "time_limit_exceeded")
            .unwrap();
        assert!(tle.upper_bound);
        let ac = scored.iter().find(|s| s.folder == "accepted").unwrap();
        assert_eq!(ac.rules.len(), 1);
        let (pass_fail, _) = load(dir.path(), Version::Legacy, false, None).unwrap();
        assert!(pass_fail
            .iter()
            .all(|s| s.rules.len() == 1 && s.score.is_none()));
    }

    /// A key of submissions.yaml given twice takes the last value, with a warning.
    #[test]
    fn a_submissions_yaml_key_given_twice_takes_the_last_value() {
        let dir = tempfile::tempdir().unwrap();
        let subs = dir.path().join("submissions");
        std::fs::create_dir_all(subs.join("accepted")).unwrap();
        std::fs::write(subs.join("accepted/s.py"), "").unwrap();
        std::fs::write(
            subs.join("submissions.yaml"),
            "accepted:\n  score: 10\n  score: 20\n",
        )
        .unwrap();
        let (subs, warnings) = load(dir.path(), Version::V2025, true, None).unwrap();
        assert_eq!(subs[0].score, Some(ScoreExpectation::Exactly(20.0)));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("submissions.yaml: key `accepted.score` is given twice"),
            "{warnings:?}"
        );
        assert!(yaml::is_duplicate_warning(&warnings[0]));
    }
}
