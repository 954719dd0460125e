//! One module per subcommand; each wires the pipeline stages together and returns an
//! [`Status`]. Errors of the harness itself are `anyhow` errors with context.

use std::ffi::OsString;

use clap::Parser;

use crate::cli::{Cli, Command};

mod check;
mod completions;
mod doctor;
mod export;
mod gen;
mod gen_kattis;
mod grade;
mod hunt;
mod hunt_family;
mod man;
mod new;
mod problems;
mod report;
mod show;
mod solve;
mod stress;
mod validate;
mod verify;

/// What a command concluded (errors of the harness are separate: exit status 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Success / accepted: exit status 0.
    Success,
    /// Rejected / invalid / not accepted: exit status 1.
    Rejected,
    /// Part of the work could not be done for a reason of this machine (a compiler missing),
    /// already said in an `error:` line; the rest was done and reported: exit status 2.
    Incomplete,
}

/// Exit status for usage and environment errors.
pub const EXIT_ERROR: i32 = 2;
// Interrupted by SIGINT or SIGTERM: 128 + the signal number (130, 143); see `crate::interrupt`.

/// Runs the command line `args` and returns the process exit status.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_ERROR } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    // The commands that start processes and write folders stop cleanly on SIGINT/SIGTERM;
    // the others keep the default (a `solve` waiting for standard input must die on Ctrl-C).
    // Before anything else: the sandbox takes the list of handled signals when it is made.
    let long_running = matches!(
        cli.command,
        Command::Gen(_) | Command::Grade(_) | Command::Stress(_) | Command::Verify(_)
    );
    if long_running {
        if let Err(e) = crate::interrupt::install() {
            eprintln!("error: cannot install the SIGINT/SIGTERM handlers: {e}");
            return EXIT_ERROR;
        }
    }
    let result = match cli.command {
        Command::Problems(a) => problems::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Gen(a) => gen::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Check(a) => check::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Show(a) => show::run(a),
        Command::Grade(a) => grade::run(a),
        Command::Stress(a) => stress::run(a),
        Command::Hunt(a) => hunt::run(a),
        Command::Verify(a) => verify::run(a),
        Command::New(a) => new::run(a),
        Command::Report(c) => report::run(c),
        Command::Export(a) => export::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
    };
    // Asked to stop: whatever the command concluded covers only part of the work, and an
    // error on the way out is a consequence of the stop. The command printed what it had.
    if let Some(signal) = crate::interrupt::requested() {
        let e = crate::interrupt::Interrupted { signal };
        eprintln!("error: {e}");
        return e.exit_code();
    }
    match result {
        Ok(Status::Success) => 0,
        Ok(Status::Rejected) => 1,
        Ok(Status::Incomplete) => EXIT_ERROR,
        Err(e) => {
            if is_broken_pipe(&e) {
                return 0;
            }
            eprintln!("error: {}", one_line(&e));
            EXIT_ERROR
        }
    }
}

/// The whole context chain on one line: `cannot read x.in: No such file or directory`.
fn one_line(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let s = cause.to_string();
        // thiserror messages often embed their source; skip exact repeats.
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    parts.join(": ").replace('\n', " ")
}

/// A closed stdout (`judge gen ... | head`) is not an error (Unix convention).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Loads a package named on the command line and prints its parse warnings. A Kattis
/// package's jury programs run on `slots` parallel slots with the `languages` table, and are
/// built right away: one that does not build is an error here, before anything runs.
fn load_package_with(
    arg: &str,
    slots: usize,
    languages: Option<&std::path::Path>,
) -> anyhow::Result<crate::package::Package> {
    let jury = crate::kattis::JuryConfig {
        slots,
        languages: languages.map(std::path::Path::to_path_buf),
    };
    let pkg = crate::package::Package::resolve_with(arg, &jury)?;
    for w in pkg.warnings.iter().chain(&pkg.gaps) {
        eprintln!("warning: {w}");
    }
    if !pkg.has_input_validator() {
        eprintln!(
            "warning: {}: no input validator judge can run: test inputs are not checked (the format asks for one)",
            pkg.dir.join("input_validators").display()
        );
    }
    for n in pkg.notes() {
        eprintln!("note: {n}");
    }
    pkg.build_jury_programs()?;
    Ok(pkg)
}

/// [`load_package_with`] one slot and the built-in language table.
fn load_package(arg: &str) -> anyhow::Result<crate::package::Package> {
    load_package_with(arg, 1, None)
}

/// Input bytes as text, with a clear error for non-UTF-8 data.
fn text(bytes: Vec<u8>, what: &std::path::Path) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", what.display()))
}
