//! Where a language's programs are: the compiler and the interpreter a run starts (found on
//! `PATH` or at a fixed path), and the runtime folders the sandbox must show a run of it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::{table, CompileError, Language, LanguageSpec};

/// `program` itself if it contains a `/`, else the first executable `PATH` entry.
pub(crate) fn resolve_program(program: &str) -> Option<PathBuf> {
    let is_exe = |p: &Path| {
        fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_exe(&p).then_some(p);
    }
    if program.is_empty() {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(program))
        .find(|p| is_exe(p))
}

pub(super) fn resolve_compiler(
    language: Language,
    program: &str,
    package: Option<&str>,
) -> Result<PathBuf, CompileError> {
    resolve_program(program).ok_or_else(|| CompileError::CompilerMissing {
        program: program.to_string(),
        language,
        package: package.map(str::to_string),
    })
}

/// The interpreter a run starts (run argv[0] when it is a fixed absolute path), checked to
/// exist. `None` when argv[0] is the compiled binary.
pub(super) fn resolve_interpreter(
    language: Language,
    spec: &LanguageSpec,
) -> Result<Option<PathBuf>, CompileError> {
    let Some(program) = spec.run.first().filter(|p| p.starts_with('/')) else {
        return Ok(None);
    };
    match resolve_program(program) {
        Some(p) => Ok(Some(p)),
        None => Err(CompileError::InterpreterMissing {
            program: program.clone(),
            language,
            package: spec.package.clone(),
        }),
    }
}

/// The runtime directories of `spec` for `interpreter`, canonicalized, plus the directories
/// that symlinks inside them point into (Debian's JDK links `lib/jvm.cfg` and its security
/// files into `/etc/java-17-openjdk`). Missing directories are skipped; a symlink target
/// directory directly under `/` (e.g. `/etc` itself) is never added.
pub(super) fn runtime_dirs(spec: &LanguageSpec, interpreter: Option<&Path>) -> Vec<PathBuf> {
    let Some(canonical) = interpreter.and_then(|p| fs::canonicalize(p).ok()) else {
        return Vec::new();
    };
    let name = canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = canonical
        .parent()
        .and_then(Path::parent)
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut dirs = Vec::new();
    for template in &spec.runtime_dirs {
        let path = table::expand(
            template,
            &[("runtime_prefix", &prefix), ("runtime_name", &name)],
        );
        let Ok(root) = fs::canonicalize(&path) else {
            continue;
        };
        if !root.is_dir() || root.components().count() < 3 {
            continue;
        }
        dirs.extend(symlink_target_dirs(&root));
        dirs.push(root);
    }
    minimal_cover(dirs)
}

/// Directories outside `root` that symlinks under `root` resolve into (bounded walk).
pub(super) fn symlink_target_dirs(root: &Path) -> Vec<PathBuf> {
    const MAX_ENTRIES: usize = 50_000;
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        let Ok(read) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in read.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                return found;
            }
            let Ok(ft) = entry.file_type() else { continue };
            let path = entry.path();
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_symlink() {
                let Ok(target) = fs::canonicalize(&path) else {
                    continue;
                };
                if target.starts_with(root) {
                    continue;
                }
                let dir = if target.is_dir() {
                    Some(target)
                } else {
                    target.parent().map(Path::to_path_buf)
                };
                // "/", "/etc", "/usr" are too broad to open up.
                if let Some(dir) = dir.filter(|d| d.components().count() >= 3) {
                    found.push(dir);
                }
            }
        }
    }
    found
}

/// Sorted, deduplicated, without directories nested in another listed one.
pub(super) fn minimal_cover(mut dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    dirs.sort();
    dirs.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for d in dirs {
        if !out.iter().any(|o| d.starts_with(o)) {
            out.push(d);
        }
    }
    out
}

/// What the table's entries become on this machine, decided when the table is loaded (file
/// lookups only, no process started): a language whose run program is missing takes its
/// `fallback`'s entry with a note; a compiler found in `compiler_dirs` is used by its path;
/// `{compiler_home}` (the compiler's install tree: its canonical path less `bin/<name>`) is
/// expanded in `run` and `runtime_dirs`.
pub(super) fn settle_installed(
    specs: &mut std::collections::BTreeMap<Language, LanguageSpec>,
) -> Result<(), String> {
    let languages: Vec<Language> = specs.keys().copied().collect();
    for &language in &languages {
        let spec = &specs[&language];
        let Some(fallback) = spec.fallback.clone() else {
            continue;
        };
        let other = Language::named(&fallback)
            .filter(|l| *l != language)
            .ok_or_else(|| format!("{language}.fallback: `{fallback}` is not another language"))?;
        let program = spec.run[0].clone();
        if !program.starts_with('/') || resolve_program(&program).is_some() {
            continue;
        }
        let mut taken = specs[&other].clone();
        taken.note = Some(format!(
            "{program} is not installed: {} ({}) runs as {} (`{}`)",
            language.name(),
            language.id(),
            taken.run[0],
            other.id()
        ));
        taken.fallback = None;
        specs.insert(language, taken);
    }
    for spec in specs.values_mut() {
        settle_compiler(spec);
    }
    Ok(())
}

fn settle_compiler(spec: &mut LanguageSpec) {
    let Some(program) = spec.compile.as_mut().and_then(|c| c.first_mut()) else {
        return;
    };
    if !program.contains('/') {
        let found = spec
            .compiler_dirs
            .iter()
            .map(|dir| Path::new(dir).join(&*program))
            .find(|p| resolve_program(&p.display().to_string()).is_some());
        if let Some(found) = found {
            *program = found.display().to_string();
        }
    }
    let uses_home = spec
        .run
        .iter()
        .chain(&spec.runtime_dirs)
        .any(|a| a.contains("{compiler_home}"));
    if !uses_home {
        return;
    }
    let Some(home) = compiler_home(program) else {
        return;
    };
    let home = home.display().to_string();
    for arg in spec.run.iter_mut().chain(spec.runtime_dirs.iter_mut()) {
        *arg = table::expand(arg, &[("compiler_home", &home)]);
    }
}

/// The install tree of a compiler: its canonical path less `bin/<name>`
/// (`/usr/local/lib/node_modules/kotlin-compiler` for its `bin/kotlinc`).
pub(crate) fn compiler_home(program: &str) -> Option<PathBuf> {
    let canonical = fs::canonicalize(resolve_program(program)?).ok()?;
    canonical.parent()?.parent().map(Path::to_path_buf)
}

/// `spec` as `compiler` compiles it: `{standard}` in its compile command is the first of
/// `standards` the compiler accepts (or the last, when it accepts none: its error then says
/// why). Printed once per process: the entry's note (a fallback taken).
pub(crate) fn settle_compile<'a>(
    language: Language,
    spec: &'a LanguageSpec,
    compiler: Option<&Path>,
) -> std::borrow::Cow<'a, LanguageSpec> {
    if let Some(note) = &spec.note {
        note_once(note);
    }
    let (Some(compiler), Some(last)) = (compiler, spec.standards.last()) else {
        return std::borrow::Cow::Borrowed(spec);
    };
    let standard = spec
        .standards
        .iter()
        .find(|s| accepts_standard(compiler, language, s))
        .unwrap_or(last);
    let mut settled = spec.clone();
    for arg in settled.compile.iter_mut().flatten() {
        *arg = table::expand(arg, &[("standard", standard)]);
    }
    std::borrow::Cow::Owned(settled)
}

fn note_once(note: &str) {
    say_once(format!("note: {note}"));
}

/// Prints `line` on stderr unless this process printed it already (a table is loaded more
/// than once per command).
pub(super) fn say_once(line: String) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.contains(&line) {
        eprintln!("{line}");
        said.push(line);
    }
}

/// Whether GCC-style `compiler` takes `-std=<standard>`: it checks an empty source of the
/// language with it (`-fsyntax-only`). Asked once per compiler and standard in a process.
pub(crate) fn accepts_standard(compiler: &Path, language: Language, standard: &str) -> bool {
    type Memo = std::collections::BTreeMap<(PathBuf, String), bool>;
    static MEMO: std::sync::Mutex<Memo> = std::sync::Mutex::new(Memo::new());
    let key = (compiler.to_path_buf(), standard.to_string());
    if let Some(&known) = MEMO
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
    {
        return known;
    }
    let accepted = probe_standard(compiler, language, standard);
    MEMO.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(key, accepted);
    accepted
}

fn probe_standard(compiler: &Path, language: Language, standard: &str) -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    let source = dir
        .path()
        .join(format!("probe.{}", language.source_extension()));
    if fs::write(&source, "").is_err() {
        return false;
    }
    let argv = [
        compiler.display().to_string(),
        format!("-std={standard}"),
        "-fsyntax-only".to_string(),
        source.display().to_string(),
    ];
    let rlimits = super::process::Rlimits {
        address_space: None,
        file_size: 1 << 20,
    };
    super::process::run(
        &argv,
        dir.path(),
        &Default::default(),
        std::time::Duration::from_secs(60),
        rlimits,
        4096,
    )
    .is_ok_and(|done| done.exit == super::process::Exit::Code(0))
}

/// What a submission in `language` runs with, on one line: its compiler's version (the
/// interpreter's when there is no compile step or the interpreter checks the syntax), its
/// runtime's where that names the language better (`PyPy 7.3.11`), and the standard it is
/// compiled at (`g++ 12.2.0, gnu++23`). `None` when neither says its version. Asked once per
/// language and process.
pub fn runtime(table: &super::LanguageTable, language: Language) -> Option<String> {
    type Memo = std::collections::BTreeMap<(Language, Vec<String>), Option<String>>;
    static MEMO: std::sync::Mutex<Memo> = std::sync::Mutex::new(Memo::new());
    let spec = table.spec(language);
    let key = (language, spec.compile.clone().unwrap_or_default());
    let memo = || {
        MEMO.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(known) = memo().get(&key) {
        return known.clone();
    }
    let compiler = spec.compile.as_ref().and_then(|c| resolve_program(&c[0]));
    let settled = settle_compile(language, spec, compiler.as_deref());
    let interpreter = spec
        .run
        .first()
        .filter(|p| p.starts_with('/'))
        .and_then(|p| resolve_program(p));
    // The table's version arguments are the compiler's.
    let (program, flags) = match (compiler, interpreter) {
        (Some(c), _) => (Some(c), spec.version.clone()),
        (None, i) => (i, None),
    };
    let mut line = program.and_then(|p| version_line(&p, flags));
    if let (Some(line), Some(standard)) = (
        line.as_mut(),
        settled
            .compile
            .iter()
            .flatten()
            .find_map(|a| a.strip_prefix("-std=")),
    ) {
        line.push_str(", ");
        line.push_str(standard);
    }
    memo().insert(key, line.clone());
    line
}

/// `program --version` (or `-version`) made short: `PyPy 7.3.11` where PyPy says so, else
/// the first line without `info: ` and parenthesized parts (`g++ 12.2.0`).
fn version_line(program: &Path, flags: Option<Vec<String>>) -> Option<String> {
    let rlimits = super::process::Rlimits {
        address_space: None,
        file_size: 1 << 20,
    };
    let attempts = flags.map_or_else(
        || vec![vec!["--version".to_string()], vec!["-version".to_string()]],
        |f| vec![f],
    );
    for flags in attempts {
        let mut argv = vec![program.display().to_string()];
        argv.extend(flags);
        let Ok(done) = super::process::run(
            &argv,
            Path::new("/"),
            &Default::default(),
            std::time::Duration::from_secs(20),
            rlimits,
            4096,
        ) else {
            continue;
        };
        if done.exit != super::process::Exit::Code(0) {
            continue;
        }
        if let Some(line) = short_version(&String::from_utf8_lossy(&done.output)) {
            return Some(line);
        }
    }
    None
}

fn short_version(text: &str) -> Option<String> {
    if let Some(at) = text.find("[PyPy ") {
        let version = text[at + 6..].split_whitespace().next()?;
        return Some(format!("PyPy {version}"));
    }
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.contains("VM warning:"))?;
    let line = line.strip_prefix("info: ").unwrap_or(line);
    let mut out = String::new();
    let mut depth = 0usize;
    for c in line.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    Some(words.join(" ").chars().take(80).collect())
}

#[cfg(test)]
mod tests {
    use super::short_version;

    #[test]
    fn versions_are_made_short() {
        let pypy = "Python 3.9.16 (7.3.11+dfsg-2+deb12u3, Dec 30 2024, 22:36:23)\n[PyPy 7.3.11 with GCC 12.2.0]\n";
        assert_eq!(short_version(pypy).as_deref(), Some("PyPy 7.3.11"));
        let gcc = "g++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022\n";
        assert_eq!(short_version(gcc).as_deref(), Some("g++ 12.2.0"));
        let kotlin = "info: kotlinc-jvm 2.4.20 (JRE 17.0.21.1+2-1-deb12u1-Debian)\n";
        assert_eq!(short_version(kotlin).as_deref(), Some("kotlinc-jvm 2.4.20"));
        assert_eq!(short_version("\n \n"), None);
    }
}
