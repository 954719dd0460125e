//! The language table: per language, how to compile and how to run.
//!
//! The default is `languages.toml` at the repository root, built in with `include_str!`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::language::{Definition, Language};

const DEFAULT_TABLE: &str = include_str!("../../languages.toml");

/// Where the built-in table is said to come from in error messages.
const BUILTIN_ORIGIN: &str = "built-in languages.toml";

/// Placeholders allowed in `compile` and `run`.
const COMMAND_PLACEHOLDERS: &[&str] = &["source", "binary", "dir", "memory_mib", "main_class"];
/// Placeholders allowed in `compile` only: the language standard (see `standards`).
const COMPILE_ONLY_PLACEHOLDERS: &[&str] = &["standard"];
/// Placeholders allowed in `run` and `runtime_dirs`: the compiler's install tree, expanded
/// when the table is loaded.
const LOAD_PLACEHOLDERS: &[&str] = &["compiler_home"];
/// Placeholders allowed in `compile_env` values: the build folder (the cache entry to be) and
/// the compiler's own scratch folder (also its `TMPDIR`), removed after the compile.
const COMPILE_ENV_PLACEHOLDERS: &[&str] = &["dir", "tmp"];
/// The ways of finding the class a JVM starts (`main_class`).
const MAIN_CLASS_RULES: &[&str] = &["java", "kotlin", "scala"];
/// Placeholders allowed in `runtime_dirs`.
const RUNTIME_PLACEHOLDERS: &[&str] = &["runtime_prefix", "runtime_name", "compiler_home"];

/// How one language is compiled and run. Validated: `run` is non-empty and its argv[0] is
/// absolute or a placeholder; `compile`, if present, is non-empty; only known placeholders
/// appear.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageSpec {
    /// The language's human name (`C++`); required in the built-in table.
    #[serde(default)]
    pub name: Option<String>,
    /// File extensions (without the dot) that denote the language; the first is given to the
    /// compiled copy of the source. Built-in table only (an override may repeat them).
    #[serde(default)]
    pub extensions: Vec<String>,
    /// A `#!` first line containing this word means the file is not in this language.
    #[serde(default)]
    pub not_shebang: Option<String>,
    /// The language's code in the problem package format (`python3`, as a package's
    /// `include/python3/` names it); default: the id. Built-in table only.
    #[serde(default)]
    pub code: Option<String>,
    /// How `{main_class}` is found in the source: `java` (the public class, named file),
    /// `kotlin` (the file's facade class `SolutionKt`), `scala` (the object with `main`).
    #[serde(default)]
    pub main_class: Option<String>,
    /// Compile argv template; `None` means the source is only copied into the cache.
    #[serde(default)]
    pub compile: Option<Vec<String>>,
    /// Extra environment for the compiler.
    #[serde(default)]
    pub compile_env: BTreeMap<String, String>,
    /// Absolute folders the compiler reads besides the system folders and its install tree.
    #[serde(default)]
    pub compile_dirs: Vec<String>,
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
    /// The arguments that make the compiler print its version, for `judge doctor` (default:
    /// `--version`, then `-version`).
    #[serde(default)]
    pub version: Option<Vec<String>>,
    /// The Debian package that brings the compiler and the runtime (what `judge doctor`
    /// tells to install when one is missing); informational only.
    #[serde(default)]
    pub package: Option<String>,
    /// Another language of the table whose compile and run this one takes where its own run
    /// program is not installed (`python` is PyPy3, else CPython's `cpython`).
    #[serde(default)]
    pub fallback: Option<String>,
    /// Language standards, newest first: `{standard}` in `compile` is the first one the
    /// compiler accepts (GCC-style compilers: probed once per compiler, see `toolchain`).
    #[serde(default)]
    pub standards: Vec<String>,
    /// Folders searched for compile argv[0] before `PATH` (where a current compiler is
    /// installed off `PATH`, as npm's `kotlin-compiler`).
    #[serde(default)]
    pub compiler_dirs: Vec<String>,
    /// Set when the table is loaded: a one-line note on why this entry is not the table's
    /// own (its fallback was taken).
    #[serde(skip)]
    pub note: Option<String>,
}

fn default_true() -> bool {
    true
}

fn default_processes() -> u32 {
    1
}

/// A table file: its languages in the file's order.
#[derive(Debug)]
struct TableFile(Vec<(String, LanguageSpec)>);

impl<'de> Deserialize<'de> for TableFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = TableFile;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table of languages")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TableFile, A::Error> {
                let mut out = Vec::new();
                while let Some((id, spec)) = map.next_entry::<String, LanguageSpec>()? {
                    out.push((id, spec));
                }
                Ok(TableFile(out))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// The identity of every language of the built-in table, in its order (for [`Language`]).
pub(super) fn builtin_definitions() -> Result<Vec<Definition>, TableError> {
    let mut file = parse(DEFAULT_TABLE, BUILTIN_ORIGIN)?;
    // The toml parser hands the tables over sorted by name; the file's order is the one
    // users see (C, C++, ... as the table lists them).
    file.0.sort_by_key(|(id, _)| {
        DEFAULT_TABLE
            .find(&format!("\n[{id}]\n"))
            .unwrap_or(usize::MAX)
    });
    Ok(file
        .0
        .into_iter()
        .map(|(id, spec)| Definition {
            name: spec.name.unwrap_or_else(|| id.clone()),
            extensions: spec
                .extensions
                .iter()
                .map(|e| e.to_ascii_lowercase())
                .collect(),
            not_shebang: spec.not_shebang,
            code: spec.code.unwrap_or_else(|| id.clone()),
            id,
        })
        .collect())
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
        validate_builtin(&builtin).map_err(|message| TableError::Invalid {
            origin: BUILTIN_ORIGIN.to_string(),
            message,
        })?;
        let mut specs = BTreeMap::new();
        for (id, spec) in builtin.0 {
            let lang = Language::named(&id).ok_or_else(|| TableError::Invalid {
                origin: BUILTIN_ORIGIN.to_string(),
                message: format!("`{id}` is not among the languages judge read at start-up"),
            })?;
            specs.insert(lang, spec);
        }
        if let Some(path) = override_file {
            let text = std::fs::read_to_string(path).map_err(|source| TableError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            if super::contest_table::is_yaml(path) {
                apply_yaml(&mut specs, &text, path)?;
            } else {
                apply_toml(&mut specs, &text, path)?;
            }
        }
        super::toolchain::settle_installed(&mut specs).map_err(|message| TableError::Invalid {
            origin: override_file
                .map_or(BUILTIN_ORIGIN.to_string(), |p| format!("`{}`", p.display())),
            message,
        })?;
        Ok(LanguageTable { specs })
    }

    /// The table a package is graded with: `given` (`--languages`), else a `languages.yaml`
    /// beside the package or in its contest folder (with a note naming it), else the
    /// built-in one.
    pub fn for_package(
        given: Option<&Path>,
        package_dir: &Path,
    ) -> Result<LanguageTable, TableError> {
        let found = match given {
            Some(_) => None,
            None => super::contest_table::beside_package(package_dir),
        };
        if let Some(found) = &found {
            super::toolchain::say_once(format!("note: languages from {}", found.display()));
        }
        LanguageTable::load(given.or(found.as_deref()))
    }

    /// The built-in table. It is checked by a unit test, so this cannot fail in a tested
    /// build; the `Result` keeps a broken edit from panicking anyway.
    pub fn builtin() -> Result<LanguageTable, TableError> {
        LanguageTable::load(None)
    }

    /// The entry for `language` (every language has one).
    pub fn spec(&self, language: Language) -> &LanguageSpec {
        // `load` inserts every language of the built-in table, and the map is never mutated
        // afterwards.
        &self.specs[&language]
    }
}

/// The languages of a table file in judge's form replace the built-in entries wholesale.
fn apply_toml(
    specs: &mut BTreeMap<Language, LanguageSpec>,
    text: &str,
    path: &Path,
) -> Result<(), TableError> {
    let origin = format!("`{}`", path.display());
    let invalid = |message: String| TableError::Invalid {
        origin: origin.clone(),
        message,
    };
    for (id, mut spec) in parse(text, &origin)?.0 {
        let Some(lang) = Language::named(&id) else {
            return Err(invalid(format!(
                "unknown language `{id}` (a language table may change these: {}; \
                 a new language is added to the built-in languages.toml)",
                Language::id_list()
            )));
        };
        let builtin = &specs[&lang];
        for (key, same) in [
            ("name", spec.name.is_none() || spec.name == builtin.name),
            (
                "extensions",
                spec.extensions.is_empty() || spec.extensions == builtin.extensions,
            ),
            (
                "not_shebang",
                spec.not_shebang.is_none() || spec.not_shebang == builtin.not_shebang,
            ),
            ("code", spec.code.is_none() || spec.code == builtin.code),
        ] {
            if !same {
                return Err(invalid(format!(
                    "{id}.{key} differs from the built-in table's: how a language is \
                     named and recognised is fixed when judge is built"
                )));
            }
        }
        spec.name.clone_from(&builtin.name);
        spec.extensions.clone_from(&builtin.extensions);
        spec.not_shebang.clone_from(&builtin.not_shebang);
        spec.code.clone_from(&builtin.code);
        specs.insert(lang, spec);
    }
    Ok(())
}

/// The languages of a table in problemtools' `languages.yaml` form replace the compile and
/// run of the languages they map onto (see `super::contest_table`); entries judge has no
/// language for are named in one warning.
fn apply_yaml(
    specs: &mut BTreeMap<Language, LanguageSpec>,
    text: &str,
    path: &Path,
) -> Result<(), TableError> {
    let origin = format!("`{}`", path.display());
    let invalid = |message: String| TableError::Invalid {
        origin: origin.clone(),
        message,
    };
    let (mapped, left_out) = super::contest_table::read(text, specs).map_err(invalid)?;
    for (language, spec) in mapped {
        validate(language.id(), &spec).map_err(invalid)?;
        specs.insert(language, spec);
    }
    if !left_out.is_empty() {
        super::toolchain::say_once(format!(
            "warning: {}: no judge language for {}: left out",
            path.display(),
            left_out.join(", ")
        ));
    }
    Ok(())
}

fn parse(text: &str, origin: &str) -> Result<TableFile, TableError> {
    let invalid = |message: String| TableError::Invalid {
        origin: origin.to_string(),
        message,
    };
    let file: TableFile = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
    for (id, spec) in &file.0 {
        validate(id, spec).map_err(invalid)?;
    }
    Ok(file)
}

/// What only the built-in table must satisfy: ids of the form `[a-z][a-z0-9]*`, a name for
/// each, and no extension claimed by two languages.
fn validate_builtin(file: &TableFile) -> Result<(), String> {
    let mut claimed: BTreeMap<String, &str> = BTreeMap::new();
    for (id, spec) in &file.0 {
        let well_formed = id.starts_with(|c: char| c.is_ascii_lowercase())
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !well_formed {
            return Err(format!(
                "language id `{id}` is not lower-case letters and digits"
            ));
        }
        if spec.name.is_none() {
            return Err(format!("{id}.name is missing"));
        }
        for ext in &spec.extensions {
            let ext = ext.to_ascii_lowercase();
            if ext.is_empty() || ext.starts_with('.') {
                return Err(format!(
                    "{id}.extensions: `{ext}` (give it without the dot)"
                ));
            }
            if let Some(other) = claimed.insert(ext.clone(), id) {
                return Err(format!(
                    "extension `{ext}` is claimed by both {other} and {id}"
                ));
            }
        }
    }
    Ok(())
}

fn validate(lang: &str, spec: &LanguageSpec) -> Result<(), String> {
    if let Some(bad) = spec
        .compile
        .iter()
        .flatten()
        .find(|a| a.contains("{files}") && *a != "{files}")
    {
        return Err(format!(
            "{lang}.compile: `{bad}`: {{files}} must be a whole argument (it becomes several)"
        ));
    }
    if spec.run.iter().any(|a| a.contains("{files}")) {
        return Err(format!("{lang}.run: {{files}} is for compile only"));
    }
    if let Some(compile) = &spec.compile {
        if compile.first().is_none_or(|p| p.is_empty()) {
            return Err(format!("{lang}.compile has no program"));
        }
        let compile_args: Vec<String> = compile
            .iter()
            .filter(|a| *a != "{files}")
            .cloned()
            .collect();
        let allowed = [COMMAND_PLACEHOLDERS, COMPILE_ONLY_PLACEHOLDERS].concat();
        check_placeholders(&compile_args, &allowed, &format!("{lang}.compile"))?;
        let uses_standard = compile_args.iter().any(|a| a.contains("{standard}"));
        if uses_standard == spec.standards.is_empty() {
            return Err(format!(
                "{lang}: `standards` and `{{standard}}` in {lang}.compile go together"
            ));
        }
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
    let allowed = [COMMAND_PLACEHOLDERS, LOAD_PLACEHOLDERS].concat();
    check_placeholders(&spec.run, &allowed, &format!("{lang}.run"))?;
    check_placeholders(
        &spec.runtime_dirs,
        RUNTIME_PLACEHOLDERS,
        &format!("{lang}.runtime_dirs"),
    )?;
    if let Some(dir) = spec.compile_dirs.iter().find(|d| !d.starts_with('/')) {
        return Err(format!(
            "{lang}.compile_dirs: `{dir}` is not an absolute path"
        ));
    }
    let env_values: Vec<String> = spec.compile_env.values().cloned().collect();
    check_placeholders(
        &env_values,
        COMPILE_ENV_PLACEHOLDERS,
        &format!("{lang}.compile_env"),
    )?;
    if spec.processes == 0 {
        return Err(format!("{lang}.processes must be at least 1"));
    }
    if let Some(rule) = &spec.main_class {
        if !MAIN_CLASS_RULES.contains(&rule.as_str()) {
            return Err(format!(
                "{lang}.main_class: `{rule}` is not one of {}",
                MAIN_CLASS_RULES.join(", ")
            ));
        }
    }
    validate_precompiled_headers(lang, spec)
}

/// `precompiled_headers` needs a GCC-style C or C++ compile command whose `{source}` (or `{files}`) is a whole
/// argument (it becomes `-c -x c++-header WRAPPER ...`), and plain relative header names
/// (they are written into `#include <...>` and used as paths inside the cache entry).
fn validate_precompiled_headers(lang: &str, spec: &LanguageSpec) -> Result<(), String> {
    if spec.precompiled_headers.is_empty() {
        return Ok(());
    }
    let what = format!("{lang}.precompiled_headers");
    if !matches!(lang, "c" | "cpp") {
        return Err(format!(
            "{what}: only C and C++ (GCC-style compilers) have precompiled headers"
        ));
    }
    let Some(compile) = &spec.compile else {
        return Err(format!("{what} needs a compile command"));
    };
    if !compile.iter().any(|a| a == "{source}" || a == "{files}") {
        return Err(format!(
            "{what} needs `{{source}}` or `{{files}}` as a whole argument of {lang}.compile"
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
    use crate::compile::language::lang;

    #[test]
    fn builtin_table_parses_with_expected_defaults() {
        let t = LanguageTable::load(None).unwrap();
        let c = t.spec(lang("c"));
        assert_eq!(
            c.compile.as_deref().unwrap()[..3],
            ["gcc", "-O2", "-std=gnu17"].map(String::from)
        );
        assert_eq!(c.run, vec!["{binary}"]);
        assert!(t.spec(lang("java")).processes >= 64);
        assert!(!t.spec(lang("java")).compile_rlimit_as);
        assert!(t.spec(lang("rust")).compile_rlimit_as);
        // PyPy3 where it is installed, else CPython's entry (with a note).
        let python = t.spec(lang("python"));
        match std::path::Path::new("/usr/bin/pypy3").exists() {
            true => assert_eq!(
                (python.run[0].as_str(), &python.note),
                ("/usr/bin/pypy3", &None)
            ),
            false => assert_eq!(
                *python,
                t.spec(lang("cpython")).clone_with_note(&python.note)
            ),
        }
        assert!(!python.run.contains(&"-S".to_string()));
        assert_eq!(t.spec(lang("cpython")).run[0], "/usr/bin/python3");
        assert_eq!(t.spec(lang("cpp")).standards[0], "gnu++23");
        assert_eq!(t.spec(lang("cpp")).precompiled_headers, ["bits/stdc++.h"]);
        assert!(t.spec(lang("c")).precompiled_headers.is_empty());
        // Every language names the Debian package that brings it, and a runtime that starts
        // threads is given room for them.
        for l in Language::all() {
            assert!(t.spec(l).package.is_some(), "{l}");
        }
        for id in [
            "java",
            "kotlin",
            "scala",
            "csharp",
            "go",
            "javascript",
            "haskell",
        ] {
            assert!(t.spec(lang(id)).processes > 1, "{id}");
        }
        assert!(t
            .spec(lang("prolog"))
            .compile
            .as_ref()
            .unwrap()
            .contains(&"{files}".to_string()));
    }

    #[test]
    fn builtin_table_rules() {
        let bad = |body: &str| {
            let file = parse(body, "x").unwrap();
            validate_builtin(&file).unwrap_err()
        };
        assert!(bad("[a]\nname = \"A\"\nextensions = [\"x\"]\nrun = [\"/a\"]\n[b]\nname = \"B\"\nextensions = [\"X\"]\nrun = [\"/b\"]\n").contains("claimed by both a and b"));
        assert!(bad("[a]\nrun = [\"/a\"]\n").contains("a.name"));
        assert!(bad("[A1]\nname = \"A\"\nrun = [\"/a\"]\n").contains("`A1`"));
        for (body, needle) in [
            (
                "[c]\ncompile = [\"cc\", \"x{files}\"]\nrun = [\"{binary}\"]\n",
                "whole argument",
            ),
            ("[c]\nrun = [\"{binary}\", \"{files}\"]\n", "compile only"),
            (
                "[c]\nrun = [\"{binary}\"]\nmain_class = \"cobol\"\n",
                "main_class",
            ),
            (
                "[c]\nrun = [\"{binary}\"]\ncompile_env = { X = \"{source}\" }\n",
                "compile_env",
            ),
        ] {
            let err = parse(body, "t").unwrap_err().to_string();
            assert!(err.contains(needle), "{body}: {err}");
        }
    }

    #[test]
    fn unknown_key_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("langs.toml");
        std::fs::write(&path, "[c]\nrun = [\"{binary}\"]\ncompiler = [\"cc\"]\n").unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(msg.contains("langs.toml"), "{msg}");
        assert!(msg.contains("compiler"), "{msg}");

        std::fs::write(&path, "[cobol]\nrun = [\"/usr/bin/cobc\"]\n").unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(msg.contains("langs.toml") && msg.contains("cobol"), "{msg}");
        assert!(msg.contains("unknown language"), "{msg}");

        // How a language is recognised is the built-in table's.
        std::fs::write(
            &path,
            "[go]\nextensions = [\"golang\"]\ncompile = [\"go\", \"build\"]\nrun = [\"{binary}\"]\n",
        )
        .unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(msg.contains("go.extensions"), "{msg}");
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
        assert_eq!(t.spec(lang("c")).compile.as_ref().unwrap()[0], "clang");
        assert_eq!(t.spec(lang("c")).processes, 1);
        let builtin = LanguageTable::load(None).unwrap();
        assert_eq!(t.spec(lang("cpp")), builtin.spec(lang("cpp")));
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

    impl LanguageSpec {
        fn clone_with_note(&self, note: &Option<String>) -> LanguageSpec {
            LanguageSpec {
                note: note.clone(),
                ..self.clone()
            }
        }
    }

    #[test]
    fn a_missing_run_program_takes_the_fallback_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        std::fs::write(
            &path,
            "[python]\nrun = [\"/no/such/pypy3\", \"{source}\"]\nfallback = \"cpython\"\n",
        )
        .unwrap();
        let t = LanguageTable::load(Some(&path)).unwrap();
        let python = t.spec(lang("python"));
        assert_eq!(python.run[0], "/usr/bin/python3");
        let note = python.note.as_deref().unwrap();
        assert!(
            note.contains("/no/such/pypy3 is not installed") && note.contains("`cpython`"),
            "{note}"
        );
        std::fs::write(
            &path,
            "[python]\nrun = [\"/bin/cat\"]\nfallback = \"cobol\"\n",
        )
        .unwrap();
        let msg = LanguageTable::load(Some(&path)).unwrap_err().to_string();
        assert!(
            msg.contains("python.fallback") && msg.contains("t.toml"),
            "{msg}"
        );
    }

    #[test]
    fn a_standard_needs_its_placeholder() {
        let err = parse(
            "[cpp]\ncompile = [\"g++\", \"{source}\"]\nrun = [\"{binary}\"]\nstandards = [\"gnu++23\"]\n",
            "t",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("go together"), "{err}");
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
