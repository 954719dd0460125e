//! `judge gen`: write a package's test set, print one generated input, or list generators.

use std::io::Write;

use anyhow::{bail, Context, Result};

use super::{load_package, Status};
use crate::cli::GenArgs;
use crate::fsutil::{list_dir, replace_dir};
use crate::problems::GenParams;
use crate::testset;
use crate::text::count;

pub fn run(args: GenArgs) -> Result<Status> {
    if args.generator.is_none() && !args.list {
        if let Some(dir) = generators_package(&args.problem) {
            return super::gen_kattis::run(&dir, args.out.as_deref(), args.check);
        }
    }
    if args.check {
        bail!(
            "--check compares a Kattis package's data/ with what its {} makes; {} has none",
            crate::kattis::generators::FILE,
            args.problem
        );
    }
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
    // The folder is replaced as a whole, so it must hold nothing but an earlier test set.
    if let Some(bad) = non_test_entry(&out)? {
        bail!(
            "{} holds `{}`, which is not a test file; refusing to replace the folder \
             (`gen --out` writes a fresh folder of .in/.ans files: name a new or a test folder)",
            out.display(),
            bad.strip_prefix(&out).unwrap_or(&bad).display()
        );
    }
    replace_dir(&out, |dir| {
        for t in &tests {
            crate::interrupt::check()?;
            // A Kattis package's tests are named by their folders (`secret/group1/03`).
            if let Some(parent) = dir.join(&t.name).parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            for (ext, text) in [("in", &t.input), ("ans", &t.answer)] {
                let path = dir.join(format!("{}.{ext}", t.name));
                std::fs::write(&path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        Ok(())
    })?;
    eprintln!("wrote {} to {}", count(tests.len(), "test"), out.display());
    Ok(Status::Success)
}

/// The Kattis package folder `arg` names, if it makes its data from generators.yaml.
fn generators_package(arg: &str) -> Option<std::path::PathBuf> {
    let plain = !arg.contains('/') && arg != "." && arg != "..";
    let mut candidates = vec![std::path::PathBuf::from(arg)];
    if plain {
        candidates.insert(0, crate::package::problems_root().join(arg));
    }
    candidates
        .into_iter()
        .find(|d| crate::kattis::is_package(d) && crate::kattis::generators::has_generators(d))
}

/// The first entry below `dir` that is neither a `.in`/`.ans` file nor a folder of them.
fn non_test_entry(dir: &std::path::Path) -> Result<Option<std::path::PathBuf>> {
    for entry in list_dir(dir)? {
        if entry.is_dir() {
            if let Some(bad) = non_test_entry(&entry)? {
                return Ok(Some(bad));
            }
        } else if !(entry.is_file() && entry.extension().is_some_and(|x| x == "in" || x == "ans")) {
            return Ok(Some(entry));
        }
    }
    Ok(None)
}
