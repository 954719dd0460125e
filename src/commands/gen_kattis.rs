//! `judge gen PACKAGE` for a Kattis package with `generators/generators.yaml`: make its
//! `data/` (swapped in atomically, untouched when nothing changed), or `--out DIR`, or
//! `--check` it against what the generators make.

use std::path::Path;

use anyhow::Result;

use super::Status;
use crate::fsutil::replace_dir;
use crate::kattis::generators::{self, check, write, Generators};
use crate::kattis::JuryConfig;
use crate::text::count;

pub fn run(pkg: &Path, out: Option<&Path>, check_only: bool) -> Result<Status> {
    let g = Generators::read(pkg)?;
    for w in g.warnings.iter().chain(&g.unsupported(pkg)) {
        eprintln!("warning: {w}");
    }
    let jury = JuryConfig {
        slots: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        languages: None,
    };
    let cases = count(g.plan.cases.len(), "test case");
    let note_default = |made: &generators::Made| {
        if let Some(s) = &made.default_solution {
            eprintln!(
                "note: {} names no solution for some cases: their answers come from {s} (the first accepted submission)",
                generators::FILE
            );
        }
    };
    if let Some(out) = out {
        let mut made = None;
        replace_dir(out, |dir| {
            made = Some(generators::make(pkg, &g, dir, &jury)?);
            Ok(())
        })?;
        if let Some(m) = &made {
            note_default(m);
            eprintln!(
                "wrote {cases} to {} in {:.1} s",
                out.display(),
                m.took.as_secs_f64()
            );
        }
        return Ok(Status::Success);
    }
    if check_only {
        let scratch = tempfile::Builder::new()
            .prefix("judge-gen-check-")
            .tempdir()?;
        let made = generators::make(pkg, &g, scratch.path(), &jury)?;
        note_default(&made);
        let data = pkg.join("data");
        let diff = check::diff(scratch.path(), &data, false)?;
        let show = |list: &[String], what: &str| {
            for f in list {
                println!("{what:<16} {}", data.join(f).display());
            }
        };
        show(&diff.differ, "differs");
        show(&diff.missing, "missing");
        show(&diff.unmentioned, "made by no rule");
        if diff.is_empty() {
            eprintln!(
                "{} is what {} makes: {cases}",
                data.display(),
                generators::FILE
            );
            return Ok(Status::Success);
        }
        eprintln!(
            "{} is not what {} makes: {} differing, {} missing, {} made by no rule (judge gen {} rewrites it)",
            data.display(),
            generators::FILE,
            count(diff.differ.len(), "file"),
            diff.missing.len(),
            diff.unmentioned.len(),
            pkg.display()
        );
        return Ok(Status::Rejected);
    }
    let scratch = write::scratch_beside(pkg)?;
    let made = generators::make(pkg, &g, scratch.path(), &jury)?;
    note_default(&made);
    crate::interrupt::check()?;
    let data = pkg.join("data");
    match write::into_package(pkg, scratch.path())? {
        write::Written::Unchanged => eprintln!(
            "{} is up to date: {cases} ({:.1} s)",
            data.display(),
            made.took.as_secs_f64()
        ),
        write::Written::Replaced(diff) => eprintln!(
            "wrote {cases} to {} in {:.1} s ({} changed, {} new)",
            data.display(),
            made.took.as_secs_f64(),
            count(diff.differ.len(), "file"),
            diff.missing.len()
        ),
    }
    Ok(Status::Success)
}
