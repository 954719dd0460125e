//! Compiling inside the sandbox. A compiler runs code of the submission (C++ `constexpr`,
//! Lisp's `eval-when`, Template Haskell's `runIO`, Prolog directives) and reads any file an
//! `#include` names, so it gets what a run gets and no more: the system folders and its own
//! install tree read-only, the build folder (bound at its own path) as its only writable
//! folder, a private `/tmp`, no network, its own uid, and the compile limits (CPU time,
//! memory, processes, output). After it ends, [`reclaim`] takes the build folder back:
//! anything but plain files and folders is removed, and what stays belongs to judge again.
//!
//! Where the sandbox cannot be set up, compilers run as judge's own user (one warning line
//! says so) under [`super::process`]'s limits, as before.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::process::{self, Exit, Finished};
use super::{CompileError, CompileLimits};
use crate::sandbox::{
    LimitHit, Limits, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin, Stdout, Termination,
};

/// Processes and threads a compiler may have at once: JVM compilers start a thread per core
/// for their collector and compiler pools; gcc, go and ghc fork a handful.
const PROCESSES: u32 = 256;
/// Memory a compiler may use beyond the compile memory limit: a JVM compiler's heap is capped
/// at that limit (`-J-Xmx`), its code cache, metaspace and thread stacks come on top.
const JVM_HEADROOM: u64 = 1024 * 1024 * 1024;
/// The compiler's private `/tmp` (its size), and the most it may print to stdout (of which
/// the compile output limit is kept): a JVM compiler writes its performance data to `/tmp`
/// whatever `TMPDIR` says.
const TMP_BYTES: u64 = 256 * 1024 * 1024;
/// Name of the compiler's scratch folder inside the build folder (its `TMPDIR` and `HOME`),
/// removed before the entry is installed.
pub(super) const SCRATCH: &str = ".judge-scratch";
/// Variables of judge's environment a compiler keeps (everything else is left behind).
const KEPT_ENV: &[&str] = &["PATH", "LANG", "LC_ALL", "LC_CTYPE", "JAVA_HOME"];

/// The sandbox compiles run in, set up once per process; `None` (after one warning line)
/// where it cannot be, or where `JUDGE_COMPILE_ON_HOST` is set by a test of the fallback.
pub(super) fn sandbox() -> Option<Arc<dyn Sandbox>> {
    static SANDBOX: OnceLock<Option<Arc<dyn Sandbox>>> = OnceLock::new();
    SANDBOX.get_or_init(make_sandbox).clone()
}

/// Whether compiles are to run outside the sandbox (`JUDGE_COMPILE_ON_HOST` set, for a test
/// of that fallback); part of a compile's cache key.
pub(super) fn host_requested() -> bool {
    std::env::var_os("JUDGE_COMPILE_ON_HOST").is_some()
}

#[cfg(target_os = "linux")]
fn make_sandbox() -> Option<Arc<dyn Sandbox>> {
    if host_requested() {
        super::toolchain::say_once(
            "warning: compilers run outside the sandbox (JUDGE_COMPILE_ON_HOST is set)".into(),
        );
        return None;
    }
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    match crate::sandbox::linux::LinuxSandbox::new(slots) {
        Ok(s) => Some(Arc::new(s)),
        Err(e) => {
            super::toolchain::say_once(format!(
                "warning: compilers run outside the sandbox, as judge's user: {e}"
            ));
            None
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn make_sandbox() -> Option<Arc<dyn Sandbox>> {
    super::toolchain::say_once(
        "warning: compilers run outside the sandbox (it needs Linux)".to_string(),
    );
    None
}

/// One compile to run in the sandbox.
pub(super) struct Compile<'a> {
    pub argv: Vec<String>,
    pub build_dir: &'a Path,
    /// The language's `compile_env`, already expanded.
    pub env: BTreeMap<String, String>,
    /// Folders the compiler reads besides the system ones (precompiled headers).
    pub read_only: Vec<PathBuf>,
    pub limits: &'a CompileLimits,
    /// Whether the compile memory limit holds the compiler's whole memory (not a JVM heap).
    pub whole_memory: bool,
}

/// Runs `compile` in `sandbox`, its end told as [`process`] tells a compiler's end.
pub(super) fn run(sandbox: &dyn Sandbox, compile: Compile) -> Result<Finished, CompileError> {
    let limits = compile.limits;
    let scratch = compile.build_dir.join(SCRATCH);
    // Writable by the compiler's uid (the sandbox gives it only the build folder itself).
    fs::create_dir(&scratch)
        .and_then(|()| fs::set_permissions(&scratch, fs::Permissions::from_mode(0o777)))
        .map_err(|e| CompileError::Io {
            context: format!(
                "making the compiler's scratch folder `{}`",
                scratch.display()
            ),
            source: e,
        })?;
    let (argv0, toolchain) = toolchain(&compile.argv[0]);
    let mut argv = compile.argv.clone();
    argv[0] = argv0.display().to_string();
    let mut read_only = compile.read_only;
    read_only.extend(toolchain);
    let request = RunRequest {
        env: environment(compile.env, &scratch),
        argv,
        stdin: Stdin::Null,
        stdout: Stdout::Capture,
        read_only,
        work_dir: Some(compile.build_dir.to_path_buf()),
        work_files: Vec::new(),
        limits: Limits {
            cpu_time: limits.cpu_time,
            wall_time: limits.cpu_time.saturating_mul(process::BACKSTOP_FACTOR),
            memory_bytes: match compile.whole_memory {
                true => limits.memory_bytes,
                false => limits.memory_bytes.saturating_add(JVM_HEADROOM),
            },
            output_bytes: TMP_BYTES,
            stderr_bytes: limits.output_bytes,
            processes: PROCESSES,
        },
        stop: None,
        companions: None,
    };
    let outcome = sandbox.run(&request);
    let largest = reclaim(compile.build_dir)?;
    // A Ctrl-C reaches the compiler too (it is in judge's process group): the compile was
    // interrupted, whatever it ended with.
    if let Some(signal) = crate::interrupt::requested() {
        return Err(crate::interrupt::Interrupted { signal }.into());
    }
    // Nothing in the box can send these: a compiler ended by one got judge's Ctrl-C (or
    // SIGTERM) before judge's own handler marked the request.
    if let Ok(RunOutcome {
        termination: Termination::Signaled(sig @ (libc::SIGINT | libc::SIGTERM)),
        ..
    }) = &outcome
    {
        return Err(crate::interrupt::Interrupted { signal: *sig }.into());
    }
    let outcome = outcome.map_err(|e| match e {
        SandboxError::Interrupted(i) => CompileError::Interrupted(i),
        other => CompileError::Spawn {
            program: compile.argv[0].clone(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    let mut output = outcome.stdout;
    output.truncate(usize::try_from(limits.output_bytes).unwrap_or(usize::MAX));
    if !output.is_empty() && !output.ends_with(b"\n") && !outcome.stderr.is_empty() {
        output.push(b'\n');
    }
    output.extend_from_slice(&outcome.stderr);
    let exit = match (outcome.limit_hit, outcome.termination) {
        (Some(LimitHit::CpuTime), _) => Exit::TimedOut,
        (Some(LimitHit::WallTime | LimitHit::Overloaded), _) => Exit::Stalled,
        (Some(hit @ (LimitHit::Memory | LimitHit::Output | LimitHit::Disk)), _) => {
            output.extend_from_slice(over_limit(hit, limits).as_bytes());
            Exit::Signal(libc::SIGKILL)
        }
        (_, Termination::Exited(0)) if largest > limits.binary_bytes => {
            output.extend_from_slice(too_large(limits).as_bytes());
            Exit::Code(1)
        }
        (_, Termination::Exited(code)) => Exit::Code(code),
        (_, Termination::Signaled(signal)) => Exit::Signal(signal),
    };
    Ok(Finished {
        exit,
        output,
        wall: outcome.wall_time,
        cpu: outcome.cpu_time,
    })
}

/// The line said of a compile that wrote a file over the binary size limit.
fn too_large(limits: &CompileLimits) -> String {
    format!(
        "the compiler wrote a file of more than {} MiB (the limit of a compiled program)",
        limits.binary_bytes / (1024 * 1024)
    )
}

/// The line said of a compiler stopped at `hit`.
fn over_limit(hit: LimitHit, limits: &CompileLimits) -> String {
    let mib = |b: u64| b / (1024 * 1024);
    match hit {
        LimitHit::Memory => format!(
            "\nthe compiler used more than the compile memory limit ({} MiB)",
            mib(limits.memory_bytes)
        ),
        LimitHit::Output => format!("\nthe compiler printed more than {} MiB", mib(TMP_BYTES)),
        _ => "\nthe compiler wrote more than its disk quota".to_string(),
    }
}

/// The compiler's whole environment: [`KEPT_ENV`] from judge's, `HOME` and `TMPDIR` its
/// scratch folder, then the language's `compile_env`.
fn environment(compile_env: BTreeMap<String, String>, scratch: &Path) -> Vec<(String, String)> {
    let mut env: BTreeMap<String, String> = KEPT_ENV
        .iter()
        .filter_map(|k| Some((k.to_string(), std::env::var(k).ok()?)))
        .collect();
    env.entry("PATH".into())
        .or_insert_with(|| "/usr/local/bin:/usr/bin:/bin".into());
    let scratch = scratch.display().to_string();
    env.insert("HOME".into(), scratch.clone());
    env.insert("TMPDIR".into(), scratch);
    env.extend(compile_env);
    env.into_iter().collect()
}

/// The program to start for compiler `program` and the folders it reads beyond the system
/// ones (worked out once per compiler in a process): a rustup proxy stands for its
/// toolchain's own `rustc` (the proxy needs rustup's settings and home, which the box does
/// not have).
fn toolchain(program: &str) -> (PathBuf, Vec<PathBuf>) {
    type Known = std::sync::Mutex<BTreeMap<String, (PathBuf, Vec<PathBuf>)>>;
    static KNOWN: OnceLock<Known> = OnceLock::new();
    let known = KNOWN.get_or_init(Known::default);
    let lock = || {
        known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(found) = lock().get(program) {
        return found.clone();
    }
    let found = find_toolchain(program);
    lock().insert(program.to_string(), found.clone());
    found
}

fn find_toolchain(program: &str) -> (PathBuf, Vec<PathBuf>) {
    let path = PathBuf::from(program);
    let Ok(canonical) = fs::canonicalize(&path) else {
        return (path, Vec::new());
    };
    if canonical.file_name().is_some_and(|n| n == "rustup") {
        if let Some(sysroot) = rust_sysroot(&path) {
            return (sysroot.join("bin/rustc"), vec![sysroot]);
        }
    }
    let Some(own) = canonical.parent() else {
        return (path, Vec::new());
    };
    // Its install tree (`bin/..`), or its own folder where that is too broad (`/tmp`, `/usr`).
    let home = match own.parent() {
        Some(home) if home.components().count() >= 3 => home,
        _ => own,
    };
    let mut dirs = Vec::new();
    if home.components().count() >= 3 {
        // Where links in the tree lead (GHC's package database is in /var/lib/ghc).
        dirs.extend(super::toolchain::symlink_target_dirs(home));
    }
    dirs.push(home.to_path_buf());
    dirs.retain(|d| !is_system(d));
    (path, super::toolchain::minimal_cover(dirs))
}

/// Whether `dir` lies in a folder every run sees anyway (the sandbox's system folders).
#[cfg(target_os = "linux")]
fn is_system(dir: &Path) -> bool {
    crate::sandbox::linux::SYSTEM_DIRS
        .iter()
        .any(|s| dir.starts_with(s))
}

#[cfg(not(target_os = "linux"))]
fn is_system(_dir: &Path) -> bool {
    false
}

/// The sysroot of the toolchain a rustup proxy `rustc` starts (asked once per process).
fn rust_sysroot(proxy: &Path) -> Option<PathBuf> {
    static SYSROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    SYSROOT
        .get_or_init(|| {
            let out = std::process::Command::new(proxy)
                .args(["--print", "sysroot"])
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output()
                .ok()?;
            let text = String::from_utf8(out.stdout).ok()?;
            let root = PathBuf::from(text.trim());
            (out.status.success() && root.join("bin/rustc").is_file()).then_some(root)
        })
        .clone()
}

/// Takes the build folder back from the compiler: removes its scratch folder and every entry
/// that is not a plain folder or a plain file with one link (a link could lead judge, or a
/// later run given the entry's files, out of the folder), and gives what stays to judge's
/// user, readable by all, writable by none but it, with no set-id bits. Returns the size of
/// the largest file that stays.
pub(super) fn reclaim(build_dir: &Path) -> Result<u64, CompileError> {
    let io = |context: String| move |source| CompileError::Io { context, source };
    let scratch = build_dir.join(SCRATCH);
    if fs::symlink_metadata(&scratch).is_ok() {
        remove(&scratch).map_err(io(format!("removing `{}`", scratch.display())))?;
    }
    settle(build_dir).map_err(io(format!("taking back `{}`", build_dir.display())))?;
    let mut stack = vec![build_dir.to_path_buf()];
    let mut largest = 0;
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).map_err(io(format!("reading `{}`", dir.display())))?;
        for entry in entries {
            let path = entry
                .map_err(io(format!("reading `{}`", dir.display())))?
                .path();
            let meta =
                fs::symlink_metadata(&path).map_err(io(format!("reading `{}`", path.display())))?;
            let plain = meta.is_dir() || (meta.is_file() && meta.nlink() == 1);
            if !plain {
                remove(&path).map_err(io(format!("removing `{}`", path.display())))?;
                continue;
            }
            settle(&path).map_err(io(format!("taking back `{}`", path.display())))?;
            if meta.is_dir() {
                stack.push(path);
            } else {
                largest = largest.max(meta.len());
            }
        }
    }
    Ok(largest)
}

/// Removes `path`, a folder with what it holds or any other entry, without following links.
fn remove(path: &Path) -> std::io::Result<()> {
    match fs::symlink_metadata(path)?.is_dir() {
        true => fs::remove_dir_all(path),
        false => fs::remove_file(path),
    }
}

/// Gives the plain file or folder `path` to judge's user: owner judge, mode without set-id
/// bits and writable by the owner only (folders and executables searchable by all).
fn settle(path: &Path) -> std::io::Result<()> {
    // SAFETY: geteuid and getegid have no preconditions and cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let meta = fs::symlink_metadata(path)?;
    if meta.uid() != uid || meta.gid() != gid {
        std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
    }
    let mode = meta.mode() & 0o7777;
    let wanted = match meta.is_dir() || mode & 0o111 != 0 {
        true => 0o755,
        false => 0o644,
    };
    if mode != wanted {
        fs::set_permissions(path, fs::Permissions::from_mode(wanted))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn reclaim_keeps_plain_files_and_removes_links_fifos_and_scratch() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("binary"), b"x").unwrap();
        fs::set_permissions(d.join("binary"), fs::Permissions::from_mode(0o4777)).unwrap();
        fs::create_dir(d.join("classes")).unwrap();
        fs::write(d.join("classes/Main.class"), b"c").unwrap();
        symlink("/etc/shadow", d.join("meta.json")).unwrap();
        symlink("/etc", d.join("classes/etc")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("host"), b"t").unwrap();
        fs::hard_link(outside.path().join("host"), d.join("classes/twice")).unwrap();
        fs::create_dir_all(d.join(SCRATCH).join("deep")).unwrap();
        let fifo = std::ffi::CString::new(d.join("pipe").to_str().unwrap()).unwrap();
        // SAFETY: a valid C string; mkfifo only creates the file.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);

        assert_eq!(reclaim(d).unwrap(), 1);

        let mut left: Vec<String> = walk(d);
        left.sort();
        assert_eq!(left, ["binary", "classes", "classes/Main.class"]);
        let mode = |p: &str| fs::metadata(d.join(p)).unwrap().mode() & 0o7777;
        assert_eq!(mode("binary"), 0o755);
        assert_eq!(mode("classes/Main.class"), 0o644);
        assert_eq!(mode("classes"), 0o755);
        assert!(Path::new("/etc/shadow").exists());
        assert_eq!(fs::read(outside.path().join("host")).unwrap(), b"t");
    }

    fn walk(root: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for e in fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                out.push(p.strip_prefix(root).unwrap().display().to_string());
                if p.symlink_metadata().unwrap().is_dir() {
                    stack.push(p);
                }
            }
        }
        out
    }

    #[test]
    fn the_environment_is_judges_few_variables_then_the_languages() {
        let env: BTreeMap<String, String> =
            environment([("GOCACHE".into(), "/x".into())].into(), Path::new("/b/s"))
                .into_iter()
                .collect();
        assert_eq!(env["HOME"], "/b/s");
        assert_eq!(env["TMPDIR"], "/b/s");
        assert_eq!(env["GOCACHE"], "/x");
        assert!(env.contains_key("PATH"));
        assert!(env.keys().all(|k| KEPT_ENV.contains(&k.as_str())
            || ["HOME", "TMPDIR", "GOCACHE"].contains(&k.as_str())));
    }
}
