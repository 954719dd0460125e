//! `judge problems`: list the packages.

use anyhow::Result;
use serde::Serialize;

use super::Status;
use crate::cli::ProblemsArgs;
use crate::package::Package;

/// `judge problems --json` root object.
#[derive(Serialize)]
struct Listing {
    problems: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    name: String,
    title: String,
    time_limit_ms: u128,
    memory_limit_mib: u64,
    generated_tests: u32,
}

pub fn run(args: ProblemsArgs) -> Result<Status> {
    let mut entries = Vec::new();
    let mut broken = false;
    let packages = Package::discover()?;
    let root = crate::package::problems_root();
    if packages.is_empty() {
        eprintln!(
            "note: no packages in {} (a package is a folder with a problem.toml; $JUDGE_PROBLEMS_DIR sets the folder)",
            root.display()
        );
    } else if root != crate::package::problems_dirs()[0] {
        // Not the folder named first ($JUDGE_PROBLEMS_DIR or ./problems): say which one.
        eprintln!(
            "note: no ./problems here; the packages of {} ($JUDGE_PROBLEMS_DIR sets the folder)",
            root.display()
        );
    }
    for pkg in packages {
        match pkg {
            Ok(p) => entries.push(Entry {
                name: p.name,
                title: p.title,
                time_limit_ms: p.limits.time.as_millis(),
                memory_limit_mib: p.limits.memory_mib,
                generated_tests: p.groups.iter().map(|g| g.count).sum(),
            }),
            Err(e) => {
                broken = true;
                eprintln!("error: {e}");
            }
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&Listing { problems: entries })?
        );
    } else {
        let width = entries
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        println!(
            "{:width$}  {:>6}  {:>7}  {:>9}  TITLE",
            "NAME", "TIME", "MEMORY", "GENERATED"
        );
        for e in &entries {
            println!(
                "{:width$}  {:>5.1}s  {:>4} MiB  {:>9}  {}",
                e.name,
                e.time_limit_ms as f64 / 1000.0,
                e.memory_limit_mib,
                e.generated_tests,
                e.title
            );
        }
    }
    Ok(if broken {
        Status::Rejected
    } else {
        Status::Success
    })
}
