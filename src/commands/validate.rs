//! `judge validate`: byte-strict validation of input files.

use anyhow::Result;

use super::{load_package, Status};
use crate::cli::ValidateArgs;
use crate::fsutil::read_input;
use crate::text::file_name;

pub fn run(args: ValidateArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let mut status = Status::Success;
    for path in &args.inputs {
        let bytes = read_input(Some(path))?;
        // Text inputs go through validate_test, so a package's files under data/ get their
        // test group's validator arguments.
        let verdict = match String::from_utf8(bytes) {
            Ok(input) => pkg.logic.validate_test(&crate::testset::TestCase {
                name: path.display().to_string(),
                origin: crate::testset::Origin::External(path.clone()),
                input,
                answer: String::new(),
            })?,
            Err(e) => pkg.logic.validate(e.as_bytes())?,
        };
        match verdict {
            Ok(()) => println!("{}: ok", file_name(Some(path))),
            Err(v) => {
                println!("{}", v.at(&file_name(Some(path))));
                status = Status::Rejected;
            }
        }
    }
    Ok(status)
}
