//! `judge check`: run the checker on one output.

use anyhow::{bail, Result};

use super::{load_package, text, Status};
use crate::cli::CheckArgs;
use crate::fsutil::read_input;
use crate::problems::Judgement;
use crate::text::file_name;

pub fn run(args: CheckArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    let input_bytes = read_input(Some(&args.input))?;
    if let Err(v) = pkg.logic.validate(&input_bytes)? {
        bail!("{} (invalid input)", v.at(&file_name(Some(&args.input))));
    }
    let input = text(input_bytes, &args.input)?;
    let output = read_input(Some(&args.output))?;
    let answer = match &args.answer {
        Some(p) => text(read_input(Some(p))?, p)?,
        None => pkg.logic.solve(&input)?,
    };
    let test = crate::testset::TestCase {
        name: "check".into(),
        origin: crate::testset::Origin::External(args.input.clone()),
        input,
        answer,
    };
    match pkg.logic.check_test(&test, &output) {
        Judgement::Accepted => {
            println!("AC");
            Ok(Status::Success)
        }
        Judgement::Rejected(reason) => {
            println!("WA: {reason}");
            Ok(Status::Rejected)
        }
        Judgement::JudgeError(reason) => bail!("judge error: {reason}"),
    }
}
