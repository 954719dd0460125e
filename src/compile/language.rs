//! Submission languages and how a submission file maps to one.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A language the harness can compile and run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    C,
    Cpp,
    Rust,
    Python,
    Java,
}

impl Language {
    /// Every language, in the order they are listed to users.
    pub const ALL: [Language; 5] = [
        Language::C,
        Language::Cpp,
        Language::Rust,
        Language::Python,
        Language::Java,
    ];

    /// The stable id used by `--lang`, in `languages.toml` and in cache keys.
    pub fn id(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Rust => "rust",
            Language::Python => "python",
            Language::Java => "java",
        }
    }

    /// The language a file extension (without the dot, any case) denotes, if any.
    pub fn from_extension(ext: &str) -> Option<Language> {
        match ext.to_ascii_lowercase().as_str() {
            "c" => Some(Language::C),
            "cc" | "cpp" | "cxx" | "c++" => Some(Language::Cpp),
            "rs" => Some(Language::Rust),
            "py" => Some(Language::Python),
            "java" => Some(Language::Java),
            _ => None,
        }
    }

    /// The language of `path`, inferred from its extension.
    pub fn from_path(path: &Path) -> Option<Language> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Language::from_extension)
    }

    /// The comma-separated list of ids, for error messages.
    pub fn id_list() -> String {
        Language::ALL.map(Language::id).join(", ")
    }

    /// The extension given to the copy of the source that is compiled.
    pub(crate) fn source_extension(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Rust => "rs",
            Language::Python => "py",
            Language::Java => "java",
        }
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
        let lower = s.trim().to_ascii_lowercase();
        Language::ALL
            .into_iter()
            .find(|l| l.id() == lower)
            .ok_or_else(|| ParseLanguageError {
                given: s.to_string(),
            })
    }
}

/// Why a file cannot be taken as a submission.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    #[error("submission `{}` does not exist", path.display())]
    NotFound { path: PathBuf },
    #[error("submission `{}` is not a regular file", path.display())]
    NotAFile { path: PathBuf },
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
}

/// A contestant's source file and the language it is written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub path: PathBuf,
    pub language: Language,
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
        if !meta.is_file() {
            return Err(SubmissionError::NotAFile { path });
        }
        // Opening proves readability now rather than at compile time.
        if let Err(source) = std::fs::File::open(&path) {
            return Err(SubmissionError::Unreadable { path, source });
        }
        let language = match lang_override.or_else(|| Language::from_path(&path)) {
            Some(l) => l,
            None => return Err(SubmissionError::UnknownExtension { path }),
        };
        Ok(Submission { path, language })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_inference() {
        let cases = [
            ("a.c", Some(Language::C)),
            ("a.cc", Some(Language::Cpp)),
            ("a.cpp", Some(Language::Cpp)),
            ("a.cxx", Some(Language::Cpp)),
            ("a.c++", Some(Language::Cpp)),
            ("dir.x/a.rs", Some(Language::Rust)),
            ("a.PY", Some(Language::Python)),
            ("Main.java", Some(Language::Java)),
            ("a.go", None),
            ("Makefile", None),
            ("a.", None),
        ];
        for (path, want) in cases {
            assert_eq!(Language::from_path(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn ids_round_trip_and_bad_id_lists_choices() {
        for l in Language::ALL {
            assert_eq!(l.to_string().parse::<Language>(), Ok(l));
        }
        assert_eq!("CPP".parse::<Language>(), Ok(Language::Cpp));
        let err = "go".parse::<Language>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown language `go`; expected one of: c, cpp, rust, python, java"
        );
    }

    #[test]
    fn submission_from_path_infers_and_overrides() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("sol.c");
        std::fs::write(&c, "int main(){}").unwrap();
        assert_eq!(
            Submission::from_path(&c, None).unwrap().language,
            Language::C
        );
        assert_eq!(
            Submission::from_path(&c, Some(Language::Cpp))
                .unwrap()
                .language,
            Language::Cpp
        );

        let txt = dir.path().join("sol.txt");
        std::fs::write(&txt, "print(1)").unwrap();
        let err = Submission::from_path(&txt, None).unwrap_err();
        assert!(matches!(err, SubmissionError::UnknownExtension { .. }));
        let msg = err.to_string();
        assert!(msg.contains("sol.txt") && msg.contains("--lang"), "{msg}");
        assert_eq!(
            Submission::from_path(&txt, Some(Language::Python))
                .unwrap()
                .language,
            Language::Python
        );

        let missing = dir.path().join("nope.c");
        let err = Submission::from_path(&missing, None).unwrap_err();
        assert!(matches!(err, SubmissionError::NotFound { .. }));
        assert!(err.to_string().contains("nope.c"));

        let err = Submission::from_path(dir.path(), Some(Language::C)).unwrap_err();
        assert!(matches!(err, SubmissionError::NotAFile { .. }));
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
