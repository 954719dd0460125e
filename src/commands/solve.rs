//! `judge solve`: the reference answer for one input.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Result};

use super::{load_package, text, Status};
use crate::cli::SolveArgs;
use crate::fsutil::read_input;
use crate::text::file_name;

pub fn run(args: SolveArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let bytes = read_input(args.input.as_deref())?;
    let name = file_name(args.input.as_deref());
    // The same exit status as `check` for an invalid input: the user's file is bad (2).
    if let Err(v) = pkg.logic.validate(&bytes)? {
        bail!("{} (invalid input)", v.at(&name));
    }
    let input = text(bytes, Path::new(&name))?;
    std::io::stdout().write_all(pkg.logic.solve(&input)?.as_bytes())?;
    Ok(Status::Success)
}
