//! Kattis / ICPC problem packages (`problem.yaml`, legacy and 2025-09) as problems judge can
//! work on.
//!
//! ```text
//!   problem.yaml ─► config        data/ ─► data (tests, groups' validator arguments)
//!   input_validators/, output_validator(s)/ ─► programs (built with the compile table + cache)
//!   submissions/ (+ submissions.yaml) ─► submissions (what each must get)
//!          └──────────────► KattisPackage: impl Problem (validate, check, solve, interact)
//! ```
//!
//! Jury programs run in a sandbox of their own, under the package's validation limits, and
//! see only the files of the test they judge. A broken one is a [`JuryError`] naming it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::compile::LanguageTable;
use crate::package::{Package, PackageError, ProblemLimits};
use crate::problems::JuryError;

pub mod config;
pub mod data;
pub mod default_validator;
pub mod interactive;
mod problem;
pub mod programs;
pub mod relay;
pub mod submissions;
pub mod timelimit;
mod yaml;

pub use config::{Config, Version};
pub use programs::{JuryRunner, Program};

/// How jury programs are built and run: parallel slots and the language table file.
#[derive(Debug, Clone, Default)]
pub struct JuryConfig {
    /// Jury programs that may run at once (one per grading worker); at least 1.
    pub slots: usize,
    /// A language table replacing built-in languages (`--languages`).
    pub languages: Option<PathBuf>,
}

/// The CPU limit accepted submissions run under while the time limit is being computed.
pub const MEASURE_LIMIT: Duration = Duration::from_secs(20);

/// A loaded Kattis package.
pub struct KattisPackage {
    pub dir: PathBuf,
    /// The folder name.
    pub name: String,
    pub config: Config,
    pub data: data::Data,
    pub input_validators: Vec<Program>,
    /// `None`: the default output validator.
    pub output_validator: Option<Program>,
    pub jury: JuryRunner,
    /// What judge does not support in this package and does instead (scoring graded as
    /// pass-fail): shown, but not faults of the package.
    pub notes: Vec<String>,
    /// Validator arguments of each test, by canonical input path.
    args: HashMap<PathBuf, data::TestArgs>,
    /// Input bytes → answer file, for `solve` (built on first use).
    answers: OnceLock<HashMap<Vec<u8>, PathBuf>>,
}

impl std::fmt::Debug for KattisPackage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KattisPackage")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// True if `dir` holds a Kattis package.
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file()
}

fn broken(message: String) -> PackageError {
    PackageError::Broken(message)
}

/// Loads the Kattis package in `dir` as a [`Package`].
pub fn load(dir: &Path, jury: &JuryConfig) -> Result<Package, PackageError> {
    let yaml_path = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml_path).map_err(|source| PackageError::Read {
        path: yaml_path.clone(),
        source,
    })?;
    let (config, yaml_warnings) =
        config::parse(&text).map_err(|message| PackageError::Invalid {
            path: yaml_path.clone(),
            message,
        })?;
    let (notes, yaml_warnings): (Vec<String>, Vec<String>) = yaml_warnings
        .into_iter()
        .partition(|w| w.starts_with("note: "));
    let notes = notes
        .into_iter()
        .map(|n| format!("{}: {}", yaml_path.display(), &n["note: ".len()..]))
        .collect();
    let mut warnings: Vec<String> = yaml_warnings
        .into_iter()
        .map(|w| match w.strip_prefix("problem.yaml: ") {
            Some(rest) => format!("{}: {rest}", yaml_path.display()),
            None => w,
        })
        .collect();
    let data = data::load(dir).map_err(broken)?;
    warnings.extend(data.warnings.iter().cloned());

    let mut input_validators = Vec::new();
    for folder in ["input_validators", "input_format_validators"] {
        let (found, w) = programs::find(dir, &dir.join(folder)).map_err(broken)?;
        input_validators.extend(found);
        warnings.extend(w);
    }
    if input_validators.is_empty() {
        warnings.push(format!(
            "{}: no input validator judge can run: test inputs are not checked",
            dir.join("input_validators").display()
        ));
    }
    let output_validator = find_output_validator(dir, &config, &mut warnings)?;
    if config.interactive && output_validator.is_none() {
        return Err(broken(format!(
            "{}: an interactive problem needs its validator in {}",
            yaml_path.display(),
            dir.join(match config.version {
                Version::Legacy => "output_validators/",
                Version::V2025 => "output_validator/",
            })
            .display()
        )));
    }

    let table = LanguageTable::load(jury.languages.as_deref())
        .map_err(|e| broken(format!("cannot load the language table: {e}")))?;
    let cache =
        crate::grade::submission::reachable_cache().map_err(|e| broken(format!("{e:#}")))?;
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    let args = data
        .tests
        .iter()
        .chain(&data.invalid_inputs)
        .filter_map(|c| Some((c.input.canonicalize().ok()?, c.args.clone())))
        .collect();
    let limits = ProblemLimits {
        time: config
            .limits
            .time_limit
            .map(Duration::from_secs_f64)
            .unwrap_or(MEASURE_LIMIT),
        memory_mib: config.limits.memory,
        output_mib: config.limits.output,
        languages: Default::default(),
    };
    let title = config.name.clone().unwrap_or_else(|| name.clone());
    let kattis = Arc::new(KattisPackage {
        dir: dir.to_path_buf(),
        name: name.clone(),
        config,
        data,
        input_validators,
        output_validator,
        jury: JuryRunner::new(jury.slots, table, cache),
        notes,
        args,
        answers: OnceLock::new(),
    });
    Ok(Package {
        name,
        dir: dir.to_path_buf(),
        title,
        limits,
        groups: Vec::new(),
        logic: kattis.clone(),
        warnings,
        kattis: Some(kattis),
    })
}

fn find_output_validator(
    dir: &Path,
    config: &Config,
    warnings: &mut Vec<String>,
) -> Result<Option<Program>, PackageError> {
    let legacy = dir.join("output_validators");
    let current = dir.join("output_validator");
    let pick =
        |folder: &Path, warnings: &mut Vec<String>| -> Result<Option<Program>, PackageError> {
            if !folder.is_dir() {
                return Ok(None);
            }
            let display = folder
                .strip_prefix(dir)
                .unwrap_or(folder)
                .display()
                .to_string();
            // 2025-09: the folder itself is the program; older drafts put one program inside it.
            if let Some(p) = programs::program(folder, &display).ok().flatten() {
                return Ok(Some(p));
            }
            let (mut found, w) = programs::find(dir, folder).map_err(broken)?;
            warnings.extend(w);
            match found.len() {
                0 => Err(broken(format!(
                    "{}/ holds no output validator judge can build ({})",
                    folder.display(),
                    crate::compile::Language::id_list()
                ))),
                1 => Ok(found.pop()),
                n => Err(broken(format!(
                    "{}/ holds {n} programs; a package has one output validator",
                    folder.display()
                ))),
            }
        };
    match config.custom_validation {
        // Legacy: `validation` decides; the folder is output_validators/.
        Some(false) => Ok(None),
        Some(true) => match pick(&legacy, warnings)? {
            Some(p) => Ok(Some(p)),
            None => pick(&current, warnings)?.map(Some).ok_or_else(|| {
                broken(format!(
                    "{}: `validation: custom` needs a program in {}/",
                    dir.join("problem.yaml").display(),
                    legacy.display()
                ))
            }),
        },
        // 2025-09: a custom validator is one that is present.
        None => match pick(&current, warnings)? {
            Some(p) => Ok(Some(p)),
            None => pick(&legacy, warnings),
        },
    }
}

impl KattisPackage {
    /// The validator arguments of the test whose input is at `path`.
    pub fn args_for(&self, path: &Path) -> data::TestArgs {
        path.canonicalize()
            .ok()
            .and_then(|p| self.args.get(&p).cloned())
            .unwrap_or_default()
    }

    /// The answer file of the data test whose input is exactly `input`.
    pub fn answer_for(&self, input: &[u8]) -> Option<&Path> {
        self.answers
            .get_or_init(|| {
                self.data
                    .tests
                    .iter()
                    .filter_map(|c| Some((std::fs::read(&c.input).ok()?, c.answer.clone()?)))
                    .collect()
            })
            .get(input)
            .map(PathBuf::as_path)
    }

    /// The jury submissions and their rules.
    pub fn submissions(&self) -> Result<(Vec<submissions::JurySubmission>, Vec<String>), String> {
        submissions::load(&self.dir, self.config.version)
    }

    /// Builds every jury program now, so that one that does not compile is reported before
    /// any submission runs (and never blamed on one).
    pub fn build_all(&self) -> Result<(), JuryError> {
        // Compilers take seconds each on a cold cache: all at once; the first failure in order.
        let programs: Vec<_> = self
            .input_validators
            .iter()
            .chain(&self.output_validator)
            .collect();
        std::thread::scope(|s| {
            let builds: Vec<_> = programs
                .iter()
                .map(|p| s.spawn(|| self.jury.build(p).map(|_| ())))
                .collect();
            builds.into_iter().try_for_each(|b| {
                b.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        })
    }

    /// `path` relative to the package, for messages.
    pub fn rel(&self, path: &Path) -> String {
        path.strip_prefix(&self.dir)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// A jury program's failure as a judge error naming it.
pub(crate) fn jury_error(program: &Program, what: impl std::fmt::Display) -> JuryError {
    JuryError(format!("{}: {what}", program.display))
}
