//! [`KattisPackage`] as a [`Problem`]: input validators, the output validator (default,
//! custom or testlib), the reference answer, interactive runs.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::data::TestArgs;
use super::default_validator::{self, Flags};
use super::programs::{open_dir, open_file, Program};
use super::validate::validate_input;
use super::{jury_error, KattisPackage, MEASURE_LIMIT};
use crate::fsutil::beneath;
use crate::problems::{
    AnswersAreOutputs, GenError, GenParams, GeneratorSpec, Interaction, Judgement, JuryError,
    Origin, Passes, Problem, TestCase, Validation, ValidatorScore,
};
use crate::sandbox::{
    LimitHit, Limits, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin, Stdout, Termination,
};
use crate::verdict::signal_name;

const STDERR_BYTES: u64 = 64 * 1024;

/// The last meaningful line of a program's output, at most 200 characters.
pub(crate) fn last_line(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    let mut line: String = line.chars().filter(|c| !c.is_control()).collect();
    if line.chars().count() > 200 {
        line = line.chars().take(197).collect::<String>() + "...";
    }
    Some(line)
}

/// The file `name` an output validator wrote into its feedback folder: `None` when it wrote
/// none; `Err` when it is not a regular file of that folder (a link leading out of it, a
/// FIFO, a device) or is over [`beneath::SMALL_CAP`]: never followed, never blocking.
pub(crate) fn feedback_file(feedback: &Path, name: &str) -> Result<Option<Vec<u8>>, String> {
    let rel = Path::new(name);
    beneath::read_if_present(feedback, rel, beneath::SMALL_CAP, "its feedback folder")
        .map_err(|e| format!("wrote {e}"))
}

fn tail(outcome: &RunOutcome) -> String {
    last_line(&outcome.stderr)
        .or_else(|| last_line(&outcome.stdout))
        .map(|l| format!(" ({l})"))
        .unwrap_or_default()
}

/// "hit its CPU time limit of 60 s" for a jury program stopped by a limit.
pub(crate) fn limit_text(hit: LimitHit, limits: &Limits) -> String {
    match hit {
        LimitHit::CpuTime => format!(
            "ran over its CPU time limit of {:.1} s",
            limits.cpu_time.as_secs_f64()
        ),
        LimitHit::WallTime => format!(
            "did not finish within {:.1} s (wall clock): hung or blocked?",
            limits.wall_time.as_secs_f64()
        ),
        LimitHit::Memory => format!(
            "ran over its memory limit of {} MiB",
            limits.memory_bytes >> 20
        ),
        LimitHit::Output => format!("wrote more than {} MiB", limits.output_bytes >> 20),
        LimitHit::Disk => format!(
            "filled its {} MiB of scratch space",
            limits.output_bytes.max(1 << 20) >> 20
        ),
        LimitHit::Overloaded => "got too little CPU: the machine is overloaded".into(),
        LimitHit::Stopped => "was stopped by the harness".into(),
        LimitHit::Processes => format!(
            "reached its limit of {} processes/threads",
            limits.processes
        ),
    }
}

/// The score an output validator wrote into `feedback` (`score.txt` or
/// `score_multiplier.txt`), `None` when neither; `Err` when both, or not one number (a
/// multiplier outside 0..1, a negative score).
fn feedback_score(feedback: &Path) -> Result<Option<ValidatorScore>, String> {
    let read = |name: &str| -> Result<Option<f64>, String> {
        let text = match feedback_file(feedback, name)? {
            None => return Ok(None),
            Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        };
        let value: f64 = text.trim().parse().map_err(|_| {
            let shown: String = text.trim().chars().take(40).collect();
            format!(
                "wrote {name} holding `{}`, not a number",
                shown.escape_debug()
            )
        })?;
        if !value.is_finite() || value < 0.0 {
            return Err(format!(
                "wrote {name} holding {value}, not a non-negative number"
            ));
        }
        // The bound of every score a package states (yaml::MAX_SCORE): a score past it would
        // make sums infinite or equal where they differ.
        if value > super::yaml::MAX_SCORE {
            return Err(format!(
                "wrote {name} holding {value:e}, over judge's bound on a score ({:e})",
                super::yaml::MAX_SCORE
            ));
        }
        Ok(Some(value))
    };
    match (read("score.txt")?, read("score_multiplier.txt")?) {
        (Some(_), Some(_)) => Err("wrote both score.txt and score_multiplier.txt".into()),
        (Some(s), None) => Ok(Some(ValidatorScore::Score(s))),
        (None, Some(m)) if m > 1.0 => Err(format!(
            "wrote score_multiplier.txt holding {m}, outside 0..1"
        )),
        (None, Some(m)) => Ok(Some(ValidatorScore::Multiplier(m))),
        (None, None) => Ok(None),
    }
}

/// An output validator's `judgement` with the score it wrote into `feedback`, if any (an
/// accepted output's); a score file that breaks the protocol, or a score for a rejected
/// output, is a judge error.
pub(crate) fn scored(
    v: &Program,
    judgement: Judgement,
    feedback: &Path,
) -> (Judgement, Option<ValidatorScore>) {
    match feedback_score(feedback) {
        Err(e) => (Judgement::JudgeError(jury_error(v, e).0), None),
        Ok(None) => (judgement, None),
        Ok(Some(score)) if judgement == Judgement::Accepted => (judgement, Some(score)),
        Ok(Some(_)) => match judgement {
            Judgement::Rejected(_) => (
                Judgement::JudgeError(jury_error(v, "wrote a score for an output it rejected").0),
                None,
            ),
            other => (other, None),
        },
    }
}

/// A per-run folder: `files/` (read-only inputs for the program) and `feedback/` (its
/// writable working directory).
pub struct RunDir {
    _tmp: tempfile::TempDir,
    pub files: PathBuf,
    pub feedback: PathBuf,
}

impl RunDir {
    pub fn new() -> Result<RunDir, JuryError> {
        let io = |e: std::io::Error| {
            JuryError(format!("cannot prepare a folder for a jury program: {e}"))
        };
        let tmp = tempfile::Builder::new()
            .prefix("judge-jury-")
            .tempdir()
            .map_err(io)?;
        open_dir(tmp.path()).map_err(io)?;
        let files = tmp.path().join("files");
        let feedback = tmp.path().join("feedback");
        open_dir(&files).map_err(io)?;
        open_dir(&feedback).map_err(io)?;
        Ok(RunDir {
            _tmp: tmp,
            files,
            feedback,
        })
    }

    pub fn put(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, JuryError> {
        let path = self.files.join(name);
        open_file(&path, bytes)
            .map_err(|e| JuryError(format!("cannot write {}: {e}", path.display())))?;
        Ok(path)
    }

    /// `feedback/` with the trailing separator the protocol asks for.
    pub fn feedback_arg(&self) -> String {
        format!("{}/", self.feedback.display())
    }
}

/// Processes/threads a jury program (validator, output validator, interactor, generator) may
/// have: jury programs are trusted to start threads (an interactor that writes in one thread
/// and reads in another, as BAPCtools' `pseudointeraction` test problem does); problemtools
/// and BAPCtools do not limit them at all.
pub(crate) const JURY_PROCESSES: u32 = 16;

impl KattisPackage {
    /// Limits for validators: the package's validation limits.
    pub(crate) fn validation_limits(&self) -> Limits {
        Self::limits_for_validation(&self.config)
    }

    /// The validation limits `config` gives.
    pub(crate) fn limits_for_validation(config: &super::Config) -> Limits {
        let l = &config.limits;
        let cpu = Duration::from_secs(l.validation_time);
        Limits {
            cpu_time: cpu,
            wall_time: (cpu * 2).max(cpu + Duration::from_secs(1)),
            memory_bytes: l.validation_memory << 20,
            output_bytes: l.validation_output << 20,
            stderr_bytes: STDERR_BYTES,
            processes: JURY_PROCESSES,
        }
    }

    pub(crate) fn args_of(&self, test: &TestCase) -> TestArgs {
        match &test.origin {
            Origin::Sample(p) | Origin::Secret(p) | Origin::External(p) => self.args_for(p),
            Origin::Generated { .. } => TestArgs::default(),
        }
    }

    fn validate_with(&self, input: &[u8], args: &TestArgs) -> Validation {
        validate_input(
            &self.jury,
            &self.input_validators,
            &self.validation_limits(),
            input,
            args,
        )
    }

    pub(crate) fn check_with(
        &self,
        input: &str,
        answer: &str,
        output: &[u8],
        args: &TestArgs,
    ) -> Judgement {
        self.check_scored(input, answer, output, args).0
    }

    /// [`KattisPackage::check_with`], with the score the output validator gave an accepted
    /// output (`score.txt`, `score_multiplier.txt`), if any.
    fn check_scored(
        &self,
        input: &str,
        answer: &str,
        output: &[u8],
        args: &TestArgs,
    ) -> (Judgement, Option<ValidatorScore>) {
        if self.config.interactive {
            return (
                Judgement::JudgeError(
                    "an interactive problem's outputs are judged while it runs".into(),
                ),
                None,
            );
        }
        if self.config.passes > 1 {
            return (
                Judgement::JudgeError(
                    "a multi-pass problem's outputs are judged pass by pass while it runs".into(),
                ),
                None,
            );
        }
        let flags = self.validator_flags(args);
        let Some(v) = &self.output_validator else {
            return (self.check_default(answer, output, &flags), None);
        };
        let run = RunDir::new().and_then(|dir| {
            self.run_output_validator(v, &dir, input.as_bytes(), answer, output, &flags)
        });
        match run {
            Ok(j) => j,
            Err(e) => (Judgement::JudgeError(e.0), None),
        }
    }

    /// Runs the output validator `v` on `output` with `dir`'s feedback folder (kept across the
    /// passes of a multi-pass test), its files holding `input` and `answer`.
    pub(crate) fn run_output_validator(
        &self,
        v: &Program,
        dir: &RunDir,
        input: &[u8],
        answer: &str,
        output: &[u8],
        flags: &[String],
    ) -> Result<(Judgement, Option<ValidatorScore>), JuryError> {
        let in_path = dir.put("input", input)?.display().to_string();
        let ans_path = dir.put("answer", answer.as_bytes())?.display().to_string();
        let limits = self.validation_limits();
        let (args, stdin) = if v.testlib {
            let out_path = dir.put("output", output)?.display().to_string();
            (vec![in_path, out_path, ans_path], Stdin::Null)
        } else {
            let mut a = vec![in_path, ans_path, dir.feedback_arg()];
            a.extend(flags.iter().cloned());
            (a, Stdin::Bytes(output.to_vec()))
        };
        let outcome = self.jury.run(
            v,
            &args,
            stdin,
            Stdout::Capture,
            &dir.feedback,
            std::slice::from_ref(&dir.files),
            &limits,
        )?;
        let judgement = self.judgement(v, &outcome, &limits, &dir.feedback);
        Ok(scored(v, judgement, &dir.feedback))
    }

    /// The default output validator's judgement of `output` against `answer`.
    pub(crate) fn check_default(&self, answer: &str, output: &[u8], flags: &[String]) -> Judgement {
        match Flags::parse(flags) {
            Err(e) => Judgement::JudgeError(format!("default output validator: {e}")),
            Ok(f) => match default_validator::compare(answer.as_bytes(), output, &f) {
                Ok(()) => Judgement::Accepted,
                Err(reason) => Judgement::Rejected(reason),
            },
        }
    }

    /// The output validator's arguments for a test: `problem.yaml`'s, then the test's.
    pub(crate) fn validator_flags(&self, args: &TestArgs) -> Vec<String> {
        let mut flags = self.config.validator_flags.clone();
        flags.extend(args.output_validator.iter().cloned());
        flags
    }

    /// What an output validator's exit means.
    pub(crate) fn judgement(
        &self,
        v: &Program,
        outcome: &RunOutcome,
        limits: &Limits,
        feedback: &Path,
    ) -> Judgement {
        if let Some(hit) = outcome.limit_hit {
            return Judgement::JudgeError(jury_error(v, limit_text(hit, limits)).0);
        }
        let code = match outcome.termination {
            Termination::Exited(c) => c,
            Termination::Signaled(s) => {
                return Judgement::JudgeError(
                    jury_error(v, format!("killed by {}{}", signal_name(s), tail(outcome))).0,
                )
            }
        };
        // The last meaningful line of judgemessage.txt (validators append; the reason comes
        // last); not read for an accepted output.
        let judge_message = match (v.testlib, code) {
            (true, 0) | (false, 42) => None,
            _ => match feedback_file(feedback, "judgemessage.txt") {
                Ok(bytes) => bytes,
                Err(e) => return Judgement::JudgeError(jury_error(v, e).0),
            },
        };
        let message = || {
            judge_message
                .as_deref()
                .and_then(last_line)
                .or_else(|| last_line(&outcome.stderr))
                .unwrap_or_default()
        };
        if v.testlib {
            return match code {
                0 => Judgement::Accepted,
                1 | 4 | 7 => Judgement::Rejected(non_empty(message(), "wrong answer")),
                2 => Judgement::Rejected(format!("presentation error: {}", message())),
                3 => Judgement::JudgeError(jury_error(v, format!("testlib FAIL: {}", message())).0),
                c => Judgement::JudgeError(
                    jury_error(
                        v,
                        format!(
                            "exited with status {c} (testlib checkers exit 0, 1, 2 or 3){}",
                            tail(outcome)
                        ),
                    )
                    .0,
                ),
            };
        }
        match code {
            42 => Judgement::Accepted,
            43 => Judgement::Rejected(non_empty(message(), "wrong answer (the output validator exited 43)")),
            c => Judgement::JudgeError(
                jury_error(
                    v,
                    format!(
                        "exited with status {c}; an output validator must exit 42 (accepted) or 43 (wrong answer){}",
                        tail(outcome)
                    ),
                )
                .0,
            ),
        }
    }

    /// Runs the first accepted submission on `input`: the reference answer for an input that
    /// is not in `data/`.
    fn solve_by_submission(&self, input: &str) -> Result<String, JuryError> {
        let (subs, _) = self.submissions().map_err(JuryError)?;
        let Some(sub) = subs
            .iter()
            .find(|s| s.folder == "accepted" && s.skipped.is_none() && s.language.is_some())
        else {
            return Err(JuryError(format!(
                "{}: no accepted submission in a language judge compiles, so there is no reference answer for an input not in data/",
                self.name
            )));
        };
        let mut program = super::programs::program(&sub.path, &sub.rel)
            .ok()
            .flatten()
            .ok_or_else(|| JuryError(format!("cannot read submissions/{}", sub.rel)))?;
        // A submission: its sources are not substituted (as in BAPCtools).
        program.substitute = false;
        let time = self
            .config
            .limits
            .time_limit
            .map(Duration::from_secs_f64)
            .unwrap_or(MEASURE_LIMIT);
        let limits = Limits {
            cpu_time: time,
            wall_time: (time * 2).max(time + Duration::from_secs(1)),
            memory_bytes: self.config.limits.memory << 20,
            output_bytes: self.config.limits.output << 20,
            stderr_bytes: STDERR_BYTES,
            processes: super::SUBMISSION_PROCESSES,
        };
        let dir = RunDir::new()?;
        let outcome = self.jury.run(
            &program,
            &[],
            Stdin::Bytes(input.as_bytes().to_vec()),
            Stdout::Capture,
            &dir.feedback,
            &[],
            &limits,
        )?;
        let name = format!("submissions/{} (the reference answer)", sub.rel);
        if let Some(hit) = outcome.limit_hit {
            return Err(JuryError(format!("{name} {}", limit_text(hit, &limits))));
        }
        if outcome.termination != Termination::Exited(0) {
            return Err(JuryError(format!(
                "{name} failed: {:?}{}",
                outcome.termination,
                tail(&outcome)
            )));
        }
        String::from_utf8(outcome.stdout)
            .map_err(|_| JuryError(format!("{name} printed bytes that are not UTF-8")))
    }
}

fn non_empty(s: String, default: &str) -> String {
    if s.is_empty() {
        default.to_string()
    } else {
        s
    }
}

impl Problem for KattisPackage {
    fn name(&self) -> &str {
        &self.name
    }

    fn generators(&self) -> &[GeneratorSpec] {
        &[]
    }

    fn generate(&self, generator: &str, _: &GenParams, _: u64) -> Result<String, GenError> {
        Err(GenError::UnknownGenerator {
            name: generator.to_string(),
            available: "none: judge runs no generators of a Kattis package".into(),
        })
    }

    fn validate(&self, input: &[u8]) -> Validation {
        self.validate_with(input, &TestArgs::default())
    }

    fn solve(&self, input: &str) -> Result<String, JuryError> {
        if let Some(ans) = self.answer_for(input.as_bytes()) {
            // A regular file only (its links were checked when the data was loaded).
            let bytes = beneath::read_regular(ans, beneath::DATA_CAP)
                .map_err(|e| JuryError(format!("cannot read {e}")))?;
            return String::from_utf8(bytes)
                .map_err(|_| JuryError(format!("{} is not UTF-8 text", ans.display())));
        }
        if self.config.interactive || self.config.passes > 1 {
            let kind = if self.config.interactive {
                "an interactive"
            } else {
                "a multi-pass"
            };
            return Err(JuryError(format!(
                "{}: {kind} problem has no reference answer for an input that is not in data/ (or that tests hold with different answers)",
                self.name
            )));
        }
        self.solve_by_submission(input)
    }

    fn check(&self, input: &str, answer: &str, output: &[u8]) -> Judgement {
        self.check_with(input, answer, output, &TestArgs::default())
    }

    fn validate_test(&self, test: &TestCase) -> Validation {
        self.validate_with(test.input.as_bytes(), &self.args_of(test))
    }

    fn validate_answer(&self, test: &TestCase, strict: bool) -> Validation {
        self.answer_verdict(test, strict)
    }

    fn answers_are_outputs(&self) -> AnswersAreOutputs {
        match (self.config.ans_is_output, &self.output_validator) {
            (Some(true), _) | (None, None) => AnswersAreOutputs::Must,
            (Some(false), _) => AnswersAreOutputs::Not,
            (None, Some(_)) => AnswersAreOutputs::Should,
        }
    }

    fn check_test(&self, test: &TestCase, output: &[u8]) -> Judgement {
        self.check_with(&test.input, &test.answer, output, &self.args_of(test))
    }

    fn check_test_scored(
        &self,
        test: &TestCase,
        output: &[u8],
    ) -> (Judgement, Option<ValidatorScore>) {
        self.check_scored(&test.input, &test.answer, output, &self.args_of(test))
    }

    fn interact(
        &self,
        sandbox: &dyn Sandbox,
        request: RunRequest,
        test: &TestCase,
    ) -> Option<Result<Interaction, SandboxError>> {
        if !self.config.interactive || self.config.passes > 1 {
            return None;
        }
        let args = self.args_of(test);
        Some(super::interactive::run(self, sandbox, request, test, &args))
    }

    fn passes<'a>(
        &'a self,
        test: &'a TestCase,
    ) -> Option<Result<Box<dyn Passes + 'a>, SandboxError>> {
        (self.config.passes > 1).then(|| {
            super::passes::KattisPasses::new(self, test)
                .map(|p| Box::new(p) as Box<dyn Passes + 'a>)
        })
    }
}
