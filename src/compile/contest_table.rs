//! A language table in problemtools' `languages.yaml` form (problemtools, BAPCtools and
//! contest configurations): per language id `name`, `priority`, `files`, `shebang`,
//! `shebang_files`, `compile`, `run`, commands as shell words with the placeholders
//! `{files}`, `{binary}`, `{mainfile}`, `{mainclass}`, `{Mainclass}`, `{memlim}`, `{path}`.
//!
//! Each entry is mapped onto one of judge's languages, by its id (judge's id, or the package
//! format's code: `python3` is `python`), else by the extension of its first `files` pattern.
//! Its `compile` and `run` replace judge's; the rest (how files are recognised, the
//! sandbox's facts: runtime folders, processes, environment, out-of-memory markers) stay
//! judge's. Entries judge has no language for are named in one warning and left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::table::LanguageSpec;
use super::toolchain::resolve_program;
use super::Language;

/// One entry of the file. Unknown keys are errors (a misspelt `compile` would otherwise go
/// unnoticed and leave judge's command in place).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    // The keys read so that they are allowed: judge's names and detection stay judge's.
    #[serde(default)]
    #[allow(dead_code)]
    name: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    priority: Option<i64>,
    #[serde(default)]
    files: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    shebang: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    shebang_files: Option<String>,
    #[serde(default)]
    compile: Option<String>,
    run: String,
}

/// The file's placeholders and judge's for each (`{Mainclass}Kt` is judge's Kotlin class).
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("{Mainclass}Kt", "{main_class}"),
    ("{Mainclass}", "{main_class}"),
    ("{mainclass}", "{main_class}"),
    ("{mainfile}", "{source}"),
    ("{memlim}", "{memory_mib}"),
    ("{path}", "{dir}"),
    ("{files}", "{files}"),
    ("{binary}", "{binary}"),
];

/// Where a run program named without a path is looked for before `PATH`.
const SYSTEM_BIN: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];

/// Whether `path` holds a table in this form rather than judge's TOML: by its extension.
pub(super) fn is_yaml(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}

/// The entries a file maps onto judge's languages, and the ids of those left out.
type Mapped = (Vec<(Language, LanguageSpec)>, Vec<String>);

/// The entries of `text` as judge's language entries, on top of `builtin`: `(language,
/// entry)` for each mapped one, and the ids of the entries left out. Errors are one line
/// (without the file's name, which the caller adds).
pub(super) fn read(
    text: &str,
    builtin: &BTreeMap<Language, LanguageSpec>,
) -> Result<Mapped, String> {
    let entries: BTreeMap<String, Entry> = match yaml_serde::from_str(text) {
        Ok(Some(entries)) => entries,
        Ok(None) => BTreeMap::new(),
        Err(e) => return Err(e.to_string()),
    };
    let mut mapped: Vec<(Language, LanguageSpec)> = Vec::new();
    let mut left_out = Vec::new();
    // By id first, so that an entry mapped by its extension never takes a language another
    // entry names.
    let by_id: Vec<(&String, &Entry, Option<Language>)> = entries
        .iter()
        .map(|(id, e)| (id, e, Language::from_package_code(id)))
        .collect();
    let named: Vec<Language> = by_id.iter().filter_map(|(_, _, l)| *l).collect();
    for (id, entry, language) in by_id {
        let language = language.or_else(|| {
            by_extension(entry).filter(|l| !named.contains(l) && !mapped.iter().any(|m| m.0 == *l))
        });
        let Some(language) = language else {
            left_out.push(id.clone());
            continue;
        };
        let spec = to_spec(id, entry, &builtin[&language])?;
        mapped.push((language, spec));
    }
    Ok((mapped, left_out))
}

/// The language of the extension of the entry's first `files` pattern (`*.py`).
fn by_extension(entry: &Entry) -> Option<Language> {
    let first = entry.files.as_deref()?.split_whitespace().next()?;
    Language::from_extension(first.strip_prefix("*.")?)
}

/// Judge's entry with the file's `compile` and `run`. A run program named without a path
/// is looked up now, in the system's folders and then on `PATH` (the sandbox does not
/// search it); what judge's entry says
/// about the compiler's standard, folders and fallback is the file's own command now.
fn to_spec(id: &str, entry: &Entry, builtin: &LanguageSpec) -> Result<LanguageSpec, String> {
    let what = |key: &str| format!("{id}.{key}");
    let compile = match &entry.compile {
        Some(c) => Some(command(c, &what("compile"))?),
        None => None,
    };
    let mut run = command(&entry.run, &what("run"))?;
    if !run[0].starts_with('/') && !run[0].starts_with('{') {
        // The system's folders first: the sandbox shows those (not a version manager's shims
        // in a home folder that PATH may put first).
        let system = SYSTEM_BIN
            .iter()
            .map(|dir| format!("{dir}/{}", run[0]))
            .find_map(|p| resolve_program(&p));
        run[0] = system
            .or_else(|| resolve_program(&run[0]))
            .map(|p| p.display().to_string())
            // Missing: a path that says which program, reported when the language is used.
            .unwrap_or_else(|| format!("/usr/bin/{}", run[0]));
    }
    let mut spec = builtin.clone();
    // Judge's precompiled headers need `{source}` as a whole argument of the compile.
    if !compile.iter().flatten().any(|a| a == "{source}") {
        spec.precompiled_headers.clear();
    }
    spec.compile = compile;
    spec.run = run;
    spec.standards.clear();
    spec.compiler_dirs.clear();
    spec.fallback = None;
    Ok(spec)
}

/// `text` split into words as a POSIX shell would (quotes, backslashes; no expansions), with
/// the file's placeholders turned into judge's. `{files}` must be a word of its own.
fn command(text: &str, what: &str) -> Result<Vec<String>, String> {
    let words = shell_words(text).ok_or_else(|| format!("{what}: unbalanced quotes"))?;
    if words.is_empty() {
        return Err(format!("{what} is empty"));
    }
    let words: Vec<String> = words
        .into_iter()
        .map(|w| {
            PLACEHOLDERS
                .iter()
                .fold(w, |w, (theirs, ours)| w.replace(theirs, ours))
        })
        .collect();
    if let Some(w) = words
        .iter()
        .find(|w| w.contains("{files}") && *w != "{files}")
    {
        return Err(format!(
            "{what}: `{w}`: {{files}} must be a word of its own"
        ));
    }
    Ok(words)
}

/// POSIX shell word splitting without expansions: `None` for an unterminated quote.
fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => w.push(c),
                            '\n' => {}
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => word.get_or_insert_with(String::new).push('\\'),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// The table a package is graded with when `--languages` is not given: a `languages.yaml`
/// in the package's folder, else in the folder above it (a contest's, as BAPCtools looks).
pub fn beside_package(package_dir: &Path) -> Option<PathBuf> {
    let dir = package_dir
        .canonicalize()
        .unwrap_or_else(|_| package_dir.to_path_buf());
    let found = [Some(dir.as_path()), dir.parent()]
        .into_iter()
        .flatten()
        .map(|d| d.join("languages.yaml"))
        .find(|p| p.is_file());
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_a_shell_splits_them() {
        let w = |s: &str| shell_words(s).unwrap();
        assert_eq!(w(r#"pypy3 "{mainfile}""#), ["pypy3", "{mainfile}"]);
        assert_eq!(
            w(r#"sbcl --eval '(if (equal (compile-file "{mainfile}") NIL) 1)' "#),
            [
                "sbcl",
                "--eval",
                r#"(if (equal (compile-file "{mainfile}") NIL) 1)"#
            ]
        );
        assert_eq!(
            w(r#"fpc -o"{mainfile}.out" -O2"#),
            ["fpc", "-o{mainfile}.out", "-O2"]
        );
        assert_eq!(w(r#"a\ b "c\"d" ''"#), ["a b", "c\"d", ""]);
        assert!(shell_words("a 'b").is_none());
    }

    #[test]
    fn problemtools_table_maps_onto_judges_languages() {
        let builtin = super::super::LanguageTable::builtin().unwrap();
        let specs: BTreeMap<Language, LanguageSpec> = Language::all()
            .map(|l| (l, builtin.spec(l).clone()))
            .collect();
        let text = "python3:\n  name: 'Python 3 (w/PyPy3)'\n  priority: 850\n  files: '*.py *.py3'\n  \
                    compile: 'pypy3 -m py_compile {files}'\n  run: 'pypy3 \"{mainfile}\"'\n\
                    kotlin:\n  files: '*.kt'\n  compile: 'kotlinc -d {path}/ -- {files}'\n  \
                    run: 'kotlin -J-Xmx{memlim}m -cp {path}/ {Mainclass}Kt'\n\
                    cobol:\n  files: '*.cob'\n  run: '{binary}'\n\
                    gnucpp:\n  files: '*.cpp *.cc'\n  compile: 'g++ -std=gnu++20 -o {binary} {files}'\n  run: '{binary}'\n";
        let (mapped, left_out) = read(text, &specs).unwrap();
        assert_eq!(left_out, ["cobol"]);
        let get = |id: &str| &mapped.iter().find(|(l, _)| l.id() == id).unwrap().1;
        let python = get("python");
        assert_eq!(
            python.compile.as_deref().unwrap(),
            ["pypy3", "-m", "py_compile", "{files}"]
        );
        assert_eq!(python.run[1..], ["{source}"]);
        assert!(python.run[0].starts_with('/'), "{:?}", python.run);
        assert_eq!(python.env, specs[&Language::named("python").unwrap()].env);
        let kotlin = get("kotlin");
        assert_eq!(kotlin.run[kotlin.run.len() - 1], "{main_class}");
        assert!(kotlin.run.contains(&"-J-Xmx{memory_mib}m".to_string()));
        assert!(kotlin.compiler_dirs.is_empty());
        let cpp = get("cpp");
        assert!(cpp.standards.is_empty() && cpp.precompiled_headers.is_empty());
        for (bad, needle) in [
            ("c:\n  run: '{binary}'\n  compiler: 'gcc'\n", "compiler"),
            ("c:\n  run: \"'{binary}\"\n", "unbalanced"),
            (
                "c:\n  compile: 'gcc x{files}'\n  run: '{binary}'\n",
                "word of its own",
            ),
            ("c:\n  run: ''\n", "empty"),
        ] {
            let err = read(bad, &specs).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
    }
}
