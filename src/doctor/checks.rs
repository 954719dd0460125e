//! The runner of `judge doctor`: finds everything the way a grade does and produces a
//! [`Report`]. Nothing here prints.
//!
//! * the sandbox's mechanisms: its own probes ([`linux::probe`]) and, above all, a real
//!   [`LinuxSandbox`] with one slot, as a grade makes it, which runs a trivial program copied
//!   into the compile cache (as a compiled submission is run from its cache entry) and
//!   writes a file in a fresh folder of the work folder (as jury programs write their
//!   feedback); what those runs used is what a grade gets;
//! * the compile cache a grade would use ([`Cache::for_this_user`]);
//! * every language of the table: its compiler and runtime resolved as a compile resolves
//!   them, and their `--version`.
//!
//! A probe that fails is a check's status, never an error of the command; the only error is
//! an unreadable or invalid `--languages` table, which a grade would refuse too.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::languages::{language_check, language_facts};
use super::{not_ok, ok};
use super::{
    CgroupFacts, Check, Folder, LanguageFacts, Overall, Report, SandboxFacts, Status, TrialRun,
};
use crate::compile::{Cache, LanguageTable, TableError};
use crate::sandbox::linux::{self, CgroupBackend, InUse, LinuxSandbox, Probe, Shortfall};
use crate::sandbox::{
    LimitHit, Limits, RunOutcome, RunRequest, Sandbox, Stdin, Stdout, Termination,
};

/// What `judge doctor` was asked.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A language table overriding the built-in one, as `--languages` of a grade.
    pub languages: Option<PathBuf>,
}

/// The file the work-folder trial run writes.
const PROBE_FILE: &str = "judge-doctor-probe";

/// Runs every check. `Err` only when the language table cannot be loaded.
pub fn collect(options: &Options) -> Result<Report, TableError> {
    let table = LanguageTable::load(options.languages.as_deref())?;
    let probe = linux::probe();
    let cache = Cache::for_this_user();
    let sandbox = LinuxSandbox::new(1).map_err(|e| format!("cannot set up the sandbox: {e}"));
    let work = work_folder();
    let (trial, cache_trial, work_trial) = match &sandbox {
        Ok(sb) => {
            let (trial, cache_trial) = trial_run(sb, cache.as_ref().ok());
            let work_trial = work.as_ref().ok().map(|dir| write_in(sb, dir.path()));
            (Some(trial), cache_trial, work_trial)
        }
        Err(_) => (None, CacheTrial::NotTried, None),
    };
    let in_use = sandbox.as_ref().ok().map(LinuxSandbox::in_use);
    let trial = trial.map(|mut t| {
        if let Some(in_use) = &in_use {
            t.mechanisms = in_use.mechanisms();
        }
        t
    });
    let shortfalls = match &sandbox {
        Ok(sb) => sb.shortfalls(),
        Err(_) => probe.shortfalls(),
    };
    let warning = sandbox.as_ref().ok().and_then(|sb| sb.warning());

    let mut checks = Vec::new();
    checks.push(user_namespaces_check(&probe));
    checks.push(sandbox_user_check(&probe, in_use.as_ref(), &shortfalls));
    let cgroups = cgroup_facts(&probe, in_use.as_ref());
    checks.push(cgroups_check(&cgroups, &shortfalls, in_use.is_some()));
    checks.push(seccomp_check(&probe, &shortfalls));
    checks.push(landlock_check(&probe, &shortfalls));
    checks.push(fs_view_check(in_use.as_ref()));
    let from_cache = matches!(cache_trial, CacheTrial::Ran);
    checks.push(trial_check(
        trial.as_ref(),
        from_cache,
        sandbox.as_ref().err(),
    ));
    checks.push(cache_check(&cache, &cache_trial));
    let work_dir = std::env::temp_dir();
    checks.push(work_check(&work_dir, &work, work_trial.as_ref()));

    let languages: Vec<LanguageFacts> = crate::compile::Language::all()
        .map(|l| language_facts(l, table.spec(l)))
        .collect();
    checks.extend(languages.iter().map(language_check));

    let status = Overall::of(&checks);
    Ok(Report {
        status,
        exit_code: status.exit_code(),
        warning,
        checks,
        sandbox: SandboxFacts {
            kernel: fs::read_to_string("/proc/sys/kernel/osrelease")
                .ok()
                .map(|r| r.trim().to_string()),
            root: probe.root,
            uid: probe.uid,
            user_namespaces: probe.user_namespaces,
            cgroups,
            seccomp: probe.seccomp,
            landlock_abi: probe.landlock_abi,
            run_uids: match &in_use {
                Some(u) if u.root => u.slot_uids.clone(),
                _ if probe.root => Vec::new(),
                _ => vec![probe.uid],
            },
            fs_view: in_use.as_ref().is_some_and(|u| u.fs_view),
            fs_view_why_not: match &in_use {
                Some(u) => u.fs_view_why_not.clone(),
                None => sandbox.as_ref().err().cloned(),
            },
            setup_error: sandbox.as_ref().err().cloned(),
            trial_run: trial,
        },
        cache: Folder {
            dir: cache.as_ref().ok().map(|c| c.dir().display().to_string()),
            error: match (&cache, &cache_trial) {
                (Err(e), _) => Some(e.clone()),
                (Ok(_), CacheTrial::Failed(why)) => Some(why.clone()),
                _ => None,
            },
            sandbox_reached: match cache_trial {
                CacheTrial::Ran => Some(true),
                CacheTrial::Failed(_) => Some(false),
                CacheTrial::NotTried | CacheTrial::Undecided => None,
            },
        },
        work_dir: Folder {
            dir: Some(work_dir.display().to_string()),
            error: match (&work, &work_trial) {
                (Err(e), _) => Some(e.clone()),
                (Ok(_), Some(Err(e))) => Some(e.clone()),
                _ => None,
            },
            sandbox_reached: work_trial.as_ref().map(Result::is_ok),
        },
        languages,
    })
}

// ------------------------------------------------------------------ the sandbox's checks

/// The text of the shortfall `pick` finds, if the sandbox has it.
fn shortfall_text(shortfalls: &[Shortfall], pick: fn(&Shortfall) -> bool) -> Option<String> {
    shortfalls.iter().find(|s| pick(s)).map(Shortfall::text)
}

fn user_namespaces_check(probe: &Probe) -> Check {
    let id = "user-namespaces";
    let found = if probe.user_namespaces {
        "available"
    } else {
        "not available"
    };
    if probe.root {
        ok(id, format!("{found} (not needed: judge is root)"))
    } else if let Some(why) = probe.cannot_contain {
        not_ok(
            id,
            Status::Error,
            found,
            format!("grading is impossible: {why}"),
        )
    } else {
        ok(
            id,
            "available: each run gets its own user, pid, network and IPC namespaces",
        )
    }
}

fn sandbox_user_check(probe: &Probe, in_use: Option<&InUse>, shortfalls: &[Shortfall]) -> Check {
    let id = "sandbox-user";
    if let Some(why) = shortfall_text(shortfalls, |s| matches!(s, Shortfall::NotRoot)) {
        return not_ok(
            id,
            Status::Degraded,
            format!(
                "programs run as judge's own uid {}, root of a user namespace per run",
                probe.uid
            ),
            why,
        );
    }
    let uids = in_use.map(|u| u.slot_uids.clone()).unwrap_or_default();
    match uids.as_slice() {
        [] => ok(id, "a slot uid of its own per parallel slot, from 60000"),
        uids => ok(
            id,
            format!(
                "programs run as slot uid {} (a uid of its own per parallel slot, from 60000)",
                join(uids.iter())
            ),
        ),
    }
}

fn join<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

fn backend_name(b: &CgroupBackend) -> &'static str {
    match (b.version, b.delegated) {
        (1, _) => "v1",
        (_, false) => "v2",
        (_, true) => "v2-delegated",
    }
}

fn cgroup_facts(probe: &Probe, in_use: Option<&InUse>) -> CgroupFacts {
    // What the sandbox uses; without a sandbox, what it would use.
    let backend = match in_use {
        Some(u) => u.cgroups.clone().ok_or_else(|| {
            probe
                .cgroups
                .clone()
                .err()
                .unwrap_or_else(|| "not in use".to_string())
        }),
        None => probe.cgroups.clone(),
    };
    let (peak_memory, peak_memory_exact) = match in_use {
        Some(u) => (u.peak_memory.to_string(), u.peak_memory_exact),
        None => (
            "unknown: the sandbox could not be set up".to_string(),
            false,
        ),
    };
    match backend {
        Ok(b) => CgroupFacts {
            backend: backend_name(&b).to_string(),
            controllers: b.controllers.iter().map(|c| c.to_string()).collect(),
            dirs: b.dirs.iter().map(|d| d.display().to_string()).collect(),
            cpu_time: b.cpu_time.to_string(),
            peak_memory,
            peak_memory_exact,
            why_not: None,
        },
        Err(why) => CgroupFacts {
            backend: "none".to_string(),
            controllers: Vec::new(),
            dirs: Vec::new(),
            cpu_time: "the program's /proc/<pid>/stat polled every 10 ms, totalled from rusage"
                .to_string(),
            peak_memory,
            peak_memory_exact,
            why_not: Some(why),
        },
    }
}

/// `measured`: the sandbox was set up, so the peak-memory source is known.
fn cgroups_check(facts: &CgroupFacts, shortfalls: &[Shortfall], measured: bool) -> Check {
    let id = "cgroups";
    if facts.backend == "none" {
        let why = facts.why_not.clone().unwrap_or_default();
        let impact = shortfall_text(shortfalls, |s| matches!(s, Shortfall::NoCgroups(_)))
            .unwrap_or_else(|| Shortfall::NoCgroups(why).text());
        return not_ok(id, Status::Degraded, "none: the polling fallback", impact);
    }
    let summary = format!(
        "{}: {} in {}",
        facts.backend,
        facts.controllers.join(", "),
        facts.dirs.join(", ")
    );
    if facts.peak_memory_exact || !measured {
        ok(id, summary)
    } else {
        not_ok(
            id,
            Status::Degraded,
            summary,
            format!("peak memory from {}", facts.peak_memory),
        )
    }
}

fn seccomp_check(probe: &Probe, shortfalls: &[Shortfall]) -> Check {
    match shortfall_text(shortfalls, |s| matches!(s, Shortfall::NoSeccomp)) {
        Some(why) => not_ok("seccomp", Status::Degraded, "not available", why),
        None if probe.seccomp => ok("seccomp", "a system-call deny-list in every run"),
        None => not_ok(
            "seccomp",
            Status::Degraded,
            "not available",
            Shortfall::NoSeccomp.text(),
        ),
    }
}

fn landlock_check(probe: &Probe, shortfalls: &[Shortfall]) -> Check {
    let why = shortfall_text(shortfalls, |s| matches!(s, Shortfall::NoLandlock));
    match (probe.landlock_abi, why) {
        (Some(abi), None) => {
            let summary = match abi {
                ..=3 => format!(
                    "ABI {abi}: limits a run's files when it has no file-system view (its \
                     network needs ABI 4)"
                ),
                4 | 5 => format!(
                    "ABI {abi}: limits every run's network (and its files when it has no \
                     file-system view)"
                ),
                _ => format!(
                    "ABI {abi}: limits every run's network and signals (and its files when it \
                     has no file-system view)"
                ),
            };
            ok("landlock", summary)
        }
        (_, why) => not_ok(
            "landlock",
            Status::Degraded,
            "not available",
            why.unwrap_or_else(|| Shortfall::NoLandlock.text()),
        ),
    }
}

fn fs_view_check(in_use: Option<&InUse>) -> Check {
    let id = "fs-view";
    match in_use {
        Some(u) if u.fs_view => ok(
            id,
            "a mount namespace per run: system folders read-only, the program's own, a \
             private /tmp and /box",
        ),
        Some(u) => not_ok(
            id,
            Status::Degraded,
            format!(
                "none ({})",
                u.fs_view_why_not.as_deref().unwrap_or("not prepared")
            ),
            linux::NO_FS_VIEW,
        ),
        None => not_ok(
            id,
            Status::Error,
            "unknown: the sandbox could not be set up",
            "no program can run here",
        ),
    }
}

// ------------------------------------------------------------------ trial runs

/// How the run of a program copied into the compile cache went.
enum CacheTrial {
    /// It ran (the sandbox user reached the cache).
    Ran,
    /// It failed, and why (a program from elsewhere ran, or the cache could not hold it).
    Failed(String),
    /// No trial (no cache, or no sandbox).
    NotTried,
    /// It failed, and so did a program from elsewhere: nothing tells about the cache.
    Undecided,
}

/// The first of `/usr/bin/<name>` and `/bin/<name>` that exists.
fn system_program(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

fn trial_limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(2),
        // Generous: under emulation (the cgroup-v2 VM) a start-up takes far longer.
        wall_time: Duration::from_secs(20),
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
        stderr_bytes: 4096,
        processes: 1,
    }
}

fn request(argv: Vec<String>, read_only: Vec<PathBuf>, work_dir: Option<PathBuf>) -> RunRequest {
    RunRequest {
        argv,
        env: vec![("LANG".to_string(), "C.UTF-8".to_string())],
        stdin: Stdin::Null,
        stdout: Stdout::Capture,
        read_only,
        work_dir,
        work_files: Vec::new(),
        limits: trial_limits(),
        stop: None,
        companions: None,
    }
}

/// `Ok` when the run exited 0 with no limit hit, else what happened, on one line.
fn judge_outcome(result: &Result<RunOutcome, String>) -> Result<(), String> {
    let o = result.as_ref().map_err(Clone::clone)?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stderr = stderr.lines().next().unwrap_or("").trim();
    let said = if stderr.is_empty() {
        String::new()
    } else {
        format!(" ({stderr})")
    };
    if let Some(limit) = o.limit_hit {
        return Err(format!("stopped at a limit: {}{said}", limit_name(limit)));
    }
    match o.termination {
        Termination::Exited(0) => Ok(()),
        Termination::Exited(code) => Err(format!("exited with status {code}{said}")),
        Termination::Signaled(sig) => Err(format!("killed by signal {sig}{said}")),
    }
}

/// A limit as the JSON reports name it (`cpu-time`, `wall-time`, ...).
fn limit_name(limit: LimitHit) -> String {
    serde_json::to_value(limit)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{limit:?}"))
}

fn trial_facts(argv: Vec<String>, result: Result<RunOutcome, String>) -> TrialRun {
    let error = judge_outcome(&result).err();
    match result {
        Ok(o) => TrialRun {
            argv,
            exit_code: match o.termination {
                Termination::Exited(c) => Some(c),
                Termination::Signaled(_) => None,
            },
            signal: match o.termination {
                Termination::Signaled(s) => Some(s),
                Termination::Exited(_) => None,
            },
            limit_hit: o.limit_hit.map(limit_name),
            cpu_ms: o.cpu_time.as_secs_f64() * 1000.0,
            wall_ms: o.wall_time.as_secs_f64() * 1000.0,
            peak_memory_kib: o.peak_memory_kib,
            mechanisms: Vec::new(),
            error,
        },
        Err(e) => TrialRun {
            argv,
            exit_code: None,
            signal: None,
            limit_hit: None,
            cpu_ms: 0.0,
            wall_ms: 0.0,
            peak_memory_kib: 0,
            mechanisms: Vec::new(),
            error: Some(e),
        },
    }
}

fn run(sb: &LinuxSandbox, req: &RunRequest) -> Result<RunOutcome, String> {
    sb.run(req).map_err(|e| e.to_string())
}

/// A fresh folder in the cache's folder for builds (`<cache>/tmp/build-*`, which compiles
/// use too and which is cleaned of leftovers a day old), holding a copy of `program`, both
/// open to the sandbox user as cache entries are.
fn copy_into_cache(cache: &Cache, program: &Path) -> std::io::Result<(tempfile::TempDir, PathBuf)> {
    let builds = cache.dir().join("tmp");
    if !builds.is_dir() {
        fs::create_dir_all(&builds)?;
        fs::set_permissions(&builds, fs::Permissions::from_mode(0o755))?;
    }
    let dir = tempfile::Builder::new()
        .prefix("build-doctor-")
        .tempdir_in(&builds)?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))?;
    let name = program
        .file_name()
        .unwrap_or(std::ffi::OsStr::new("program"));
    let copy = dir.path().join(name);
    fs::copy(program, &copy)?;
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755))?;
    Ok((dir, copy))
}

/// Runs `true` from a folder in the compile cache, as a grade runs a compiled submission
/// from its cache entry; when that fails (or there is no cache), `true` where it is, to
/// tell a cache the sandbox user cannot reach from a sandbox that cannot run anything.
fn trial_run(sb: &LinuxSandbox, cache: Option<&Cache>) -> (TrialRun, CacheTrial) {
    let Some(truth) = system_program("true") else {
        let why = "no /usr/bin/true or /bin/true to run".to_string();
        return (trial_facts(Vec::new(), Err(why)), CacheTrial::NotTried);
    };
    let direct = || {
        let argv = vec![truth.display().to_string()];
        let result = run(sb, &request(argv.clone(), Vec::new(), None));
        let ran = judge_outcome(&result).is_ok();
        (trial_facts(argv, result), ran)
    };
    let Some(cache) = cache else {
        return (direct().0, CacheTrial::NotTried);
    };
    match copy_into_cache(cache, &truth) {
        Ok((dir, copy)) => {
            let argv = vec![copy.display().to_string()];
            let req = request(argv.clone(), vec![dir.path().to_path_buf()], None);
            let result = run(sb, &req);
            match judge_outcome(&result) {
                Ok(()) => (trial_facts(argv, result), CacheTrial::Ran),
                Err(why) => match direct() {
                    // `true` where it is ran: the cache is at fault.
                    (trial, true) => (
                        trial,
                        CacheTrial::Failed(format!(
                            "a program in {} did not run in the sandbox: {why}",
                            dir.path().display()
                        )),
                    ),
                    (trial, false) => (trial, CacheTrial::Undecided),
                },
            }
        }
        Err(e) => (
            direct().0,
            CacheTrial::Failed(format!(
                "cannot place a program in {}: {e}",
                cache.dir().join("tmp").display()
            )),
        ),
    }
}

/// A fresh folder in the work folder, open to the sandbox user as a jury program's folder is.
fn work_folder() -> Result<tempfile::TempDir, String> {
    let tmp = std::env::temp_dir();
    let dir = tempfile::Builder::new()
        .prefix("judge-doctor-")
        .tempdir()
        .map_err(|e| format!("cannot create a folder in {}: {e}", tmp.display()))?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).map_err(|e| {
        format!(
            "cannot open {} to the sandbox user: {e}",
            dir.path().display()
        )
    })?;
    Ok(dir)
}

/// Runs `touch` with `dir` as its working folder (shared with the run, as a jury program's
/// feedback folder is) and checks that the file appeared.
fn write_in(sb: &LinuxSandbox, dir: &Path) -> Result<(), String> {
    let touch = system_program("touch").ok_or("no /usr/bin/touch or /bin/touch to run")?;
    let argv = vec![touch.display().to_string(), PROBE_FILE.to_string()];
    let result = run(sb, &request(argv, Vec::new(), Some(dir.to_path_buf())));
    judge_outcome(&result).map_err(|why| format!("a run writing in {}: {why}", dir.display()))?;
    if dir.join(PROBE_FILE).is_file() {
        Ok(())
    } else {
        Err(format!(
            "a run wrote in {}, but the file is not there",
            dir.display()
        ))
    }
}

fn trial_check(trial: Option<&TrialRun>, from_cache: bool, setup_error: Option<&String>) -> Check {
    let id = "trial-run";
    let impact = "no program can run in the sandbox here: every grade fails";
    let Some(t) = trial else {
        let why = setup_error.map_or("not run", String::as_str);
        return not_ok(id, Status::Error, why, impact);
    };
    let program = t.argv.first().map_or("", String::as_str);
    match &t.error {
        Some(why) => not_ok(id, Status::Error, format!("{program}: {why}"), impact),
        None => {
            let name = Path::new(program)
                .file_name()
                .map_or(program.into(), |n| n.to_string_lossy());
            let from = if from_cache {
                " (a copy in the compile cache)"
            } else {
                ""
            };
            ok(
                id,
                format!(
                    "`{name}`{from} exited 0 in {:.1} ms; used: {}",
                    t.wall_ms,
                    t.mechanisms.join(", ")
                ),
            )
        }
    }
}

fn cache_check(cache: &Result<Cache, String>, trial: &CacheTrial) -> Check {
    let id = "cache";
    let dir = match cache {
        Ok(c) => c.dir().display().to_string(),
        Err(e) => {
            return not_ok(
                id,
                Status::Error,
                e.clone(),
                "a grade stops with this error before compiling",
            )
        }
    };
    match trial {
        CacheTrial::Ran => ok(id, format!("{dir}: the sandbox user ran a program from it")),
        CacheTrial::Failed(why) => not_ok(
            id,
            Status::Error,
            format!("{dir}: {why}"),
            "compiled submissions cannot run from the cache: every grade fails (set \
             JUDGE_CACHE_DIR to a folder the sandbox user can reach)",
        ),
        CacheTrial::NotTried => ok(
            id,
            format!("{dir} (not tried in the sandbox: it could not be set up)"),
        ),
        CacheTrial::Undecided => ok(
            id,
            format!("{dir} (not known whether the sandbox user reaches it: no program ran)"),
        ),
    }
}

fn work_check(
    dir: &Path,
    work: &Result<tempfile::TempDir, String>,
    trial: Option<&Result<(), String>>,
) -> Check {
    let id = "work-dir";
    let impact = "jury programs (validators, interactors) and runs without a file-system view \
                  need folders here that the sandbox user can write: set TMPDIR to another folder";
    if let Err(e) = work {
        return not_ok(id, Status::Error, e.clone(), impact);
    }
    match trial {
        Some(Ok(())) => ok(
            id,
            format!("{}: the sandbox user wrote a file in it", dir.display()),
        ),
        Some(Err(why)) => not_ok(id, Status::Error, why.clone(), impact),
        None => ok(
            id,
            format!(
                "{} (not tried in the sandbox: it could not be set up)",
                dir.display()
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(root: bool, user_namespaces: bool, landlock_abi: Option<u32>) -> Probe {
        Probe {
            root,
            uid: if root { 0 } else { 1000 },
            user_namespaces,
            seccomp: true,
            landlock_abi,
            cgroups: Err("none here".into()),
            cannot_contain: (!root && !user_namespaces).then_some("no pid namespace"),
        }
    }

    #[test]
    fn landlock_is_described_by_what_its_abi_limits() {
        let summary = |abi| landlock_check(&probe(true, true, Some(abi)), &[]).summary;
        assert!(summary(3).contains("files when it has no file-system view (its network"));
        assert!(summary(4).starts_with("ABI 4: limits every run's network ("));
        assert!(summary(7).starts_with("ABI 7: limits every run's network and signals"));
        let none = probe(true, true, None);
        let c = landlock_check(&none, &none.shortfalls());
        assert_eq!(c.status, Status::Degraded);
        assert_eq!(c.impact, Some(Shortfall::NoLandlock.text()));
    }

    #[test]
    fn without_user_namespaces_an_ordinary_user_cannot_grade() {
        let c = user_namespaces_check(&probe(false, false, None));
        assert_eq!(c.status, Status::Error);
        assert_eq!(
            c.impact.as_deref(),
            Some("grading is impossible: no pid namespace")
        );
        assert_eq!(
            user_namespaces_check(&probe(true, false, None)).status,
            Status::Ok
        );
        assert_eq!(
            user_namespaces_check(&probe(false, true, None)).status,
            Status::Ok
        );
    }

    #[test]
    fn a_run_that_did_not_exit_0_is_a_failure_saying_why() {
        let outcome = |termination, limit_hit| RunOutcome {
            termination,
            limit_hit,
            cpu_time: Duration::ZERO,
            wall_time: Duration::ZERO,
            cpu_wait: None,
            forks_refused: 0,
            settled: false,
            peak_memory_kib: 0,
            stdout: Vec::new(),
            stderr: b"touch: cannot touch 'x': Permission denied\n".to_vec(),
        };
        assert!(judge_outcome(&Ok(outcome(Termination::Exited(0), None))).is_ok());
        let e = judge_outcome(&Ok(outcome(Termination::Exited(1), None))).unwrap_err();
        assert_eq!(
            e,
            "exited with status 1 (touch: cannot touch 'x': Permission denied)"
        );
        let limit = Some(LimitHit::WallTime);
        let e = judge_outcome(&Ok(outcome(Termination::Signaled(9), limit))).unwrap_err();
        assert!(e.starts_with("stopped at a limit: wall-time"), "{e}");
        assert_eq!(judge_outcome(&Err("no".into())).unwrap_err(), "no");
    }
}
