//! Precompiled headers: the `precompiled_headers` of a language table entry.
//!
//! ```text
//!   submission source mentions `bits/stdc++.h` ──► include_dirs ──► ["<cache>/v2/<key>"]
//!       the entry (built once per compile command + compiler, under its lock):
//!       <key>/bits/stdc++.h.gch      g++ <template with {source} = -c -MD ... -x c++-header
//!                                    judge-pch.h -x none, {binary} = that path>
//!       <key>/bits/stdc++.h          `#include_next <bits/stdc++.h>`: what a second
//!                                    `#include` of it opens (GCC names the .gch's header so)
//!       <key>/judge-entry.json       outcome, and the files the .gch was built from
//!   the submission's compile argv gets `-I <key dir>` appended
//! ```
//!
//! GCC looks for `<dir>/bits/stdc++.h.gch` before `<dir>/bits/stdc++.h` in every include
//! directory, and uses it only if it was built with compatible options and macros and the
//! `#include` comes before any code; otherwise it goes on to the next directory, i.e. the
//! header itself. What GCC does not check is whether the headers the .gch was built from
//! changed since: so the entry records them (`-MD`) with size and mtime, and a change rebuilds
//! it. The program compiled with the PCH is then the one compiled without it (measured
//! byte-identical for the jury's C++ sources), which is why a submission's cache key ignores
//! `precompiled_headers` (see [`super::compile_with_files`]).
//!
//! The header is built from the second source on that mentions it (the first leaves a mark in
//! `<cache>/seen/`): a cache that compiles one such source never pays for the build.
//!
//! A build that fails never fails a compile: the submission compiles without `-I` and judge
//! warns once per process. A compiler that exits with an error is cached as a failed entry (it
//! would fail again); a timeout or a kill is not (it may be the machine's load), but is not
//! retried by the same process. An interruption stops the build and leaves nothing behind.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::cache::{self, Cache};
use super::{
    clean_message, process, seconds, table, CompileError, CompileLimits, CompileOutcome, Language,
    LanguageSpec, MIB,
};
use crate::interrupt::Interrupted;

/// The header compiled into the .gch (`#include <HEADER>`), by this relative name in a folder
/// of its own: a compile error whose include chain passes through the precompiled header says
/// "from judge-pch.h:1" where it would say "from solution.cpp:LINE" without it.
const WRAPPER: &str = "judge-pch.h";
/// The dependency list `-MD` writes (in the wrapper's folder).
const DEPS: &str = "judge-pch.d";

/// A precompiled header entry's `judge-entry.json`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PchMeta {
    language: String,
    header: String,
    outcome: CompileOutcome,
    build_time_us: u64,
    /// Every file the .gch was built from (empty for a failed build).
    inputs: Vec<Input>,
}

/// A file a .gch was built from, as it was then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    path: String,
    bytes: u64,
    mtime_ns: u64,
}

/// When a compile that needs a precompiled header not built yet builds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PchPolicy {
    /// From the second source on that needs it (see [`ensure`]); a compile that finds
    /// another building it compiles without it.
    #[default]
    Lazy,
    /// At once, or, when another compile is building it, once that build ends: for a batch
    /// with several sources that need it, which come last but for one (see
    /// [`super::batch_order`]), so that waiting leaves no core idle that a compile without it
    /// would have used.
    Eager,
}

/// Whether `source` mentions one of the language's precompiled headers (so that its compile
/// would use one).
pub(crate) fn wanted(spec: &LanguageSpec, source: &[u8]) -> bool {
    spec.precompiled_headers.iter().any(|h| mentions(source, h))
}

/// Whether a precompiled header can be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pch {
    /// Its entry: the directory to pass with `-I`.
    Ready(PathBuf),
    /// Not built yet, by design: this is the first source of the cache that needs it, or
    /// another compile is building it now (see [`ensure`]).
    NotYet,
    /// Why not, in one line.
    Unavailable(String),
}

/// The `-I` directories for a compile of `sources` (the source, then extra files): one per
/// header of `spec.precompiled_headers` that they mention anywhere (a byte search, so sources
/// without it never pay for a build), built now if it is not in `cache`. A header that cannot
/// be built is left out, so the compiler reads the header itself, and is reported once per
/// process on stderr. `Err` only when judge was asked to stop.
pub(crate) fn include_dirs(
    language: Language,
    spec: &LanguageSpec,
    compiler: &Path,
    sources: &[&[u8]],
    limits: &CompileLimits,
    cache: &Cache,
    policy: PchPolicy,
) -> Result<Vec<PathBuf>, Interrupted> {
    let mut dirs = Vec::new();
    for header in &spec.precompiled_headers {
        if !sources.iter().any(|s| mentions(s, header)) {
            continue;
        }
        match ensure(language, spec, compiler, header, limits, cache, policy)? {
            Pch::Ready(dir) => dirs.push(dir),
            Pch::NotYet => {}
            Pch::Unavailable(why) => warn_once(language, header, &why),
        }
    }
    Ok(dirs)
}

/// Marks `header` as needed before in `cache`, so that the next compile that needs it builds
/// it (tests of the build itself start there).
#[cfg(test)]
pub(crate) fn mark_needed(
    language: Language,
    spec: &LanguageSpec,
    compiler: &Path,
    header: &str,
    cache: &Cache,
) {
    cache
        .mark_seen(&key(language, spec, header, compiler))
        .expect("marks the header as needed");
}

/// Whether `header`'s name occurs in `source`.
fn mentions(source: &[u8], header: &str) -> bool {
    let needle = header.as_bytes();
    !needle.is_empty() && source.windows(needle.len()).any(|w| w == needle)
}

/// Set once a warning was printed: an environment problem is worth one line, not one a compile.
static WARNED: AtomicBool = AtomicBool::new(false);

fn warn_once(language: Language, header: &str, why: &str) {
    if !WARNED.swap(true, Ordering::SeqCst) {
        eprintln!(
            "warning: cannot precompile <{header}> for {language}: {why}; compiling without it"
        );
    }
}

/// Entries whose build failed in this process without a cached result (timeout, kill, I/O),
/// and why: not tried again by this process.
static FAILED_HERE: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

fn failed_here(entry: &Path) -> Option<String> {
    let failed = FAILED_HERE.lock().unwrap_or_else(|e| e.into_inner());
    failed
        .iter()
        .find(|(p, _)| p == entry)
        .map(|(_, why)| why.clone())
}

fn remember_failure(entry: &Path, why: &str) {
    let mut failed = FAILED_HERE.lock().unwrap_or_else(|e| e.into_inner());
    failed.push((entry.to_path_buf(), why.to_string()));
}

/// The cache key of `header`'s precompiled entry: its own prefix and the header's name (so it
/// cannot collide with a submission's entry), then the compile command and the compiler's
/// identity exactly as a submission's key has them.
fn key(language: Language, spec: &LanguageSpec, header: &str, compiler: &Path) -> String {
    let mut h = cache::KeyHasher::new();
    h.field("judge-pch/1").field(language.id()).field(header);
    super::hash_compile_command(&mut h, spec, Some(compiler));
    h.finish()
}

/// `header`'s precompiled entry: found in `cache` (and still matching the files it was built
/// from), or built now under the entry's lock, so that judges and threads compiling at once
/// build it once. With [`PchPolicy::Lazy`] it is built from the second source on that needs
/// it ([`Pch::NotYet`] for the first, which leaves a mark in the cache): the build costs about
/// as much CPU time as the compiles of three or four such sources save, so a cache that
/// compiles one of them (a one-off `judge grade`) never pays for it, and one that compiles
/// many pays once; and the others compile without it while it is built. A batch that knows
/// several such sources builds it at once and has the others wait for it (`Eager`).
pub(crate) fn ensure(
    language: Language,
    spec: &LanguageSpec,
    compiler: &Path,
    header: &str,
    limits: &CompileLimits,
    cache: &Cache,
    policy: PchPolicy,
) -> Result<Pch, Interrupted> {
    let key = key(language, spec, header, compiler);
    let entry = cache.entry_path(&key);
    if let Some(why) = failed_here(&entry) {
        return Ok(Pch::Unavailable(why));
    }
    if let Some(meta) = read(&entry, language, header) {
        return Ok(found(meta, &entry));
    }
    match (cache.mark_seen(&key), policy) {
        (Ok(true), _) | (Ok(false), PchPolicy::Eager) => {}
        (Ok(false), PchPolicy::Lazy) => return Ok(Pch::NotYet),
        (Err(e), _) => return Ok(Pch::Unavailable(e.to_string())),
    }
    let lookup = || read(&entry, language, header);
    let locked = match policy {
        PchPolicy::Eager => cache.lookup_or_lock(&entry, lookup).map(Some),
        // A compile that finds another one building the header compiles without it rather
        // than wait (the build takes seconds; the compiles of a cold verify would leave cores
        // idle).
        PchPolicy::Lazy => cache.lookup_or_try_lock(&entry, lookup),
    };
    let _turn = match locked {
        Ok(None) => return Ok(Pch::NotYet),
        Ok(Some(cache::Lookup::Found(meta))) => return Ok(found(meta, &entry)),
        Ok(Some(cache::Lookup::Build(turn))) => turn,
        Err(CompileError::Interrupted(stop)) => return Err(stop),
        Err(e) => return Ok(Pch::Unavailable(e.to_string())),
    };
    // The build this one waited for failed without an entry (a timeout, a kill): not again.
    if let Some(why) = failed_here(&entry) {
        return Ok(Pch::Unavailable(why));
    }
    match build(language, spec, compiler, header, limits, cache, &entry) {
        Ok(pch) => Ok(pch),
        Err(Stop::Interrupted(stop)) => Err(stop),
        Err(Stop::Failed(why)) => {
            remember_failure(&entry, &why);
            Ok(Pch::Unavailable(why))
        }
    }
}

fn found(meta: PchMeta, entry: &Path) -> Pch {
    match meta.outcome {
        CompileOutcome::Ok => Pch::Ready(entry.to_path_buf()),
        CompileOutcome::Failed { message } => Pch::Unavailable(format!(
            "{} (cached: remove `{}` to try again)",
            first_error(&message),
            entry.display()
        )),
    }
}

/// An entry's record, if it is complete, describes `header` and (for a success) still holds
/// the .gch and every file it was built from is unchanged.
fn read(entry: &Path, language: Language, header: &str) -> Option<PchMeta> {
    let bytes = fs::read(entry.join(cache::META_FILE)).ok()?;
    let meta: PchMeta = serde_json::from_slice(&bytes).ok()?;
    let usable = meta.language == language.id()
        && meta.header == header
        && (meta.outcome != CompileOutcome::Ok
            || (entry.join(gch_name(header)).is_file()
                && meta
                    .inputs
                    .iter()
                    .all(|i| input(&i.path).as_ref() == Some(i))));
    usable.then_some(meta)
}

fn gch_name(header: &str) -> String {
    format!("{header}.gch")
}

/// `path` as it is now.
fn input(path: &str) -> Option<Input> {
    let meta = fs::metadata(path).ok()?;
    let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(Input {
        path: path.to_string(),
        bytes: meta.len(),
        mtime_ns: u64::try_from(mtime.as_nanos()).ok()?,
    })
}

/// Why a build ended without an entry.
enum Stop {
    Interrupted(Interrupted),
    /// Not cached (may be the machine's fault, or the cache's); why, in one line.
    Failed(String),
}

impl From<CompileError> for Stop {
    fn from(e: CompileError) -> Stop {
        match e {
            CompileError::Interrupted(stop) => Stop::Interrupted(stop),
            e => Stop::Failed(e.to_string()),
        }
    }
}

/// Builds `entry` (its lock held by the caller) in a temporary folder and installs it: a
/// success, or a compiler error (cached so that it is not retried). Anything else leaves no
/// entry.
fn build(
    language: Language,
    spec: &LanguageSpec,
    compiler: &Path,
    header: &str,
    limits: &CompileLimits,
    cache: &Cache,
    entry: &Path,
) -> Result<Pch, Stop> {
    let io = |what: &str, e: std::io::Error| Stop::Failed(format!("{what}: {e}"));
    if entry.exists() {
        // Incomplete, from an incompatible build, or built from files that changed since.
        fs::remove_dir_all(entry).map_err(|e| io("removing the stale cache entry", e))?;
    }
    // Installed as the entry; dropping it (an early return) removes the half-built entry.
    let built = cache.temp_dir()?;
    // The wrapper, the dependency list and the compiler's own temporary files.
    let scratch = cache.temp_dir()?;
    fs::write(
        scratch.path().join(WRAPPER),
        format!("#include <{header}>\n"),
    )
    .map_err(|e| io("writing the wrapper header", e))?;
    let gch = built.path().join(gch_name(header));
    if let Some(parent) = gch.parent() {
        fs::create_dir_all(parent).map_err(|e| io("creating the entry's folders", e))?;
    }
    let deps = scratch.path().join(DEPS);
    let Some(template) = &spec.compile else {
        return Err(Stop::Failed("the language has no compile command".into()));
    };
    let argv = build_argv(
        language,
        template,
        compiler,
        &gch,
        &deps,
        built.path(),
        limits.memory_bytes,
    );
    let mut env = spec.compile_env.clone();
    env.entry("TMPDIR".to_string())
        .or_insert_with(|| scratch.path().display().to_string());
    let rlimits = process::Rlimits {
        address_space: spec.compile_rlimit_as.then_some(limits.memory_bytes),
        file_size: limits.binary_bytes,
    };
    let cap = usize::try_from(limits.output_bytes).unwrap_or(usize::MAX);
    let cpu_limit = limits.header_cpu_time;
    let finished = process::run(&argv, scratch.path(), &env, cpu_limit, rlimits, cap)
        .map_err(|e| Stop::Failed(format!("could not start `{}`: {e}", argv[0])))?;
    let build_time_us = u64::try_from(finished.wall.as_micros()).unwrap_or(u64::MAX);
    let message = clean_message(&finished.output, scratch.path());
    let program = compiler
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (outcome, inputs) = match finished.exit {
        process::Exit::Code(0) => {
            if !gch.is_file() {
                return Err(Stop::Failed(format!(
                    "`{program}` wrote no `{}` (is `{{binary}}` its output?)",
                    gch_name(header)
                )));
            }
            // GCC takes the .gch's header to be `<dir>/<header>`: a second `#include` of it
            // (`<bits/extc++.h>` includes `<bits/stdc++.h>`) opens that path. The stub there
            // is the real header, by the search directories after this one.
            let stub = built.path().join(header);
            fs::write(&stub, format!("#include_next <{header}>\n"))
                .map_err(|e| Stop::Failed(format!("writing `{}`: {e}", stub.display())))?;
            (CompileOutcome::Ok, recorded_inputs(&deps)?)
        }
        process::Exit::Code(code) => {
            // The compiler would fail again: cache the failure, without a partial .gch.
            let _ = fs::remove_file(&gch);
            let message = if message.is_empty() {
                format!("`{program}` exited with status {code} and printed nothing")
            } else {
                format!("`{program}` exited with status {code}: {message}")
            };
            (CompileOutcome::Failed { message }, Vec::new())
        }
        process::Exit::Signal(sig) => {
            return Err(Stop::Failed(format!(
                "`{program}` was killed by signal {sig} (out of memory or file size limit?)"
            )))
        }
        process::Exit::TimedOut => {
            return Err(Stop::Failed(format!(
                "`{program}` used more than the limit of {} of CPU time for a precompiled header",
                seconds(cpu_limit)
            )))
        }
        process::Exit::Stalled => {
            return Err(Stop::Failed(format!(
                "`{program}` used only {} of CPU time in {} for a precompiled header: the \
                 machine is too busy, or the compiler hung",
                seconds(finished.cpu),
                seconds(finished.wall)
            )))
        }
        process::Exit::Interrupted(signal) => {
            return Err(Stop::Interrupted(Interrupted { signal }))
        }
    };
    let meta = PchMeta {
        language: language.id().to_string(),
        header: header.to_string(),
        outcome,
        build_time_us,
        inputs,
    };
    let json = serde_json::to_vec_pretty(&meta)
        .map_err(|e| Stop::Failed(format!("encoding the entry's record: {e}")))?;
    fs::write(built.path().join(cache::META_FILE), json)
        .map_err(|e| io("writing the entry's record", e))?;
    cache.install(built, entry)?;
    Ok(found(meta, entry))
}

/// The language's compile argv for building `gch`: `{source}` (a whole argument, as the table
/// checks) becomes `-c -MD -MF DEPS -MT pch -x c++-header judge-pch.h -x none` (`-c`: no link
/// step, which a `-lm` after `{source}` would start; `-x none`: any later input is what its
/// name says), `{binary}` the .gch, `{dir}` the entry being built.
fn build_argv(
    language: Language,
    template: &[String],
    compiler: &Path,
    gch: &Path,
    deps: &Path,
    dir: &Path,
    memory_bytes: u64,
) -> Vec<String> {
    let kind = if language.id() == "c" {
        "c-header"
    } else {
        "c++-header"
    };
    let gch = gch.display().to_string();
    let dir = dir.display().to_string();
    let mib = (memory_bytes / MIB).max(1).to_string();
    let values = [
        ("source", WRAPPER),
        ("binary", gch.as_str()),
        ("dir", dir.as_str()),
        ("memory_mib", mib.as_str()),
        ("main_class", "Main"),
    ];
    let mut argv = vec![compiler.display().to_string()];
    for arg in template.iter().skip(1) {
        // `{files}`: the header stands for the source and the files compiled with it.
        if arg == "{source}" || arg == "{files}" {
            let deps = deps.display().to_string();
            argv.extend(
                [
                    "-c", "-MD", "-MF", &deps, "-MT", "pch", "-x", kind, WRAPPER, "-x", "none",
                ]
                .map(String::from),
            );
        } else {
            argv.push(table::expand(arg, &values));
        }
    }
    argv
}

/// The files listed in the `-MD` output `deps` (but the wrapper), as they are now.
fn recorded_inputs(deps: &Path) -> Result<Vec<Input>, Stop> {
    let text = fs::read_to_string(deps)
        .map_err(|e| Stop::Failed(format!("cannot read the compiler's dependency list: {e}")))?;
    let Some(paths) = parse_deps(&text) else {
        return Err(Stop::Failed(
            "cannot parse the compiler's dependency list".into(),
        ));
    };
    let mut inputs = Vec::new();
    for path in paths.iter().filter(|p| *p != WRAPPER) {
        // A relative path is relative to the wrapper's folder, which is about to go.
        let found = Path::new(path).is_absolute().then(|| input(path)).flatten();
        let Some(found) = found else {
            return Err(Stop::Failed(format!(
                "cannot check `{path}` (from the compiler's dependency list)"
            )));
        };
        inputs.push(found);
    }
    Ok(inputs)
}

/// The prerequisites of the one make rule `-MD -MT pch` writes: `pch: a b \` newline ` c`,
/// with `\ ` and `\#` for a space or `#` in a name and `$$` for `$`.
fn parse_deps(text: &str) -> Option<Vec<String>> {
    let rest = text.strip_prefix("pch:")?;
    let mut paths = Vec::new();
    let mut current = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(' ' | '#')) => {
                current.extend(chars.next());
            }
            '\\' if matches!(chars.peek(), Some('\n')) => {
                chars.next();
                paths.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                current.push('$');
            }
            c if c.is_whitespace() => {
                paths.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
            }
            c => current.push(c),
        }
    }
    paths.extend((!current.is_empty()).then_some(current));
    Some(paths)
}

/// The first line of a compiler message that reports an error (else its first line).
fn first_error(message: &str) -> &str {
    message
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| message.lines().next())
        .unwrap_or("")
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::language::lang;

    #[test]
    fn dependency_lists_parse() {
        let text = "pch: judge-pch.h /usr/include/stdc-predef.h \\\n /usr/include/a\\ b.h \\\n /x/\\#y $$z\n";
        assert_eq!(
            parse_deps(text).unwrap(),
            [
                "judge-pch.h",
                "/usr/include/stdc-predef.h",
                "/usr/include/a b.h",
                "/x/#y",
                "$z"
            ]
        );
        assert_eq!(parse_deps("other: a"), None);
    }

    #[test]
    fn mentions_is_a_byte_search() {
        assert!(mentions(b"#include <bits/stdc++.h>\n", "bits/stdc++.h"));
        assert!(mentions(b"// bits/stdc++.h", "bits/stdc++.h"));
        assert!(!mentions(b"#include <bits/stdc++>", "bits/stdc++.h"));
        assert!(!mentions(b"", "bits/stdc++.h"));
    }

    #[test]
    fn the_build_argv_compiles_a_header_into_the_gch() {
        let template =
            ["g++", "-O2", "-o", "{binary}", "{source}", "-lm", "-I{dir}"].map(String::from);
        let argv = build_argv(
            lang("cpp"),
            &template,
            Path::new("/usr/bin/g++"),
            Path::new("/c/e/bits/stdc++.h.gch"),
            Path::new("/s/judge-pch.d"),
            Path::new("/c/e"),
            MIB,
        );
        assert_eq!(
            argv,
            [
                "/usr/bin/g++",
                "-O2",
                "-o",
                "/c/e/bits/stdc++.h.gch",
                "-c",
                "-MD",
                "-MF",
                "/s/judge-pch.d",
                "-MT",
                "pch",
                "-x",
                "c++-header",
                "judge-pch.h",
                "-x",
                "none",
                "-lm",
                "-I/c/e"
            ]
        );
    }

    #[test]
    fn first_error_keeps_the_line_that_says_what_failed() {
        assert_eq!(
            first_error("`g++` exited with status 1: In file included from x:\njudge-pch.h:1:10: fatal error: nope.h: No such file\ncompilation terminated."),
            "judge-pch.h:1:10: fatal error: nope.h: No such file"
        );
        assert_eq!(first_error("killed"), "killed");
    }
}
