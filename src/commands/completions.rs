//! `judge completions SHELL`: the shell's completion script for judge, made from the clap
//! definitions (commands, options, option values), on standard output.

use std::io::Write;

use anyhow::Result;
use clap::CommandFactory;

use super::Status;
use crate::cli::{Cli, CompletionsArgs, Shell};

pub fn run(args: CompletionsArgs) -> Result<Status> {
    std::io::stdout().lock().write_all(&script(args.shell))?;
    Ok(Status::Success)
}

/// The completion script of `shell` for the command `judge`.
fn script(shell: Shell) -> Vec<u8> {
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "judge", &mut out);
    out
}
