//! The command line: clap definitions only. Parsing into domain types happens here; the work
//! happens in [`crate::commands`].

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Online-judge grading harness: generate tests, grade submissions in a sandbox, verify problems.
///
/// Exit status: 0 success/accepted, 1 rejected/invalid/not accepted, 2 usage or environment error.
#[derive(Debug, Parser)]
#[command(name = "judge", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the problem packages with their titles and limits.
    Problems(ProblemsArgs),
    /// Write a problem's full test set to a folder, or print one generated input.
    Gen(GenArgs),
    /// Print the reference solver's answer for an input.
    Solve(SolveArgs),
    /// Check a contestant output against an input (and the jury answer).
    Check(CheckArgs),
    /// Validate input files against the problem's constraints (byte-strict).
    Validate(ValidateArgs),
}

#[derive(Debug, Args)]
pub struct ProblemsArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Write every test as DIR/<name>.in and DIR/<name>.ans (created if missing).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["generator", "seed", "list"])]
    pub out: Option<PathBuf>,
    /// Print one input from this generator (needs --seed).
    #[arg(long, value_name = "NAME", requires = "seed")]
    pub generator: Option<String>,
    /// Seed for --generator.
    #[arg(long, value_name = "S", requires = "generator")]
    pub seed: Option<u64>,
    /// Generator parameter for --generator, e.g. `--param n=4` (repeatable).
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_param, requires = "generator")]
    pub param: Vec<(String, i64)>,
    /// List the generators and the test plan.
    #[arg(long)]
    pub list: bool,
}

fn parse_param(s: &str) -> Result<(String, i64), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, found `{s}`"))?;
    let v = v
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("parameter `{k}`: `{v}` is not an integer"))?;
    Ok((k.trim().to_string(), v))
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Input file; standard input when omitted or `-`.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The contestant's output (`-` for standard input).
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,
    /// The jury answer; computed by the reference solver when omitted.
    #[arg(value_name = "ANSWER")]
    pub answer: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Input files to validate.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn argument_table() {
        let ok: &[&[&str]] = &[
            &["judge", "problems"],
            &["judge", "gen", "dodecahedron", "--out", "d"],
            &[
                "judge",
                "gen",
                "x",
                "--generator",
                "g",
                "--seed",
                "3",
                "--param",
                "n=4",
            ],
            &["judge", "solve", "x"],
            &["judge", "check", "x", "in", "out"],
            &["judge", "validate", "x", "a", "b"],
        ];
        for line in ok {
            assert!(Cli::try_parse_from(*line).is_ok(), "{line:?}");
        }
        let bad: &[&[&str]] = &[
            &["judge", "gen", "x", "--generator", "g"],
            &["judge", "gen", "x", "--seed", "1"],
            &["judge", "gen", "x", "--generator", "g", "--seed", "-1"],
            &[
                "judge",
                "gen",
                "x",
                "--out",
                "d",
                "--generator",
                "g",
                "--seed",
                "1",
            ],
            &[
                "judge",
                "gen",
                "x",
                "--generator",
                "g",
                "--seed",
                "1",
                "--param",
                "n",
            ],
            &["judge", "validate", "x"],
            &["judge", "check", "x", "in"],
        ];
        for line in bad {
            assert!(Cli::try_parse_from(*line).is_err(), "{line:?}");
        }
    }
}
