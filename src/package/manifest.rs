//! The `problem.toml` schema.
//!
//! ```toml
//! title = "Magic Square"
//! # logic = "magic-square"   # optional: built-in logic to use (default: the folder name)
//!
//! [limits]
//! time-limit = 1.0      # seconds of CPU time per test
//! memory-limit = 64     # MiB
//! output-limit = 8      # MiB of stdout (default 8)
//! [limits.languages.python]
//! time-limit = 2.0
//!
//! [[tests]]             # generated groups, in test order after data/sample and data/secret
//! name = "distinct"     # tests are named distinct-01, distinct-02, ...
//! generator = "distinct"
//! count = 4
//! params = { n = 4 }
//!
//! [[subtasks]]          # optional: a scoring problem, the secret tests in groups
//! name = "n3"
//! points = 30
//! where = { n = 3 }     # the inputs the problem logic reads these features from
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::Deserialize;

use super::ProblemLimits;
use crate::problems::{GenParams, Problem};
use crate::verdict::score::Aggregation;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Manifest {
    pub title: String,
    #[serde(default)]
    pub logic: Option<String>,
    pub limits: RawLimits,
    #[serde(default)]
    pub tests: Vec<GroupDecl>,
    #[serde(default)]
    pub subtasks: Vec<SubtaskDecl>,
}

/// One `[[subtasks]]` entry: a scoring group of the secret tests (hand-made and generated)
/// whose input has the features `where` names (the problem logic reads them from an input,
/// e.g. magic-square's `n`). A test belongs to the first subtask it matches.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct SubtaskDecl {
    pub name: String,
    /// What passing it is worth.
    pub points: f64,
    #[serde(default, rename = "where", deserialize_with = "params")]
    pub matches: GenParams,
    /// `min` (the default: all or nothing, as olympiad subtasks), `sum` (a share per test),
    /// or `pass-fail` (all or nothing too).
    #[serde(default = "min")]
    pub aggregation: Aggregation,
}

fn min() -> Aggregation {
    Aggregation::Min
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct RawLimits {
    pub time_limit: f64,
    pub memory_limit: u64,
    #[serde(default)]
    pub output_limit: Option<u64>,
    #[serde(default)]
    pub languages: BTreeMap<String, LanguageLimits>,
}

/// Per-language overrides of the problem's limits.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct LanguageLimits {
    /// Seconds of CPU time.
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// MiB.
    #[serde(default)]
    pub memory_limit: Option<u64>,
}

/// One `[[tests]]` group: `count` tests from one generator with fixed parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GroupDecl {
    pub name: String,
    pub generator: String,
    pub count: u32,
    #[serde(default, deserialize_with = "params")]
    pub params: GenParams,
}

fn params<'de, D: serde::Deserializer<'de>>(d: D) -> Result<GenParams, D::Error> {
    BTreeMap::<String, i64>::deserialize(d).map(GenParams)
}

/// Time limits outside this range make no sense: below it process start-up alone exceeds
/// the limit (every test TLE), above it a test set takes hours.
pub const TIME_LIMIT_SECONDS: (f64, f64) = (0.05, 60.0);
/// Memory limits outside this range (MiB) make no sense: below it no runtime starts.
pub const MEMORY_LIMIT_MIB: (u64, u64) = (4, 65536);
/// Output limits (MiB).
pub const OUTPUT_LIMIT_MIB: (u64, u64) = (1, 1024);

fn check_time(key: &str, t: f64) -> Result<(), String> {
    let (lo, hi) = TIME_LIMIT_SECONDS;
    if t.is_finite() && (lo..=hi).contains(&t) {
        Ok(())
    } else {
        Err(format!(
            "{key} = {t} makes no sense: expected {lo} to {hi} seconds of CPU time per test"
        ))
    }
}

fn check_mib(key: &str, m: u64, (lo, hi): (u64, u64)) -> Result<(), String> {
    if (lo..=hi).contains(&m) {
        Ok(())
    } else {
        Err(format!(
            "{key} = {m} makes no sense: expected {lo} to {hi} MiB"
        ))
    }
}

impl RawLimits {
    pub fn into_limits(self) -> Result<ProblemLimits, String> {
        check_time("limits.time-limit", self.time_limit)?;
        check_mib("limits.memory-limit", self.memory_limit, MEMORY_LIMIT_MIB)?;
        let output_mib = self.output_limit.unwrap_or(8);
        check_mib("limits.output-limit", output_mib, OUTPUT_LIMIT_MIB)?;
        for (lang, over) in &self.languages {
            if crate::compile::Language::named(lang).is_none() {
                return Err(format!(
                    "limits.languages.{lang}: unknown language (known: {})",
                    crate::compile::Language::id_list()
                ));
            }
            if let Some(t) = over.time_limit {
                check_time(&format!("limits.languages.{lang}.time-limit"), t)?;
            }
            if let Some(m) = over.memory_limit {
                let key = format!("limits.languages.{lang}.memory-limit");
                check_mib(&key, m, MEMORY_LIMIT_MIB)?;
            }
        }
        Ok(ProblemLimits {
            time: Duration::from_secs_f64(self.time_limit),
            memory_mib: self.memory_limit,
            output_mib,
            processes: 1,
            languages: self.languages,
        })
    }
}

/// Checks the test plan against the problem's generators: known names and parameters,
/// unique kebab-case group names, counts in range.
pub(super) fn check_groups(groups: &[GroupDecl], logic: &dyn Problem) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for g in groups {
        let kebab = !g.name.is_empty()
            && g.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !kebab {
            return Err(format!(
                "test group name `{}` must be kebab-case (a-z, 0-9, -)",
                g.name
            ));
        }
        if g.name == "sample" || g.name == "secret" || !seen.insert(g.name.as_str()) {
            return Err(format!(
                "test group name `{}` is used twice or reserved",
                g.name
            ));
        }
        if !(1..=1000).contains(&g.count) {
            return Err(format!(
                "test group `{}`: count must be 1..=1000, found {}",
                g.name, g.count
            ));
        }
        let Some(spec) = logic.generators().iter().find(|s| s.name == g.generator) else {
            let known: Vec<_> = logic.generators().iter().map(|s| s.name).collect();
            return Err(format!(
                "test group `{}`: unknown generator `{}` (known: {})",
                g.name,
                g.generator,
                known.join(", ")
            ));
        };
        if let Some(bad) = g
            .params
            .0
            .keys()
            .find(|k| !spec.params.contains(&k.as_str()))
        {
            return Err(format!(
                "test group `{}`: generator `{}` has no parameter `{bad}` (parameters: {})",
                g.name,
                g.generator,
                if spec.params.is_empty() {
                    "none".to_string()
                } else {
                    spec.params.join(", ")
                }
            ));
        }
    }
    Ok(())
}

/// Dotted paths of keys that the schema does not know.
pub(super) fn unknown_keys(table: &toml::Table) -> Vec<String> {
    let mut out = Vec::new();
    let known = |keys: &[&str], t: &toml::Table, prefix: &str, out: &mut Vec<String>| {
        for k in t.keys() {
            if !keys.contains(&k.as_str()) {
                out.push(format!("{prefix}{k}"));
            }
        }
    };
    known(
        &["title", "logic", "limits", "tests", "subtasks"],
        table,
        "",
        &mut out,
    );
    if let Some(toml::Value::Table(limits)) = table.get("limits") {
        known(
            &["time-limit", "memory-limit", "output-limit", "languages"],
            limits,
            "limits.",
            &mut out,
        );
        if let Some(toml::Value::Table(langs)) = limits.get("languages") {
            for (lang, v) in langs {
                if let toml::Value::Table(t) = v {
                    let prefix = format!("limits.languages.{lang}.");
                    known(&["time-limit", "memory-limit"], t, &prefix, &mut out);
                }
            }
        }
    }
    if let Some(toml::Value::Array(groups)) = table.get("tests") {
        for (i, g) in groups.iter().enumerate() {
            if let toml::Value::Table(t) = g {
                let prefix = format!("tests[{i}].");
                known(
                    &["name", "generator", "count", "params"],
                    t,
                    &prefix,
                    &mut out,
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_listed_with_their_path() {
        let t: toml::Table = toml::from_str(
            "title = 'x'\ncolour = 1\n[limits]\ntime-limit = 1.0\nmemory-limit = 64\ntimelimit = 2\n\
             [[tests]]\nname = 'a'\ngenerator = 'g'\ncount = 1\nseed = 3\n",
        )
        .unwrap();
        assert_eq!(
            unknown_keys(&t),
            vec!["colour", "limits.timelimit", "tests[0].seed"]
        );
    }

    fn raw(time_limit: f64, memory_limit: u64) -> RawLimits {
        RawLimits {
            time_limit,
            memory_limit,
            output_limit: None,
            languages: BTreeMap::new(),
        }
    }

    #[test]
    fn limits_that_make_no_sense_name_their_key() {
        for t in [0.0, 1e-9, -1.0, f64::NAN, f64::INFINITY, 1e9] {
            let e = raw(t, 64).into_limits().unwrap_err();
            assert!(e.starts_with("limits.time-limit = "), "{t}: {e}");
            assert!(e.contains("makes no sense"), "{e}");
        }
        for m in [0, 1, 1 << 40] {
            let e = raw(1.0, m).into_limits().unwrap_err();
            assert!(e.starts_with("limits.memory-limit = "), "{m}: {e}");
        }
        let mut r = raw(1.0, 64);
        r.languages.insert(
            "python".into(),
            LanguageLimits {
                time_limit: Some(0.001),
                memory_limit: None,
            },
        );
        let e = r.into_limits().unwrap_err();
        assert!(
            e.starts_with("limits.languages.python.time-limit = 0.001"),
            "{e}"
        );
        assert!(raw(0.05, 4).into_limits().is_ok());
        assert!(raw(60.0, 65536).into_limits().is_ok());
    }
}
