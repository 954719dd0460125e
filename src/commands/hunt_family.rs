//! `judge hunt <P> --family`: the family report (see [`crate::hunt::family`]).

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};

use super::hunt::DEFAULT_CAP;
use super::Status;
use crate::cli::HuntArgs;
use crate::fsutil::write_atomic;
use crate::hunt::family::{members, run as run_family, FamilyConfig, FamilyEvent};
use crate::hunt::family_report::{render_json, render_text, FamilyReport};
use crate::hunt::Budget;
use crate::package::Package;
use crate::problems::Hunt;

/// Random inputs in the sample without `--sample`.
const DEFAULT_SAMPLE: u64 = 1000;

pub fn run(args: &HuntArgs, pkg: &Package, hooks: &dyn Hunt) -> Result<Status> {
    if args.generator.is_some() || !args.from.is_empty() || args.name.is_some() {
        bail!("--family starts from the test plan's generators (no --generator, --from, --name)");
    }
    let only: Vec<String> = args.solver.iter().cloned().collect();
    if members(hooks, &only).is_empty() {
        bail!(
            "problem `{}` has no family of searches to report on",
            pkg.name
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1)
    });
    let hunt = Budget::of(args.count, args.seconds, args.cpu_seconds, 30);
    let config = FamilyConfig {
        seed,
        cap: args.cap.unwrap_or(DEFAULT_CAP),
        sample: args.sample.unwrap_or(DEFAULT_SAMPLE),
        hunt,
        jobs: args.run.jobs(),
        only,
    };
    let start = Instant::now();
    let quiet = args.json;
    let rows = run_family(pkg, hooks, &config, &|e| {
        if quiet {
            return;
        }
        match e {
            FamilyEvent::Stage(what) => eprintln!("measuring {what}"),
            FamilyEvent::Row(r) => eprintln!(
                "  {} ({}): test set {}, sample {}, hunt {}",
                r.solver,
                r.kind.name(),
                r.test_set.as_ref().map_or(0, |h| h.nodes),
                r.sample.as_ref().map_or(0, |h| h.nodes),
                r.hunt.as_ref().map_or(0, |h| h.nodes)
            ),
        }
    })
    .with_context(|| format!("cannot measure the family of {}", pkg.name))?;
    // --out DIR: each hunt's hardest input and its reference answer, as <solver>-<kind>.
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for r in &rows {
            let Some(h) = &r.hunt else { continue };
            let name = format!("{}-{}", r.solver, r.kind.name());
            let answer = pkg.logic.solve(&h.input)?;
            write_atomic(&dir.join(format!("{name}.ans")), answer.as_bytes())?;
            write_atomic(&dir.join(format!("{name}.in")), h.input.as_bytes())?;
        }
    }
    let all_within = rows.iter().all(|r| r.within);
    let report = FamilyReport {
        problem: pkg.name.clone(),
        seed,
        cap: config.cap,
        sample: config.sample,
        hunt_budget: hunt.describe(),
        jobs: config.jobs,
        elapsed_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        rows,
        all_within,
    };
    if args.json {
        println!("{}", render_json(&report));
    } else {
        print!("{}", render_text(&report));
    }
    Ok(if all_within {
        Status::Success
    } else {
        Status::Rejected
    })
}
