//! Build script: the version `judge --version` prints, with the git commit it was built from.
//!
//! In a git checkout (this folder is the work tree's top): `0.1.0 (9830bdaf1 2026-12-04)`, the
//! commit's short hash and committer date, and `-dirty` after the hash when a file the program
//! is built from (`SOURCES`) differs from that commit. Anywhere else (a source tarball, a
//! vendored copy inside another repository, no `git` installed): `0.1.0` alone.
//!
//! The script reruns only when HEAD moves (the HEAD file, and the branch it points to) or a file
//! of `SOURCES` changes, which rebuilds `judge` anyway: it forces no rebuild of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is compiled from (the `include_str!` files among them): a change to one
/// of these marks the build `-dirty`. Documentation, tests and problem packages do not.
const SOURCES: &[&str] = &[
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "src",
    "templates",
    "languages.toml",
];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let version = std::env::var("CARGO_PKG_VERSION").expect("set by cargo");
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    let (full, date) = match commit(&manifest_dir) {
        Some(c) => {
            let dirty = if c.dirty { "-dirty" } else { "" };
            (format!("{version} ({}{dirty} {})", c.hash, c.date), c.date)
        }
        None => (version, String::new()),
    };
    println!("cargo:rustc-env=JUDGE_VERSION={full}");
    println!("cargo:rustc-env=JUDGE_COMMIT_DATE={date}");
}

struct Commit {
    hash: String,
    date: String,
    dirty: bool,
}

/// `git` in `dir`, its standard output trimmed; `None` if it cannot run or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        // An outer git (a hook running cargo) must not point this one elsewhere.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

/// The commit HEAD names, if `dir` is the top of a git work tree; asks cargo to rerun this
/// script when HEAD or the branch it is on moves.
fn commit(dir: &Path) -> Option<Commit> {
    let paths = git(
        dir,
        &[
            "rev-parse",
            "--path-format=absolute",
            "--show-toplevel",
            "--git-dir",
            "--git-common-dir",
        ],
    )?;
    let mut lines = paths.lines().map(PathBuf::from);
    let (top, git_dir, common_dir) = (lines.next()?, lines.next()?, lines.next()?);
    // Inside another project's repository (unpacked or vendored there): not our commit.
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    // HEAD is per work tree (in the git dir); branches are shared (in the common dir), as
    // one file each, or packed into `packed-refs`, or in a reftable.
    println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        let loose = common_dir.join(&branch);
        let watched = [
            loose,
            common_dir.join("packed-refs"),
            common_dir.join("reftable"),
        ];
        // A path that does not exist would rerun the script on every build: watch only those
        // that do (when a loose ref is packed, the deleted file reruns the script once).
        for path in watched.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let line = git(
        dir,
        &[
            "log",
            "-1",
            "--no-show-signature",
            "--format=%h %cs",
            "--abbrev=9",
            "HEAD",
        ],
    )?;
    let (hash, date) = line.split_once(' ')?;
    let mut status = vec!["status", "--porcelain", "--untracked-files=normal", "--"];
    status.extend(SOURCES);
    let dirty = !git(dir, &status)?.is_empty();
    Some(Commit {
        hash: hash.to_string(),
        date: date.to_string(),
        dirty,
    })
}
