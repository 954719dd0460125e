//! checktestdata: the input-validation language of DOMjudge/checktestdata
//! (`input_validators/*.ctd`), interpreted in-process. Debian has no checktestdata package,
//! and problemtools and BAPCtools run pyctd, a Python port; judge carries its own.
//!
//! ```text
//! .ctd source ─► lex.rs (tokens with line:column) ─► parse.rs (commands, constant folding)
//!            ─► Script ─► exec.rs (commands on one input: input.rs reads whitespace, INT,
//!                         FLOAT; regex.rs matches REGEX; value.rs computes) ─► Outcome
//! ```
//!
//! A program's own errors (syntax, and at run time a type error, an unset variable, a
//! negative REP count) are [`ProgramError`]s with the program's line:column: the validator
//! is broken, not the input. An input that does not match is [`Failure::Rejected`] with the
//! input's line and column. A run is bounded by a deadline (the package's validation time) and
//! by the memory its variables take (the validation memory), so no program hangs judge.
//!
//! Where the reference implementation and pyctd differ, judge follows the reference
//! (checktestdata 2026) except: `UNIQUE` returns false on a repeated tuple (checktestdata
//! rejects at once; the same for `ASSERT(UNIQUE(..))`), `!` binds tighter than `&&` and `&&`
//! tighter than `||` (as pyctd; checktestdata's grammar gives `&&` and `||` one level),
//! floats are exact rationals (as pyctd; checktestdata uses 256-bit floats), and `MATCH` of a
//! variable uses the variable's value.

mod exec;
mod input;
mod jury;
mod lex;
mod parse;
mod regex;
mod value;

#[cfg(test)]
mod tests;

use std::fmt;
use std::time::Instant;

pub use jury::{load, validate};
pub use lex::Pos;

/// An error in the program itself (line and column in the `.ctd` file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramError {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.column, self.message)
    }
}

/// How a run is limited and read.
#[derive(Debug, Clone)]
pub struct Options {
    /// checktestdata's `--whitespace-ok`: SPACE matches any run of blanks, NEWLINE allows blanks
    /// around it, and blanks may open the input.
    pub whitespace_ok: bool,
    /// The run stops with [`Failure::Limit`] after this instant.
    pub deadline: Option<Instant>,
    /// The memory its variables may take, in bytes (an estimate of their size).
    pub memory_bytes: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            whitespace_ok: false,
            deadline: None,
            memory_bytes: 1 << 30,
        }
    }
}

/// Why an input was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The input does not match: where (1-based line and column of the input) and why.
    Rejected {
        line: usize,
        column: usize,
        message: String,
    },
    /// The program failed while running (it is wrong, not the input).
    Program(ProgramError),
    /// The run went over its time or memory budget.
    Limit(String),
}

/// A parsed checktestdata program, ready to check any number of inputs (also at once, from
/// several threads).
#[derive(Debug)]
pub struct Script {
    parsed: parse::Parsed,
}

impl Script {
    pub fn parse(source: &[u8]) -> Result<Script, ProgramError> {
        let tokens = lex::tokenize(source)?;
        Ok(Script {
            parsed: parse::parse(source, tokens)?,
        })
    }

    /// Checks `input`: `Ok` when it matches the program to its end.
    pub fn check(&self, input: &[u8], options: &Options) -> Result<(), Failure> {
        let reader = input::Reader {
            data: input,
            pos: 0,
            whitespace_ok: options.whitespace_ok,
        };
        let mut run = exec::Exec::new(&self.parsed, reader, options.deadline, options.memory_bytes);
        match run.run() {
            Ok(()) => Ok(()),
            Err(exec::Stop::Mismatch(m)) => {
                let (line, column) = run.input.line_column(m.at);
                Err(Failure::Rejected {
                    line,
                    column,
                    message: m.message,
                })
            }
            Err(exec::Stop::Program(e)) => Err(Failure::Program(e)),
            Err(exec::Stop::Limit(m)) => Err(Failure::Limit(m)),
        }
    }
}
