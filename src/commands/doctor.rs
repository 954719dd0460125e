//! `judge doctor`: what this machine gives the sandbox and what a grade will be like here.
//!
//! Exit status: 0 when grading is exact here, 1 when something degrades it (listed), 2 when
//! grading cannot work here (or the language table is invalid).

use std::io::Write;

use anyhow::{bail, Result};

use super::Status;
use crate::cli::DoctorArgs;
use crate::doctor::checks::{self, Options};
use crate::doctor::{json, term, Overall};

pub fn run(args: DoctorArgs) -> Result<Status> {
    let report = checks::collect(&Options {
        languages: args.languages,
    })?;
    let text = if args.json {
        json::render(&report)?
    } else {
        let colour = crate::terminal::colour(crate::terminal::Stream::Stdout);
        term::render(&report, colour)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    match report.status {
        Overall::Ok => Ok(Status::Success),
        Overall::Degraded => Ok(Status::Rejected),
        Overall::Error => {
            let failed: Vec<String> = report
                .checks
                .iter()
                .filter(|c| c.status == crate::doctor::Status::Error)
                .map(|c| format!("{}: {}", c.id, c.summary))
                .collect();
            bail!("grading cannot work here: {}", failed.join("; "))
        }
    }
}
