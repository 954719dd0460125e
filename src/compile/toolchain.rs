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
fn symlink_target_dirs(root: &Path) -> Vec<PathBuf> {
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
