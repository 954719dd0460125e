//! The languages of `judge doctor`: each language's compiler and runtime, resolved as a
//! compile resolves them, with the first line of their `--version` (or `-version`), or
//! missing and the Debian package that brings them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{ok, Check, LanguageFacts, Status, Tool};
use crate::compile::process::{self, Exit, Rlimits};
use crate::compile::LanguageSpec;

/// How long a `--version` may take.
const VERSION_WALL: Duration = Duration::from_secs(20);

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

pub(super) fn language_facts(id: &str, spec: &LanguageSpec) -> LanguageFacts {
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
        return ok(&id, unique.join(" / "));
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
    fn a_version_is_the_first_non_empty_line() {
        assert_eq!(
            first_line(b"\n  gcc (Debian 12.2.0-14) 12.2.0\nCopyright\n").as_deref(),
            Some("gcc (Debian 12.2.0-14) 12.2.0")
        );
        assert_eq!(first_line(b" \n\n"), None);
        assert_eq!(first_line(&[b'x'; 300]).unwrap().len(), 120);
    }
}
