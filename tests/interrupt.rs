//! Interruptions leave nothing behind: SIGINT or SIGTERM during `grade`, `verify`, `stress` and
//! `gen` ends every compiler and contestant process, removes the work folders, keeps the
//! compile cache whole, prints the report so far and exits with 130 or 143.
//!
//! Each test runs `judge` in its own process group with a private folder (the "scene") that
//! holds its TMPDIR, its compile cache and its submission: that folder's path is in the argv
//! of every process the run starts (compilers get the source path, contestants the binary
//! path), so a scan of `/proc/*/cmdline` finds any process left behind. The outer timeout
//! kills the whole group.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{root, Report};

/// A private folder for one `judge` run: `tmp/` (its TMPDIR), `cache/` (its compile cache).
struct Scene {
    dir: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix("judge-interrupt-")
            .tempdir()
            .unwrap();
        // The sandbox user must reach the cache inside it.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Scene { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn marker(&self) -> String {
        self.path().display().to_string()
    }

    /// Copies `file` into the scene (so its path, in the compiler's argv, holds the marker).
    fn add(&self, file: &Path) -> PathBuf {
        let to = self.path().join(file.file_name().unwrap());
        std::fs::copy(file, &to).unwrap();
        to
    }

    /// Starts `judge args...` in the repository root, in a process group of its own.
    fn spawn(&self, args: &[&str]) -> Child {
        use std::os::unix::process::CommandExt;
        Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(args)
            .current_dir(root())
            .env("TMPDIR", self.path().join("tmp"))
            .env("JUDGE_CACHE_DIR", self.path().join("cache"))
            .env("CI", "1")
            .env_remove("JUDGE_PROBLEMS_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap()
    }

    /// Processes (other than `except`) whose command line holds the scene's path.
    fn processes(&self, except: u32) -> Vec<(u32, String)> {
        let marker = self.marker();
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if pid == except || pid == std::process::id() {
                continue;
            }
            // Zombies and exited processes have an empty command line.
            let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(&marker) {
                found.push((pid, cmdline));
            }
        }
        found
    }

    /// Waits until a process other than judge itself runs with `needle` in its command line
    /// (a compiler or the contestant), up to `limit`.
    fn wait_for_process(&self, judge: &Child, needle: &str, limit: Duration) {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self
                .processes(judge.id())
                .iter()
                .any(|(_, c)| c.contains(needle))
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("no process with `{needle}` within {limit:?}");
    }

    /// Waits until a compiled entry is in the scene's cache, up to `limit`.
    fn wait_for_compile(&self, limit: Duration) {
        let entries = self.path().join("cache/v2");
        let start = Instant::now();
        while start.elapsed() < limit {
            let done = std::fs::read_dir(&entries)
                .map(|d| {
                    d.flatten()
                        .any(|e| e.path().join("judge-entry.json").is_file())
                })
                .unwrap_or(false);
            if done {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("nothing compiled within {limit:?}");
    }

    /// After judge exited: no process of the run is left (within a grace period for the
    /// kernel to reap), no work folder in TMPDIR, no half cache entry.
    fn assert_nothing_left(&self) {
        let start = Instant::now();
        loop {
            let left = self.processes(0);
            if left.is_empty() {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "processes left behind: {left:#?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // An ordinary user's sandbox mounts each run's box on one empty folder in TMPDIR,
        // shared by every run and every judge of that user (root's is /run/judge/box).
        // SAFETY: geteuid has no preconditions and cannot fail.
        let stage = format!("judge-box-{}", unsafe { libc::geteuid() });
        let tmp: Vec<_> = std::fs::read_dir(self.path().join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|name| {
                let path = self.path().join("tmp").join(name);
                !(*name == *stage && std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none()))
            })
            .collect();
        assert!(tmp.is_empty(), "left in TMPDIR: {tmp:?}");
        let cache = self.path().join("cache");
        if let Ok(building) = std::fs::read_dir(cache.join("tmp")) {
            let building: Vec<_> = building.map(|e| e.unwrap().file_name()).collect();
            assert!(
                building.is_empty(),
                "half-built cache entries: {building:?}"
            );
        }
        // Every installed entry is complete: its record parses and names its outcome.
        if let Ok(entries) = std::fs::read_dir(cache.join("v2")) {
            for entry in entries {
                let meta = entry.unwrap().path().join("judge-entry.json");
                let text = std::fs::read_to_string(&meta)
                    .unwrap_or_else(|e| panic!("{}: {e}", meta.display()));
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert!(v["outcome"]["result"].is_string(), "{text}");
            }
        }
    }
}

/// Sends `signal` to judge (`group`: to its whole process group, as a terminal's Ctrl-C does)
/// and collects its output, killing the group if it is not done within `limit`.
fn stop(judge: Child, signal: i32, group: bool, limit: Duration) -> (Output, Duration) {
    let pid = judge.id() as i32;
    // SAFETY: signalling our own child (or its process group, which it leads).
    unsafe { libc::kill(if group { -pid } else { pid }, signal) };
    let start = Instant::now();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(limit);
        // SAFETY: as above; a no-op (ESRCH) when the group is gone.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    });
    let out = judge.wait_with_output().unwrap();
    let took = start.elapsed();
    assert!(took < limit, "judge did not stop within {limit:?}");
    drop(watchdog);
    (out, took)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn one_report(out: &Output) -> Report {
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "stdout: {stdout}\nstderr: {}",
        text(&out.stderr)
    );
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]))
}

#[test]
fn ctrl_c_during_a_compile_kills_the_compiler_and_caches_nothing() {
    let scene = Scene::new();
    let source = scene.add(&root().join("tests/programs/slow_compile.cpp"));
    let judge = scene.spawn(&["grade", "magic-square", source.to_str().unwrap(), "--json"]);
    // g++ and its cc1plus carry the copied source's path (in the cache's build folder).
    scene.wait_for_process(&judge, "build-", Duration::from_secs(60));
    let (out, took) = stop(judge, libc::SIGINT, true, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(
        text(&out.stderr).contains("interrupted by SIGINT"),
        "{}",
        text(&out.stderr)
    );
    let report = one_report(&out);
    assert!(report.interrupted, "{report:?}\n{}", text(&out.stderr));
    assert!(
        report.compile.is_none() && report.verdict.is_none(),
        "{report:?}"
    );
    assert!(report.tests.is_empty());
    scene.assert_nothing_left();
    let cached = std::fs::read_dir(scene.path().join("cache/v2"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(cached, 0, "an interrupted compile must not be cached");
}

#[test]
fn ctrl_c_while_precompiling_a_header_caches_nothing() {
    // A header is precompiled from its second use on: a first source that only names
    // <bits/stdc++.h> in a comment (a CE, compiled at once) leaves the mark; then forced.cpp,
    // which includes it, makes g++ precompile it first (seconds), writing the .gch into the
    // cache's build folder.
    let scene = Scene::new();
    let first = scene.path().join("mentions.cpp");
    std::fs::write(&first, "// not <bits/stdc++.h>\nint main() { return x; }\n").unwrap();
    let primer = scene.spawn(&["grade", "magic-square", first.to_str().unwrap(), "--json"]);
    let primed = primer.wait_with_output().unwrap();
    assert_eq!(primed.status.code(), Some(1), "{}", text(&primed.stderr));
    let source = scene.add(&root().join("problems/magic-square/submissions/accepted/forced.cpp"));
    let judge = scene.spawn(&["grade", "magic-square", source.to_str().unwrap(), "--json"]);
    scene.wait_for_process(&judge, "c++-header", Duration::from_secs(60));
    let (out, took) = stop(judge, libc::SIGINT, true, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(
        !text(&out.stderr).contains("precompile"),
        "an interruption is not a failed build: {}",
        text(&out.stderr)
    );
    let report = one_report(&out);
    assert!(report.interrupted && report.compile.is_none(), "{report:?}");
    scene.assert_nothing_left();
    // Only the primer's compile error is cached.
    let cached = std::fs::read_dir(scene.path().join("cache/v2"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(cached, 1, "an interrupted build must not be cached");
}

#[test]
fn sigint_during_runs_reports_the_finished_tests_and_removes_work_folders() {
    let scene = Scene::new();
    // Sleeps 10 s: every test is a TLE at the 2 s wall-clock backstop.
    let source = scene.add(&root().join("tests/programs/tle_sleep.c"));
    let judge = scene.spawn(&[
        "grade",
        "magic-square",
        source.to_str().unwrap(),
        "--json",
        "--all",
        "--jobs",
        "2",
    ]);
    // The contestant's argv[0] is its binary in the scene's cache.
    let binary = format!("{}/cache/v2/", scene.marker());
    scene.wait_for_process(&judge, &binary, Duration::from_secs(60));
    std::thread::sleep(Duration::from_millis(2500));
    let (out, _) = stop(judge, libc::SIGINT, false, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let report = one_report(&out);
    assert!(report.interrupted, "{report:?}");
    assert!(report.compile().ok);
    assert!(report.tests.len() < report.tests_total, "{report:?}");
    for t in &report.tests {
        assert_eq!(t.verdict, "TLE", "{t:?}");
    }
    // With --all the verdict is the first test's, once that one finished.
    match report.verdict.as_deref() {
        None => assert!(report.tests.first().is_none_or(|t| t.name != "sample-1")),
        Some(v) => assert_eq!((v, report.tests[0].name.as_str()), ("TLE", "sample-1")),
    }
    scene.assert_nothing_left();
    assert_eq!(
        std::fs::read_dir(scene.path().join("cache/v2"))
            .unwrap()
            .count(),
        1,
        "the finished compile stays cached"
    );
}

#[test]
fn sigterm_during_stress_stops_with_143_and_says_how_far_it_got() {
    let scene = Scene::new();
    let source = scene.add(&common::accepted_cpp("magic-square"));
    let out_dir = scene.path().join("cex");
    let judge = scene.spawn(&[
        "stress",
        "magic-square",
        source.to_str().unwrap(),
        "--seconds",
        "120",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    // Its runs take a millisecond each, too short to catch in /proc: wait for the compiled
    // entry, then let it test for a while.
    scene.wait_for_compile(Duration::from_secs(120));
    std::thread::sleep(Duration::from_millis(1500));
    let (out, took) = stop(judge, libc::SIGTERM, false, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("no failure in "), "{stdout}");
    assert!(stdout.contains("; interrupted"), "{stdout}");
    assert!(
        text(&out.stderr).contains("interrupted by SIGTERM"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_dir.exists());
    scene.assert_nothing_left();
}

#[test]
fn sigint_during_verify_prints_one_json_object_marked_interrupted() {
    let scene = Scene::new();
    let judge = scene.spawn(&["verify", "magic-square", "--json"]);
    // The jury submissions compile into the scene's cache.
    scene.wait_for_process(&judge, "build-", Duration::from_secs(120));
    let (out, _) = stop(judge, libc::SIGINT, true, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout))
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["ok"], false);
    let checks = v["problems"][0]["checks"].as_array().unwrap();
    assert!(
        checks.iter().any(|c| c["name"] == "validator"),
        "the static checks done so far are reported: {checks:?}"
    );
    scene.assert_nothing_left();
}

/// The `.in`/`.ans` names of a folder, sorted.
fn test_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_killed_gen_leaves_the_old_folder_or_the_new_one() {
    let scene = Scene::new();
    let out = scene.path().join("data");
    let out_arg = out.to_str().unwrap();
    let first = scene.spawn(&["gen", "magic-square", "--out", out_arg]);
    assert!(first.wait_with_output().unwrap().status.success());
    let complete = test_files(&out);
    assert!(complete.len() > 100, "{complete:?}");
    std::fs::write(out.join("zz-stale.in"), "3\n1 1 1 1 1 1 1 1 1\n").unwrap();
    let old = test_files(&out);
    // Stop gens at staggered moments; after each, the folder is whole (old or new) and
    // nothing else sits beside it once a later gen has cleaned up.
    for (k, signal) in [libc::SIGTERM, libc::SIGKILL]
        .repeat(6)
        .into_iter()
        .enumerate()
    {
        let judge = scene.spawn(&["gen", "magic-square", "--out", out_arg]);
        let pid = judge.id();
        std::thread::sleep(Duration::from_millis(15 * k as u64));
        let (result, _) = stop(judge, signal, false, Duration::from_secs(30));
        let now = test_files(&out);
        assert!(now == old || now == complete, "after stop #{k}: {now:?}");
        if signal == libc::SIGTERM && result.status.code() == Some(143) {
            // Interrupted, it removed its own temporary folder.
            let mine = format!("judge-tmp-{pid}-");
            let beside = test_files(scene.path());
            assert!(
                !beside.iter().any(|f| f.contains(&mine)),
                "after SIGTERM #{k}: {beside:?}"
            );
        }
        if now == complete {
            std::fs::write(out.join("zz-stale.in"), "3\n1 1 1 1 1 1 1 1 1\n").unwrap();
        }
    }
    let last = scene.spawn(&["gen", "magic-square", "--out", out_arg]);
    assert!(last.wait_with_output().unwrap().status.success());
    assert_eq!(test_files(&out), complete, "a re-run drops zz-stale.in");
    assert_eq!(
        test_files(scene.path()),
        ["data", "tmp"],
        "temporary folders of killed gens are removed"
    );
}
