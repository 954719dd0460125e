//! The samples printed in `statement.md` must equal `data/sample/` (read from the statement
//! by [`crate::package::statement`]); a Kattis package must have a statement file.

use super::Check;
use crate::fsutil::beneath;
use crate::package::statement::samples;
use crate::package::{Package, Statement};
use crate::testset;
use crate::text::count;

/// The statement check of `pkg`: its printed samples, or that its statement folder holds a
/// statement.
pub fn check(pkg: &Package) -> Check {
    match pkg.statement() {
        Statement::PrintsSamples(path) => check_samples(pkg, &path),
        Statement::Folder => check_statement_folder(&pkg.dir),
    }
}

/// Compares the statement's samples with `data/sample/`.
fn check_samples(pkg: &Package, path: &std::path::Path) -> Check {
    // Under the package's rule: a link leading out of the package is an error, never read.
    let rel = path.strip_prefix(&pkg.dir).unwrap_or(path);
    let text = match beneath::read_text_beneath(&pkg.dir, rel, beneath::SMALL_CAP, "the package") {
        Ok(t) => t,
        Err(e) => return Check::fail("statement", e.to_string()),
    };
    let printed = match samples(&text) {
        Ok(s) => s,
        Err(e) => return Check::fail("statement", format!("statement.md: {e}")),
    };
    let files = match testset::samples(pkg) {
        Ok(f) => f,
        Err(e) => return Check::fail("statement", e.to_string()),
    };
    if printed.is_empty() || files.is_empty() {
        return Check::fail("statement", "no samples in statement.md or data/sample/");
    }
    if printed.len() != files.len() {
        return Check::fail(
            "statement",
            format!(
                "statement.md shows {}, data/sample/ holds {}",
                count(printed.len(), "sample"),
                files.len()
            ),
        );
    }
    for ((num, input, output), file) in printed.iter().zip(&files) {
        if file.name != format!("sample-{num}") {
            return Check::fail(
                "statement",
                format!("statement sample {num} has no data/sample/{num}.in"),
            );
        }
        for (what, printed, data, ext) in [
            ("input", input, &file.input, "in"),
            ("output", output, &file.answer, "ans"),
        ] {
            if let Some(diff) = first_difference(printed, data) {
                return Check::fail(
                    "statement",
                    format!("sample {num}: the statement's {what} differs from data/sample/{num}.{ext}: {diff}"),
                );
            }
        }
    }
    Check::ok(
        "statement",
        format!(
            "{} in statement.md {} data/sample/",
            count(files.len(), "sample"),
            if files.len() == 1 { "matches" } else { "match" }
        ),
    )
}

/// A Kattis package has a statement file: `problem_statement/` (legacy) or `statement/`
/// (2025-09) with `problem.<language>.{tex,md,pdf}`. (Its samples come from `data/sample`,
/// so there is nothing to compare.)
fn check_statement_folder(dir: &std::path::Path) -> Check {
    for folder in ["statement", "problem_statement"] {
        let Ok(read) = std::fs::read_dir(dir.join(folder)) else {
            continue;
        };
        let mut found: Vec<String> = read
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n.starts_with("problem.") && [".tex", ".md", ".pdf"].iter().any(|x| n.ends_with(x))
            })
            .collect();
        found.sort();
        for name in &found {
            let rel = std::path::Path::new(folder).join(name);
            match beneath::kind_beneath(dir, &rel, "the package") {
                Ok((_, beneath::Kind::File)) => {}
                Ok((_, beneath::Kind::Folder | beneath::Kind::Other(_))) => {
                    return Check::fail(
                        "statement",
                        format!("{}: not a regular file", beneath::shown(&rel)),
                    )
                }
                Err(e) => return Check::fail("statement", e.to_string()),
            }
        }
        if !found.is_empty() {
            return Check::ok("statement", format!("{folder}/{}", found.join(", ")));
        }
    }
    Check::fail(
        "statement",
        "no statement: add statement/problem.en.md (or .tex; problem_statement/ in legacy)",
    )
}

/// The first differing line of two texts, as `line N: `a` vs `b``, or `None` if equal.
fn first_difference(statement: &str, data: &str) -> Option<String> {
    use similar::{ChangeTag, TextDiff};
    if statement == data {
        return None;
    }
    let diff = TextDiff::from_lines(statement, data);
    let mut line = 1;
    let (mut ours, mut theirs) = (None, None);
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Equal if ours.is_none() && theirs.is_none() => line += 1,
            ChangeTag::Equal => break,
            ChangeTag::Delete if ours.is_none() => ours = Some(change.value().to_string()),
            ChangeTag::Insert if theirs.is_none() => theirs = Some(change.value().to_string()),
            _ => {}
        }
    }
    let show = |s: Option<String>| match s {
        Some(s) => format!("`{}`", s.trim_end_matches('\n').escape_debug()),
        None => "nothing".to_string(),
    };
    Some(format!(
        "line {line}: statement has {}, file has {}",
        show(ours),
        show(theirs)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_first_differing_line() {
        assert_eq!(first_difference("3\n1 2\n", "3\n1 2\n"), None);
        assert_eq!(
            first_difference("3\n1 2\n", "3\n1 7\n").unwrap(),
            "line 2: statement has `1 2`, file has `1 7`"
        );
        assert_eq!(
            first_difference("3\n", "3\n4\n").unwrap(),
            "line 2: statement has nothing, file has `4`"
        );
        assert!(first_difference("3", "3\n").is_some());
    }
}
