//! `judge`: an online-judge grading harness.
//!
//! Data flows through one module per stage:
//!
//! ```text
//! package (problems/<name>/problem.toml) ─► testset (TestCase list) ─► compile (Submission → binary)
//!   ─► sandbox (RunOutcome) ─► verdict (checker → Verdict) ─► grade (events, results) ─► report (table, JSON)
//! ```
//!
//! `problems` holds each problem's logic (validator, generators, solver, checker, pictures);
//! `show` the drawing primitives; `commands` wires the stages together per subcommand.

#![warn(clippy::undocumented_unsafe_blocks)]

pub mod cli;
pub mod commands;
pub mod compile;
pub mod doctor;
pub mod export;
pub mod fsutil;
pub mod grade;
pub mod hunt;
pub mod interrupt;
pub mod kattis;
pub mod package;
pub mod partition;
pub mod problems;
pub mod report;
pub mod sandbox;
pub mod show;
pub mod stress;
pub mod terminal;
pub mod testset;
pub mod text;
pub mod verdict;
pub mod verify;
