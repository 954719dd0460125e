//! The logic of each shipped problem: validator, generators, reference solver, checker,
//! answer mutations (for `verify`) and counterexample shrinking (for `stress`).
//!
//! Each problem lives in a module named after its package folder under `problems/`
//! (`problems/magic-square/` ↔ `src/problems/magic_square/`). Grading, verification and
//! stress testing only ever see the [`Problem`] trait.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::sandbox::{RunOutcome, RunRequest, Sandbox, SandboxError};

use crate::show::{DrawError, Picture};

pub mod dodecahedron;
pub mod jury;
pub mod magic_square;
mod test_case;

pub use jury::{tokens, Judgement, Position, Token, ValidatorScore, Violation};
pub use test_case::{Origin, TestCase};

/// Every problem logic built into the harness, by package folder name.
pub fn all() -> &'static [&'static dyn Problem] {
    &[&dodecahedron::Dodecahedron, &magic_square::MagicSquare]
}

/// The built-in problem logic for a package folder name such as `magic-square`.
pub fn lookup(name: &str) -> Option<Arc<dyn Problem>> {
    match name {
        "dodecahedron" => Some(Arc::new(dodecahedron::Dodecahedron)),
        "magic-square" => Some(Arc::new(magic_square::MagicSquare)),
        _ => None,
    }
}

/// A jury program (validator, checker, reference solver, generator) failed: it crashed, hung,
/// did not compile or broke its protocol. A judge error, never the contestant's fault; the
/// message names the program and says what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct JuryError(pub String);

/// What [`Problem::validate`] concluded: `Ok(Ok(()))` valid, `Ok(Err(v))` invalid,
/// `Err(_)` the validator itself failed.
pub type Validation = Result<Result<(), Violation>, JuryError>;

/// A built-in problem's validator and checker as standalone source, for `judge export`: the
/// module files are the very files the crate compiles (`include_str!`), copied verbatim
/// beside a generated `main.rs` (see [`jury`]).
#[derive(Debug, Clone, Copy)]
pub struct JurySources {
    /// `(file name, text)` of each module the validator and checker need, `jury.rs` excluded
    /// (every program gets it); each becomes `mod <stem>;` at the program's root.
    pub modules: &'static [(&'static str, &'static str)],
    /// Extra root items of the program, so that the files' `super::` paths resolve as in the
    /// crate (e.g. `pub use tiles::*;`, standing in for the problem module's re-exports).
    pub root: &'static str,
    /// The path of the input validator function (`fn(&[u8]) -> Result<_, Violation>`).
    pub validate: &'static str,
    /// The path of the checker function (`fn(&str, &str, &[u8]) -> Judgement`).
    pub check: &'static str,
}

/// A generator family a problem offers.
#[derive(Debug, Clone, Copy)]
pub struct GeneratorSpec {
    /// Name used in `problem.toml` and on the command line (kebab-case).
    pub name: &'static str,
    /// One line: what inputs it makes and which wrong/slow solutions it targets.
    pub description: &'static str,
    /// Names of the integer parameters it accepts (all optional, with defaults).
    pub params: &'static [&'static str],
}

/// Integer parameters for a generator, as declared in `problem.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenParams(pub BTreeMap<String, i64>);

impl GenParams {
    /// The value of `key`, or `default` when the declaration does not set it.
    pub fn get(&self, key: &str, default: i64) -> i64 {
        self.0.get(key).copied().unwrap_or(default)
    }
}

/// Why a generator could not produce an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("unknown generator `{name}` (available: {available})")]
    UnknownGenerator { name: String, available: String },
    #[error("generator `{generator}`: {message}")]
    BadParams { generator: String, message: String },
    /// A generator program failed (a judge error).
    #[error(transparent)]
    Jury(#[from] JuryError),
}

/// The complete logic of one problem. Implementations are deterministic. Built-in problems
/// are native Rust; problems loaded from a package at run time (a Kattis package) run jury
/// programs, which can fail: those methods return a [`JuryError`] then.
pub trait Problem: Send + Sync {
    /// Package folder name, e.g. `magic-square`.
    fn name(&self) -> &str;

    /// The generator families, in a stable order (empty when the problem has none).
    fn generators(&self) -> &[GeneratorSpec];

    /// One input from generator `generator` with `params`, fully determined by `seed`
    /// on every machine. The result always passes [`Problem::validate`].
    fn generate(&self, generator: &str, params: &GenParams, seed: u64) -> Result<String, GenError>;

    /// Accepts exactly the inputs the statement allows, byte for byte.
    fn validate(&self, input: &[u8]) -> Validation;

    /// The reference answer for a valid input.
    fn solve(&self, input: &str) -> Result<String, JuryError>;

    /// Judges a contestant `output` for a valid `input`, given the reference `answer`.
    /// Never panics, whatever bytes `output` holds.
    fn check(&self, input: &str, answer: &str, output: &[u8]) -> Judgement;

    /// Wrong answers derived from a correct one, each with a short label; `verify` checks that
    /// the checker rejects every one of them. Empty when the problem offers none.
    fn mutate_answer(&self, _input: &str, _answer: &str) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Valid inputs that are "simpler" than `input` (fewer distinct values, smaller numbers,
    /// smaller N, ...), most aggressive first. `stress` keeps any candidate on which the
    /// submission still fails and repeats until no candidate fails. Empty when the problem
    /// offers none.
    fn shrink(&self, _input: &str) -> Vec<String> {
        Vec::new()
    }

    /// [`Problem::validate`] for a test of the problem's test set: a package may give its
    /// validator arguments per test group.
    fn validate_test(&self, test: &TestCase) -> Validation {
        self.validate(test.input.as_bytes())
    }

    /// The answer validators' judgement of the test's jury answer (a Kattis package's
    /// `answer_validators/`); with `strict` (an answer that must be rejected), the checker's
    /// too, given the answer as a strict output. Built-in problems have no answer validators.
    fn validate_answer(&self, _test: &TestCase, _strict: bool) -> Validation {
        Ok(Ok(()))
    }

    /// Features of an input that subtasks select tests by (`n` = 3), read from the input;
    /// empty (the default) when the problem names none.
    fn features(&self, _input: &str) -> GenParams {
        GenParams::default()
    }

    /// [`Problem::check`] for a test of the problem's test set: a package may give its
    /// checker arguments per test group.
    fn check_test(&self, test: &TestCase, output: &[u8]) -> Judgement {
        self.check(&test.input, &test.answer, output)
    }

    /// [`Problem::check_test`], with the score the checker gives an accepted output, if it
    /// gives one (a scoring package's output validator: `score.txt`, `score_multiplier.txt`).
    fn check_test_scored(
        &self,
        test: &TestCase,
        output: &[u8],
    ) -> (Judgement, Option<ValidatorScore>) {
        (self.check_test(test, output), None)
    }

    /// Interactive problems: runs the submission (`request`, whose stdin and stdout the problem
    /// connects to its own jury program) on `test` in `sandbox`. `None` (the default): the
    /// problem is not interactive; the harness runs the submission on the input and calls
    /// [`Problem::check_test`] on its output.
    fn interact(
        &self,
        _sandbox: &dyn Sandbox,
        _request: RunRequest,
        _test: &TestCase,
    ) -> Option<Result<Interaction, SandboxError>> {
        None
    }

    /// Multi-pass problems: the jury side of one run of `test`, kept across its passes (the
    /// harness runs the submission once per pass, a fresh process each time, on the input the
    /// jury side gives for the next pass). `None` (the default): one pass.
    fn passes<'a>(
        &'a self,
        _test: &'a TestCase,
    ) -> Option<Result<Box<dyn Passes + 'a>, SandboxError>> {
        None
    }

    /// A picture of `input` and, when given, a contestant `output` (`judge show`, the HTML
    /// report), drawing whatever parses; `Err` when nothing in a file is drawable. `None` when
    /// the problem does not draw itself (then `judge show` prints the files).
    fn draw(&self, _input: &[u8], _output: Option<&[u8]>) -> Option<Result<Picture, DrawError>> {
        None
    }

    /// The validator and checker as standalone source (`judge export`); `None`, the
    /// default, for a problem whose jury side is not built-in Rust.
    fn jury_sources(&self) -> Option<&'static JurySources> {
        None
    }

    /// Whether each test's jury answer must pass the checker as an output (`verify`'s
    /// "checker" check); [`AnswersAreOutputs::Must`], the default, for a built-in problem.
    fn answers_are_outputs(&self) -> AnswersAreOutputs {
        AnswersAreOutputs::Must
    }

    /// The hooks `judge hunt` searches inputs with (input mutations, built-in solvers whose
    /// work it can count); `None`, the default, for a problem without them.
    fn hunt(&self) -> Option<&dyn Hunt> {
        None
    }
}

/// Whether a problem's jury answers are outputs its checker must accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswersAreOutputs {
    /// Every jury answer is a correct output: one the checker rejects is a fault.
    Must,
    /// A custom output validator's answer file "may, but is not necessarily required to,
    /// contain the correct answer" (the package format): one it rejects is a warning.
    Should,
    /// The package says its answer files are no outputs (BAPCtools' `ans_is_output: false`).
    Not,
}

/// What happened in an interactive run.
#[derive(Debug, Clone)]
pub struct Interaction {
    /// The submission's run (its stdout went to the jury program, so it is empty).
    pub outcome: RunOutcome,
    /// The jury program's verdict on the interaction.
    pub judgement: Judgement,
    /// The jury program ended before the submission did.
    pub jury_first: bool,
    /// The score the jury program gave an accepted interaction (a scoring problem).
    pub score: Option<ValidatorScore>,
    /// The input of the next pass, when the jury program accepted this one and asked for
    /// another (a multi-pass problem).
    pub next_pass: Option<Vec<u8>>,
}

/// How the jury side judged one pass of a multi-pass run.
#[derive(Debug, Clone)]
pub struct PassJudgement {
    pub judgement: Judgement,
    pub score: Option<ValidatorScore>,
    /// The input of the next pass, when the output was accepted and another pass asked for.
    pub next_pass: Option<Vec<u8>>,
}

/// The jury side of one run of a multi-pass test ([`Problem::passes`]): it keeps what lives
/// across the passes (a Kattis validator's feedback folder) and says when the run is over (no
/// next input) or broken (a judge error: a pass asked for beyond the problem's limit).
pub trait Passes {
    /// Whether each pass is an interaction ([`Passes::interact`]) rather than a run whose
    /// output is then checked ([`Passes::check`]).
    fn interactive(&self) -> bool;

    /// Judges the output of a pass that ran on `input` and ended normally.
    fn check(&mut self, input: &[u8], output: &[u8]) -> PassJudgement;

    /// Runs the submission `request` on `input` against the jury program, as
    /// [`Problem::interact`] does for one pass.
    fn interact(
        &mut self,
        sandbox: &dyn Sandbox,
        request: RunRequest,
        input: &[u8],
    ) -> Result<Interaction, SandboxError>;
}

/// A built-in solver whose search effort [`Hunt::work`] can count.
#[derive(Debug, Clone, Copy)]
pub struct SolverSpec {
    /// Name used with `judge hunt --solver`.
    pub name: &'static str,
    /// One line: what search it runs.
    pub description: &'static str,
    /// One of the family of ordinary contestant searches that `judge hunt --family` reports on.
    pub family: bool,
}

impl SolverSpec {
    /// The spec of a member of a problem's family: its `(name, options, description)` entry.
    pub const fn member<O>(entry: &(&'static str, O, &'static str)) -> SolverSpec {
        SolverSpec {
            name: entry.0,
            description: entry.2,
            family: true,
        }
    }
}

/// What `judge hunt` needs from a problem to search for inputs that make a solution slow or
/// wrong: small valid changes of an input, and optionally a count of the work its own solvers
/// do (a deterministic score, unlike CPU time).
pub trait Hunt: Send + Sync {
    /// One small valid change of a valid `input` (swap two values, change a mark, rotate a
    /// tile, make two values equal, ...), drawn with `rng`; the result passes
    /// [`Problem::validate`] and differs from `input`. `None` when `input` does not parse or
    /// no change was found.
    fn mutate(&self, input: &str, rng: &mut dyn rand::RngCore) -> Option<String>;

    /// The built-in solvers [`Hunt::work`] can measure, in a stable order.
    fn solvers(&self) -> &'static [SolverSpec] {
        &[]
    }

    /// The search nodes solver `solver` spends on a valid `input`, counting at most `cap`
    /// (a result of `cap` means "at least `cap`"); `None` for an unknown solver.
    fn work(&self, solver: &str, input: &str, cap: u64) -> Option<u64> {
        let _ = (solver, input, cap);
        None
    }

    /// Whether a valid `input` has a solution, for problems whose valid inputs may have none
    /// (`judge hunt --family` then hunts and reports the two kinds apart); `None`, the
    /// default, when every valid input is solvable.
    fn solvable(&self, input: &str) -> Option<bool> {
        let _ = input;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_violation_shows_its_position_only_when_known() {
        let at = Violation::new(2, 5, "expected a space");
        assert_eq!(at.located(Path::new("a.in")), "a.in:2:5: expected a space");
        assert_eq!(at.to_string(), "line 2, column 5: expected a space");
        let anywhere = Violation::unplaced("n is too large");
        assert_eq!(anywhere.located(Path::new("a.in")), "a.in: n is too large");
        assert_eq!(anywhere.to_string(), "n is too large");
    }

    #[test]
    fn built_in_logic_is_found_by_folder_name() {
        assert_eq!(
            lookup("magic-square")
                .map(|p| p.name().to_string())
                .as_deref(),
            Some("magic-square")
        );
        assert!(lookup("hello").is_none());
    }
}
