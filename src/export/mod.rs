//! `judge export`: a built-in problem as a self-contained Kattis / ICPC package, in the
//! format version `--format` names ([`Format`]; what differs between them is data, in
//! [`format::Layout`]). The files of the default, `legacy`:
//!
//! ```text
//! problem.yaml                      problem_format_version, name, uuid, validation, limits
//! .timelimit                        the time limit (legacy has no problem.yaml key for it)
//! problem_statement/problem.en.tex  statement.md without its title and printed samples, as LaTeX
//! problem.html                      statement.md as HTML, the statement DOMjudge reads
//! data/sample/, data/secret/        every test of the test plan with its answer (+ .desc)
//! input_validators/validator/       build + the harness's validator source, verbatim
//! output_validators/checker/        build + the harness's checker source, verbatim
//! submissions/<folder>/             the jury submissions of the folders the format knows
//! submissions/submissions.yaml       rules keeping judge's first-failure meaning of a folder
//! ```
//!
//! 2023-07 and 2025-09 put the statement in `statement/`, the checker in `output_validator/`
//! and the time limit in `limits.time_limit`; 2025-09 adds `data/invalid_input/`. Every version
//! keeps judge's meaning of a rejected folder in `submissions/submissions.yaml`.
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
use crate::verdict::score::{fmt_score, Aggregation};

pub mod format;
pub mod html;
pub mod markdown;
pub mod program;
pub mod tex;
pub mod zip;

pub use format::Format;
use format::{Layout, StatementKind};
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

/// `submissions/submissions.yaml` before its rules, in every format version: 2025-09 defines
/// the file; in legacy and 2023-07-draft problemtools and DOMjudge ignore it (they judge a
/// rejected folder by its first failure already), and judge and BAPCtools read it in any version.
/// The legacy spec's folder text ("WA for some test case, but not too slow and no crash") is as
/// strict as 2025-09's defaults: dodecahedron's `wrong_answer/reuse_tile.cpp`, WA on `sample/1`,
/// runs out of time on two later tests.
pub const SUBMISSION_RULES_HEADER: &str = "\
# Written by `judge export`. judge calls a rejected jury submission by the verdict of its first
# failing test (tests run in order; the secret tests are numbered in that order), as
# problemtools and DOMjudge do. The 2025-09 folder defaults (and the legacy spec's folder text)
# are stricter: every test's verdict must be in the folder's set. These rules keep judge's
# meaning as far as the format can say it: the folder's verdict must occur; the other
# rejections may occur on other tests.
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

/// One file of the package.
#[derive(Debug, Clone)]
pub struct File {
    /// Relative path with `/` separators.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
    /// Written as a symbolic link to this file of the same folder (a folder export; a zip holds
    /// `bytes`): a test identical to an earlier one, which the format says with a link (BAPCtools
    /// warns about identical inputs unless they are links; problemtools skips links).
    pub link: Option<String>,
}

/// A package in memory, and what went into it.
#[derive(Debug, Default)]
pub struct Tree {
    pub format: Format,
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
            link: None,
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

fn problem_yaml(pkg: &Package, layout: &Layout) -> String {
    let mut s = format!(
        "# Written by `judge export` from the built-in package `{}`.\n\
         problem_format_version: {}\n\
         name: {}\n\
         uuid: {}\n\
         type: {}\n",
        pkg.name,
        layout.version,
        yaml_string(&pkg.title),
        uuid(&pkg.name),
        if pkg.subtasks().is_empty() {
            "pass-fail"
        } else {
            "scoring"
        },
    );
    if layout.validation_key {
        s.push_str("validation: custom\n");
    }
    s.push_str("limits:\n");
    if layout.time_limit_key {
        s.push_str(&format!("  time_limit: {}\n", seconds(pkg.limits.time)));
    }
    s.push_str(&format!(
        "  memory: {}\n  output: {}\n",
        pkg.limits.memory_mib,
        pkg.limits.output_mib.max(1)
    ));
    s
}

/// A scoring problem's group files: legacy `testdata.yaml` keys as problemtools reads them
/// (legacy and 2023-07: samples worth nothing and ignored, each subtask all or nothing by
/// `min` (or a share per test by `sum`), any failed subtask a rejection), or 2025-09's
/// `test_group.yaml` (`max_score`, `score_aggregation`).
fn scoring_files(pkg: &Package, layout: &Layout, tree: &mut Tree) {
    let subtasks = pkg.subtasks();
    if subtasks.is_empty() {
        return;
    }
    let total: f64 = subtasks.iter().map(|s| s.points).sum();
    let num = fmt_score;
    if layout.version == "2025-09" {
        tree.add(
            "data/secret/test_group.yaml",
            format!("max_score: {}\nscore_aggregation: sum\n", num(total)),
            false,
        );
        for s in subtasks {
            tree.add(
                format!("data/secret/{}/test_group.yaml", s.name),
                format!(
                    "max_score: {}\nscore_aggregation: {}\n",
                    num(s.points),
                    s.aggregation.name()
                ),
                false,
            );
        }
        return;
    }
    tree.add(
        "data/testdata.yaml",
        format!(
            "on_reject: continue\nrange: 0 {}\ngrader_flags: ignore_sample\n",
            num(total)
        ),
        false,
    );
    tree.add(
        "data/sample/testdata.yaml",
        "accept_score: 0\nrange: 0 0\ngrader_flags: first_error\n",
        false,
    );
    tree.add(
        "data/secret/testdata.yaml",
        format!(
            "on_reject: continue\nrange: 0 {}\ngrader_flags: first_error sum\n",
            num(total)
        ),
        false,
    );
    for s in subtasks {
        let tests = tree
            .files
            .iter()
            .filter(|f| {
                f.path.starts_with(&format!("data/secret/{}/", s.name)) && f.path.ends_with(".in")
            })
            .count()
            .max(1);
        let (accept, flags) = match s.aggregation {
            Aggregation::Sum => (s.points / tests as f64, "first_error sum"),
            // All or nothing: every test scores the subtask's points, the group its minimum.
            Aggregation::Min | Aggregation::PassFail => (s.points, "first_error min"),
        };
        tree.add(
            format!("data/secret/{}/testdata.yaml", s.name),
            format!(
                "on_reject: break\naccept_score: {}\nrange: 0 {}\ngrader_flags: {flags}\n",
                accept,
                num(s.points)
            ),
            false,
        );
    }
}

/// The file name stem of a test's source file (`data/secret/all-zeros.in` → `all-zeros`).
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Builds the package of the built-in problem `pkg` in `format` in memory.
pub fn assemble(pkg: &Package, format: Format) -> Result<Tree> {
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
    let layout = format.layout();
    let mut tree = Tree {
        format,
        ..Tree::default()
    };
    tree.add("problem.yaml", problem_yaml(pkg, &layout), false);
    if layout.timelimit_file {
        tree.add(
            ".timelimit",
            format!("{}\n", seconds(pkg.limits.time)),
            false,
        );
    }
    let statement = pkg.dir.join("statement.md");
    match std::fs::read(&statement) {
        Ok(text) => {
            let text = String::from_utf8(text)
                .with_context(|| format!("{} is not UTF-8", statement.display()))?;
            let body = crate::package::statement::for_package(&text);
            let (path, kind) = layout.statement;
            let body = match kind {
                StatementKind::Markdown => body,
                StatementKind::Tex => tex::statement(&pkg.title, &body),
            };
            tree.add(path, body.into_bytes(), false);
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
        // A scoring problem's secret tests go to their subtask's folder.
        let secret = match pkg.subtask_of(t) {
            Some(s) if !pkg.subtasks().is_empty() => format!("secret/{}", s.name),
            _ if !pkg.subtasks().is_empty() && !matches!(t.origin, Origin::Sample(_)) => {
                bail!("test `{}` is in no subtask of problem.toml", t.name)
            }
            _ => "secret".to_string(),
        };
        let (group, name, desc) = match &t.origin {
            Origin::Sample(p) => ("sample".to_string(), stem(p), None),
            Origin::Secret(p) => (
                secret,
                format!("{number:0width$}-{}", stem(p)),
                Some(p.with_extension("desc")),
            ),
            Origin::Generated { .. } | Origin::External(_) => {
                (secret, format!("{number:0width$}-{}", t.name), None)
            }
        };
        let base = format!("data/{group}/{name}");
        if !seen.insert(base.clone()) {
            bail!("two tests would both be {base}.in: rename one");
        }
        // A test identical to an earlier one of its folder: links to that one's files.
        let same = tree
            .files
            .iter()
            .filter(|f| f.link.is_none() && f.path.starts_with(&format!("data/{group}/")))
            .find(|f| f.path.ends_with(".in") && f.bytes == t.input.as_bytes())
            .map(|f| f.path.trim_end_matches(".in").to_string());
        tree.add(format!("{base}.in"), t.input.as_bytes(), false);
        tree.add(format!("{base}.ans"), t.answer.as_bytes(), false);
        if let Some(earlier) = same {
            let n = tree.files.len();
            for (k, ext) in [(n - 2, "in"), (n - 1, "ans")] {
                let target = format!("{earlier}.{ext}");
                if tree
                    .files
                    .iter()
                    .any(|f| f.path == target && f.bytes == tree.files[k].bytes)
                {
                    tree.files[k].link = target.rsplit('/').next().map(String::from);
                }
            }
        }
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

    scoring_files(pkg, &layout, &mut tree);

    let mut invalid = 0;
    for path in crate::fsutil::list_dir(&pkg.dir.join("data/invalid_input"))? {
        if path.is_file() && path.extension().is_some_and(|x| x == "in") {
            invalid += 1;
            if !layout.invalid_inputs {
                continue;
            }
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
    if invalid > 0 && !layout.invalid_inputs {
        tree.notes.push(format!(
            "data/invalid_input: format {}, as {} read it, has no such folder; {} left \
             out (--format 2025-09 has them)",
            format.name(),
            layout.readers,
            crate::text::count(invalid, "invalid input")
        ));
    }

    for (folder, role) in [
        ("input_validators/validator", Role::InputValidator),
        (layout.output_validator, Role::OutputValidator),
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
        if let Some(target) = &f.link {
            std::os::unix::fs::symlink(target, &path)
                .with_context(|| format!("cannot link {} to {target}", path.display()))?;
            continue;
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
