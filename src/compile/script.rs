//! Programs given as a folder with POSIX `build` / `run` scripts (the Kattis package format's
//! "other programs": validators). The folder is copied into a fresh build directory, `build`
//! runs there (as judge's user, outside the sandbox, under the compile limits: unlike a
//! compiler's, a build script's tools are not yet given to it in the box), and
//! `run` must then be an executable file. The result is a cache entry keyed by every file of
//! the folder, like a compiled submission.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cache::{self, Cache};
use super::{clean_message, process, CompileError, CompileLimits, CompileOutcome};

const META: &str = "script-meta.json";

/// A built folder program.
#[derive(Debug, Clone)]
pub struct BuiltScript {
    pub outcome: CompileOutcome,
    /// The cache entry holding the copy of the folder (and what `build` made).
    pub entry_dir: PathBuf,
    /// `entry_dir/run`.
    pub run: PathBuf,
    pub cached: bool,
    pub build_time: Duration,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    outcome: CompileOutcome,
    build_time_us: u64,
}

/// Every regular file under `dir` (relative path, contents), sorted; dotfiles skipped.
fn files(dir: &Path) -> std::io::Result<Vec<(PathBuf, Vec<u8>, bool)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let path = entry.path();
            let meta = fs::metadata(&path)?;
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let rel = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
                let exec = meta.permissions().mode() & 0o111 != 0;
                out.push((rel, fs::read(&path)?, exec));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Builds (or finds in `cache`) the folder program `dir`. `Err` only when the harness is at
/// fault (unreadable folder, unwritable cache); a failing `build` is a `Failed` outcome.
pub fn build(
    dir: &Path,
    limits: &CompileLimits,
    cache: &Cache,
) -> Result<BuiltScript, CompileError> {
    let io = |context: String| move |source| CompileError::Io { context, source };
    let files = files(dir).map_err(io(format!("reading `{}`", dir.display())))?;
    let mut h = cache::KeyHasher::new();
    h.field("judge-script/1");
    for (rel, bytes, exec) in &files {
        h.field(rel.as_os_str().as_encoded_bytes())
            .field(bytes)
            .field([u8::from(*exec)]);
    }
    let entry = cache.entry_path(&h.finish());
    let done = |outcome, build_time_us: u64, cached| BuiltScript {
        outcome,
        run: entry.join("run"),
        entry_dir: entry.clone(),
        cached,
        build_time: Duration::from_micros(build_time_us),
    };
    let read = || {
        fs::read(entry.join(META))
            .ok()
            .and_then(|b| serde_json::from_slice::<Meta>(&b).ok())
    };
    let _turn = match cache.lookup_or_lock(&entry, read)? {
        cache::Lookup::Found(meta) => return Ok(done(meta.outcome, meta.build_time_us, true)),
        cache::Lookup::Build(turn) => turn,
    };
    if entry.exists() {
        fs::remove_dir_all(&entry).map_err(io(format!(
            "removing stale cache entry `{}`",
            entry.display()
        )))?;
    }
    let built = cache.temp_dir()?;
    let root = built.path().to_path_buf();
    for (rel, bytes, exec) in &files {
        let target = root.join(rel);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io(format!("copying `{}`", dir.display())))?;
        }
        fs::write(&target, bytes).map_err(io(format!("copying `{}`", dir.display())))?;
        if *exec {
            fs::set_permissions(&target, fs::Permissions::from_mode(0o755))
                .map_err(io(format!("copying `{}`", dir.display())))?;
        }
    }
    let mut outcome = CompileOutcome::Ok;
    let mut time = Duration::ZERO;
    let build_script = root.join("build");
    if build_script.is_file() {
        let argv = vec!["/bin/sh".to_string(), build_script.display().to_string()];
        let finished = process::run(
            &argv,
            &root,
            &Default::default(),
            limits.cpu_time,
            process::Rlimits {
                address_space: None,
                file_size: limits.binary_bytes,
            },
            usize::try_from(limits.output_bytes).unwrap_or(usize::MAX),
        )
        .map_err(|source| CompileError::Spawn {
            program: build_script.display().to_string(),
            source,
        })?;
        time = finished.wall;
        let message = clean_message(&finished.output, &root);
        match finished.exit {
            process::Exit::Code(0) => {}
            process::Exit::Code(code) => {
                outcome = CompileOutcome::Failed {
                    message: format!("`build` exited with status {code}: {message}"),
                }
            }
            process::Exit::Signal(sig) => {
                outcome = CompileOutcome::Failed {
                    message: format!("`build` was killed by signal {sig}: {message}"),
                }
            }
            process::Exit::TimedOut => {
                outcome = CompileOutcome::Failed {
                    message: format!(
                        "`build` ran over {} s of CPU time",
                        limits.cpu_time.as_secs()
                    ),
                }
            }
            process::Exit::Stalled => {
                return Err(CompileError::Stalled(
                    finished.stalled("build", limits.cpu_time),
                ))
            }
            process::Exit::Interrupted(signal) => {
                return Err(crate::interrupt::Interrupted { signal }.into())
            }
        }
    }
    let run = root.join("run");
    if outcome == CompileOutcome::Ok {
        let executable =
            fs::metadata(&run).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if !executable {
            outcome = CompileOutcome::Failed {
                message: "there is no executable `run` file after `build`".into(),
            };
        }
    }
    let meta = Meta {
        outcome: outcome.clone(),
        build_time_us: u64::try_from(time.as_micros()).unwrap_or(u64::MAX),
    };
    let json = serde_json::to_vec(&meta).map_err(|e| CompileError::Io {
        context: "encoding cache metadata".into(),
        source: std::io::Error::other(e),
    })?;
    fs::write(root.join(META), json).map_err(io("writing cache metadata".into()))?;
    cache.install(built, &entry)?;
    Ok(done(outcome, meta.build_time_us, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_once_and_requires_an_executable_run() {
        let cache_dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(cache_dir.path());
        let prog = tempfile::tempdir().unwrap();
        fs::write(
            prog.path().join("build"),
            "#!/bin/sh\nprintf '#!/bin/sh\\nexit 42\\n' > run\nchmod +x run\n",
        )
        .unwrap();
        let b = build(prog.path(), &CompileLimits::default(), &cache).unwrap();
        assert_eq!(b.outcome, CompileOutcome::Ok);
        assert!(!b.cached);
        assert!(b.run.is_file());
        let again = build(prog.path(), &CompileLimits::default(), &cache).unwrap();
        assert!(again.cached);
        assert_eq!(again.entry_dir, b.entry_dir);

        let broken = tempfile::tempdir().unwrap();
        fs::write(
            broken.path().join("build"),
            "#!/bin/sh\necho oops >&2\nexit 3\n",
        )
        .unwrap();
        let b = build(broken.path(), &CompileLimits::default(), &cache).unwrap();
        match b.outcome {
            CompileOutcome::Failed { message } => {
                assert!(
                    message.contains("status 3") && message.contains("oops"),
                    "{message}"
                )
            }
            CompileOutcome::Ok => panic!("a failing build must fail"),
        }
        let no_run = tempfile::tempdir().unwrap();
        fs::write(no_run.path().join("README"), "nothing\n").unwrap();
        let b = build(no_run.path(), &CompileLimits::default(), &cache).unwrap();
        assert!(matches!(b.outcome, CompileOutcome::Failed { .. }));
    }
}
