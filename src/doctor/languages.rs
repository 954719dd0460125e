//! The languages of `judge doctor`: each language's compiler and runtime, resolved as a
//! compile resolves them, with the first line of their `--version` (or `-version`), or
//! missing and the Debian package that brings them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{ok, Check, LanguageFacts, Status, Tool};
use crate::compile::process::{self, Exit, Rlimits};
use crate::compile::{Language, LanguageSpec};

/// How long a `--version` may take (a JVM compiler's start takes over 20 s on a loaded
/// machine).
const VERSION_WALL: Duration = Duration::from_secs(60);

/// The programs a grade starts for a language: `(role, program)`.
pub(super) fn tools_of(spec: &LanguageSpec) -> Vec<(&'static str, String)> {
    let compile = spec.compile.as_ref().and_then(|c| c.first()).cloned();
    // A run argv[0] that is a placeholder ({binary}) is the compiled program itself.
    let run = spec.run.first().filter(|p| p.starts_with('/')).cloned();
    match (compile, run) {
        (Some(c), Some(r)) if c == r => vec![("compile and run", c)],
        (c, r) => c
            .map(|c| ("compile", c))
            .into_iter()
            .chain(r.map(|r| ("run", r)))
            .collect(),
    }
}

pub(super) fn language_facts(language: Language, spec: &LanguageSpec) -> LanguageFacts {
    let compiler = spec
        .compile
        .as_ref()
        .and_then(|c| crate::compile::resolve_program(&c[0]));
    let settled = crate::compile::settle_compile(language, spec, compiler.as_deref());
    let mut facts = tool_facts(language.id(), &settled);
    facts.standard = standard_of(&settled);
    facts.differs = spec.note.clone().or_else(|| differs(language, &facts));
    facts
}

/// The `-std=` of a compile command.
fn standard_of(spec: &LanguageSpec) -> Option<String> {
    spec.compile
        .iter()
        .flatten()
        .find_map(|a| a.strip_prefix("-std="))
        .map(str::to_string)
}

/// How the language runs here unlike at ICPC contests and in problemtools, on one line.
fn differs(language: Language, facts: &LanguageFacts) -> Option<String> {
    let tool = |role: &str| facts.tools.iter().find(|t| t.role.contains(role));
    match language.id() {
        "python" => {
            let runtime = tool("run")?;
            let path = runtime.path.as_deref()?;
            let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.into());
            (!canonical.to_string_lossy().contains("pypy")).then(|| {
                format!(
                    "Python 3 runs as {path}, not PyPy3 as in problemtools, BAPCtools and ICPC \
                     contests (install the Debian package pypy3)"
                )
            })
        }
        "cpp" => {
            let standard = facts.standard.as_deref()?;
            let year = standard.trim_start_matches(|c: char| !c.is_ascii_digit());
            let recent = ["23", "2b", "26", "2c"].contains(&year);
            (!recent).then(|| {
                format!(
                    "C++ is compiled as {standard}: problemtools compiles with -std=gnu++23, ICPC \
                     contests with C++20 or later"
                )
            })
        }
        "kotlin" => {
            let version = tool("compile")?.version.as_deref()?;
            let (major, minor) = kotlin_version(version)?;
            ((major, minor) < (1, 9)).then(|| {
                format!(
                    "Kotlin {major}.{minor} is older than ICPC contests' (1.9 or 2.x): install a \
                     current kotlinc (npm install -g kotlin-compiler)"
                )
            })
        }
        _ => None,
    }
}

/// `(major, minor)` of a kotlinc version line (`info: kotlinc-jvm 2.4.20 (JRE 17...)`).
fn kotlin_version(line: &str) -> Option<(u32, u32)> {
    let word = line
        .split_whitespace()
        .skip_while(|w| !w.starts_with("kotlinc"))
        .nth(1)?;
    let mut parts = word.split(['.', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

fn tool_facts(id: &str, spec: &LanguageSpec) -> LanguageFacts {
    let found: Vec<(&'static str, String, Option<PathBuf>)> = tools_of(spec)
        .into_iter()
        .map(|(role, program)| {
            let path = crate::compile::resolve_program(&program);
            (role, program, path)
        })
        .collect();
    // The versions in parallel: a JVM takes a while to say its own.
    let versions: Vec<Option<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = found
            .iter()
            .map(|(role, _, path)| {
                let (env, flags) = if role.contains("compile") {
                    // Not the values naming a compile's folders ({tmp}): there is none.
                    let env = spec
                        .compile_env
                        .iter()
                        .filter(|(_, v)| !v.contains('{'))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    (env, spec.version.clone())
                } else {
                    (BTreeMap::new(), None)
                };
                s.spawn(move || {
                    path.as_deref()
                        .and_then(|p| version(p, &env, flags.as_deref()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    LanguageFacts {
        id: id.to_string(),
        package: spec.package.clone(),
        tools: found
            .into_iter()
            .zip(versions)
            .map(|((role, program, path), version)| Tool {
                role: role.to_string(),
                program,
                path: path.map(|p| p.display().to_string()),
                version,
            })
            .collect(),
        standard: None,
        differs: None,
    }
}

/// The first line of `program --version` (or `-version`, as older JVM tools want), or of
/// `program <flags>` when the language table gives them (`go version`, `fpc -iV`).
pub(super) fn version(
    program: &Path,
    env: &BTreeMap<String, String>,
    flags: Option<&[String]>,
) -> Option<String> {
    let rlimits = Rlimits {
        address_space: None,
        file_size: 1 << 20,
    };
    let defaults = [vec!["--version".to_string()], vec!["-version".to_string()]];
    let given = flags.map(|f| [f.to_vec()]);
    let attempts: &[Vec<String>] = match &given {
        Some(g) => g,
        None => &defaults,
    };
    for args in attempts {
        let mut argv = vec![program.display().to_string()];
        argv.extend(args.iter().cloned());
        let Ok(done) = process::run(&argv, Path::new("/"), env, VERSION_WALL, rlimits, 4096) else {
            continue;
        };
        if done.exit != Exit::Code(0) {
            continue;
        }
        if let Some(line) = first_line(&done.output) {
            return Some(line);
        }
    }
    None
}

/// The first non-empty line of `output` that is not a JVM warning, at most 120 characters.
pub(super) fn first_line(output: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(output);
    // A JVM's warnings about its options (the kotlinc script's -noverify) come first.
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.contains("VM warning:"))?;
    Some(line.chars().take(120).collect())
}

pub(super) fn language_check(l: &LanguageFacts) -> Check {
    let id = format!("language:{}", l.id);
    let missing: Vec<String> = l
        .tools
        .iter()
        .filter(|t| t.path.is_none())
        .map(|t| match t.role.as_str() {
            "compile" => format!("compiler `{}` not found in PATH", t.program),
            "run" => format!("interpreter `{}` not found", t.program),
            _ => format!("`{}` not found", t.program),
        })
        .collect();
    if l.tools.is_empty() {
        return ok(
            &id,
            "nothing to install (the table runs the source as it is)",
        );
    }
    if missing.is_empty() {
        let versions: Vec<String> = l
            .tools
            .iter()
            .map(|t| match &t.version {
                Some(v) => v.clone(),
                None => format!("{} (no version)", t.path.as_deref().unwrap_or("")),
            })
            .collect();
        let mut unique: Vec<String> = Vec::new();
        for v in versions {
            if !unique.contains(&v) {
                unique.push(v);
            }
        }
        if let Some(standard) = &l.standard {
            unique.push(format!("-std={standard}"));
        }
        let summary = unique.join(" / ");
        return match &l.differs {
            None => ok(&id, summary),
            Some(differs) => Check {
                id,
                status: Status::Degraded,
                summary,
                impact: Some(format!(
                    "{differs}; jury submissions written for it may get other verdicts"
                )),
            },
        };
    }
    let install = match &l.package {
        Some(p) => format!("install the Debian package {p}"),
        None => "the language table names no package for it".to_string(),
    };
    Check {
        id,
        status: Status::Missing,
        summary: missing.join("; "),
        impact: Some(format!(
            "{} submissions cannot be graded (a grade stops with an error); {install}",
            l.id
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(compile: Option<&[&str]>, run: &[&str]) -> LanguageSpec {
        let mut text = String::new();
        if let Some(c) = compile {
            text.push_str(&format!("compile = {c:?}\n"));
        }
        text.push_str(&format!("run = {run:?}\n"));
        toml::from_str(&text).unwrap()
    }

    #[test]
    fn tools_are_the_compiler_and_a_fixed_runtime_once_each() {
        let c = spec(Some(&["gcc", "-o", "{binary}", "{source}"]), &["{binary}"]);
        assert_eq!(tools_of(&c), vec![("compile", "gcc".to_string())]);
        let py = spec(
            Some(&["/usr/bin/python3", "-m", "py_compile", "{source}"]),
            &["/usr/bin/python3", "{source}"],
        );
        assert_eq!(
            tools_of(&py),
            vec![("compile and run", "/usr/bin/python3".to_string())]
        );
        let java = spec(Some(&["javac", "{source}"]), &["/usr/bin/java", "Main"]);
        assert_eq!(
            tools_of(&java),
            vec![
                ("compile", "javac".to_string()),
                ("run", "/usr/bin/java".to_string())
            ]
        );
        assert!(tools_of(&spec(None, &["{binary}"])).is_empty());
    }

    #[test]
    fn a_missing_tool_names_its_package() {
        let l = LanguageFacts {
            id: "c".into(),
            package: Some("gcc".into()),
            tools: vec![Tool {
                role: "compile".into(),
                program: "no-such-cc".into(),
                path: None,
                version: None,
            }],
            standard: None,
            differs: None,
        };
        let c = language_check(&l);
        assert_eq!(c.status, Status::Missing);
        assert_eq!(c.summary, "compiler `no-such-cc` not found in PATH");
        let impact = c.impact.unwrap();
        assert!(
            impact.ends_with("install the Debian package gcc"),
            "{impact}"
        );
    }

    #[test]
    fn kotlin_versions_are_read_from_kotlinc_lines() {
        assert_eq!(
            kotlin_version("info: kotlinc-jvm 1.3-SNAPSHOT (JRE 17.0.21.1+2)"),
            Some((1, 3))
        );
        assert_eq!(
            kotlin_version("info: kotlinc-jvm 2.4.20 (JRE 17.0.21)"),
            Some((2, 4))
        );
        assert_eq!(kotlin_version("javac 17"), None);
    }

    #[test]
    fn a_version_is_the_first_non_empty_line() {
        assert_eq!(
            first_line(b"\n  gcc (Debian 12.2.0-14) 12.2.0\nCopyright\n").as_deref(),
            Some("gcc (Debian 12.2.0-14) 12.2.0")
        );
        assert_eq!(first_line(b" \n\n"), None);
        assert_eq!(first_line(&[b'x'; 300]).unwrap().len(), 120);
    }
}
