//! `judge validate`: byte-strict validation of input files.

use anyhow::Result;

use super::{load_package, Status};
use crate::cli::ValidateArgs;
use crate::fsutil::read_input;

pub fn run(args: ValidateArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let mut status = Status::Success;
    for path in &args.inputs {
        let bytes = read_input(Some(path))?;
        match pkg.logic.validate(&bytes)? {
            Ok(()) => println!("{}: ok", path.display()),
            Err(v) => {
                println!("{}", v.located(path));
                status = Status::Rejected;
            }
        }
    }
    Ok(status)
}
