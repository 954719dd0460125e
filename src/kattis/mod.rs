//! Kattis / ICPC problem packages (`problem.yaml`, legacy and 2025-09) as problems judge can
//! work on.
//!
//! ```text
//!   problem.yaml ─► config        data/ ─► data (tests, groups' validator arguments)
//!   input_validators/, answer_validators/, output_validator(s)/ ─► programs (built with the
//!     compile table + cache)
//!   submissions/ (+ submissions.yaml) ─► submissions (what each must get)
//!          └──────────────► KattisPackage: impl Problem (validate, check, solve, interact)
//! ```
//!
//! Jury programs run in a sandbox of their own, under the package's validation limits, and
//! see only the files of the test they judge. A broken one is a [`JuryError`] naming it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crate::problems::JuryError;

pub mod checktestdata;
pub mod config;
pub mod data;
pub mod default_validator;
pub mod generators;
pub mod grader;
pub mod include;
pub mod interactive;
mod passes;
mod problem;
pub mod programs;
pub mod relay;
pub mod scoring;
pub mod submissions;
pub mod timelimit;
mod validate;
mod validated;
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
    /// `answer_validators/` (2025-09, BAPCtools): each checks every test's `.ans`.
    pub answer_validators: Vec<Program>,
    /// `None`: the default output validator.
    pub output_validator: Option<Program>,
    /// The custom grader (`graders/`) of a legacy scoring package, if it has one.
    pub grader: Option<Program>,
    /// What the grader answered so far.
    grader_answers: grader::Answers,
    pub jury: JuryRunner,
    /// What judge does not support in this package and does instead (scoring graded as
    /// pass-fail): shown, but not faults of the package.
    pub notes: Vec<String>,
    /// Validator arguments of each test, by canonical input path.
    args: HashMap<PathBuf, data::TestArgs>,
    /// Input bytes → answer file, for `solve` (built on first use); `None` for an input that
    /// several tests hold with different answers.
    answers: OnceLock<HashMap<Vec<u8>, Option<PathBuf>>>,
    /// Made data's hold on its cache entry, for as long as the package is used.
    _data_lock: Option<generators::write::EntryLock>,
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

impl KattisPackage {
    /// A package of these parts (what `package` loads from a folder with a `problem.yaml`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dir: PathBuf,
        name: String,
        config: Config,
        data: data::Data,
        input_validators: Vec<Program>,
        output_validator: Option<Program>,
        jury: JuryRunner,
        notes: Vec<String>,
    ) -> KattisPackage {
        let args = data
            .tests
            .iter()
            .chain(&data.invalid_inputs)
            .chain(&data.invalid_answers)
            .filter_map(|c| Some((c.input.canonicalize().ok()?, c.args.clone())))
            .collect();
        KattisPackage {
            dir,
            name,
            config,
            data,
            input_validators,
            answer_validators: Vec::new(),
            output_validator,
            grader: None,
            grader_answers: Default::default(),
            jury,
            notes,
            args,
            answers: OnceLock::new(),
            _data_lock: None,
        }
    }

    /// The package with its custom grader (`graders/`).
    pub fn with_grader(mut self, grader: Option<Program>) -> KattisPackage {
        self.grader = grader;
        self
    }

    /// The package with its answer validators (`answer_validators/`).
    pub fn with_answer_validators(mut self, validators: Vec<Program>) -> KattisPackage {
        self.answer_validators = validators;
        self
    }

    /// Keeps the cache entry its data was made in ([`generators::DataSource::lock`]).
    pub fn with_data_lock(mut self, lock: Option<generators::write::EntryLock>) -> KattisPackage {
        self._data_lock = lock;
        self
    }

    /// The validator arguments of the test whose input is at `path`.
    pub fn args_for(&self, path: &Path) -> data::TestArgs {
        path.canonicalize()
            .ok()
            .and_then(|p| self.args.get(&p).cloned())
            .unwrap_or_default()
    }

    /// The answer file of the data test whose input is exactly `input`; `None` when no test,
    /// or several with different answers, hold it (one test's answer is no reference answer
    /// for another's: a checker failure would be blamed on the wrong test).
    pub fn answer_for(&self, input: &[u8]) -> Option<&Path> {
        self.answers
            .get_or_init(|| {
                let mut by_input: HashMap<Vec<u8>, Option<PathBuf>> = HashMap::new();
                for c in &self.data.tests {
                    let (Ok(input), Some(answer)) = (std::fs::read(&c.input), &c.answer) else {
                        continue;
                    };
                    let same = |other: &Option<PathBuf>| {
                        other.as_ref().is_some_and(|o| {
                            std::fs::read(o)
                                .ok()
                                .is_some_and(|a| std::fs::read(answer).ok() == Some(a))
                        })
                    };
                    match by_input.get(&input) {
                        None => {
                            by_input.insert(input, Some(answer.clone()));
                        }
                        Some(other) if same(other) => {}
                        Some(_) => {
                            by_input.insert(input, None);
                        }
                    }
                }
                by_input
            })
            .get(input)?
            .as_deref()
    }

    /// The jury submissions and their rules.
    pub fn submissions(&self) -> Result<(Vec<submissions::JurySubmission>, Vec<String>), String> {
        submissions::load(
            &self.dir,
            self.config.version,
            self.config.scoring,
            self.config.languages.as_deref(),
        )
    }

    /// The files of the package's `include/` added to a submission in `language` (see
    /// [`include`]); none for a legacy package, whose format has no included files.
    pub fn included_files(
        &self,
        language: crate::compile::Language,
    ) -> Result<Vec<(String, Vec<u8>)>, String> {
        match self.config.version {
            Version::Legacy => Ok(Vec::new()),
            Version::V2025 => include::files_for(&self.dir, language, self.jury.constants()),
        }
    }

    /// Why a submission in `language` is not one this package takes (2025-09 `languages`
    /// not listing it; a legacy package has none); `None` when it is.
    pub fn unlisted_language(&self, language: crate::compile::Language) -> Option<String> {
        config::unlisted_language(self.config.languages.as_deref()?, language)
    }

    /// Builds every jury program now, so that one that does not compile is reported before
    /// any submission runs (and never blamed on one).
    pub fn build_all(&self) -> Result<(), JuryError> {
        let programs: Vec<_> = self
            .input_validators
            .iter()
            .chain(&self.answer_validators)
            .chain(&self.output_validator)
            .chain(&self.grader)
            .collect();
        self.jury.build_all(&programs)
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
