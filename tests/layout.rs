//! The shape of `src/` (issue 22): the top-level modules form no cycle, and no source file is
//! too long to read as one concern.
//!
//! The module graph counts what a reader follows: every `crate::<module>` path in a file of
//! `src/<module>/` or `src/<module>.rs` (doc comments and doc links included), and each
//! first name of a `use crate::{a, b::C}` group, is an edge from that file's top-level module
//! to `<module>`. `lib.rs` and `main.rs` only declare and start the modules; they are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Code lines a file may have before its test module.
const MAX_CODE_LINES: usize = 600;

/// Files allowed over [`MAX_CODE_LINES`] for a while, until they are split (none now). The test
/// fails once one of them is short enough, so that it leaves this list.
const NOT_YET_SPLIT: &[&str] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}

/// The top-level modules of `src/`: `x.rs` and `x/` (not `lib.rs`, `main.rs`).
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    let mut mods = BTreeSet::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            mods.insert(name);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "lib" && stem != "main" {
                mods.insert(stem.to_string());
            }
        }
    }
    mods
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `s` (after whitespace).
fn leading_ident(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// The module names `text` refers to as `crate::<name>` or in a `crate::{...}` group (the first
/// name of each item of the group; nested groups are paths inside those modules), each with
/// the byte offset of its `crate::`.
fn referenced_modules(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("crate::") {
        let at = from + found;
        from = at + "crate::".len();
        let rest = &text[from..];
        // `$crate::` or `some_crate::` are not this crate's paths.
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == '$')
        {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => item_start = true,
                    c if item_start && depth == 1 && !c.is_whitespace() => {
                        item_start = false;
                        out.push((at, leading_ident(&group[i..]).to_string()));
                    }
                    _ => {}
                }
            }
        } else {
            out.push((at, leading_ident(rest).to_string()));
        }
    }
    out
}

/// Edges between top-level modules, each with the first place (`file:line`) that makes it.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mods = top_level_modules(src);
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for m in &mods {
        graph.entry(m.clone()).or_default();
    }
    for file in rust_files(src) {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if !mods.contains(&from) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (at, to) in referenced_modules(&text) {
            if to != from && mods.contains(&to) {
                let line = text[..at].matches('\n').count() + 1;
                graph
                    .get_mut(&from)
                    .unwrap()
                    .entry(to)
                    .or_insert_with(|| format!("src/{}:{line}", rel.display()));
            }
        }
    }
    graph
}

/// A cycle of `graph` as the modules along it (the first repeated at the end), if any.
fn find_cycle(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut cycle = path[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for to in graph[m].keys() {
            if let Some(c) = visit(to, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        if let Some(c) = visit(m, graph, &mut done, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_top_level_modules_refer_to_each_other_without_a_cycle() {
    let graph = module_graph(&src());
    assert!(graph.contains_key("grade") && graph["grade"].contains_key("verdict"));
    if let Some(cycle) = find_cycle(&graph) {
        let edges: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("  {} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]]))
            .collect();
        panic!(
            "the top-level modules of src/ form a cycle: {}\n{}\na stage refers only to the stages before it and to the core types",
            cycle.join(" -> "),
            edges.join("\n")
        );
    }
}

#[test]
fn the_reference_reader_sees_paths_groups_and_doc_links() {
    let refs = referenced_modules(
        "use crate::a::B;\nuse crate::{b, c::{D, e}, f::G};\n//! see [`crate::h`]\n$crate::x y_crate::z",
    );
    let names: Vec<&str> = refs.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "f", "h"]);
    assert_eq!(refs[1].0, "use crate::a::B;\nuse ".len());
    let mut graph = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(from.to_string())
            .or_insert_with(BTreeMap::new)
            .insert(to.to_string(), String::new());
        graph.entry(to.to_string()).or_insert_with(BTreeMap::new);
    }
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    graph.get_mut("c").unwrap().remove("a");
    assert_eq!(find_cycle(&graph), None);
}

/// The code lines of a source file: non-blank lines that are not `//` comments (doc comments
/// included), up to its test module (a `#[cfg(test)]` line at the start of a line followed by
/// a `mod` line). A file named `tests.rs` is a test module: 0.
fn code_lines(path: &Path, text: &str) -> usize {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return 0;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        if *line == "#[cfg(test)]"
            && lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.starts_with("mod "))
        {
            break;
        }
        let t = line.trim();
        if !t.is_empty() && !t.starts_with("//") {
            count += 1;
        }
    }
    count
}

#[test]
fn code_lines_skip_blanks_comments_and_the_test_module() {
    let text = "//! doc\nuse x;\n\n// note\nfn f() {}\n#[cfg(test)]\nfn g() {}\n#[cfg(test)]\n\nmod tests {\n    fn h() {}\n}\n";
    assert_eq!(code_lines(Path::new("a.rs"), text), 4);
    assert_eq!(code_lines(Path::new("x/tests.rs"), text), 0);
}

#[test]
fn no_source_file_has_more_than_600_code_lines_before_its_tests() {
    let root = src();
    let mut too_long = Vec::new();
    let mut split = Vec::new();
    for file in rust_files(&root) {
        let rel = format!("src/{}", file.strip_prefix(&root).unwrap().display());
        let n = code_lines(&file, &fs::read_to_string(&file).unwrap());
        let listed = NOT_YET_SPLIT.contains(&rel.as_str());
        if n > MAX_CODE_LINES && !listed {
            too_long.push(format!("{rel}: {n} code lines"));
        } else if n <= MAX_CODE_LINES && listed {
            split.push(format!("{rel}: {n} code lines"));
        }
    }
    assert!(
        too_long.is_empty(),
        "files over {MAX_CODE_LINES} code lines (non-blank, non-comment, before the test module); split them by concern:\n{}",
        too_long.join("\n")
    );
    assert!(
        split.is_empty(),
        "no longer over {MAX_CODE_LINES} code lines: remove from NOT_YET_SPLIT:\n{}",
        split.join("\n")
    );
}
