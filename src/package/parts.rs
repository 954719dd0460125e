//! What a package offers every later stage, whatever its format: where its tests come from,
//! its statement, its invalid inputs, its jury submissions and what each must get, and the
//! rules of its time limit. This is the one place that knows whether a package is a built-in
//! problem (`problem.toml`) or a Kattis / ICPC package (`problem.yaml`); every stage after it
//! asks these methods, never the kind.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Package;
use crate::compile::Language;
use crate::fsutil::is_tool_litter;
use crate::kattis::data::Case;
use crate::kattis::Version;
use crate::problems::{GenParams, JuryError, Origin, TestCase};
use crate::verdict::expectation::{JurySubmission, ScoreExpectation};
use crate::verdict::score::{Aggregation, Child, Scoring, SpecGroup};
use crate::verdict::Verdict;

/// How a package's time limit is set and checked against its jury submissions.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeRules {
    /// The setter's limit; `None`: computed from the slowest accepted submission.
    pub fixed: Option<Duration>,
    /// The slowest accepted submission x this must fit the limit (and computes it).
    pub ac_to_time_limit: f64,
    /// A submission that must time out must still time out at the limit x this.
    pub time_limit_to_tle: f64,
    /// A computed limit is a multiple of this many seconds.
    pub time_resolution: f64,
    /// A fixed limit below slowest accepted x `ac_to_time_limit` fails verify (else warns).
    pub tight_limit_fails: bool,
    /// A must-TLE submission that finishes within limit x `time_limit_to_tle` fails verify
    /// (else warns: time-limit sensitive).
    pub sensitive_tle_fails: bool,
    /// The file the limit is written in, for messages.
    pub source: &'static str,
}

impl TimeRules {
    /// The limit for a slowest accepted run of `slowest`: x `ac_to_time_limit`, rounded up to
    /// a multiple of `time_resolution`, at least one step (problemtools' rule).
    pub fn from_slowest(&self, slowest: Duration) -> Duration {
        let res = self.time_resolution;
        let exact = slowest.as_secs_f64() * self.ac_to_time_limit;
        // A hair below an exact multiple stays on it (floating-point noise).
        let steps = (exact / res - 1e-9).ceil().max(1.0);
        Duration::from_secs_f64(steps * res)
    }
}

/// The files a package adds to every submission before it is compiled ([`Package::included`]):
/// a Kattis package's `include/<language>/` (or `include/default/`); none for a built-in
/// problem. Apart from the package, so that submissions compile while it is being settled.
#[derive(Clone, Default)]
pub struct Included(Option<std::sync::Arc<crate::kattis::KattisPackage>>);

impl Included {
    /// The files added to a submission in `language`, as `(file name, contents)`. `Err` names
    /// a file that cannot be read.
    pub fn files(&self, language: Language) -> Result<crate::compile::Included, String> {
        match &self.0 {
            Some(k) => k.included_files(language),
            None => Ok(Default::default()),
        }
    }
}

/// Where a package's statement is, and so what verify can compare in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// One Markdown file that prints the samples (`statement.md`): they must equal
    /// `data/sample/`.
    PrintsSamples(PathBuf),
    /// A statement folder (`statement/`, legacy `problem_statement/`) holding
    /// `problem.<language>.{tex,md,pdf}`; its samples come from `data/sample/`.
    Folder,
}

/// The inputs a package's validator must reject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvalidInputs {
    /// Listed by the package, in order (a Kattis package's `data/invalid_input/` with its
    /// nested folders, each file with its folder's validator arguments); the folder is
    /// optional, so none is fine.
    Listed(Vec<PathBuf>),
    /// The `.in` files of this folder (`data/invalid_input/`); none deserves a warning.
    Folder(PathBuf),
}

impl Package {
    /// The file that describes the package (`problem.toml`, `problem.yaml`).
    pub fn manifest(&self) -> &'static str {
        match self.kattis {
            Some(_) => "problem.yaml",
            None => "problem.toml",
        }
    }

    /// What judge does not support in this package and does instead: shown, not faults.
    pub fn notes(&self) -> &[String] {
        self.kattis.as_ref().map_or(&[], |k| &k.notes)
    }

    /// False for a Kattis package with no input validator judge runs (its inputs are not
    /// checked); a built-in package's validator is in judge.
    pub fn has_input_validator(&self) -> bool {
        self.kattis
            .as_ref()
            .is_none_or(|k| !k.input_validators.is_empty())
    }

    /// How many answer validators the package has (a Kattis package's `answer_validators/`);
    /// built-in problems check answers with their checker only.
    pub fn answer_validators(&self) -> usize {
        self.kattis
            .as_ref()
            .map_or(0, |k| k.answer_validators.len())
    }

    /// The tests whose answers must be rejected (a Kattis package's `data/invalid_answer/`,
    /// nested folders too): each input file and its answer file.
    pub fn invalid_answers(&self) -> Vec<(PathBuf, PathBuf)> {
        self.kattis.as_ref().map_or(Vec::new(), |k| {
            k.data
                .invalid_answers
                .iter()
                .filter_map(|c| Some((c.input.clone(), c.answer.clone()?)))
                .collect()
        })
    }

    /// Builds the package's jury programs (validators, checker) now, so that one that does
    /// not compile is reported before any test runs. Built-in jury logic is in judge itself.
    pub fn build_jury_programs(&self) -> Result<(), JuryError> {
        self.kattis.as_ref().map_or(Ok(()), |k| k.build_all())
    }

    /// The tests the package gives as files with their groups (a Kattis package's `data/`
    /// tree, in order), or `None` when the package plans its own test set (hand-made files,
    /// then generated groups: see `testset`).
    pub fn data_tests(&self) -> Option<&[Case]> {
        self.kattis.as_ref().map(|k| k.data.tests.as_slice())
    }

    /// True when the output check talks with each run as it happens (an interactive
    /// problem): answers cannot be checked alone.
    pub fn interactive(&self) -> bool {
        self.kattis.as_ref().is_some_and(|k| k.config.interactive)
    }

    /// True for a multi-pass problem: its output validator may run the submission again on
    /// an input it writes, so answers cannot be checked alone either.
    pub fn multi_pass(&self) -> bool {
        self.kattis.as_ref().is_some_and(|k| k.config.passes > 1)
    }

    /// True when the package's checker has wrong answers to be tested with (built-in checkers
    /// mutate the reference answers; a checker program offers none).
    pub fn mutates_answers(&self) -> bool {
        self.kattis.is_none()
    }

    /// Where the statement is.
    pub fn statement(&self) -> Statement {
        match self.kattis {
            Some(_) => Statement::Folder,
            None => Statement::PrintsSamples(self.dir.join("statement.md")),
        }
    }

    /// The inputs the validator must reject: every `.in` under `data/invalid_input/` (a
    /// Kattis package's nested folders too, each with its own validator arguments).
    pub fn invalid_inputs(&self) -> InvalidInputs {
        match &self.kattis {
            Some(k) => InvalidInputs::Listed(
                k.data
                    .invalid_inputs
                    .iter()
                    .map(|c| c.input.clone())
                    .collect(),
            ),
            None => InvalidInputs::Folder(self.dir.join("data/invalid_input")),
        }
    }

    /// The jury submissions, sorted, each with what it must get, and warnings about the
    /// folder (unknown keys of `submissions.yaml`). `Err` names a folder or file that cannot
    /// be read or understood.
    pub fn jury_submissions(&self) -> Result<(Vec<JurySubmission>, Vec<String>), String> {
        match &self.kattis {
            Some(k) => k.submissions(),
            None => {
                built_in_submissions(&self.dir, !self.subtasks.is_empty()).map(|s| (s, Vec::new()))
            }
        }
    }

    /// Why a submission in `language` is not one the package takes (a Kattis package's
    /// `languages`); `None` when it is, and for a built-in problem.
    pub fn unlisted_language(&self, language: Language) -> Option<String> {
        self.kattis.as_ref()?.unlisted_language(language)
    }

    /// Runs every validator again rather than take what it said of the same file before
    /// (`verify --fresh`; a Kattis package's validators are remembered, see
    /// `kattis::validated`).
    pub fn validate_afresh(&self) {
        if let Some(k) = &self.kattis {
            k.jury.validations.turn_off();
        }
    }

    /// What the package adds to its submissions before they are compiled.
    pub fn included(&self) -> Included {
        Included(self.kattis.clone())
    }

    /// A scoring problem's groups and how they score; `None` for a pass-fail problem.
    pub fn scoring(&self) -> Option<&crate::verdict::score::Scoring> {
        self.scoring.as_deref()
    }

    /// The custom grader a legacy scoring package's `grading: custom` groups use, if any.
    pub fn grader(&self) -> Option<&dyn crate::verdict::score::CustomGrader> {
        self.kattis
            .as_deref()
            .filter(|k| k.grader.is_some())
            .map(|k| k as &dyn crate::verdict::score::CustomGrader)
    }

    /// A built-in package's `[[subtasks]]`, in order (empty: pass-fail, or a Kattis package).
    pub fn subtasks(&self) -> &[super::SubtaskDecl] {
        &self.subtasks
    }

    /// The subtask a secret test belongs to: the first whose features its input has.
    pub fn subtask_of(&self, test: &TestCase) -> Option<&super::SubtaskDecl> {
        let features = self.logic.features(&test.input);
        self.subtask_index(&features).map(|i| &self.subtasks[i])
    }

    /// The first subtask whose `where` the `features` of an input satisfy.
    fn subtask_index(&self, features: &GenParams) -> Option<usize> {
        self.subtasks.iter().position(|s| {
            s.matches
                .0
                .iter()
                .all(|(k, v)| features.0.get(k) == Some(v))
        })
    }

    /// Settles a built-in package's `[[subtasks]]` on its test set: each secret test (not a
    /// sample) goes to the first subtask whose features its input has. Nothing to do for a
    /// package without subtasks (a Kattis package's groups are its folders). `Err` names a
    /// test in no subtask, or a subtask with no test.
    pub fn settle_scoring(&mut self, tests: &[TestCase]) -> Result<(), String> {
        if self.subtasks.is_empty() {
            return Ok(());
        }
        let mut groups: Vec<Vec<Child<SpecGroup>>> = vec![Vec::new(); self.subtasks.len()];
        let mut samples = Vec::new();
        for t in tests {
            if matches!(t.origin, Origin::Sample(_)) {
                samples.push(t.name.clone());
                continue;
            }
            let features = self.logic.features(&t.input);
            let Some(i) = self.subtask_index(&features) else {
                return Err(format!(
                    "{}: test `{}` is in no subtask (its features: {})",
                    self.dir.join("problem.toml").display(),
                    t.name,
                    features
                        .0
                        .iter()
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            groups[i].push(Child::Test(t.name.clone()));
        }
        let mut children = Vec::new();
        for (decl, tests) in self.subtasks.iter().zip(groups) {
            if tests.is_empty() {
                return Err(format!(
                    "{}: subtask `{}` has no test",
                    self.dir.join("problem.toml").display(),
                    decl.name
                ));
            }
            children.push(Child::Group(SpecGroup {
                name: format!("secret/{}", decl.name),
                max_score: Some(decl.points),
                aggregation: decl.aggregation,
                require_pass: Vec::new(),
                children: tests,
            }));
        }
        self.scoring = Some(std::sync::Arc::new(Scoring::Spec {
            secret: SpecGroup {
                name: "secret".into(),
                max_score: Some(self.subtasks.iter().map(|s| s.points).sum()),
                aggregation: Aggregation::Sum,
                require_pass: Vec::new(),
                children,
            },
            samples,
        }));
        Ok(())
    }

    /// How the time limit is set and checked.
    pub fn time_rules(&self) -> TimeRules {
        match &self.kattis {
            Some(k) => {
                let l = &k.config.limits;
                TimeRules {
                    fixed: l.time_limit.map(Duration::from_secs_f64),
                    ac_to_time_limit: l.ac_to_time_limit,
                    time_limit_to_tle: l.time_limit_to_tle,
                    time_resolution: l.time_resolution,
                    tight_limit_fails: true,
                    // Legacy problemtools only warns; 2025-09 makes it an error.
                    sensitive_tle_fails: k.config.version == Version::V2025,
                    source: k.time_limit_source,
                }
            }
            None => TimeRules {
                fixed: Some(self.limits.time),
                ac_to_time_limit: 2.0,
                time_limit_to_tle: 1.5,
                time_resolution: 0.1,
                tight_limit_fails: false,
                sensitive_tle_fails: false,
                source: "problem.toml",
            },
        }
    }
}

/// The jury submissions of a built-in package: `submissions/<folder>/<file>`, each folder
/// naming the one verdict its files must get (`accepted`, `wrong_answer`,
/// `time_limit_exceeded`, `memory_limit_exceeded`, `run_time_error`, `output_limit_exceeded`,
/// `compile_error`); files judge cannot compile are not submissions. With subtasks (`scored`),
/// accepted ones must get the full score, and `partially_accepted/` ones a score strictly
/// between 0 and the most.
fn built_in_submissions(dir: &Path, scored: bool) -> Result<Vec<JurySubmission>, String> {
    let root = dir.join("submissions");
    let Ok(folders) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for folder in folders.filter_map(|e| e.ok()) {
        if !folder.path().is_dir() || is_tool_litter(&folder.file_name()) {
            continue;
        }
        let name = folder.file_name().to_string_lossy().into_owned();
        let partial = scored && name == "partially_accepted";
        let expected = Verdict::from_folder(&name);
        if expected.is_none() && !partial {
            return Err(format!(
                "submissions/{name}: unknown folder (use accepted, wrong_answer, time_limit_exceeded, memory_limit_exceeded, run_time_error, output_limit_exceeded, compile_error{})",
                if scored { ", partially_accepted" } else { "" }
            ));
        }
        let files = std::fs::read_dir(folder.path()).map_err(|e| e.to_string())?;
        for f in files.filter_map(|e| e.ok()) {
            let path = f.path();
            let language = Language::from_path(&path);
            if path.is_file() && !is_tool_litter(&f.file_name()) && language.is_some() {
                out.push(JurySubmission {
                    rel: format!("{name}/{}", f.file_name().to_string_lossy()),
                    folder: name.clone(),
                    language,
                    rules: Vec::new(),
                    verdicts: expected.map(|v| BTreeSet::from([v])),
                    score: match (scored, expected) {
                        (true, Some(Verdict::AC)) => Some(ScoreExpectation::Full),
                        (true, None) => Some(ScoreExpectation::Partial),
                        _ => None,
                    },
                    group_scores: Vec::new(),
                    lower_bound: expected == Some(Verdict::AC),
                    upper_bound: expected == Some(Verdict::TLE),
                    skipped: None,
                    entrypoint: None,
                    randomised: crate::verdict::expectation::randomised_header(&path),
                    // Its verdict as a whole is already its first failure's.
                    first_failure: false,
                    path,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(mult: f64, res: f64) -> TimeRules {
        TimeRules {
            fixed: None,
            ac_to_time_limit: mult,
            time_limit_to_tle: 2.0,
            time_resolution: res,
            tight_limit_fails: true,
            sensitive_tle_fails: false,
            source: "problem.yaml",
        }
    }

    #[test]
    fn a_computed_limit_rounds_up_to_the_resolution_with_one_step_at_least() {
        let ms = Duration::from_millis;
        assert_eq!(rules(5.0, 1.0).from_slowest(ms(10)), Duration::from_secs(1));
        assert_eq!(
            rules(5.0, 1.0).from_slowest(ms(210)),
            Duration::from_secs(2)
        );
        assert_eq!(
            rules(5.0, 1.0).from_slowest(ms(200)),
            Duration::from_secs(1)
        );
        assert_eq!(rules(2.0, 0.1).from_slowest(ms(260)), ms(600));
        assert_eq!(rules(2.0, 0.5).from_slowest(ms(0)), ms(500));
    }

    #[test]
    fn tool_litter_is_not_a_jury_submission() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = tmp.path().join("magic-square");
        let copied = std::process::Command::new("cp")
            .arg("-r")
            .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square"))
            .arg(&pkg)
            .status()
            .unwrap();
        assert!(copied.success());
        let before = super::Package::load(&pkg)
            .unwrap()
            .jury_submissions()
            .unwrap()
            .0;
        for litter in [
            "__pycache__/forced.cpython-311.pyc",
            "accepted/.forced.py.swp",
            "accepted/.hidden.py",
            "wrong_answer/rows_only.py~",
        ] {
            let path = pkg.join("submissions").join(litter);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "litter").unwrap();
        }
        let after = super::Package::load(&pkg)
            .unwrap()
            .jury_submissions()
            .unwrap()
            .0;
        let paths = |l: &[crate::verdict::expectation::JurySubmission]| {
            l.iter().map(|s| s.path.clone()).collect::<Vec<_>>()
        };
        assert_eq!(paths(&after), paths(&before));
    }
}
