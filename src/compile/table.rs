//! The language table: per language, how to compile and how to run.
//!
//! The default is `languages.toml` at the repository root, built in with `include_str!`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::language::Language;

const DEFAULT_TABLE: &str = include_str!("../../languages.toml");

/// Where the built-in table is said to come from in error messages.
const BUILTIN_ORIGIN: &str = "built-in languages.toml";

/// Placeholders allowed in `compile` and `run`.
const COMMAND_PLACEHOLDERS: &[&str] = &["source", "binary", "dir", "memory_mib", "main_class"];
/// Placeholders allowed in `runtime_dirs`.
const RUNTIME_PLACEHOLDERS: &[&str] = &["runtime_prefix", "runtime_name"];

/// How one language is compiled and run. Validated: `run` is non-empty and its argv[0] is
/// absolute or a placeholder; `compile`, if present, is non-empty; only known placeholders
/// appear.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageSpec {
    /// Compile argv template; `None` means the source is only copied into the cache.
    #[serde(default)]
    pub compile: Option<Vec<String>>,
    /// Extra environment for the (trusted) compiler, on top of judge's own.
    #[serde(default)]
    pub compile_env: BTreeMap<String, String>,
    /// Whether the compiler's address space is limited to the compile memory limit.
    #[serde(default = "default_true")]
    pub compile_rlimit_as: bool,
    /// Run argv template.
    pub run: Vec<String>,
    /// The complete environment of the contestant program.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Processes/threads the program needs at least.
    #[serde(default = "default_processes")]
    pub processes: u32,
    /// Directory templates the run must be able to read.
    #[serde(default)]
    pub runtime_dirs: Vec<String>,
    /// Stderr markers with which the runtime reports running out of memory (MLE, not RE).
    #[serde(default)]
    pub out_of_memory: Vec<String>,
    /// Headers (as written in `#include <...>`) that GCC-style C and C++ compilers get
    /// precompiled: built once per compile command and compiler into a cache entry of their
    /// own, passed to submissions that mention them with `-I` (see `super::pch`).
    #[serde(default)]
    pub precompiled_headers: Vec<String>,
    /// The Debian package that brings the compiler and the runtime (what `judge doctor`
    /// tells to install when one is missing); informational only.
    #[serde(default)]
    pub package: Option<String>,
}

fn default_true() -> bool {
    true
}

fn default_processes() -> u32 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    c: Option<LanguageSpec>,
    cpp: Option<LanguageSpec>,
    rust: Option<LanguageSpec>,
    python: Option<LanguageSpec>,
    java: Option<LanguageSpec>,
}

impl TableFile {
    fn into_entries(self) -> [(Language, Option<LanguageSpec>); 5] {
        [
            (Language::C, self.c),
            (Language::Cpp, self.cpp),
            (Language::Rust, self.rust),
            (Language::Python, self.python),
            (Language::Java, self.java),
        ]
    }
}

/// The language table could not be loaded. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot read language table `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid language table {origin}: {message}")]
    Invalid { origin: String, message: String },
}

/// Compile and run templates for every [`Language`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageTable {
    specs: BTreeMap<Language, LanguageSpec>,
}

impl LanguageTable {
    /// The built-in table, with the languages listed in `override_file` (if any) replacing
    /// the built-in entries wholesale. Parsing is strict: unknown languages or keys, bad
    /// placeholders or a relative run program are errors naming the file.
    pub fn load(override_file: Option<&Path>) -> Result<LanguageTable, TableError> {
        let builtin = parse(DEFAULT_TABLE, BUILTIN_ORIGIN)?;
        let mut specs = BTreeMap::new();
        for (lang, spec) in builtin.into_entries() {
            let spec = spec.ok_or_else(|| TableError::Invalid {
                origin: BUILTIN_ORIGIN.to_string(),
                message: format!("no entry for {lang}"),
            })?;
            specs.insert(lang, spec);
        }
        if let Some(path) = override_file {
            let text = std::fs::read_to_string(path).map_err(|source| TableError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            let origin = format!("`{}`", path.display());
            for (lang, spec) in parse(&text, &origin)?.into_entries() {
                if let Some(spec) = spec {
                    specs.insert(lang, spec);
                }
            }
        }
        Ok(LanguageTable { specs })
    }

    /// The built-in table. It is checked by a unit test, so this cannot fail in a tested
    /// build; the `Result` keeps a broken edit from panicking anyway.
    pub fn builtin() -> Result<LanguageTable, TableError> {
        LanguageTable::load(None)
    }

    /// The entry for `language` (every language has one).
    pub fn spec(&self, language: Language) -> &LanguageSpec {
        // `load` inserts all of Language::ALL, and the map is never mutated afterwards.
        &self.specs[&language]
    }
}

fn parse(text: &str, origin: &str) -> Result<TableFile, TableError> {
    let invalid = |message: String| TableError::Invalid {
        origin: origin.to_string(),
        message,
    };
    let file: TableFile = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
    let TableFile {
        c,
        cpp,
        rust,
        python,
        java,
    } = &file;
    let entries = [
        (Language::C, c),
        (Language::Cpp, cpp),
        (Language::Rust, rust),
        (Language::Python, python),
        (Language::Java, java),
    ];
    for (lang, spec) in entries {
        if let Some(spec) = spec {
            validate(lang, spec).map_err(invalid)?;
        }
    }
    Ok(file)
}

fn validate(lang: Language, spec: &LanguageSpec) -> Result<(), String> {
    if let Some(compile) = &spec.compile {
        if compile.first().is_none_or(|p| p.is_empty()) {
            return Err(format!("{lang}.compile has no program"));
        }
        check_placeholders(compile, COMMAND_PLACEHOLDERS, &format!("{lang}.compile"))?;
    }
    match spec.run.first() {
        None => return Err(format!("{lang}.run has no program")),
        Some(p) if !(p.starts_with('/') || p.starts_with('{')) => {
            return Err(format!(
                "{lang}.run program `{p}` must be an absolute path or start with a placeholder \
                 such as {{binary}}: the sandbox does not search PATH"
            ))
        }
        Some(_) => {}
    }
    check_placeholders(&spec.run, COMMAND_PLACEHOLDERS, &format!("{lang}.run"))?;
    check_placeholders(
        &spec.runtime_dirs,
        RUNTIME_PLACEHOLDERS,
        &format!("{lang}.runtime_dirs"),
    )?;
    if spec.processes == 0 {
        return Err(format!("{lang}.processes must be at least 1"));
    }
    validate_precompiled_headers(lang, spec)
}

/// `precompiled_headers` needs a GCC-style C or C++ compile command whose `{source}` is a whole
/// argument (it becomes `-c -x c++-header WRAPPER ...`), and plain relative header names
/// (they are written into `#include <...>` and used as paths inside the cache entry).
fn validate_precompiled_headers(lang: Language, spec: &LanguageSpec) -> Result<(), String> {
    if spec.precompiled_headers.is_empty() {
        return Ok(());
    }
    let what = format!("{lang}.precompiled_headers");
    if !matches!(lang, Language::C | Language::Cpp) {
        return Err(format!(
            "{what}: only C and C++ (GCC-style compilers) have precompiled headers"
        ));
    }
    let Some(compile) = &spec.compile else {
        return Err(format!("{what} needs a compile command"));
    };
    if !compile.iter().any(|a| a == "{source}") {
        return Err(format!(
            "{what} needs `{{source}}` as a whole argument of {lang}.compile"
        ));
    }
    for header in &spec.precompiled_headers {
        let plain = !header.is_empty()
            && header.len() <= 200
            && header
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_+-./".contains(&b))
            && header
                .split('/')
                .all(|c| !c.is_empty() && c != "." && c != "..");
        if !plain {
            return Err(format!(
                "{what}: `{header}` is not a relative header name such as bits/stdc++.h \
                 (letters, digits, `_+-./`, no `.` or `..` components)"
            ));
        }
    }
    Ok(())
}

fn check_placeholders(args: &[String], allowed: &[&str], what: &str) -> Result<(), String> {
    for arg in args {
        for name in placeholders(arg) {
            if !allowed.contains(&name) {
                return Err(format!(
                    "unknown placeholder `{{{name}}}` in {what} (allowed: {})",
                    allowed
                        .iter()
                        .map(|a| format!("{{{a}}}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// The `{name}` placeholders in `arg` (name: ASCII lowercase letters and `_`). Other braces
/// are literal text.
fn placeholders(arg: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find('}') {
            let name = &rest[..close];
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                found.push(name);
                rest = &rest[close + 1..];
            }
        }
    }
    found
}

/// Replaces every `{name}` in `arg` whose name is in `values`.
pub(crate) fn expand(arg: &str, values: &[(&str, &str)]) -> String {
    let mut out = arg.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses_with_expected_defaults() {
        let t = LanguageTable::load(None).unwrap();
        let c = t.spec(Language::C);
        assert_eq!(
            c.compile.as_deref().unwrap()[..3],
            ["gcc", "-O2", "-std=gnu17"].map(String::from)
        );
        assert_eq!(c.run, vec!["{binary}"]);
        assert!(t.spec(Language::Java).processes >= 64);
        assert!(!t.spec(Language::Java).compile_rlimit_as);
        assert!(t.spec(Language::Rust).compile_rlimit_as);
        assert_eq!(t.spec(Language::Python).run[0], "/usr/bin/python3");
        assert_eq!(t.spec(Language::Cpp).precompiled_headers, ["bits/stdc++.h"]);
        assert!(t.spec(Language::C).precompiled_headers.is_empty());
    }

    #[test]
    fn unknown_key_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("langs.toml");
        std::fs::write(&path, "[c]\nrun = [\"{binary}\"]\ncompiler = [\"cc\"]\n").unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(msg.contains("langs.toml"), "{msg}");
        assert!(msg.contains("compiler"), "{msg}");

        std::fs::write(&path, "[go]\nrun = [\"/usr/bin/go\"]\n").unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(msg.contains("langs.toml") && msg.contains("go"), "{msg}");
    }

    #[test]
    fn override_file_replaces_only_listed_languages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("langs.toml");
        std::fs::write(
            &path,
            "[c]\ncompile = [\"clang\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\n",
        )
        .unwrap();
        let t = LanguageTable::load(Some(&path)).unwrap();
        assert_eq!(t.spec(Language::C).compile.as_ref().unwrap()[0], "clang");
        assert_eq!(t.spec(Language::C).processes, 1);
        let builtin = LanguageTable::load(None).unwrap();
        assert_eq!(t.spec(Language::Cpp), builtin.spec(Language::Cpp));
    }

    #[test]
    fn bad_templates_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        for (body, needle) in [
            ("[c]\nrun = [\"{binary}\", \"{bogus}\"]\n", "{bogus}"),
            ("[python]\nrun = [\"python3\", \"{source}\"]\n", "absolute"),
            ("[c]\nrun = []\n", "no program"),
            ("[c]\ncompile = []\nrun = [\"{binary}\"]\n", "no program"),
            ("[c]\nrun = [\"{binary}\"]\nprocesses = 0\n", "processes"),
            ("[c]\nrun = [\"{binary}\"\n", "t.toml"),
            (
                "[python]\nrun = [\"/bin/cat\"]\nprecompiled_headers = [\"a.h\"]\n",
                "only C and C++",
            ),
            (
                "[c]\nrun = [\"{binary}\"]\nprecompiled_headers = [\"a.h\"]\n",
                "needs a compile command",
            ),
            (
                "[c]\ncompile = [\"gcc\", \"-o{binary}\", \"-x{source}\"]\nrun = [\"{binary}\"]\nprecompiled_headers = [\"a.h\"]\n",
                "whole argument",
            ),
        ] {
            std::fs::write(&path, body).unwrap();
            let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
            assert!(
                msg.contains(needle) && msg.contains("t.toml"),
                "{body}: {msg}"
            );
        }
        for header in [
            "",
            "/usr/include/a.h",
            "../a.h",
            "bits//a.h",
            "a.h>",
            "a b.h",
            "./a.h",
        ] {
            std::fs::write(
                &path,
                format!(
                    "[cpp]\ncompile = [\"g++\", \"{{source}}\"]\nrun = [\"{{binary}}\"]\nprecompiled_headers = [\"{header}\"]\n"
                ),
            )
            .unwrap();
            let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
            assert!(
                msg.contains("not a relative header name"),
                "{header}: {msg}"
            );
        }
        let err = LanguageTable::load(Some(&dir.path().join("missing.toml"))).unwrap_err();
        assert!(matches!(err, TableError::Read { .. }));
        assert!(err.to_string().contains("missing.toml"));
    }

    #[test]
    fn placeholder_scanning_and_expansion() {
        assert_eq!(placeholders("-Xmx{memory_mib}m"), vec!["memory_mib"]);
        assert_eq!(placeholders("{a}{b_c}"), vec!["a", "b_c"]);
        assert!(placeholders("{}{ X }{").is_empty());
        assert_eq!(
            expand("-Xmx{memory_mib}m", &[("memory_mib", "256")]),
            "-Xmx256m"
        );
        assert_eq!(expand("{dir}/{dir}", &[("dir", "/d")]), "/d//d");
    }
}
