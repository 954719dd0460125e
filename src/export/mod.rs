//! `judge export`: a built-in problem as a self-contained Kattis / ICPC package
//! (`problem_format_version: 2023-07-draft`, the name under which problemtools and DOMjudge
//! read what became 2025-09):
//!
//! ```text
//! problem.yaml                    name, uuid, limits (time_limit, memory, output)
//! .timelimit                      the time limit again, for DOMjudge before 10.0
//! statement/problem.en.md         statement.md without its title and printed samples
//! problem.html                    statement.md as HTML, the statement DOMjudge reads
//! data/sample/, data/secret/      every test of the test plan with its answer (+ .desc)
//! data/invalid_input/             data/invalid_input/*.in
//! input_validators/validator/     build + the harness's validator source, verbatim
//! output_validator/checker/       build + the harness's checker source, verbatim
//! submissions/<folder>/           the jury submissions of the folders the format knows
//! submissions/submissions.yaml     rules keeping judge's first-failure meaning of a folder
//! ```
//!
//! The package is assembled in memory ([`Tree`]), then written as a folder (through a
//! temporary folder and a rename) or as a zip file (through a temporary file).
//!
//! `.timelimit` and `problem.html` are for DOMjudge's importer, which reads neither
//! `statement/` nor (before 10.0) `limits.time_limit`; problemtools allows `.timelimit` at the
//! root and ignores `problem.html`. `tests/domjudge.rs` checks the zip against the importer's
//! rules.

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::package::{fnv1a64, Package};
use crate::testset::{self, Origin};

pub mod html;
pub mod program;
pub mod zip;

use program::Role;

/// The folders of `submissions/` the package format gives a meaning; the others
/// (`compile_error`, `memory_limit_exceeded`, `output_limit_exceeded`) have no counterpart
/// (problemtools reports a submission in an unknown folder, or one that does not compile, as
/// an error) and are left out.
pub const SUBMISSION_FOLDERS: &[&str] = &[
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];

/// `submissions/submissions.yaml` before its rules.
const SUBMISSION_RULES_HEADER: &str = "\
# Written by `judge export`. judge calls a rejected jury submission by the verdict of its first
# failing test (tests run in order; the secret tests are numbered in that order), as
# problemtools does. The 2025-09 folder defaults are stricter: every test's verdict must be in
# the folder's set. These rules keep judge's meaning as far as the format can say it: the
# folder's verdict must occur; the other rejections may occur on other tests.
";

/// The verdict a rejected folder's submissions must get on some test (`submissions.yaml`).
fn first_failure_verdict(folder: &str) -> Option<&'static str> {
    match folder {
        "wrong_answer" => Some("WA"),
        "time_limit_exceeded" => Some("TLE"),
        "run_time_error" => Some("RTE"),
        _ => None,
    }
}

/// The package format version written to `problem.yaml`.
pub const FORMAT_VERSION: &str = "2023-07-draft";

/// One file of the package.
#[derive(Debug, Clone)]
pub struct File {
    /// Relative path with `/` separators.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// A package in memory, and what went into it.
#[derive(Debug, Default)]
pub struct Tree {
    pub files: Vec<File>,
    pub samples: usize,
    pub secret: usize,
    pub invalid_inputs: usize,
    pub submissions: usize,
    /// What was left out, one line each (`submissions/compile_error: ...`).
    pub notes: Vec<String>,
}

impl Tree {
    fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>, executable: bool) {
        self.files.push(File {
            path: path.into(),
            bytes: bytes.into(),
            executable,
        });
    }
}

/// A stable UUID for the package (problemtools requires one): derived from the problem name,
/// so re-exports keep it; version nibble 8 (custom), RFC 4122 variant.
pub fn uuid(name: &str) -> String {
    let hi = fnv1a64(format!("judge-export/{name}").as_bytes());
    let lo = fnv1a64(format!("{name}/judge-export").as_bytes());
    let hi = (hi & !0xF000) | 0x8000;
    let lo = (lo & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xFFFF,
        hi & 0xFFFF,
        lo >> 48,
        lo & 0xFFFF_FFFF_FFFF
    )
}

/// A YAML scalar for any text: a JSON string is a valid YAML double-quoted scalar.
fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A time limit in seconds as `problem.yaml` and `.timelimit` give it: whole milliseconds
/// (rounded up), with at least one decimal (`1.0`, `0.25`). DOMjudge keeps three decimals of
/// `limits.time_limit` and refuses a package whose `.timelimit` says something else.
pub fn seconds(limit: Duration) -> String {
    let ms = limit.as_nanos().div_ceil(1_000_000);
    match ms % 1000 {
        0 => format!("{}.0", ms / 1000),
        frac => format!(
            "{}.{}",
            ms / 1000,
            format!("{frac:03}").trim_end_matches('0')
        ),
    }
}

fn problem_yaml(pkg: &Package) -> String {
    let mut s = format!(
        "# Written by `judge export` from the built-in package `{}`.\n\
         problem_format_version: {FORMAT_VERSION}\n\
         name: {}\n\
         uuid: {}\n\
         type: pass-fail\n\
         limits:\n  time_limit: {}\n  memory: {}\n",
        pkg.name,
        yaml_string(&pkg.title),
        uuid(&pkg.name),
        seconds(pkg.limits.time),
        pkg.limits.memory_mib,
    );
    s.push_str(&format!("  output: {}\n", pkg.limits.output_mib.max(1)));
    s
}

/// The file name stem of a test's source file (`data/secret/all-zeros.in` → `all-zeros`).
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Builds the package of the built-in problem `pkg` in memory.
pub fn assemble(pkg: &Package) -> Result<Tree> {
    let Some(sources) = pkg.logic.jury_sources() else {
        if pkg.manifest() == "problem.yaml" {
            bail!(
                "{} is a Kattis package already; `judge export` writes built-in packages (problem.toml)",
                pkg.dir.display()
            );
        }
        bail!(
            "problem `{}` has no built-in validator and checker source to export",
            pkg.name
        );
    };
    let mut tree = Tree::default();
    tree.add("problem.yaml", problem_yaml(pkg), false);
    tree.add(
        ".timelimit",
        format!("{}\n", seconds(pkg.limits.time)),
        false,
    );
    let statement = pkg.dir.join("statement.md");
    match std::fs::read(&statement) {
        Ok(text) => {
            let text = String::from_utf8(text)
                .with_context(|| format!("{} is not UTF-8", statement.display()))?;
            let body = crate::package::statement::for_package(&text);
            tree.add("statement/problem.en.md", body.into_bytes(), false);
            // Samples included: DOMjudge offers data/sample/ for download but does not print
            // it into a statement.
            tree.add("problem.html", html::statement(&pkg.title, &text), false);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => tree
            .notes
            .push("statement.md: missing; the package has no statement".into()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", statement.display())),
    }

    let tests = testset::full(pkg)?;
    // Kattis judges run tests in lexicographic order and a rejected submission's verdict is
    // its first failure: secret tests are numbered in test-plan order (`007-all-zeros`) so
    // that order, and with it every jury submission's verdict, stays the harness's.
    let secret_total = tests
        .iter()
        .filter(|t| !matches!(t.origin, Origin::Sample(_)))
        .count();
    let width = secret_total.to_string().len().max(2);
    let mut seen = std::collections::BTreeSet::new();
    for t in &tests {
        if let Err(v) = pkg.logic.validate_test(t)? {
            bail!("test `{}` ({}) is invalid: {v}", t.name, t.describe());
        }
        let number = tree.secret + 1;
        let (group, name, desc) = match &t.origin {
            Origin::Sample(p) => ("sample", stem(p), None),
            Origin::Secret(p) => (
                "secret",
                format!("{number:0width$}-{}", stem(p)),
                Some(p.with_extension("desc")),
            ),
            Origin::Generated { .. } | Origin::External(_) => {
                ("secret", format!("{number:0width$}-{}", t.name), None)
            }
        };
        let base = format!("data/{group}/{name}");
        if !seen.insert(base.clone()) {
            bail!("two tests would both be {base}.in: rename one");
        }
        tree.add(format!("{base}.in"), t.input.as_bytes(), false);
        tree.add(format!("{base}.ans"), t.answer.as_bytes(), false);
        if let Some(desc) = desc.filter(|d| d.is_file()) {
            let text =
                std::fs::read(&desc).with_context(|| format!("cannot read {}", desc.display()))?;
            tree.add(format!("{base}.desc"), text, false);
        }
        if group == "sample" {
            tree.samples += 1;
        } else {
            tree.secret += 1;
        }
    }

    for path in crate::fsutil::list_dir(&pkg.dir.join("data/invalid_input"))? {
        if path.is_file() && path.extension().is_some_and(|x| x == "in") {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            tree.add(
                format!("data/invalid_input/{}.in", stem(&path)),
                bytes,
                false,
            );
            tree.invalid_inputs += 1;
        }
    }

    for (folder, role) in [
        ("input_validators/validator", Role::InputValidator),
        ("output_validator/checker", Role::OutputValidator),
    ] {
        for (name, text, exec) in program::files(&pkg.name, sources, role) {
            tree.add(format!("{folder}/{name}"), text, exec);
        }
    }

    let mut rules = String::from(SUBMISSION_RULES_HEADER);
    let mut folders = crate::fsutil::list_dir(&pkg.dir.join("submissions"))?;
    folders.retain(|p| !p.file_name().is_some_and(crate::fsutil::is_tool_litter));
    folders.sort();
    for folder in folders.iter().filter(|p| p.is_dir()) {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut files = crate::fsutil::list_dir(folder)?;
        files.retain(|f| f.is_file() && !f.file_name().is_some_and(crate::fsutil::is_tool_litter));
        files.sort();
        if !SUBMISSION_FOLDERS.contains(&name.as_str()) {
            if !files.is_empty() {
                tree.notes.push(format!(
                    "submissions/{name}: no such folder in the package format; {} left out",
                    crate::text::count(files.len(), "submission")
                ));
            }
            continue;
        }
        for file in files {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            tree.add(
                format!(
                    "submissions/{name}/{}",
                    file.file_name().unwrap_or_default().to_string_lossy()
                ),
                bytes,
                false,
            );
            tree.submissions += 1;
        }
        if let Some(verdict) = first_failure_verdict(&name) {
            rules.push_str(&format!(
                "{name}:\n  permitted: [AC, WA, TLE, RTE]\n  required: [{verdict}]\n"
            ));
        }
    }
    if tree.submissions > 0 {
        tree.add("submissions/submissions.yaml", rules, false);
    }
    Ok(tree)
}

/// Writes `tree` into the (empty, fresh) folder `dir`.
pub fn write_dir(tree: &Tree, dir: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for f in &tree.files {
        let path = dir.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, &f.bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mode = if f.executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            .with_context(|| format!("cannot set permissions of {}", path.display()))?;
    }
    Ok(())
}

/// Writes `tree` as a zip file at `path`, through a temporary file beside it.
pub fn write_zip(tree: &Tree, path: &Path) -> Result<()> {
    let entries: Vec<zip::Entry> = tree
        .files
        .iter()
        .map(|f| zip::Entry {
            path: &f.path,
            bytes: &f.bytes,
            executable: f.executable,
        })
        .collect();
    let mut bytes = Vec::new();
    zip::write(&mut bytes, &entries).context("cannot build the zip")?;
    crate::fsutil::write_atomic(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uuid_is_stable_and_well_formed() {
        let u = uuid("magic-square");
        assert_eq!(u, uuid("magic-square"));
        assert_ne!(u, uuid("dodecahedron"));
        let parts: Vec<usize> = u.split('-').map(str::len).collect();
        assert_eq!(parts, [8, 4, 4, 4, 12]);
        assert_eq!(&u[14..15], "8");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
    }

    #[test]
    fn time_limits_are_whole_milliseconds() {
        assert_eq!(seconds(Duration::from_secs(1)), "1.0");
        assert_eq!(seconds(Duration::from_millis(250)), "0.25");
        assert_eq!(seconds(Duration::from_secs_f64(0.3)), "0.3");
        assert_eq!(seconds(Duration::from_secs_f64(1.2345)), "1.235");
        assert_eq!(seconds(Duration::from_millis(12_050)), "12.05");
    }

    #[test]
    fn yaml_strings_are_quoted() {
        assert_eq!(yaml_string("Magic: Square"), "\"Magic: Square\"");
    }
}
