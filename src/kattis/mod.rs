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
pub mod limitfile;
mod passes;
mod portable;
mod problem;
pub mod programs;
pub mod relay;
pub mod scoring;
pub mod submissions;
pub mod timelimit;
mod validate;
mod validated;
pub(crate) mod yaml;

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

/// Processes and threads a submission of a Kattis / ICPC package may have alive at once:
/// DOMjudge's default `process_limit`. Contest systems let a program fork and start threads
/// (problemtools sets no limit), and packages rely on it: a grader in `include/` that runs
/// the contestant's function in a child process (NOI 2017 `avian`).
pub const SUBMISSION_PROCESSES: u32 = 64;

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
    /// Where the fixed time limit comes from: `problem.yaml`, or DOMjudge's
    /// `domjudge-problem.ini` or `.timelimit` when problem.yaml gives none ([`limitfile`]).
    pub time_limit_source: &'static str,
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

/// True if `dir` holds a Kattis package: a `problem.yaml`, in no part folder of another
/// package (see [`enclosing_package`]).
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file() && enclosing_package(dir).is_none()
}

/// Extensions of the files that may sit beside tests in `data/` without being tests (the
/// format's annotations and images, interactive samples, per-test arguments and files,
/// BAPCtools' and problemtools' companions, generator litter): judge grades none of them,
/// and none is a fault.
const TEST_COMPANIONS: [&str; 16] = [
    "args",
    "desc",
    "download",
    "files",
    "gif",
    "hint",
    "interaction",
    "jpeg",
    "jpg",
    "md",
    "out",
    "png",
    "statement",
    "svg",
    "txt",
    "yaml",
];

/// True if a file named `name` in `data/` is known not to be a test and no fault: one of
/// [`TEST_COMPANIONS`] (`1.desc`, `1.png`, `1.in.statement`, `testdata.yaml`), or a program
/// (a generator script left beside its tests: `gen.py`, `make.sh`).
pub fn is_test_companion(name: &str) -> bool {
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let ext = ext.to_ascii_lowercase();
    TEST_COMPANIONS.contains(&ext.as_str())
        || crate::compile::Language::from_path(Path::new(name)).is_some()
}

/// The folders of a package that hold its parts (programs, data, statement): a
/// `problem.yaml` under one is a tool's (a generator's, a validator library's), never a
/// problem's, as problemtools and BAPCtools find problems only at the top.
const PART_FOLDERS: [&str; 15] = [
    "answer_validators",
    "attachments",
    "data",
    "generators",
    "graders",
    "include",
    "input_format_validators",
    "input_validators",
    "input_visualizer",
    "output_validator",
    "output_validators",
    "output_visualizer",
    "problem_statement",
    "statement",
    "submissions",
];

/// The package whose part folder `dir` is in, and that folder's name: `(pkg, "generators")`
/// for `pkg/generators/tool`; `None` when `dir` is in none.
pub fn enclosing_package(dir: &Path) -> Option<(PathBuf, String)> {
    let dir = dir.canonicalize().ok()?;
    let mut child = dir.as_path();
    for ancestor in dir.ancestors().skip(1) {
        let name = child.file_name()?.to_string_lossy();
        if PART_FOLDERS.contains(&name.as_ref()) && ancestor.join("problem.yaml").is_file() {
            return Some((ancestor.to_path_buf(), name.into_owned()));
        }
        child = ancestor;
    }
    None
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
            time_limit_source: "problem.yaml",
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

    /// The package with its time limit from `source` (see [`limitfile`]).
    pub fn with_time_limit_source(mut self, source: &'static str) -> KattisPackage {
        self.time_limit_source = source;
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
                let read = |p: &Path| {
                    crate::fsutil::beneath::read_regular(p, crate::fsutil::beneath::DATA_CAP).ok()
                };
                let mut by_input: HashMap<Vec<u8>, Option<PathBuf>> = HashMap::new();
                for c in &self.data.tests {
                    let (Some(input), Some(answer)) = (read(&c.input), &c.answer) else {
                        continue;
                    };
                    let same = |other: &Option<PathBuf>| {
                        other
                            .as_ref()
                            .is_some_and(|o| read(o).is_some_and(|a| read(answer) == Some(a)))
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
    /// [`include`]), in every format version: problemtools adds them to legacy packages too
    /// (olympiad ports put a grader's `main` and its header in `include/cpp/`).
    pub fn included_files(
        &self,
        language: crate::compile::Language,
    ) -> Result<crate::compile::Included, String> {
        include::files_for(&self.dir, language, self.jury.constants())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_beside_tests_that_are_not_tests() {
        for name in [
            "1.desc",
            "1.png",
            "1.hint",
            "1.interaction",
            "1.args",
            "1.in.statement",
            "1.ans.download",
            "testdata.yaml",
            "gen.py",
            "make.sh",
            "README.md",
        ] {
            assert!(is_test_companion(name), "{name}");
        }
        for name in ["1.in", "1.ans", "1.inp", "1.out.bak", "README"] {
            assert!(!is_test_companion(name), "{name}");
        }
    }

    #[test]
    fn a_problem_yaml_in_a_part_folder_is_a_tools() {
        let d = tempfile::tempdir().unwrap();
        let pkg = d.path().join("pkg");
        let tool = pkg.join("generators/tool");
        std::fs::create_dir_all(&tool).unwrap();
        std::fs::write(tool.join("problem.yaml"), "name: x\n").unwrap();
        // No package above it: a package of its own.
        assert!(is_package(&tool));
        std::fs::write(pkg.join("problem.yaml"), "name: p\n").unwrap();
        assert!(!is_package(&tool));
        assert!(is_package(&pkg));
        let (found, folder) = enclosing_package(&tool).unwrap();
        assert_eq!(
            (found, folder.as_str()),
            (pkg.canonicalize().unwrap(), "generators")
        );
        // A package folder beside other packages is no part of them.
        let other = d.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("problem.yaml"), "name: o\n").unwrap();
        assert!(is_package(&other));
    }
}
