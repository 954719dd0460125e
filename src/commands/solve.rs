//! `judge solve`: the reference answer for one input.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::{load_package, text, Status};
use crate::cli::SolveArgs;
use crate::fsutil::read_input;

pub fn run(args: SolveArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let bytes = read_input(args.input.as_deref())?;
    let name = args.input.as_deref().unwrap_or(Path::new("<stdin>"));
    if let Err(v) = pkg.logic.validate(&bytes)? {
        eprintln!("error: {}: invalid input: {v}", name.display());
        return Ok(Status::Rejected);
    }
    let input = text(bytes, name)?;
    std::io::stdout().write_all(pkg.logic.solve(&input)?.as_bytes())?;
    Ok(Status::Success)
}
