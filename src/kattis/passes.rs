//! Multi-pass problems (2025-09 `type: multi-pass`): the jury side of one test's passes.
//!
//! The output validator (or, for an interactive problem, the interactor) accepts a pass and
//! asks for another by writing `nextpass.in` into its feedback folder and exiting 42; the
//! harness then runs the submission again, a fresh process, with that file as its input. The
//! validator of each pass gets that pass's input as its `input_file` (as BAPCtools gives it;
//! the test's answer stays the same) and the one feedback folder of the test, whose files
//! persist from pass to pass (`nextpass.in` is taken out before the next pass). A test takes
//! at most `limits.validation_passes` passes (default 2): a validator asking for one more is
//! a judge error, as is one that writes `nextpass.in` and rejects the output.

use std::path::Path;

use super::data::TestArgs;
use super::problem::RunDir;
use super::{interactive, jury_error, KattisPackage};
use crate::problems::{Interaction, Judgement, PassJudgement, Passes, TestCase, ValidatorScore};
use crate::sandbox::{RunRequest, Sandbox, SandboxError};

/// The file a validator writes to ask for another pass.
const NEXT_PASS: &str = "nextpass.in";

/// One test's passes: its feedback folder and how many passes ran.
pub(super) struct KattisPasses<'a> {
    pkg: &'a KattisPackage,
    answer: &'a str,
    args: TestArgs,
    dir: RunDir,
    /// Passes judged so far.
    done: u32,
}

impl<'a> KattisPasses<'a> {
    pub(super) fn new(
        pkg: &'a KattisPackage,
        test: &'a TestCase,
    ) -> Result<KattisPasses<'a>, SandboxError> {
        Ok(KattisPasses {
            pkg,
            answer: &test.answer,
            args: pkg.args_of(test),
            dir: RunDir::new().map_err(|e| SandboxError::Setup(e.0))?,
            done: 0,
        })
    }

    /// What a pass's `judgement` becomes with the `nextpass.in` the validator left (taken out
    /// of the feedback folder here), and the folder opened for the next pass's validator.
    fn after_pass(
        &mut self,
        judgement: Judgement,
        score: Option<ValidatorScore>,
    ) -> Result<PassJudgement, SandboxError> {
        self.done += 1;
        let Some(v) = &self.pkg.output_validator else {
            // The default output validator writes no files.
            return Ok(PassJudgement {
                judgement,
                score,
                next_pass: None,
            });
        };
        let path = self.dir.feedback.join(NEXT_PASS);
        let je = |what: String| PassJudgement {
            judgement: Judgement::JudgeError(jury_error(v, what).0),
            score: None,
            next_pass: None,
        };
        // Under the rule of feedback files: a regular file of the folder, never a link out
        // of it or a FIFO, at most [`crate::fsutil::beneath::SMALL_CAP`].
        let next = match super::problem::feedback_file(&self.dir.feedback, NEXT_PASS) {
            Ok(next) => next,
            Err(e) => return Ok(je(e)),
        };
        if next.is_some() {
            std::fs::remove_file(&path).map_err(|e| {
                SandboxError::Setup(format!("cannot remove {}: {e}", path.display()))
            })?;
        }
        open_up(&self.dir.feedback).map_err(|e| {
            SandboxError::Setup(format!(
                "cannot open {} to the next pass: {e}",
                self.dir.feedback.display()
            ))
        })?;
        let max = self.pkg.config.passes;
        Ok(match (judgement, next) {
            (judgement, None) => PassJudgement {
                judgement,
                score,
                next_pass: None,
            },
            (Judgement::Accepted, Some(_)) if self.done >= max => je(format!(
                "asked for pass {} (wrote {NEXT_PASS}), but limits.validation_passes is {max}",
                self.done + 1
            )),
            (Judgement::Accepted, Some(next)) => PassJudgement {
                judgement: Judgement::Accepted,
                score: None,
                next_pass: Some(next),
            },
            (Judgement::Rejected(_), Some(_)) => je(format!(
                "wrote {NEXT_PASS} but rejected the output (exit 43); another pass is asked for with exit 42 only"
            )),
            (judgement @ Judgement::JudgeError(_), Some(_)) => PassJudgement {
                judgement,
                score: None,
                next_pass: None,
            },
        })
    }
}

impl Passes for KattisPasses<'_> {
    fn interactive(&self) -> bool {
        self.pkg.config.interactive
    }

    fn check(&mut self, input: &[u8], output: &[u8]) -> PassJudgement {
        let flags = self.pkg.validator_flags(&self.args);
        let (judgement, score) = match &self.pkg.output_validator {
            Some(v) => self
                .pkg
                .run_output_validator(v, &self.dir, input, self.answer, output, &flags)
                .unwrap_or_else(|e| (Judgement::JudgeError(e.0), None)),
            None => {
                let judgement = self.pkg.check_default(self.answer, output, &flags);
                (judgement, None)
            }
        };
        self.after_pass(judgement, score)
            .unwrap_or_else(|e| PassJudgement {
                judgement: Judgement::JudgeError(e.to_string()),
                score: None,
                next_pass: None,
            })
    }

    fn interact(
        &mut self,
        sandbox: &dyn Sandbox,
        request: RunRequest,
        input: &[u8],
    ) -> Result<Interaction, SandboxError> {
        let mut i = interactive::run_in(
            self.pkg,
            sandbox,
            request,
            input,
            self.answer,
            &self.args,
            &self.dir,
        )?;
        let pass = self.after_pass(i.judgement, i.score)?;
        i.judgement = pass.judgement;
        i.score = pass.score;
        i.next_pass = pass.next_pass;
        Ok(i)
    }
}

/// Makes everything in a feedback folder writable by anyone: the next pass's validator may
/// run as another sandbox user (one per slot) and must be able to append to the files of the
/// earlier passes.
fn open_up(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
            open_up(&path)?;
        } else if kind.is_file() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666))?;
        }
    }
    Ok(())
}
