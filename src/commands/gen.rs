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
        if let Err(v) = pkg.logic.validate(t.input.as_bytes()) {
            bail!("test `{}` ({}) is invalid: {v}", t.name, t.describe());
        }
    }
    // The folder is replaced as a whole, so it must hold nothing but an earlier test set.
    for entry in list_dir(&out)? {
        let is_test = entry.is_file() && entry.extension().is_some_and(|x| x == "in" || x == "ans");
        if !is_test {
            bail!(
                "{} holds `{}`, which is not a test file; refusing to replace the folder \
                 (`gen --out` writes a fresh folder of .in/.ans files: name a new or a test folder)",
                out.display(),
                entry.file_name().unwrap_or_default().to_string_lossy()
            );
        }
    }
    replace_dir(&out, |dir| {
        for t in &tests {
            crate::interrupt::check()?;
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
