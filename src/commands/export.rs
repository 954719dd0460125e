//! `judge export`: write a built-in problem as a Kattis / ICPC package (see [`crate::export`]).

use anyhow::{bail, Result};

use super::Status;
use crate::cli::ExportArgs;
use crate::export;
use crate::text::count;

pub fn run(args: ExportArgs) -> Result<Status> {
    let out = &args.out;
    // Refuse to clobber before doing any work.
    match std::fs::symlink_metadata(out) {
        Ok(meta) if args.zip => {
            if meta.is_dir() {
                bail!("{} is a folder; --zip writes a file", out.display());
            }
            if !args.force {
                bail!("{} exists; pass --force to replace it", out.display());
            }
        }
        Ok(meta) if !meta.is_dir() => {
            bail!("{} exists and is not a folder", out.display());
        }
        Ok(_) => {
            let non_empty = std::fs::read_dir(out)
                .map(|mut d| d.next().is_some())
                .unwrap_or(true);
            if non_empty && !args.force {
                bail!(
                    "{} is not empty; pass --force to replace it (everything in it is removed)",
                    out.display()
                );
            }
        }
        Err(_) => {}
    }
    let short_name = out
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if short_name.is_empty()
        || !short_name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        eprintln!(
            "note: the package's name is `{short_name}`; the package format wants [a-z0-9]+ \
             (problemtools reports anything else as an error)"
        );
    }
    // Loaded without building anything: a Kattis package is refused by `assemble`.
    let pkg = crate::package::Package::resolve(&args.problem)?;
    for w in &pkg.warnings {
        eprintln!("warning: {w}");
    }
    let tree = export::assemble(&pkg, args.format)?;
    for n in &tree.notes {
        eprintln!("note: {n}");
    }
    if args.zip {
        export::write_zip(&tree, out)?;
    } else {
        crate::fsutil::replace_dir(out, |dir| export::write_dir(&tree, dir))?;
    }
    let invalid = if tree.format.layout().invalid_inputs {
        format!("{}, ", count(tree.invalid_inputs, "invalid input"))
    } else {
        String::new()
    };
    eprintln!(
        "wrote {} to {} (format {}): {} ({} sample, {} secret), {invalid}{}, input and output validator",
        pkg.name,
        out.display(),
        tree.format.name(),
        count(tree.samples + tree.secret, "test"),
        tree.samples,
        tree.secret,
        count(tree.submissions, "jury submission"),
    );
    Ok(Status::Success)
}
