//! Submission languages and how a submission file maps to one.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;

/// A language the harness can compile and run: one entry of the built-in `languages.toml`
/// (the table's order is the order languages are listed to users). Adding a language is an
/// edit of that table only; a user's `--languages` file can change how a listed language is
/// compiled and run, not add one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language(u16);

/// What the built-in table says about a language beyond how to compile and run it: how it is
/// named and how a file is recognised as written in it.
#[derive(Debug)]
pub(super) struct Definition {
    pub(super) id: String,
    pub(super) name: String,
    /// Lower-case, without the dot; the first is given to the compiled copy of the source.
    pub(super) extensions: Vec<String>,
    /// A file of one of `extensions` whose first line is a `#!` line containing this word
    /// is not in this language (`python2` for `python`, as problemtools tells Python 2 from 3).
    pub(super) not_shebang: Option<String>,
    /// The language's code in the problem package format (`python3`).
    pub(super) code: String,
}

/// The languages of the built-in table, in its order. A table that does not parse gives no
/// languages here; [`super::LanguageTable::load`] reports it (a unit test keeps it parsing).
fn definitions() -> &'static [Definition] {
    static DEFS: OnceLock<Vec<Definition>> = OnceLock::new();
    DEFS.get_or_init(|| super::table::builtin_definitions().unwrap_or_default())
}

impl Language {
    fn def(self) -> &'static Definition {
        &definitions()[usize::from(self.0)]
    }

    /// Every language, in the order they are listed to users (the built-in table's).
    pub fn all() -> impl Iterator<Item = Language> {
        (0..definitions().len()).map(|i| Language(i as u16))
    }

    /// The language with this id (exactly as [`Language::id`] prints it).
    pub fn named(id: &str) -> Option<Language> {
        Language::all().find(|l| l.id() == id)
    }

    /// The stable id used by `--lang`, in `languages.toml` and in cache keys.
    pub fn id(self) -> &'static str {
        &self.def().id
    }

    /// The human name (`C++`, `Common Lisp`).
    pub fn name(self) -> &'static str {
        &self.def().name
    }

    /// The file extensions that denote it (lower-case, without the dot).
    pub fn extensions(self) -> &'static [String] {
        &self.def().extensions
    }

    /// The language a file extension (without the dot, any case) denotes, if any. Each
    /// extension belongs to one language (the table is checked for that).
    pub fn from_extension(ext: &str) -> Option<Language> {
        let ext = ext.to_ascii_lowercase();
        Language::all().find(|l| l.extensions().contains(&ext))
    }

    /// The language of `path`, inferred from its extension.
    pub fn from_path(path: &Path) -> Option<Language> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Language::from_extension)
    }

    /// [`Language::from_path`], and a file whose first line is a `#!` line naming what the
    /// language's `not_shebang` names (`#!/usr/bin/env python2` in a `.py` file) is in no
    /// language. Reads the file's first line.
    pub fn detect(path: &Path) -> Option<Language> {
        let language = Language::from_path(path)?;
        let Some(word) = &language.def().not_shebang else {
            return Some(language);
        };
        let mut first = Vec::new();
        if let Ok(file) = std::fs::File::open(path) {
            use std::io::BufRead;
            let _ = std::io::BufReader::new(file.take(4096)).read_until(b'\n', &mut first);
        }
        let first = String::from_utf8_lossy(&first);
        let excluded = first.starts_with("#!") && first.contains(word.as_str());
        (!excluded).then_some(language)
    }

    /// The language's code in the problem package format's languages table (`python3` for
    /// `python` and `pypy3`, `cpp` for `cpp`): what a package's `include/<code>/` names.
    pub fn package_code(self) -> &'static str {
        &self.def().code
    }

    /// The language a package names by `code` (`submissions.yaml`'s `language:`): judge's own
    /// id (`pypy3`), else the first in the table with that package-format code (`python3`
    /// is `python`).
    pub fn from_package_code(code: &str) -> Option<Language> {
        let code = code.trim().to_ascii_lowercase();
        Language::named(&code).or_else(|| Language::all().find(|l| l.package_code() == code))
    }

    /// The word a `#!` first line must not contain for a file to be in this language.
    pub fn not_shebang(self) -> Option<&'static str> {
        self.def().not_shebang.as_deref()
    }

    /// The comma-separated list of ids, for error messages.
    pub fn id_list() -> String {
        Language::all()
            .map(Language::id)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The extension given to the copy of the source that is compiled.
    pub(crate) fn source_extension(self) -> &'static str {
        self.extensions()
            .first()
            .map(String::as_str)
            .unwrap_or(self.id())
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// `--lang` named no known language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language `{given}`; expected one of: {}", Language::id_list())]
pub struct ParseLanguageError {
    pub given: String,
}

impl FromStr for Language {
    type Err = ParseLanguageError;

    /// Parses an id exactly as [`Language::id`] prints it (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Language::named(&s.trim().to_ascii_lowercase()).ok_or_else(|| ParseLanguageError {
            given: s.to_string(),
        })
    }
}

/// Why a file cannot be taken as a submission.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    #[error("submission `{}` does not exist", path.display())]
    NotFound { path: PathBuf },
    #[error("submission `{}` is not a regular file or a folder", path.display())]
    NotAFile { path: PathBuf },
    #[error(
        "submission folder `{}` holds no source file in a language judge compiles ({})",
        path.display(),
        Language::id_list()
    )]
    NoSourceInFolder { path: PathBuf },
    #[error("cannot read submission `{}`: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "cannot tell the language of `{}` from its extension; pass --lang with one of: {}",
        path.display(),
        Language::id_list()
    )]
    UnknownExtension { path: PathBuf },
    #[error(
        "`{}` starts with a #! line naming {}, which is not {} ({}); pass --lang to grade it as one of: {}",
        path.display(),
        language.not_shebang().unwrap_or_default(),
        language.id(),
        language.name(),
        Language::id_list()
    )]
    ExcludedByShebang { path: PathBuf, language: Language },
}

/// A contestant's source file (or folder of sources) and the language it is written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// The file, or the folder, as given.
    pub path: PathBuf,
    pub language: Language,
    /// For a folder: the source that is the program's entry point (see
    /// [`Language::of_folder`]); the folder's other files are placed beside it to compile.
    pub entry: Option<PathBuf>,
}

impl Language {
    /// The language and entry point of a program given as a folder, as problemtools settles
    /// them: the language of most of its files (by [`Language::detect`]; a tie goes to the
    /// one listed first in the table), or `language` if given; the entry point is its one
    /// source in that language, else the one named `main.*` (any case), else the first by
    /// name. `None` if no file of the folder is in the language. Hidden files and editor
    /// or tool litter are not looked at.
    pub fn of_folder(
        folder: &Path,
        language: Option<Language>,
    ) -> std::io::Result<Option<(Language, PathBuf)>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
            .filter_map(|e| e.ok())
            .filter(|e| !crate::fsutil::is_tool_litter(&e.file_name()))
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        let detected: Vec<(PathBuf, Option<Language>)> = files
            .into_iter()
            .map(|p| {
                let l = Language::detect(&p);
                (p, l)
            })
            .collect();
        let language = match language {
            Some(l) => l,
            None => {
                let mut best: Option<(usize, Language)> = None;
                for l in Language::all() {
                    let n = detected.iter().filter(|(_, d)| *d == Some(l)).count();
                    if n > 0 && best.is_none_or(|(m, _)| n > m) {
                        best = Some((n, l));
                    }
                }
                match best {
                    Some((_, l)) => l,
                    None => return Ok(None),
                }
            }
        };
        let sources: Vec<&PathBuf> = detected
            .iter()
            .filter(|(p, _)| Language::from_path(p) == Some(language))
            .map(|(p, _)| p)
            .collect();
        let entry = match sources.as_slice() {
            [] => return Ok(None),
            [one] => (*one).clone(),
            many => many
                .iter()
                .find(|p| {
                    p.file_stem()
                        .is_some_and(|s| s.eq_ignore_ascii_case("main"))
                })
                .unwrap_or(&many[0])
                .to_path_buf(),
        };
        Ok(Some((language, entry)))
    }
}

impl Submission {
    /// Checks that `path` is a readable regular file and settles its language:
    /// `lang_override` if given, else the one its extension denotes.
    pub fn from_path(
        path: impl Into<PathBuf>,
        lang_override: Option<Language>,
    ) -> Result<Submission, SubmissionError> {
        let path = path.into();
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SubmissionError::NotFound { path })
            }
            Err(source) => return Err(SubmissionError::Unreadable { path, source }),
        };
        if meta.is_dir() {
            return match Language::of_folder(&path, lang_override) {
                Ok(Some((language, entry))) => Ok(Submission {
                    path,
                    language,
                    entry: Some(entry),
                }),
                Ok(None) => Err(SubmissionError::NoSourceInFolder { path }),
                Err(source) => Err(SubmissionError::Unreadable { path, source }),
            };
        }
        if !meta.is_file() {
            return Err(SubmissionError::NotAFile { path });
        }
        // Opening proves readability now rather than at compile time.
        if let Err(source) = std::fs::File::open(&path) {
            return Err(SubmissionError::Unreadable { path, source });
        }
        let language = match lang_override {
            Some(l) => l,
            None => match (Language::from_path(&path), Language::detect(&path)) {
                (_, Some(l)) => l,
                (Some(language), None) => {
                    return Err(SubmissionError::ExcludedByShebang { path, language })
                }
                (None, None) => return Err(SubmissionError::UnknownExtension { path }),
            },
        };
        Ok(Submission {
            path,
            language,
            entry: None,
        })
    }
}

/// The class a JVM starts and the file stem the source must have, by the language's
/// `main_class` rule (see `languages.toml`): `(qualified class, source stem)`. Without a rule:
/// `Main` and the stem `solution`.
pub(crate) fn main_class(rule: Option<&str>, source: &str) -> (String, String) {
    match rule {
        Some("java") => {
            let (qualified, simple) = java_main_class(source);
            (qualified, simple)
        }
        // A Kotlin file's top-level functions are in the class named after the file:
        // solution.kt -> SolutionKt (problemtools: {Mainclass}Kt).
        Some("kotlin") => (
            qualify(dotted_package(&java_tokens(source)), "SolutionKt"),
            "solution".to_string(),
        ),
        Some("scala") => (scala_main_object(source), "solution".to_string()),
        _ => ("Main".to_string(), "solution".to_string()),
    }
}

fn qualify(package: Option<String>, simple: &str) -> String {
    match package {
        Some(p) => format!("{p}.{simple}"),
        None => simple.to_string(),
    }
}

/// `package a.b` (with or without `;`) before anything else, as Kotlin and Scala write it.
fn dotted_package(tokens: &[String]) -> Option<String> {
    let at = tokens
        .iter()
        .position(|t| t == "package")
        .filter(|&i| i == 0 || tokens[..i].iter().all(|t| t.starts_with('@') || t == ":"))?;
    let mut name = String::new();
    let mut i = at + 1;
    while let Some(t) = tokens.get(i) {
        let want_ident = name.is_empty() || name.ends_with('.');
        if want_ident && is_java_identifier(t) {
            name.push_str(t);
        } else if !want_ident && t == "." {
            name.push('.');
        } else {
            break;
        }
        i += 1;
    }
    let name = name.trim_end_matches('.').to_string();
    (!name.is_empty()).then_some(name)
}

/// The top-level Scala `object` that declares `def main` or `extends App`, else the first
/// top-level object, else `Main`; qualified with the file's first `package` clause.
fn scala_main_object(source: &str) -> String {
    let tokens = java_tokens(source);
    let mut depth = 0usize;
    let mut current: Option<String> = None;
    let mut first: Option<String> = None;
    let mut main: Option<String> = None;
    for (i, tok) in tokens.iter().enumerate() {
        match tok.as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    current = None;
                }
            }
            "object" if depth == 0 => {
                if let Some(name) = tokens.get(i + 1).filter(|t| is_java_identifier(t)) {
                    current = Some(name.clone());
                    first.get_or_insert_with(|| name.clone());
                    let extends_app = tokens.get(i + 2).is_some_and(|t| t == "extends")
                        && tokens.get(i + 3).is_some_and(|t| t == "App");
                    if extends_app && main.is_none() {
                        main = Some(name.clone());
                    }
                }
            }
            "main" if depth == 1 && main.is_none() && i >= 1 && tokens[i - 1] == "def" => {
                main = current.clone();
            }
            _ => {}
        }
    }
    let simple = main.or(first).unwrap_or_else(|| "Main".to_string());
    qualify(dotted_package(&tokens), &simple)
}

/// The class `java` must be started with: the public top-level class if there is one,
/// else a top-level class declaring `main`, else `Main`; qualified with the `package`
/// if the source declares one. Returns `(qualified name, simple name)`.
///
/// This is a lexical scan (comments, strings and char literals skipped), not a parser:
/// an odd source that fools it gets a compile error from `javac`, never a panic.
pub(crate) fn java_main_class(source: &str) -> (String, String) {
    let tokens = java_tokens(source);
    let mut package: Option<String> = None;
    let mut public_class: Option<String> = None;
    let mut main_class: Option<String> = None;
    let mut depth = 0usize;
    let mut current_top: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        let (tok, tok_depth) = (&tokens[i], depth);
        match tok.as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    current_top = None;
                }
            }
            "package" if tok_depth == 0 && package.is_none() => {
                let mut name = String::new();
                let mut j = i + 1;
                while j < tokens.len() && tokens[j] != ";" {
                    name.push_str(&tokens[j]);
                    j += 1;
                }
                if !name.is_empty() && name.split('.').all(is_java_identifier) {
                    package = Some(name);
                }
                i = j;
            }
            "class" if tok_depth == 0 => {
                if let Some(name) = tokens.get(i + 1).filter(|t| is_java_identifier(t)) {
                    let is_public = tokens[..i]
                        .iter()
                        .rev()
                        .take_while(|t| is_java_identifier(t) || t.starts_with('@'))
                        .any(|t| t == "public");
                    if is_public && public_class.is_none() {
                        public_class = Some(name.clone());
                    }
                    current_top = Some(name.clone());
                }
            }
            "main" if tok_depth == 1 && main_class.is_none() => {
                let declares = i >= 1
                    && tokens[i - 1] == "void"
                    && tokens.get(i + 1).is_some_and(|t| t == "(")
                    && tokens[..i].iter().rev().take(4).any(|t| t == "static");
                if declares {
                    main_class = current_top.clone();
                }
            }
            _ => {}
        }
        i += 1;
    }
    let simple = public_class
        .or(main_class)
        .unwrap_or_else(|| "Main".to_string());
    let qualified = match package {
        Some(p) => format!("{p}.{simple}"),
        None => simple.clone(),
    };
    (qualified, simple)
}

fn is_java_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Identifiers, `.`-joined names split into parts, and single punctuation characters;
/// comments and literals dropped.
fn java_tokens(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' && next == Some('"') && chars.get(i + 2) == Some(&'"') {
            // Text block: runs to the next unescaped `"""`.
            i += 3;
            while i < chars.len() && !(chars[i..].starts_with(&['"', '"', '"'])) {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 3;
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_alphabetic() || c == '_' || c == '$' || c == '@' {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c.is_whitespace() || c.is_ascii_digit() {
            i += 1;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// The language with this id, for tests.
#[cfg(test)]
pub(crate) fn lang(id: &str) -> Language {
    Language::named(id).unwrap_or_else(|| panic!("no language `{id}` in the built-in table"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_inference() {
        let cases = [
            ("a.c", Some(lang("c"))),
            ("a.cc", Some(lang("cpp"))),
            ("a.cpp", Some(lang("cpp"))),
            ("a.cxx", Some(lang("cpp"))),
            ("a.c++", Some(lang("cpp"))),
            ("dir.x/a.rs", Some(lang("rust"))),
            ("a.PY", Some(lang("python"))),
            ("Main.java", Some(lang("java"))),
            ("a.go", Some(lang("go"))),
            ("hello.kt", Some(lang("kotlin"))),
            ("a.cs", Some(lang("csharp"))),
            ("a.hs", Some(lang("haskell"))),
            ("a.js", Some(lang("javascript"))),
            ("a.pas", Some(lang("pascal"))),
            ("a.p", Some(lang("pascal"))),
            ("a.ml", Some(lang("ocaml"))),
            ("a.rb", Some(lang("ruby"))),
            ("a.php", Some(lang("php"))),
            ("A.scala", Some(lang("scala"))),
            ("a.sc", Some(lang("scala"))),
            ("a.lisp", Some(lang("lisp"))),
            ("a.cl", Some(lang("lisp"))),
            // problemtools: .pl is Prolog (there is no Perl); DOMjudge's .plg too.
            ("a.pl", Some(lang("prolog"))),
            ("a.plg", Some(lang("prolog"))),
            ("a.py3", Some(lang("python"))),
            ("a.C", Some(lang("c"))),
            ("a.h", None),
            ("a.f90", None),
            ("Makefile", None),
            ("a.", None),
        ];
        for (path, want) in cases {
            assert_eq!(Language::from_path(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn ids_round_trip_and_bad_id_lists_choices() {
        for l in Language::all() {
            assert_eq!(l.to_string().parse::<Language>(), Ok(l));
        }
        assert_eq!("CPP".parse::<Language>(), Ok(lang("cpp")));
        assert_eq!("PyPy3".parse::<Language>(), Ok(lang("pypy3")));
        let err = "cobol".parse::<Language>().unwrap_err().to_string();
        assert!(
            err.starts_with(
                "unknown language `cobol`; expected one of: c, cpp, rust, python, java, kotlin, "
            ),
            "{err}"
        );
        // The table's order, and every language a name.
        assert_eq!(Language::all().count(), 20);
        assert_eq!(lang("csharp").name(), "C#");
        assert!(Language::all().all(|l| !l.name().is_empty()));
    }

    #[test]
    fn submission_from_path_infers_and_overrides() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("sol.c");
        std::fs::write(&c, "int main(){}").unwrap();
        assert_eq!(Submission::from_path(&c, None).unwrap().language, lang("c"));
        assert_eq!(
            Submission::from_path(&c, Some(lang("cpp")))
                .unwrap()
                .language,
            lang("cpp")
        );

        let txt = dir.path().join("sol.txt");
        std::fs::write(&txt, "print(1)").unwrap();
        let err = Submission::from_path(&txt, None).unwrap_err();
        assert!(matches!(err, SubmissionError::UnknownExtension { .. }));
        let msg = err.to_string();
        assert!(msg.contains("sol.txt") && msg.contains("--lang"), "{msg}");
        assert_eq!(
            Submission::from_path(&txt, Some(lang("python")))
                .unwrap()
                .language,
            lang("python")
        );

        let missing = dir.path().join("nope.c");
        let err = Submission::from_path(&missing, None).unwrap_err();
        assert!(matches!(err, SubmissionError::NotFound { .. }));
        assert!(err.to_string().contains("nope.c"));

        // A folder with no source in the language.
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        std::fs::write(empty.join("notes.txt"), "").unwrap();
        let err = Submission::from_path(&empty, None).unwrap_err();
        assert!(matches!(err, SubmissionError::NoSourceInFolder { .. }));
        let err = Submission::from_path("/dev/null", Some(lang("c"))).unwrap_err();
        assert!(matches!(err, SubmissionError::NotAFile { .. }));
    }

    #[test]
    fn a_folder_is_in_the_language_of_most_of_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path();
        for name in [
            "kattio.pl",
            "different.pl",
            "notes.py",
            ".hidden.c",
            "README",
        ] {
            std::fs::write(f.join(name), "").unwrap();
        }
        std::fs::create_dir(f.join("__pycache__")).unwrap();
        // problemtools: no main.*, so the first by name.
        let (l, entry) = Language::of_folder(f, None).unwrap().unwrap();
        assert_eq!(
            (l, entry.file_name().unwrap()),
            (lang("prolog"), "different.pl".as_ref())
        );
        std::fs::write(f.join("Main.pl"), "").unwrap();
        let (_, entry) = Language::of_folder(f, None).unwrap().unwrap();
        assert_eq!(entry.file_name().unwrap(), "Main.pl");
        // --lang picks the language, and so the entry point.
        let (l, entry) = Language::of_folder(f, Some(lang("python")))
            .unwrap()
            .unwrap();
        assert_eq!(
            (l, entry.file_name().unwrap()),
            (lang("python"), "notes.py".as_ref())
        );
        assert!(Language::of_folder(f, Some(lang("go"))).unwrap().is_none());
        let sub = Submission::from_path(f, None).unwrap();
        assert_eq!(sub.path, f);
        assert_eq!(sub.entry.as_deref(), Some(f.join("Main.pl").as_path()));
    }

    #[test]
    fn a_python2_shebang_is_not_python_3() {
        let dir = tempfile::tempdir().unwrap();
        let py2 = dir.path().join("old.py");
        std::fs::write(&py2, "#!/usr/bin/env python2\nprint 1\n").unwrap();
        let py3 = dir.path().join("new.py");
        std::fs::write(&py3, "#!/usr/bin/env python3\nprint(1)\n").unwrap();
        assert_eq!(Language::from_path(&py2), Some(lang("python")));
        assert_eq!(Language::detect(&py2), None);
        assert_eq!(Language::detect(&py3), Some(lang("python")));
        let err = Submission::from_path(&py2, None).unwrap_err().to_string();
        assert!(err.contains("python2") && err.contains("--lang"), "{err}");
        assert_eq!(
            Submission::from_path(&py2, Some(lang("pypy3")))
                .unwrap()
                .language,
            lang("pypy3")
        );
    }

    #[test]
    fn kotlin_and_scala_main_classes() {
        let kt = |s: &str| main_class(Some("kotlin"), s);
        assert_eq!(
            kt("fun main() {}"),
            ("SolutionKt".into(), "solution".into())
        );
        assert_eq!(kt("// c\npackage a.b\n\nfun main() {}").0, "a.b.SolutionKt");
        let sc = |s: &str| main_class(Some("scala"), s).0;
        assert_eq!(
            sc("object Helper { val x = 1 }\nobject Different {\n def main(args: Array[String]) {} }"),
            "Different"
        );
        assert_eq!(sc("object A extends App { println(1) }"), "A");
        assert_eq!(sc("package p\nobject Only { }"), "p.Only");
        assert_eq!(sc("class X"), "Main");
        assert_eq!(main_class(None, "anything").0, "Main");
        for junk in ["", "package", "object", "package .", "}}{{ object"] {
            let _ = main_class(Some("scala"), junk);
            let _ = main_class(Some("kotlin"), junk);
        }
    }

    #[test]
    fn java_main_class_detection() {
        assert_eq!(java_main_class("class A {}").0, "Main");
        assert_eq!(
            java_main_class("import java.util.*;\npublic final class Sol { public static void main(String[] a){} }"),
            ("Sol".to_string(), "Sol".to_string())
        );
        // Comments and strings mentioning classes do not count; nested classes do not count.
        let src = r#"
            // public class Fake {}
            /* public class Fake2 {} */
            class Helper { public class Inner {} String s = "public class Str {"; }
            class Solution { public static void main(String[] args) { char c = '{'; } }
        "#;
        assert_eq!(java_main_class(src).0, "Solution");
        assert_eq!(
            java_main_class("package a.b;\npublic class P { }"),
            ("a.b.P".to_string(), "P".to_string())
        );
        // Garbage never panics.
        for junk in [
            "",
            "public class",
            "\"unterminated",
            "/* open",
            "}}}{",
            "class 1x {",
        ] {
            let _ = java_main_class(junk);
        }
    }
}
