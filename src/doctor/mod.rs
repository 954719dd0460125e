//! `judge doctor`: what this machine gives the sandbox, and what a grade will be like here.
//!
//! ```text
//!   checks::collect ──► Report ──► term::render (a table) / json::render (one JSON object)
//! ```
//!
//! [`checks`] finds everything the way a grade does (the sandbox's own probes, a real
//! [`crate::sandbox::linux::LinuxSandbox`] running two trivial programs, the compile cache a
//! grade would use, the language table) and produces a [`Report`]; the reporters only render
//! it. The `--json` output is the [`Report`] serialized as it is: every field is documented
//! here and in `docs/doctor.md`.

use serde::Serialize;

pub mod checks;
pub mod json;
mod languages;
pub mod term;

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Present and used: grading is exact as far as this check goes.
    Ok,
    /// Missing or weaker, with a fallback: grading works, less exactly or less isolated (the
    /// check's `impact` says how).
    Degraded,
    /// A compiler or runtime is not installed: submissions in that language cannot be
    /// graded (the others can).
    Missing,
    /// Grading cannot work here (the sandbox cannot be set up or cannot run a program, the
    /// compile cache or the work folder cannot be used).
    Error,
}

/// The conclusion of all checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Overall {
    /// Every check is ok: grading is exact here (exit status 0).
    Ok,
    /// Some check is degraded or missing, none is an error (exit status 1).
    Degraded,
    /// Some check is an error (exit status 2).
    Error,
}

impl Overall {
    /// The worst of the checks' statuses (missing counts as degraded).
    pub fn of(checks: &[Check]) -> Overall {
        let mut overall = Overall::Ok;
        for c in checks {
            match c.status {
                Status::Error => return Overall::Error,
                Status::Degraded | Status::Missing => overall = Overall::Degraded,
                Status::Ok => {}
            }
        }
        overall
    }

    /// The exit status of `judge doctor`.
    pub fn exit_code(self) -> i32 {
        match self {
            Overall::Ok => 0,
            Overall::Degraded => 1,
            Overall::Error => 2,
        }
    }
}

/// The `judge doctor --json` root object.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// `ok`, `degraded` or `error`: the worst status among `checks` (`missing` counts as
    /// `degraded`).
    pub status: Overall,
    /// The exit status of this `judge doctor`: 0 (`ok`), 1 (`degraded`), 2 (`error`).
    pub exit_code: i32,
    /// The sandbox's one warning line, exactly as a grade prints it after `warning: `;
    /// `null` when the sandbox goes without nothing (or could not be set up).
    pub warning: Option<String>,
    /// Every check, in the order the table shows them.
    pub checks: Vec<Check>,
    /// What the sandbox found on this machine and what its trial runs used.
    pub sandbox: SandboxFacts,
    /// The compile cache folder a grade would use.
    pub cache: Folder,
    /// The work folder (the temporary folder, `$TMPDIR` or `/tmp`).
    pub work_dir: Folder,
    /// One entry per language of the language table, in its order.
    pub languages: Vec<LanguageFacts>,
}

/// One line of the table.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// Stable identifier: `user-namespaces`, `sandbox-user`, `cgroups`, `seccomp`,
    /// `landlock`, `fs-view`, `trial-run`, `cache`, `work-dir`, or `language:<id>` (`c`,
    /// `cpp`, `rust`, `python`, `java`).
    pub id: String,
    /// `ok`, `degraded`, `missing` or `error` (see [`Status`]).
    pub status: Status,
    /// What was found, on one line.
    pub summary: String,
    /// When the status is not `ok`: what degrades or fails because of it, on one line;
    /// `null` when `ok`.
    pub impact: Option<String>,
}

/// What the sandbox found and uses.
#[derive(Debug, Clone, Serialize)]
pub struct SandboxFacts {
    /// The running kernel's release (`uname -r`); `null` when unreadable.
    pub kernel: Option<String>,
    /// judge runs as root (effective uid 0).
    pub root: bool,
    /// judge's effective uid.
    pub uid: u32,
    /// A run can get its own user, pid, network and IPC namespaces (probed as the sandbox
    /// does; needed when judge is not root).
    pub user_namespaces: bool,
    /// The cgroups runs use.
    pub cgroups: CgroupFacts,
    /// The kernel has seccomp (each run gets a system-call deny-list).
    pub seccomp: bool,
    /// The kernel's Landlock ABI version; `null` without Landlock.
    pub landlock_abi: Option<u32>,
    /// The uids programs run as: the slots' own uids (root; one per parallel slot, from
    /// 60000), else judge's own uid (root of each run's user namespace).
    pub run_uids: Vec<u32>,
    /// Runs get their own file-system view (a mount namespace holding only the system
    /// folders, the program and its scratch space).
    pub fs_view: bool,
    /// Why they do not; `null` when they do.
    pub fs_view_why_not: Option<String>,
    /// Why the sandbox could not be set up (as a grade would fail); `null` when it was.
    pub setup_error: Option<String>,
    /// The trial run of a trivial program through the real sandbox; `null` when the sandbox
    /// could not be set up.
    pub trial_run: Option<TrialRun>,
}

/// The cgroups runs use, or the polling fallback.
#[derive(Debug, Clone, Serialize)]
pub struct CgroupFacts {
    /// `v1` (root), `v2` (root, the whole hierarchy), `v2-delegated` (a subtree delegated
    /// to judge, e.g. an ordinary user under systemd's `Delegate=yes`), or `none` (the
    /// polling fallback).
    pub backend: String,
    /// The controllers runs are limited and measured by: `memory`, `pids`, `cpuacct` (v1);
    /// `memory`, `pids` (v2, where CPU time is in every cgroup's `cpu.stat`); empty for
    /// `none`.
    pub controllers: Vec<String>,
    /// The folders judge makes its per-slot cgroups in; empty for `none`.
    pub dirs: Vec<String>,
    /// Where a run's CPU time comes from.
    pub cpu_time: String,
    /// Where a run's peak memory comes from.
    pub peak_memory: String,
    /// `false` when that figure can miss a peak (polling, or v2 before Linux 5.19).
    pub peak_memory_exact: bool,
    /// Why there are no cgroups (`backend` is `none`); `null` otherwise.
    pub why_not: Option<String>,
}

/// A trivial program run through the sandbox as a grade runs a submission: from a folder
/// in the compile cache, under limits.
#[derive(Debug, Clone, Serialize)]
pub struct TrialRun {
    /// What ran.
    pub argv: Vec<String>,
    /// Its exit status; `null` when it was killed by a signal or did not run.
    pub exit_code: Option<i32>,
    /// The signal that ended it; `null` when it exited or did not run.
    pub signal: Option<i32>,
    /// The limit the sandbox enforced (`cpu-time`, `wall-time`, `memory`, ...); `null`
    /// when none fired.
    pub limit_hit: Option<String>,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB, as a grade reports it.
    pub peak_memory_kib: u64,
    /// The mechanisms the run used, one short phrase each (namespaces, cgroups, uid,
    /// seccomp, Landlock, ...).
    pub mechanisms: Vec<String>,
    /// Why the run failed (the sandbox's error); `null` when it ran.
    pub error: Option<String>,
}

/// A folder a grade needs.
#[derive(Debug, Clone, Serialize)]
pub struct Folder {
    /// The folder; `null` when none could be chosen (see `error`).
    pub dir: Option<String>,
    /// Why a grade could not use it (the error a grade would print); `null` when usable.
    pub error: Option<String>,
    /// Whether the sandbox user reached it in a trial run (cache: ran a program copied into
    /// it; work folder: wrote a file in it as a run's working folder); `null` when not tried.
    pub sandbox_reached: Option<bool>,
}

/// One language of the table.
#[derive(Debug, Clone, Serialize)]
pub struct LanguageFacts {
    /// The language's id (`c`, `cpp`, `rust`, `python`, `java`).
    pub id: String,
    /// The Debian package that brings its tools (`package` in languages.toml); `null` when
    /// the table names none.
    pub package: Option<String>,
    /// The programs a grade starts for it.
    pub tools: Vec<Tool>,
    /// The language standard its compiler is given (`gnu++23`: the newest of the table's
    /// `standards` the compiler accepts, or the `-std=` of the compile command); `null` when
    /// the compile command names none.
    pub standard: Option<String>,
    /// How it differs from the way ICPC contests and problemtools run the language (Python 3
    /// as CPython, C++ before C++20, a Kotlin older than 1.9), on one line; or the table's
    /// note on a fallback taken; `null` when it runs as they do.
    pub differs: Option<String>,
}

/// A compiler or runtime of a language.
#[derive(Debug, Clone, Serialize)]
pub struct Tool {
    /// `compile`, `run`, or `compile and run` (one program doing both).
    pub role: String,
    /// The program as the table names it (`gcc`, `/usr/bin/python3`).
    pub program: String,
    /// What it resolves to (through `PATH`, as a compile does); `null` when not found.
    pub path: Option<String>,
    /// The first line of its `--version` (or `-version`) output; `null` when it is missing
    /// or printed none.
    pub version: Option<String>,
}

/// A check that is ok.
fn ok(id: &str, summary: impl Into<String>) -> Check {
    Check {
        id: id.to_string(),
        status: Status::Ok,
        summary: summary.into(),
        impact: None,
    }
}

/// A check that is not ok: its `status` and what degrades or fails without it.
fn not_ok(
    id: &str,
    status: Status,
    summary: impl Into<String>,
    impact: impl Into<String>,
) -> Check {
    Check {
        id: id.to_string(),
        status,
        summary: summary.into(),
        impact: Some(impact.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(status: Status) -> Check {
        Check {
            id: "x".into(),
            status,
            summary: String::new(),
            impact: None,
        }
    }

    #[test]
    fn the_worst_check_decides_the_exit_status() {
        let ok = check(Status::Ok);
        let degraded = check(Status::Degraded);
        let missing = check(Status::Missing);
        let error = check(Status::Error);
        assert_eq!(Overall::of(&[]), Overall::Ok);
        assert_eq!(Overall::of(&[ok.clone(), ok.clone()]).exit_code(), 0);
        assert_eq!(Overall::of(&[ok.clone(), missing.clone()]).exit_code(), 1);
        assert_eq!(Overall::of(&[degraded.clone(), ok.clone()]).exit_code(), 1);
        assert_eq!(
            Overall::of(&[degraded, error.clone(), missing]).exit_code(),
            2
        );
        assert_eq!(Overall::of(&[error, ok]), Overall::Error);
    }
}
