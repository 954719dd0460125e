//! Comparing a data folder with what the generators make: files that differ, files the
//! generators make that are missing, and files no rule of `generators.yaml` makes. YAML
//! files are compared by value (BAPCtools writes them with its own YAML printer); every
//! other file byte for byte. Pictures and `.interaction` files beside a made test case are
//! what a visualizer or an interactive run of the solution made: judge runs neither, so they
//! are neither missing nor unmentioned.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::fsutil::{beneath, is_tool_litter};

/// Files of made cases that tools judge does not run make (visualizers, interactive runs).
const KEPT: [&str; 5] = ["png", "jpg", "svg", "pdf", "interaction"];

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Made by the generators and present, with other content.
    pub differ: Vec<String>,
    /// Made by the generators, absent from the folder.
    pub missing: Vec<String>,
    /// In the folder, made by no rule.
    pub unmentioned: Vec<String>,
    /// Pictures and interactions beside made cases: kept as they are.
    pub kept: Vec<String>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.missing.is_empty() && self.unmentioned.is_empty()
    }

    /// One line: counts and the first few names of each kind.
    pub fn summary(&self, with_missing: bool) -> String {
        let mut parts = Vec::new();
        let mut part = |list: &[String], what: &str| {
            if list.is_empty() {
                return;
            }
            let shown: Vec<&str> = list.iter().take(3).map(String::as_str).collect();
            let more = if list.len() > 3 {
                format!(", ... ({} in all)", list.len())
            } else {
                String::new()
            };
            parts.push(format!("{what}: {}{more}", shown.join(", ")));
        };
        part(&self.differ, "differ");
        if with_missing {
            part(&self.missing, "missing");
        }
        part(&self.unmentioned, "made by no rule");
        parts.join("; ")
    }
}

/// The files below `dir`, as paths relative to it (hidden files and tool litter skipped).
pub fn files(dir: &Path) -> Result<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    if dir.is_dir() {
        walk(dir, dir, &mut out)?;
    }
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| !is_tool_litter(&e.file_name()))
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.insert(rel.to_string_lossy().into_owned());
        }
    }
    Ok(())
}

/// The case a data file belongs to: `secret/1.in.statement` → `secret/1`.
fn case_of(file: &str) -> &str {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let stem = name.split('.').next().unwrap_or(name);
    &file[..dir.len() + usize::from(!dir.is_empty()) + stem.len()]
}

/// The file `name` of the folder `dir` (`within` says what it is: "the package"), read
/// under the package's rule: a link leading out of the folder, a FIFO or a device is an
/// error, never read.
pub fn read_data_file(dir: &Path, name: &str, within: &'static str) -> Result<Vec<u8>> {
    let bytes = beneath::read_beneath(dir, Path::new(name), beneath::DATA_CAP, within)
        .with_context(|| format!("in {}", dir.display()))?;
    Ok(bytes)
}

fn same(generated: &Path, committed: &Path, name: &str, strict: bool) -> Result<bool> {
    let x = read_data_file(generated, name, "the data folder")?;
    let y = read_data_file(committed, name, "the data folder")?;
    if x == y {
        return Ok(true);
    }
    if !strict && name.ends_with(".yaml") {
        let parse = |bytes: &[u8]| -> Option<yaml_serde::Value> {
            crate::kattis::yaml::parse_value(std::str::from_utf8(bytes).ok()?).ok()
        };
        if let (Some(p), Some(q)) = (parse(&x), parse(&y)) {
            return Ok(p == q);
        }
    }
    Ok(false)
}

/// `committed` against `generated`; YAML files by value unless `strict`.
pub fn diff(generated: &Path, committed: &Path, strict: bool) -> Result<Diff> {
    let made = files(generated)?;
    let have = files(committed)?;
    let made_cases: BTreeSet<&str> = made
        .iter()
        .filter(|f| f.ends_with(".in") || f.ends_with(".in.statement"))
        .map(|f| case_of(f))
        .collect();
    let mut d = Diff::default();
    for f in &made {
        if !have.contains(f) {
            d.missing.push(f.clone());
        } else if !same(generated, committed, f, strict)? {
            d.differ.push(f.clone());
        }
    }
    for f in have.difference(&made) {
        let picture = KEPT.iter().any(|ext| f.ends_with(&format!(".{ext}")));
        if picture && made_cases.contains(case_of(f)) {
            d.kept.push(f.clone());
        } else {
            d.unmentioned.push(f.clone());
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_missing_and_unmentioned_files_are_told_apart() {
        let g = tempfile::tempdir().unwrap();
        let c = tempfile::tempdir().unwrap();
        let put = |root: &Path, rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        put(g.path(), "secret/1.in", "1\n");
        put(g.path(), "secret/1.ans", "1\n");
        put(g.path(), "secret/2.in", "2\n");
        put(g.path(), "secret/test_group.yaml", "a: [1, 2]\n");
        put(c.path(), "secret/1.in", "1\n");
        put(c.path(), "secret/1.ans", "2\n");
        put(c.path(), "secret/1.png", "x");
        put(c.path(), "secret/test_group.yaml", "a:\n  - 1\n  - 2\n");
        put(c.path(), "secret/old.in", "0\n");
        put(c.path(), ".gitkeep", "");
        assert_eq!(
            diff(g.path(), c.path(), true).unwrap().differ,
            ["secret/1.ans", "secret/test_group.yaml"]
        );
        let d = diff(g.path(), c.path(), false).unwrap();
        assert_eq!(d.differ, ["secret/1.ans"]);
        assert_eq!(d.missing, ["secret/2.in"]);
        assert_eq!(d.unmentioned, ["secret/old.in"]);
        assert_eq!(d.kept, ["secret/1.png"]);
        assert_eq!(case_of("sample/1.in.statement"), "sample/1");
        assert_eq!(case_of("x.ans"), "x");
    }
}
