//! `problem.yaml` of a Kattis / ICPC package, legacy and 2025-09 (2023-07-draft is read as
//! 2025-09), parsed into [`Config`]. Unknown keys are warnings (`verify` fails on them).

use super::yaml::{self, Map};

/// The problem package format version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `legacy`, `legacy-icpc`, or no `problem_format_version`.
    Legacy,
    /// `2025-09` (also `2023-07-draft` and `draft`, its earlier names).
    V2025,
}

/// Limits and time-limit rules. Times in seconds, sizes in MiB.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// An explicit time limit; `None`: computed from the accepted submissions.
    pub time_limit: Option<f64>,
    /// Slowest accepted x this <= time limit (legacy `time_multiplier`, default 5;
    /// 2025-09 `time_multipliers.ac_to_time_limit`, default 2).
    pub ac_to_time_limit: f64,
    /// Time limit x this <= fastest TLE submission (legacy `time_safety_margin`, default 2;
    /// 2025-09 `time_multipliers.time_limit_to_tle`, default 1.5).
    pub time_limit_to_tle: f64,
    /// The time limit is a multiple of this (2025-09 `time_resolution`; legacy 1 s).
    pub time_resolution: f64,
    pub memory: u64,
    pub output: u64,
    /// CPU seconds an output or input validator may use per run.
    pub validation_time: u64,
    pub validation_memory: u64,
    pub validation_output: u64,
}

/// What `problem.yaml` says.
#[derive(Debug, Clone)]
pub struct Config {
    pub version: Version,
    /// The problem name (English if several), or `None`.
    pub name: Option<String>,
    pub interactive: bool,
    /// The most passes a test may take: `limits.validation_passes` (default 2) for a
    /// `multi-pass` problem, whose output validator (or interactor) asks for another pass by
    /// writing `nextpass.in`; 1 for any other problem.
    pub passes: u32,
    /// `scoring`: submissions get a score (see `scoring`).
    pub scoring: bool,
    /// Legacy `validation: custom ...`; `None` for 2025-09, where a custom validator is one
    /// present in `output_validator/`.
    pub custom_validation: Option<bool>,
    /// Legacy `validator_flags`: arguments for the output validator (custom or default).
    pub validator_flags: Vec<String>,
    pub limits: Limits,
    /// BAPCtools' `ans_is_output` (either format): whether every `.ans` is also a valid
    /// output, checked by the output validator; `None` when the package does not say.
    pub ans_is_output: Option<bool>,
    /// `languages` (2025-09): the package-format codes of the languages a submission may be
    /// in; `None` for `all` (the default) and for a legacy package, which has no such key.
    pub languages: Option<Vec<String>>,
}

/// The largest time multiplier (`time_multiplier`, `time_safety_margin`,
/// `time_multipliers.*`): real packages use 1.1 to 10.
const MAX_MULTIPLIER: f64 = 100.0;

const TYPES: [&str; 5] = [
    "pass-fail",
    "scoring",
    "interactive",
    "multi-pass",
    "submit-answer",
];

/// Parses `problem.yaml` text: the config and warnings (unknown keys); entries starting with
/// `note: ` are notes about what is not supported, not faults of the package.
pub fn parse(text: &str) -> Result<(Config, Vec<String>), String> {
    let (value, duplicates) = yaml::parse(text)?;
    let mut top = Map::new(&value, "", "problem.yaml")?;
    let mut warnings: Vec<String> = duplicates
        .iter()
        .map(|key| format!("problem.yaml: {}", yaml::duplicate_warning(key)))
        .collect();
    let version = match top.take_str("problem_format_version")?.as_deref() {
        None | Some("legacy") | Some("legacy-icpc") => Version::Legacy,
        Some("2025-09") | Some("2023-07-draft") | Some("draft") => Version::V2025,
        Some(other) => {
            return Err(format!(
                "problem_format_version `{other}` is not one this judge reads (legacy, legacy-icpc, 2023-07-draft, 2025-09)"
            ))
        }
    };
    let name = match top.take_any("name") {
        None => None,
        Some(yaml_serde::Value::Mapping(m)) => {
            let en = m.get("en").and_then(yaml::scalar_text);
            en.or_else(|| m.values().find_map(yaml::scalar_text))
        }
        Some(v) => Some(yaml::scalar_text(v).ok_or_else(|| {
            format!(
                "name must be a string or a map of strings, found {}",
                yaml::kind(v)
            )
        })?),
    };
    // One string may name several types separated by spaces (`type: pass-fail interactive`,
    // as the format's own examples write it and BAPCtools reads it).
    let types: Vec<String> = top
        .take_strings("type")?
        .unwrap_or_default()
        .iter()
        .flat_map(|t| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    for t in &types {
        if !TYPES.contains(&t.as_str()) {
            return Err(format!(
                "type: `{t}` is not a problem type (one of: {})",
                TYPES.join(", ")
            ));
        }
    }
    let has = |t: &str| types.iter().any(|x| x == t);
    if version == Version::Legacy && types.len() > 1 {
        return Err("type: a legacy package has one type, pass-fail or scoring".into());
    }
    if version == Version::Legacy
        && (has("interactive") || has("multi-pass") || has("submit-answer"))
    {
        return Err(
            "type: a legacy package is pass-fail or scoring; an interactive one says `validation: custom interactive`"
                .into(),
        );
    }
    if has("pass-fail") && has("scoring") {
        return Err("type: pass-fail and scoring exclude each other".into());
    }
    let mut interactive = has("interactive");
    let scoring = has("scoring");
    if has("submit-answer") {
        return Err("type: submit-answer problems are not supported by this judge".into());
    }

    // The default of `limits.validation_passes`.
    let mut passes = 2;
    let mut custom_validation = None;
    let mut validator_flags = Vec::new();
    let ans_is_output = top.take_bool("ans_is_output")?;
    let mut languages = None;
    let mut limits_map = top.take_map("limits")?;
    let mut limits = Limits {
        time_limit: None,
        ac_to_time_limit: 2.0,
        time_limit_to_tle: 1.5,
        time_resolution: 1.0,
        memory: 2048,
        output: 8,
        validation_time: 60,
        validation_memory: 2048,
        validation_output: 8,
    };
    match version {
        Version::Legacy => {
            let validation = top
                .take_str("validation")?
                .unwrap_or_else(|| "default".into());
            let words: Vec<&str> = validation.split_whitespace().collect();
            match words.first().copied() {
                Some("default") if words.len() == 1 => custom_validation = Some(false),
                Some("custom") => {
                    custom_validation = Some(true);
                    for w in &words[1..] {
                        match *w {
                            "interactive" => interactive = true,
                            // The validator writes score.txt: read for any scoring problem.
                            "score" => {}
                            other => {
                                return Err(format!(
                                    "validation: unknown option `{other}` (custom may be followed by interactive and/or score)"
                                ))
                            }
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "validation must be `default` or `custom` (optionally followed by `interactive`), found `{validation}`"
                    ))
                }
            }
            validator_flags = top
                .take_str("validator_flags")?
                .map(|s| s.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            limits.ac_to_time_limit = 5.0;
            limits.time_limit_to_tle = 2.0;
            if let Some(m) = limits_map.take_number_in("time_multiplier", 1.0, MAX_MULTIPLIER)? {
                limits.ac_to_time_limit = m;
            }
            if let Some(m) = limits_map.take_number_in("time_safety_margin", 1.0, MAX_MULTIPLIER)? {
                limits.time_limit_to_tle = m;
            }
            if let Some(t) = limits_map.take_f64("time_limit")? {
                warnings.push(
                    "problem.yaml: limits.time_limit is a 2025-09 key, not a legacy one; used as the time limit"
                        .into(),
                );
                limits.time_limit = Some(t);
            }
            let mut grading = top.take_map("grading")?;
            grading.known(&[
                "objective",
                "show_test_data_groups",
                "accept_score",
                "reject_score",
                "range",
                "on_reject",
            ]);
            warnings.extend(grading.unknown_keys().into_iter().map(unknown));
            top.known(&[
                "uuid",
                "author",
                "source",
                "source_url",
                "license",
                "rights_owner",
                "keywords",
            ]);
        }
        Version::V2025 => {
            let mut mult = limits_map.take_map("time_multipliers")?;
            if let Some(m) = mult.take_number_in("ac_to_time_limit", 1.0, MAX_MULTIPLIER)? {
                limits.ac_to_time_limit = m;
            }
            if let Some(m) = mult.take_number_in("time_limit_to_tle", 1.0, MAX_MULTIPLIER)? {
                limits.time_limit_to_tle = m;
            }
            warnings.extend(mult.unknown_keys().into_iter().map(unknown));
            limits.time_limit = limits_map.take_f64("time_limit")?;
            if let Some(r) = limits_map.take_number_in("time_resolution", 1e-6, 60.0)? {
                limits.time_resolution = r;
            }
            if let Some(n) = limits_map.take_u64("validation_passes")? {
                if n < 2 {
                    return Err(format!(
                        "limits.validation_passes must be at least 2, found {n}"
                    ));
                }
                if !has("multi-pass") {
                    warnings.push(
                        "problem.yaml: limits.validation_passes is for multi-pass problems only; ignored"
                            .into(),
                    );
                }
                passes = u32::try_from(n.min(1000)).unwrap_or(1000);
            }
            languages = top
                .take_strings("languages")?
                .filter(|l| !(l.len() == 1 && l[0] == "all"));
            top.known(&[
                "uuid",
                "version",
                "credits",
                "source",
                "license",
                "rights_owner",
                "embargo_until",
                "keywords",
                "allow_file_writing",
                "constants",
                // BAPCtools' own keys (`ans_is_output` is read above).
                "verified",
                "comment",
            ]);
        }
    }
    if let Some(m) = limits_map.take_u64("memory")? {
        limits.memory = m;
    }
    if let Some(m) = limits_map.take_u64("output")? {
        limits.output = m;
    }
    if let Some(t) = limits_map.take_u64("validation_time")? {
        limits.validation_time = t;
    }
    if let Some(m) = limits_map.take_u64("validation_memory")? {
        limits.validation_memory = m;
    }
    if let Some(m) = limits_map.take_u64("validation_output")? {
        limits.validation_output = m;
    }
    limits_map.known(&["code", "compilation_time", "compilation_memory"]);
    check_limits(&limits)?;
    warnings.extend(limits_map.unknown_keys().into_iter().map(unknown));
    warnings.extend(top.unknown_keys().into_iter().map(unknown));
    Ok((
        Config {
            version,
            name,
            interactive,
            passes: if has("multi-pass") { passes } else { 1 },
            scoring,
            custom_validation,
            validator_flags,
            limits,
            ans_is_output,
            languages,
        },
        warnings,
    ))
}

/// Why a submission in `language` is not one the package takes, when its `languages`
/// (`allowed`, package-format codes) does not list it.
pub fn unlisted_language(allowed: &[String], language: crate::compile::Language) -> Option<String> {
    (!allowed.iter().any(|c| c == language.package_code())).then(|| {
        format!(
            "problem.yaml's `languages` ({}) does not list {} (`{}`)",
            allowed.join(", "),
            language.name(),
            language.package_code()
        )
    })
}

fn unknown(key: String) -> String {
    format!("problem.yaml: unknown key `{key}`")
}

fn check_limits(l: &Limits) -> Result<(), String> {
    if let Some(t) = l.time_limit {
        if !(t > 0.0 && t <= 60.0) {
            return Err(format!(
                "limits.time_limit must be between 0 and 60 seconds, found {t}"
            ));
        }
        let steps = t / l.time_resolution;
        if (steps - steps.round()).abs() > 1e-9 {
            return Err(format!(
                "limits.time_limit {t} is not a multiple of limits.time_resolution {}",
                l.time_resolution
            ));
        }
    }
    if !(1.0..=MAX_MULTIPLIER).contains(&l.ac_to_time_limit)
        || !(1.0..=MAX_MULTIPLIER).contains(&l.time_limit_to_tle)
    {
        return Err(format!(
            "time multipliers must be from 1 to {MAX_MULTIPLIER}"
        ));
    }
    if l.time_resolution.is_nan() || l.time_resolution <= 0.0 {
        return Err("limits.time_resolution must be positive".into());
    }
    for (what, v, max) in [
        ("memory", l.memory, 65536),
        ("output", l.output, 1024),
        ("validation_memory", l.validation_memory, 65536),
        ("validation_output", l.validation_output, 1024),
        ("validation_time", l.validation_time, 3600),
    ] {
        if v == 0 || v > max {
            return Err(format!("limits.{what} must be 1..={max}, found {v}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_defaults_and_validation() {
        let (c, w) = parse("name: Hello World!\nlimits:\n  memory: 512\nsource: Kattis\n").unwrap();
        assert_eq!(c.version, Version::Legacy);
        assert_eq!(c.name.as_deref(), Some("Hello World!"));
        assert_eq!(c.limits.memory, 512);
        assert_eq!(
            (c.limits.ac_to_time_limit, c.limits.time_limit_to_tle),
            (5.0, 2.0)
        );
        assert_eq!(c.custom_validation, Some(false));
        assert!(w.is_empty(), "{w:?}");
        let (c, _) = parse(
            "validation: custom interactive\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  time_safety_margin: 4\n",
        )
        .unwrap();
        assert!(c.interactive);
        assert_eq!(c.custom_validation, Some(true));
        assert_eq!(c.validator_flags, vec!["float_tolerance", "1e-6"]);
        assert_eq!(c.limits.time_limit_to_tle, 4.0);
        // The words after `custom` in either order, as problemtools reads them.
        for v in ["custom score interactive", "custom interactive score"] {
            let (c, _) = parse(&format!("type: scoring\nvalidation: {v}\n")).unwrap();
            assert!(c.interactive && c.scoring, "{v}");
            assert_eq!(c.custom_validation, Some(true), "{v}");
        }
    }

    #[test]
    fn v2025_type_name_map_and_multipliers() {
        let (c, w) = parse(
            "problem_format_version: 2023-07-draft\nuuid: x\ntype: interactive\nname:\n  en: Guess the Number\n  sv: Gissa talet\nlimits:\n  time_multipliers:\n    time_limit_to_tle: 4\n",
        )
        .unwrap();
        assert_eq!(c.version, Version::V2025);
        assert!(c.interactive);
        assert_eq!(c.name.as_deref(), Some("Guess the Number"));
        assert_eq!(
            (c.limits.ac_to_time_limit, c.limits.time_limit_to_tle),
            (2.0, 4.0)
        );
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn languages_and_ans_is_output() {
        let v = "problem_format_version: 2025-09\n";
        let (c, w) = parse(&format!(
            "{v}languages: [python3, cpp]\nans_is_output: false\n"
        ))
        .unwrap();
        assert_eq!(c.languages, Some(vec!["python3".into(), "cpp".into()]));
        assert_eq!(c.ans_is_output, Some(false));
        assert!(w.is_empty(), "{w:?}");
        let (c, _) = parse(&format!("{v}languages: all\n")).unwrap();
        assert_eq!((c.languages, c.ans_is_output), (None, None));
        let e = parse(&format!("{v}ans_is_output: maybe\n")).unwrap_err();
        assert_eq!(e, "ans_is_output must be true or false, found `maybe`");
    }

    #[test]
    fn unknown_keys_warn_and_bad_values_fail() {
        let (_, w) = parse("name: x\ncolour: red\nlimits:\n  memroy: 5\n").unwrap();
        assert_eq!(
            w,
            vec![
                "problem.yaml: unknown key `limits.memroy`",
                "problem.yaml: unknown key `colour`"
            ]
        );
        let (c, _) =
            parse("problem_format_version: 2025-09\ntype: pass-fail interactive\n").unwrap();
        assert!(c.interactive);
        let (c, w) =
            parse("problem_format_version: 2025-09\ntype: pass-fail  multi-pass\n").unwrap();
        assert_eq!((c.passes, c.interactive), (2, false));
        assert!(w.is_empty(), "{w:?}");
        let (c, _) = parse(
            "problem_format_version: 2025-09\ntype: [interactive, multi-pass]\nlimits:\n  validation_passes: 5\n",
        )
        .unwrap();
        assert_eq!((c.passes, c.interactive), (5, true));
        let (c, w) =
            parse("problem_format_version: 2025-09\nlimits:\n  validation_passes: 3\n").unwrap();
        assert_eq!(c.passes, 1);
        assert!(w[0].contains("multi-pass problems only"), "{w:?}");
        let e = parse(
            "problem_format_version: 2025-09\ntype: multi-pass\nlimits:\n  validation_passes: 1\n",
        )
        .unwrap_err();
        assert!(e.contains("at least 2"), "{e}");
        let e = parse("problem_format_version: 2025-09\ntype: pass-fale\n").unwrap_err();
        assert!(e.contains("`pass-fale` is not a problem type"), "{e}");
        assert!(parse("problem_format_version: 2025-09\ntype: 5\n").is_err());
        assert!(parse("type: interactive\n").unwrap_err().contains("legacy"));
        assert!(parse("problem_format_version: 2025-09\ntype: [pass-fail, scoring]\n").is_err());
        assert!(
            parse("problem_format_version: 2025-09\nlimits:\n  time_limit: 1.5\n")
                .unwrap_err()
                .contains("multiple")
        );
        assert!(parse("problem_format_version: 2025-09\nlimits:\n  memory: -1\n").is_err());
        assert!(parse("validation: strange\n").is_err());
        assert!(parse("problem_format_version: 1999\n").is_err());
    }

    /// A key given twice is read as PyYAML reads it (the last value), with a warning naming
    /// it, which the package loader shows with the file's path.
    #[test]
    fn a_key_given_twice_takes_the_last_value_with_a_warning() {
        let (c, warnings) =
            parse("limits:\n  memory: 256\n  memory: 1024\ntype: scoring\n").unwrap();
        assert_eq!(c.limits.memory, 1024);
        assert_eq!(
            warnings,
            ["problem.yaml: key `limits.memory` is given twice; the last value is used (as problemtools reads it)"]
        );
        assert!(yaml::is_duplicate_warning(&warnings[0]));
    }
}
