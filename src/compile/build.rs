//! Building a compile cache entry after a miss: the sources laid out in a fresh folder, the
//! compiler run on them under the compile limits, and the folder installed as the entry
//! with its metadata (or left out of the cache when the result depends on the machine).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::process::Finished;
use super::{
    boxed, clean_message, needs_binary, pch, placeholder_values, process, seconds, sparse, table,
    Cache, CompileError, CompileLimits, CompileOutcome, EntryMeta, Language, LanguageSpec,
    PchPolicy, BINARY_NAME,
};

/// What one compile lays out and runs: everything settled before the cache missed.
pub(super) struct Job<'a> {
    pub language: Language,
    pub spec: &'a LanguageSpec,
    /// The resolved compiler; `None` for a language without a compile step.
    pub compiler: Option<&'a Path>,
    pub source: &'a [u8],
    pub source_name: &'a str,
    /// The files beside the source, `(file name, contents)`.
    pub extra: &'a [(String, Vec<u8>)],
    pub main_class: &'a str,
    pub limits: &'a CompileLimits,
    pub cache: &'a Cache,
    pub pch: PchPolicy,
}

/// What became of a build.
pub(super) enum Built {
    /// Installed as the cache entry, with this metadata.
    Stored(EntryMeta),
    /// Not cached: a failure that depends on the machine (a signal, the CPU limit).
    NotStored(CompileOutcome, Duration),
}

/// Builds `job` into the cache entry `entry` (replacing a stale one: incomplete, or from an
/// incompatible build); its program lies in the folder `folder` of the entry when it has
/// one (a program given as a folder).
pub(super) fn build(job: &Job, entry: &Path, folder: Option<&str>) -> Result<Built, CompileError> {
    let unwritable = |e| CompileError::CacheUnwritable {
        dir: job.cache.dir().to_path_buf(),
        source: e,
    };
    if entry.exists() {
        // Incomplete or from an incompatible build: rebuild it.
        fs::remove_dir_all(entry).map_err(|e| CompileError::Io {
            context: format!("removing stale cache entry `{}`", entry.display()),
            source: e,
        })?;
    }
    let build = job.cache.temp_dir()?;
    // Where the program's files go: the entry itself, or its folder named after the program.
    let build_dir = folder.map_or_else(|| build.path().to_path_buf(), |n| build.path().join(n));
    if build_dir != build.path() {
        fs::create_dir(&build_dir).map_err(unwritable)?;
    }
    lay_out(job, &build_dir)?;
    let (outcome, time, cacheable) = match (&job.spec.compile, job.compiler) {
        (Some(template), Some(compiler)) => run_compiler(job, template, compiler, &build_dir)?,
        _ => (CompileOutcome::Ok, Duration::ZERO, true),
    };
    if outcome == CompileOutcome::Ok && needs_binary(job.spec) {
        let binary = build_dir.join(BINARY_NAME);
        if !binary.is_file() {
            return Err(CompileError::MissingArtifact {
                language: job.language,
                path: binary,
            });
        }
    }
    if !cacheable {
        return Ok(Built::NotStored(outcome, time));
    }
    if outcome == CompileOutcome::Ok {
        sparse::punch_zero_blocks(&build_dir);
    }
    let meta = EntryMeta {
        language: job.language.id().to_string(),
        outcome,
        compile_time_us: u64::try_from(time.as_micros()).unwrap_or(u64::MAX),
    };
    let json = serde_json::to_vec_pretty(&meta).map_err(|e| CompileError::Io {
        context: "encoding cache metadata".to_string(),
        source: std::io::Error::other(e),
    })?;
    fs::write(build.path().join(super::cache::META_FILE), json).map_err(unwritable)?;
    job.cache.install(build, entry)?;
    Ok(Built::Stored(meta))
}

/// Writes the source and the files beside it into `build_dir`.
fn lay_out(job: &Job, build_dir: &Path) -> Result<(), CompileError> {
    let unwritable = |e| CompileError::CacheUnwritable {
        dir: job.cache.dir().to_path_buf(),
        source: e,
    };
    fs::write(build_dir.join(job.source_name), job.source).map_err(unwritable)?;
    for (name, bytes) in job.extra {
        if name.contains('/') || name.starts_with('.') || name == job.source_name {
            return Err(CompileError::Io {
                context: format!("placing `{name}` beside the source"),
                source: std::io::Error::other("not a plain file name, or the source's own name"),
            });
        }
        fs::write(build_dir.join(name), bytes).map_err(unwritable)?;
    }
    Ok(())
}

/// The compiler's environment: the language's `compile_env` (`{dir}` the build folder,
/// `{tmp}` a scratch folder), with `TMPDIR` the scratch folder unless it says otherwise.
fn compile_env(spec: &LanguageSpec, build_dir: &Path, scratch: &Path) -> BTreeMap<String, String> {
    let (dir, tmp) = (
        build_dir.display().to_string(),
        scratch.display().to_string(),
    );
    let mut env: BTreeMap<String, String> = spec
        .compile_env
        .iter()
        .map(|(k, v)| (k.clone(), table::expand(v, &[("dir", &dir), ("tmp", &tmp)])))
        .collect();
    env.entry("TMPDIR".to_string()).or_insert(tmp);
    env
}

/// The compiler's command line from the language's `template`, with `-I` folders of the
/// precompiled headers `pch_dirs` last (the template's own are searched before them: a
/// precompiled header can only stand in for a header that would be found after them).
fn compiler_argv(
    job: &Job,
    template: &[String],
    compiler: &Path,
    build_dir: &Path,
    pch_dirs: Vec<PathBuf>,
) -> Vec<String> {
    let values = placeholder_values(
        build_dir,
        job.source_name,
        job.main_class,
        job.limits.memory_bytes,
    );
    // `{files}` (a whole argument): the source, then the files beside it that are in its
    // language (the modules of a program given as a folder, included files), by name.
    let mut others: Vec<String> = job
        .extra
        .iter()
        .filter(|(name, _)| Language::from_path(Path::new(name)) == Some(job.language))
        .map(|(name, _)| build_dir.join(name).display().to_string())
        .collect();
    others.sort();
    let mut argv: Vec<String> = Vec::new();
    for arg in template {
        if arg == "{files}" {
            argv.push(values.source.clone());
            argv.extend(others.iter().cloned());
        } else {
            argv.push(table::expand(arg, &values.as_pairs()));
        }
    }
    argv[0] = compiler.display().to_string();
    for dir in pch_dirs {
        argv.push("-I".to_string());
        argv.push(dir.display().to_string());
    }
    argv
}

/// Runs the compiler `argv` as judge's own user (where the sandbox cannot be set up).
fn on_host(job: &Job, argv: &[String], build_dir: &Path) -> Result<Finished, CompileError> {
    let (spec, limits) = (job.spec, job.limits);
    // The compiler's own temporary files (the linker's objects, rustc's scratch) go to a
    // folder removed when this function returns, even when the compiler is killed.
    let scratch = job.cache.temp_dir()?;
    let env = compile_env(spec, build_dir, scratch.path());
    let rlimits = process::Rlimits {
        address_space: spec.compile_rlimit_as.then_some(limits.memory_bytes),
        file_size: limits.binary_bytes,
    };
    let cap = usize::try_from(limits.output_bytes).unwrap_or(usize::MAX);
    process::run(argv, build_dir, &env, limits.cpu_time, rlimits, cap).map_err(|source| {
        CompileError::Spawn {
            program: argv[0].clone(),
            source,
        }
    })
}

/// Runs the compiler on the laid-out sources: the outcome, the compile time, and whether
/// the outcome may be cached (not when it depends on the machine).
fn run_compiler(
    job: &Job,
    template: &[String],
    compiler: &Path,
    build_dir: &Path,
) -> Result<(CompileOutcome, Duration, bool), CompileError> {
    // Built (if needed) before the compiler starts, so it is not in the compile time.
    let sources: Vec<&[u8]> = std::iter::once(job.source)
        .chain(job.extra.iter().map(|(_, bytes)| bytes.as_slice()))
        .collect();
    let (spec, limits) = (job.spec, job.limits);
    let pch_dirs = pch::include_dirs(
        job.language,
        spec,
        compiler,
        &sources,
        limits,
        job.cache,
        job.pch,
    )?;
    let argv = compiler_argv(job, template, compiler, build_dir, pch_dirs.clone());
    let sandbox = match job.cache.compiles_on_host() {
        true => None,
        false => boxed::sandbox(),
    };
    let finished = match sandbox {
        Some(sandbox) => {
            let compile = boxed::Compile {
                env: compile_env(spec, build_dir, &build_dir.join(boxed::SCRATCH)),
                argv: argv.clone(),
                build_dir,
                read_only: pch_dirs
                    .into_iter()
                    .chain(spec.compile_dirs.iter().map(PathBuf::from))
                    .filter(|d| d.is_dir())
                    .collect(),
                limits,
                whole_memory: spec.compile_rlimit_as,
            };
            boxed::run(sandbox.as_ref(), compile)?
        }
        None => on_host(job, &argv, build_dir)?,
    };
    let message = clean_message(&finished.output, build_dir);
    let failed = |message: String, cacheable| {
        Ok((CompileOutcome::Failed { message }, finished.wall, cacheable))
    };
    match finished.exit {
        process::Exit::Code(0) => Ok((CompileOutcome::Ok, finished.wall, true)),
        process::Exit::Code(code) if message.is_empty() => failed(
            format!("compiler exited with status {code} and printed nothing"),
            true,
        ),
        process::Exit::Code(_) => failed(message, true),
        process::Exit::Signal(sig) => {
            let note =
                format!("compiler killed by signal {sig} (out of memory or file size limit?)");
            let message = if message.is_empty() {
                note
            } else {
                format!("{message}\n{note}")
            };
            failed(message, false)
        }
        process::Exit::TimedOut => {
            let limit = seconds(limits.cpu_time);
            failed(format!("compilation exceeded {limit} of CPU time"), false)
        }
        process::Exit::Stalled => Err(CompileError::Stalled(
            finished.stalled(&argv[0], limits.cpu_time),
        )),
        // Dropping the build folder removes the half-built entry.
        process::Exit::Interrupted(signal) => Err(crate::interrupt::Interrupted { signal }.into()),
    }
}
