//! The logic of each shipped problem: validator, generators, reference solver, checker,
//! answer mutations (for `verify`) and counterexample shrinking (for `stress`).
//!
//! Each problem lives in a module named after its package folder under `problems/`
//! (`problems/magic-square/` ↔ `src/problems/magic_square/`). Grading, verification and
//! stress testing only ever see the [`Problem`] trait.

use std::collections::BTreeMap;
use std::fmt;

pub mod dodecahedron;
pub mod magic_square;

/// Every problem the harness knows, by package folder name.
pub fn all() -> &'static [&'static dyn Problem] {
    &[&dodecahedron::Dodecahedron, &magic_square::MagicSquare]
}

/// The problem logic for a package folder name such as `magic-square`.
pub fn lookup(name: &str) -> Option<&'static dyn Problem> {
    all().iter().copied().find(|p| p.name() == name)
}

/// The first way an input breaks the statement's format or constraints.
///
/// `line` and `column` are 1-based and point at the first offending byte (a missing line
/// points one past the last byte).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Violation {
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Violation {
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// What a checker concluded about one contestant output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// The output is a valid answer.
    Accepted,
    /// The output is wrong; the string is a one-line reason for the contestant/grader.
    Rejected(String),
    /// The jury side is inconsistent (e.g. the jury says "no solution" but the contestant's
    /// arrangement checks out). Never blamed on the contestant.
    JudgeError(String),
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
}

/// The complete logic of one problem. Implementations are stateless and deterministic.
pub trait Problem: Send + Sync {
    /// Package folder name under `problems/`, e.g. `magic-square`.
    fn name(&self) -> &'static str;

    /// The generator families, in a stable order.
    fn generators(&self) -> &'static [GeneratorSpec];

    /// One input from generator `generator` with `params`, fully determined by `seed`
    /// on every machine. The result always passes [`Problem::validate`].
    fn generate(&self, generator: &str, params: &GenParams, seed: u64) -> Result<String, GenError>;

    /// Accepts exactly the inputs the statement allows, byte for byte.
    fn validate(&self, input: &[u8]) -> Result<(), Violation>;

    /// The reference answer for a valid input (exact, fast on every valid input).
    fn solve(&self, input: &str) -> String;

    /// Judges a contestant `output` for a valid `input`, given the reference `answer`.
    /// Never panics, whatever bytes `output` holds.
    fn check(&self, input: &str, answer: &str, output: &[u8]) -> Judgement;

    /// Wrong answers derived from a correct one, each with a short label; `verify` checks that
    /// the checker rejects every one of them. May be empty when no wrong variant exists.
    fn mutate_answer(&self, input: &str, answer: &str) -> Vec<(String, String)>;

    /// Valid inputs that are "simpler" than `input` (fewer distinct values, smaller numbers,
    /// smaller N, ...), most aggressive first. `stress` keeps any candidate on which the
    /// submission still fails and repeats until no candidate fails.
    fn shrink(&self, input: &str) -> Vec<String>;

    /// The hooks `judge hunt` searches inputs with (input mutations, built-in solvers whose
    /// work it can count); `None`, the default, for a problem without them.
    fn hunt(&self) -> Option<&dyn Hunt> {
        None
    }
}

/// A built-in solver whose search effort [`Hunt::work`] can count.
#[derive(Debug, Clone, Copy)]
pub struct SolverSpec {
    /// Name used with `judge hunt --solver`.
    pub name: &'static str,
    /// One line: what search it runs.
    pub description: &'static str,
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
}
