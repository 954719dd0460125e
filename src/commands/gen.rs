//! `judge gen`: write a package's test set, print one generated input, or list generators.

use std::io::Write;

use anyhow::{bail, Context, Result};

use super::{load_package, Status};
use crate::cli::GenArgs;
use crate::fsutil::write_atomic;
use crate::problems::GenParams;
use crate::testset;

pub fn run(args: GenArgs) -> Result<Status> {
    let pkg = load_package(&args.problem)?;
    if args.list {
        println!("generators of {}:", pkg.name);
        for g in pkg.logic.generators() {
            let params = if g.params.is_empty() {
                String::new()
            } else {
                format!(" [{}]", g.params.join(", "))
            };
            println!("  {}{params}: {}", g.name, g.description);
        }
        println!("test plan:");
        for g in &pkg.groups {
            let params: Vec<String> = g
                .params
                .0
                .iter()
                .map(|(k, v)| format!(" {k}={v}"))
                .collect();
            println!(
                "  {} x{}: {}{}",
                g.name,
                g.count,
                g.generator,
                params.concat()
            );
        }
        return Ok(Status::Success);
    }
    if let (Some(generator), Some(seed)) = (&args.generator, args.seed) {
        let params = GenParams(args.param.iter().cloned().collect());
        if let Some(spec) = pkg.logic.generators().iter().find(|s| s.name == generator) {
            if let Some((bad, _)) = args
                .param
                .iter()
                .find(|(k, _)| !spec.params.contains(&k.as_str()))
            {
                bail!(
                    "generator `{generator}` has no parameter `{bad}` (parameters: {})",
                    spec.params.join(", ")
                );
            }
        }
        let input = pkg.logic.generate(generator, &params, seed)?;
        std::io::stdout().write_all(input.as_bytes())?;
        return Ok(Status::Success);
    }
    let Some(out) = args.out else {
        bail!("nothing to do: pass --out DIR, --generator NAME --seed S, or --list");
    };
    let tests = testset::full(&pkg)?;
    for t in &tests {
        if let Err(v) = pkg.logic.validate_test(t)? {
            bail!("test `{}` ({}) is invalid: {v}", t.name, t.describe());
        }
    }
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    for t in &tests {
        // A Kattis package's tests are named by their folders (`secret/group1/03`).
        if let Some(parent) = out.join(&t.name).parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        write_atomic(&out.join(format!("{}.in", t.name)), t.input.as_bytes())?;
        write_atomic(&out.join(format!("{}.ans", t.name)), t.answer.as_bytes())?;
    }
    eprintln!("wrote {} tests to {}", tests.len(), out.display());
    Ok(Status::Success)
}
