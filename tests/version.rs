//! `judge --version` names the commit the binary was built from (see build.rs).

use crate::common;

use std::process::Command;

use common::{judge, root};

/// `git args...` in the repository root, its trimmed output; `None` when git fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root())
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The files build.rs counts for `-dirty` (its `SOURCES`, read from build.rs itself).
fn sources() -> Vec<String> {
    let build = std::fs::read_to_string(root().join("build.rs")).unwrap();
    let list = build
        .split("const SOURCES: &[&str] = &[")
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .expect("SOURCES in build.rs");
    let names: Vec<String> = list
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(names.contains(&"src".to_string()), "{names:?}");
    names
}

#[test]
fn version_names_the_commit_of_head() {
    let run = judge(&["--version"]);
    run.assert_code(0);
    let line = run.stdout.strip_suffix('\n').unwrap();
    assert_eq!(judge(&["-V"]).stdout, run.stdout);
    let plain = format!("judge {}", env!("CARGO_PKG_VERSION"));

    let checkout = git(&["rev-parse", "--show-toplevel"])
        .is_some_and(|top| std::fs::canonicalize(top).ok() == std::fs::canonicalize(root()).ok());
    if !checkout {
        // Built from a tarball: the version alone.
        assert_eq!(line, plain);
        return;
    }
    let head = git(&["rev-parse", "HEAD"]).unwrap();
    let date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap();
    let inner = line
        .strip_prefix(&format!("{plain} ("))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("`{line}` is not `{plain} (COMMIT DATE)`"));
    let (commit, built_date) = inner.split_once(' ').unwrap();
    assert_eq!(built_date, date, "{line}");
    let (hash, dirty) = match commit.strip_suffix("-dirty") {
        Some(hash) => (hash, true),
        None => (commit, false),
    };
    assert!(
        hash.len() >= 7 && head.starts_with(hash),
        "`{line}` does not name HEAD {head}"
    );
    let mut status = vec!["status", "--porcelain", "--untracked-files=normal", "--"];
    let sources = sources();
    status.extend(sources.iter().map(String::as_str));
    let changes = git(&status).unwrap();
    assert_eq!(
        dirty,
        !changes.is_empty(),
        "`{line}`, and the sources differ from HEAD by:\n{changes}"
    );
}
