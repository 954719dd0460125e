//! Compiling submissions into something the sandbox can run.
//!
//! ```text
//!   Submission (path, Language) ──► compile(table, limits, cache) ──► Compiled
//!       Compiled.outcome: Ok | Failed { message }      (a contestant's CE is data)
//!       Compiled::run_request(limits, stdin, work_dir) ──► sandbox::RunRequest
//! ```
//!
//! The compiler runs in the sandbox (it runs the submission's compile-time code; see
//! [`boxed`]), in a fresh directory, under the compile limits. That directory (source copy + compiler output) becomes a
//! [`Cache`] entry keyed by a hash of the source, the language and the compiler, so grading
//! the same file twice compiles it once. Compile errors are cached too; timeouts and
//! compilers killed by a signal are not (they may be the machine's fault).
//!
//! A language may list `precompiled_headers` (C++: `bits/stdc++.h`): a source that mentions
//! one is compiled with `-I` to a cache entry holding its GCC precompiled header, built once
//! (see [`pch`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::sandbox::{Limits, RunRequest, Stdin, Stdout};

mod boxed;
mod build;
pub mod cache;
mod entry;
pub mod language;
mod pch;
pub use pch::PchPolicy;
mod contest_table;
mod message;
pub(crate) use message::clean_message;
#[cfg(test)]
use message::trim_message;
pub(crate) mod process;
pub mod script;
mod sources;
mod sparse;
pub mod table;
mod toolchain;

pub use cache::Cache;
pub use contest_table::beside_package as languages_beside_package;
use entry::{cache_key, hash_compile_command, needs_binary, read_entry, EntryMeta};
pub use language::{Language, ParseLanguageError, Submission, SubmissionError};

pub use table::{LanguageSpec, LanguageTable, TableError};
pub use toolchain::runtime;
use toolchain::{resolve_compiler, resolve_interpreter, runtime_dirs};
pub(crate) use toolchain::{resolve_program, settle_compile};

const MIB: u64 = 1 << 20;
/// Compiler messages are cut to this many lines ...
const MESSAGE_LINES: usize = 40;
/// ... and this many bytes.
const MESSAGE_BYTES: usize = 4096;
/// File name of the compiled program inside an entry (`{binary}`).
const BINARY_NAME: &str = "solution";

/// Limits on one compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileLimits {
    /// CPU-time limit of the compiler (its whole process group): past it the compiler is
    /// killed and the result is a compile error "compilation exceeded N s of CPU time". Time
    /// spent waiting for a CPU does not count; a wall-clock backstop of 10 times the limit
    /// (less the waits for a CPU; 100 times in all) ends a compiler that does not run, as a
    /// [`CompileError::Stalled`] (not the submission's fault).
    pub cpu_time: Duration,
    /// Address-space limit for the compiler (skipped for languages whose table entry sets
    /// `compile_rlimit_as = false`, i.e. JVM-based compilers, which get `{memory_mib}`
    /// for `-J-Xmx` instead).
    pub memory_bytes: u64,
    /// Bytes of compiler stdout and of stderr kept (each); the rest is drained and dropped.
    pub output_bytes: u64,
    /// Largest file the compiler may write (RLIMIT_FSIZE). 1 GiB: a program may hold a large
    /// initialised static array (BAPCtools' `test-memstatic.cc`, 512 MiB, expects a run-time
    /// verdict, not CE; DOMjudge allows 2.5 GB, BAPCtools no limit). The zero blocks of a
    /// large compiled file are holes in its cache entry ([`sparse`]).
    pub binary_bytes: u64,
    /// Larger sources are a compile error without running the compiler.
    pub source_bytes: u64,
    /// CPU-time limit of a precompiled header's build (see `pch`): longer than a
    /// submission's, since it is the judge's own work on a known header (5-6 s of CPU time
    /// here) and a build killed is lost for every compile waiting for it.
    pub header_cpu_time: Duration,
}

impl Default for CompileLimits {
    /// 30 s of CPU time, 2 GiB, 64 KiB of output, 1 GiB binaries, 16 MiB sources; 120 s of
    /// CPU time for a precompiled header.
    fn default() -> Self {
        CompileLimits {
            cpu_time: Duration::from_secs(30),
            memory_bytes: 2048 * MIB,
            output_bytes: 64 * 1024,
            binary_bytes: 1024 * MIB,
            source_bytes: 16 * MIB,
            header_cpu_time: Duration::from_secs(120),
        }
    }
}

/// Whether the contestant's source compiled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum CompileOutcome {
    Ok,
    /// Compile error. `message` is the compiler's output (paths shown relative to the
    /// build directory) trimmed to at most 40 lines / ~4 KiB, ending in "... (N more
    /// lines)" when cut; or a sentence such as "compilation exceeded 30 s".
    Failed {
        message: String,
    },
}

/// The result of [`compile`]: the outcome plus everything needed to run the program.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub language: Language,
    pub outcome: CompileOutcome,
    /// Wall time of the compilation that produced this result; on a cache hit, that of the
    /// original compilation. Only the submission's own compiler run: building a precompiled
    /// header it needed first (a one-off, seconds) is not included.
    pub compile_time: Duration,
    /// True if the result came from the cache and no compiler ran.
    pub cached: bool,
    /// The cache entry (source copy, binary or classes). `None` only for uncached compile
    /// errors (timeout, compiler killed, source too large).
    pub entry_dir: Option<PathBuf>,
    /// The complete environment for the run (from the language table).
    pub env: Vec<(String, String)>,
    /// Directories the run must be able to read: the entry, then the runtime's install
    /// tree(s) (e.g. `/usr/lib/python3.11`, the JDK home and the `/etc` directories its
    /// symlinks point into). Empty for compile errors.
    pub read_only: Vec<PathBuf>,
    /// The files placed beside the source (a package's included files, a folder program's
    /// other files), in the entry: a submission finds them in its working directory too, as
    /// in the Kattis and DOMjudge working folders. Empty for compile errors.
    pub work_files: Vec<PathBuf>,
    /// Processes/threads the language needs at least.
    pub processes: u32,
    /// Stderr markers with which the runtime reports running out of memory.
    pub out_of_memory: Vec<String>,
    /// Run argv with all placeholders but `{memory_mib}` expanded; empty for compile errors.
    run_template: Vec<String>,
}

impl Compiled {
    /// True if the program compiled and can be run.
    pub fn is_ok(&self) -> bool {
        self.outcome == CompileOutcome::Ok
    }

    /// The run argv for a memory limit of `memory_bytes` (`{memory_mib}` = whole MiB, at
    /// least 1); `None` for a compile error. argv[0] is an absolute path.
    pub fn run_argv(&self, memory_bytes: u64) -> Option<Vec<String>> {
        if !self.is_ok() {
            return None;
        }
        let mib = (memory_bytes / MIB).max(1).to_string();
        Some(
            self.run_template
                .iter()
                .map(|a| table::expand(a, &[("memory_mib", &mib)]))
                .collect(),
        )
    }

    /// A sandbox request running this program, or `None` for a compile error.
    /// `limits.processes` is raised to the language's minimum if it is lower (a JVM cannot
    /// start with one thread); every other limit is used as given.
    pub fn run_request(
        &self,
        limits: &Limits,
        stdin: Stdin,
        work_dir: Option<PathBuf>,
    ) -> Option<RunRequest> {
        let argv = self.run_argv(limits.memory_bytes)?;
        let mut limits = limits.clone();
        limits.processes = limits.processes.max(self.processes);
        Some(RunRequest {
            argv,
            env: self.env.clone(),
            stdin,
            stdout: Stdout::Capture,
            read_only: self.read_only.clone(),
            work_dir,
            work_files: self.work_files.clone(),
            limits,
            stop: None,
            companions: None,
        })
    }
}

/// The harness could not compile (not the contestant's fault).
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error("compiler `{program}` not found in PATH (needed for {language} submissions{})", install_hint(.package))]
    CompilerMissing {
        program: String,
        language: Language,
        /// The Debian package that brings it (the table's `package`).
        package: Option<String>,
    },
    #[error("interpreter `{program}` not found (needed to run {language} submissions{})", install_hint(.package))]
    InterpreterMissing {
        program: String,
        language: Language,
        package: Option<String>,
    },
    #[error("could not start compiler `{program}`: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("the {language} compiler succeeded but did not produce `{}`; check the language table", path.display())]
    MissingArtifact { language: Language, path: PathBuf },
    #[error("cache directory `{}` is not writable: {source}", dir.display())]
    CacheUnwritable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
    /// The compiler got (or used) too little CPU time for too long: stopped at the wall-clock
    /// backstop with its CPU time under the limit. The machine's fault (or a hung compiler),
    /// never the submission's.
    #[error("{0}")]
    Stalled(String),
    /// Judge was asked to stop while compiling; the compiler was killed and nothing cached.
    #[error("{0}")]
    Interrupted(#[from] crate::interrupt::Interrupted),
}

/// Why `language` cannot be graded on this machine: its compiler or its runtime is missing
/// (the error names it and the Debian package that brings it). `None` when both are there.
pub fn missing_toolchain(table: &LanguageTable, language: Language) -> Option<CompileError> {
    let spec = table.spec(language);
    if let Err(e) = resolve_interpreter(language, spec) {
        return Some(e);
    }
    let compiler = spec.compile.as_ref()?.first()?;
    resolve_compiler(language, compiler, spec.package.as_deref()).err()
}

/// "; install the Debian package P" when the table names one.
fn install_hint(package: &Option<String>) -> String {
    match package {
        Some(p) => format!("; install the Debian package {p}"),
        None => String::new(),
    }
}

/// Compiles `submission` (or finds it in `cache`).
///
/// `Ok` whatever the contestant wrote: a compile error is `Compiled { outcome: Failed }`.
/// `Err` means the harness is at fault: a missing compiler or interpreter, an unreadable
/// source, an unwritable cache.
pub fn compile(
    submission: &Submission,
    table: &LanguageTable,
    limits: &CompileLimits,
    cache: &Cache,
) -> Result<Compiled, CompileError> {
    compile_with_files(
        submission,
        &Included::default(),
        table,
        limits,
        cache,
        PchPolicy::Lazy,
    )
}

/// The order in which to compile a batch of `submissions` on several threads, each with
/// when it builds a precompiled header it needs: the slow compilers first, so that no long
/// compile is left alone at the end (a compile that is the runtime's own syntax check, as
/// Python's and Ruby's, is quick). When several sources use a precompiled header (C++ with
/// `<bits/stdc++.h>`), the first of them comes first and builds it at once, and the others
/// come last and wait for that build ([`PchPolicy::Eager`]) while the rest of the batch
/// compiles beside it: each would take 4-5
/// times as long without it (magic-square's cold verify compiled 3 of its 7 C++ sources
/// without it, 2.0-2.9 s each against 0.3-0.6 s, before this order).
pub fn batch_order(submissions: &[Submission], table: &LanguageTable) -> Vec<(usize, PchPolicy)> {
    let mut order: Vec<usize> = (0..submissions.len()).collect();
    order.sort_by_key(|&i| {
        let spec = table.spec(submissions[i].language);
        match (&spec.compile, spec.run.first()) {
            (Some(c), Some(r)) if c.first() != Some(r) => 0,
            _ => 1,
        }
    });
    let (users, rest): (Vec<usize>, Vec<usize>) = order
        .iter()
        .partition(|&&i| wants_precompiled_header(&submissions[i], table));
    match users.split_first() {
        Some((&first, others)) if !others.is_empty() => std::iter::once((first, PchPolicy::Eager))
            .chain(rest.into_iter().map(|i| (i, PchPolicy::Lazy)))
            .chain(others.iter().map(|&i| (i, PchPolicy::Eager)))
            .collect(),
        _ => order.into_iter().map(|i| (i, PchPolicy::Lazy)).collect(),
    }
}

/// Whether compiling `submission` would use one of its language's precompiled headers (its
/// source mentions one). False for a source that cannot be read (its compile says why).
fn wants_precompiled_header(submission: &Submission, table: &LanguageTable) -> bool {
    let spec = table.spec(submission.language);
    let source = submission.entry.as_deref().unwrap_or(&submission.path);
    !spec.precompiled_headers.is_empty()
        && spec.compile.is_some()
        && fs::read(source).is_ok_and(|bytes| pch::wanted(spec, &bytes))
}

/// Files a package adds to a program ([`compile_with_files`]): headers, modules, a grader,
/// as `(file name, contents)`, and the one of them that is the program's entry point in
/// place of its own, if any (problemtools: an included `main.*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Included {
    pub files: Vec<(String, Vec<u8>)>,
    pub entry: Option<String>,
}

/// [`compile`] with a package's `included` files placed beside the source in the build
/// directory. They are part of the cache key. For a program given as a folder they come
/// after the folder's own files, and one of the same name replaces the folder's. Where one
/// of them is the entry point, the submission's own files go beside it under their own
/// names, laid out as a folder named after the submission.
///
/// A program given as a folder is laid out in its entry under a folder of the program
/// folder's own name (`<entry>/n/y.py` for the folder `generators/n`, a link to `y/` or
/// not), keeping its entry point's file name, as BAPCtools runs it: a program may look at
/// its own path (`argv[0]`, `__file__`). The name is part of the cache key.
///
/// `pch` says when a precompiled header the source needs is built (see [`PchPolicy`]); the
/// program is the same either way.
pub fn compile_with_files(
    submission: &Submission,
    included: &Included,
    table: &LanguageTable,
    limits: &CompileLimits,
    cache: &Cache,
    pch: PchPolicy,
) -> Result<Compiled, CompileError> {
    let language = submission.language;
    let spec = table.spec(language);
    let sources::Sources {
        source,
        extra,
        folder,
    } = sources::gather(submission, included, limits.source_bytes)?;
    let extra = extra.as_slice();

    // Check the run side first so a missing runtime is reported even on a cache hit.
    let interpreter = resolve_interpreter(language, spec)?;
    let compiler = match &spec.compile {
        Some(argv) => Some(resolve_compiler(
            language,
            &argv[0],
            spec.package.as_deref(),
        )?),
        None => None,
    };
    let spec = &*toolchain::settle_compile(language, spec, compiler.as_deref());

    let Some(source) = source else {
        return Ok(uncached_failure(
            language,
            format!(
                "source is larger than the {} KiB limit",
                limits.source_bytes / 1024
            ),
            Duration::ZERO,
        ));
    };

    let (main_class, stem) = language::main_class(
        spec.main_class.as_deref(),
        &String::from_utf8_lossy(&source),
    );
    let source_name = match (&folder, spec.main_class.is_none()) {
        // A folder's entry point keeps its name, unless the language names it after the class.
        (Some((_, file)), true) => file.clone(),
        _ => format!("{stem}.{}", language.source_extension()),
    };

    let folder_name = folder.as_ref().map(|(name, _)| name.as_str());
    let key = cache_key(
        language,
        spec,
        &source,
        extra,
        folder_name.map(|name| (name, source_name.as_str())),
        compiler.as_deref(),
        limits,
    );
    let entry = cache.entry_path(&key);
    let program_dir = |root: &Path| match folder_name {
        Some(name) => root.join(name),
        None => root.to_path_buf(),
    };
    let lookup = || read_entry(&entry, &program_dir(&entry), language, spec);
    let _turn = match cache.lookup_or_lock(&entry, lookup)? {
        cache::Lookup::Found(meta) => {
            let time = Duration::from_micros(meta.compile_time_us);
            return describe(
                language,
                spec,
                meta.outcome,
                time,
                true,
                (&entry, &program_dir(&entry)),
                (&source_name, extra),
                &main_class,
                interpreter.as_deref(),
            );
        }
        cache::Lookup::Build(turn) => turn,
    };
    let job = build::Job {
        language,
        spec,
        compiler: compiler.as_deref(),
        source: &source,
        source_name: &source_name,
        extra,
        main_class: &main_class,
        limits,
        cache,
        pch,
    };
    let (outcome, time) = match build::build(&job, &entry, folder_name)? {
        build::Built::Stored(meta) => (meta.outcome, Duration::from_micros(meta.compile_time_us)),
        build::Built::NotStored(outcome, time) => {
            return Ok(uncached_failure_with(language, outcome, time))
        }
    };
    // The stored (microsecond) figure, so that a later cache hit reports the same time.
    describe(
        language,
        spec,
        outcome,
        time,
        false,
        (&entry, &program_dir(&entry)),
        (&source_name, extra),
        &main_class,
        interpreter.as_deref(),
    )
}

struct Values {
    source: String,
    binary: String,
    dir: String,
    memory_mib: String,
    main_class: String,
}

impl Values {
    fn as_pairs(&self) -> [(&str, &str); 5] {
        [
            ("source", &self.source),
            ("binary", &self.binary),
            ("dir", &self.dir),
            ("memory_mib", &self.memory_mib),
            ("main_class", &self.main_class),
        ]
    }
}

fn placeholder_values(
    dir: &Path,
    source_name: &str,
    main_class: &str,
    memory_bytes: u64,
) -> Values {
    Values {
        source: dir.join(source_name).display().to_string(),
        binary: dir.join(BINARY_NAME).display().to_string(),
        dir: dir.display().to_string(),
        memory_mib: (memory_bytes / MIB).max(1).to_string(),
        main_class: main_class.to_string(),
    }
}

/// Builds the [`Compiled`] for an installed entry.
#[allow(clippy::too_many_arguments)]
fn describe(
    language: Language,
    spec: &LanguageSpec,
    outcome: CompileOutcome,
    compile_time: Duration,
    cached: bool,
    (entry, program_dir): (&Path, &Path),
    (source_name, beside): (&str, &[(String, Vec<u8>)]),
    main_class: &str,
    interpreter: Option<&Path>,
) -> Result<Compiled, CompileError> {
    let ok = outcome == CompileOutcome::Ok;
    let (run_template, read_only) = if ok {
        let values = placeholder_values(program_dir, source_name, main_class, 0);
        let pairs = values.as_pairs();
        // Keep {memory_mib} for run_argv.
        let pairs: Vec<(&str, &str)> = pairs
            .into_iter()
            .filter(|(n, _)| *n != "memory_mib")
            .collect();
        let argv = spec.run.iter().map(|a| table::expand(a, &pairs)).collect();
        let mut dirs = vec![entry.to_path_buf()];
        dirs.extend(runtime_dirs(spec, interpreter));
        (argv, dirs)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(Compiled {
        language,
        outcome,
        compile_time,
        cached,
        entry_dir: Some(entry.to_path_buf()),
        env: spec
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        read_only,
        work_files: match ok {
            true => beside.iter().map(|(n, _)| program_dir.join(n)).collect(),
            false => Vec::new(),
        },
        processes: spec.processes,
        out_of_memory: spec.out_of_memory.clone(),
        run_template,
    })
}

fn uncached_failure(language: Language, message: String, time: Duration) -> Compiled {
    uncached_failure_with(language, CompileOutcome::Failed { message }, time)
}

fn uncached_failure_with(language: Language, outcome: CompileOutcome, time: Duration) -> Compiled {
    Compiled {
        language,
        outcome,
        compile_time: time,
        cached: false,
        entry_dir: None,
        env: Vec::new(),
        read_only: Vec::new(),
        work_files: Vec::new(),
        processes: 1,
        out_of_memory: Vec::new(),
        run_template: Vec::new(),
    }
}

/// "30 s", "1.5 s".
fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests;
