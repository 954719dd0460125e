//! Two judges at once, one of them in another pid namespace, must not remove each other's
//! cgroups. (Before slot cgroups were owned through a lock, a judge that could not see
//! another judge's pid in its own `/proc` took that judge's cgroups for leftovers, killed
//! their tasks and removed them: the other judge's runs then failed with `preparing cgroups:
//! No such device`.)

use crate::common;
use common::time_scale as scale;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Where judges create their slot cgroups on this machine (v1 memory controller or v2).
fn judge_cgroup_dirs() -> Vec<PathBuf> {
    [
        "/sys/fs/cgroup/memory/judge",
        "/sys/fs/cgroup/judge",
        "/sys/fs/cgroup/unified/judge",
    ]
    .iter()
    .map(PathBuf::from)
    .filter(|p| p.is_dir())
    .collect()
}

fn slot_dirs() -> HashSet<PathBuf> {
    judge_cgroup_dirs()
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

/// `count` copies of the Lo Shu test in a fresh folder.
fn lo_shu_tests(count: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..count {
        std::fs::write(
            dir.path().join(format!("{i:03}.in")),
            "3\n4 9 2 3 5 7 8 1 6\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join(format!("{i:03}.ans")),
            "2 7 6\n9 5 1\n4 3 8\n",
        )
        .unwrap();
    }
    dir
}

fn grade_cmd(prefix: &[&str], sub: &Path, tests: &Path) -> Command {
    let mut all: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    all.extend(["timeout".into(), format!("{:.0}", 120.0 * scale())]);
    all.push(env!("CARGO_BIN_EXE_judge").into());
    let mut cmd = Command::new(&all[0]);
    cmd.args(&all[1..])
        .args(["grade", "magic-square"])
        .arg(sub)
        .args(["--json", "--all", "--jobs", "2", "--tests"])
        .arg(tests)
        .current_dir(common::root())
        .env(
            "JUDGE_CACHE_DIR",
            std::env::var_os("JUDGE_CACHE_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(common::cache_dir),
        )
        .env("CI", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Every test of the one report AC, exit status 0.
fn assert_all_ac(who: &str, out: &Output, tests: usize) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{who}: {stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{who}: {e}: {stdout}\n{stderr}"));
    assert_eq!(report["verdict"], "AC", "{who}: {stdout}\n{stderr}");
    let rows = report["tests"].as_array().expect("tests array");
    assert_eq!(rows.len(), tests, "{who}: {stdout}");
    assert!(rows.iter().all(|t| t["verdict"] == "AC"), "{who}: {stdout}");
}

#[test]
fn judges_in_two_pid_namespaces_grade_side_by_side() {
    let unshare = Command::new("unshare").arg("--help").output().is_ok();
    if !common::require_root("judges in pid namespaces of their own")
        || !common::require(unshare, "needs unshare(1) (util-linux)")
    {
        return;
    }
    // A correct program that takes ~60 ms of CPU per test, so the long judge is busy for a
    // few seconds while the others start, set up their slots and finish.
    let src = tempfile::tempdir().unwrap();
    let sub = src.path().join("slow_ac.c");
    std::fs::write(
        &sub,
        "#include <stdio.h>\n#include <time.h>\nint main(void) {\n\
         struct timespec t; volatile unsigned long x = 0;\n\
         do { for (int i = 0; i < 100000; i++) x++; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); }\n\
         while (t.tv_nsec < 60000000L && t.tv_sec == 0);\n\
         printf(\"2 7 6\\n9 5 1\\n4 3 8\\n\");\n  return 0;\n}\n",
    )
    .unwrap();
    let quick = common::root().join("tests/programs/ac.c");
    // Under emulation (the cgroup-v2 VM) each run takes long enough with fewer tests.
    let long_count = if scale() > 2.0 { 16 } else { 60 };
    let long_tests = lo_shu_tests(long_count);
    let short_tests = lo_shu_tests(3);
    // Compile both once, so the concurrent runs below hit the cache.
    for s in [&sub, &quick] {
        let out = grade_cmd(&[], s, short_tests.path()).output().unwrap();
        assert_all_ac("warm-up", &out, 3);
    }

    let long = grade_cmd(&[], &sub, long_tests.path()).spawn().unwrap();
    // Wait until the long judge (the child of `timeout`) has created its slot cgroups.
    let deadline = Instant::now() + Duration::from_secs_f64(30.0 * scale());
    let timeout_pid = long.id();
    let long_pid = loop {
        let children =
            std::fs::read_to_string(format!("/proc/{timeout_pid}/task/{timeout_pid}/children"))
                .unwrap_or_default();
        let made = children.split_whitespace().find(|pid| {
            slot_dirs().iter().any(|d| {
                d.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{pid}-")))
            })
        });
        if let Some(pid) = made {
            break pid.to_string();
        }
        assert!(Instant::now() < deadline, "the long judge made no cgroups");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Judges starting meanwhile: in another pid namespace (the long judge's pid is not in
    // their /proc), and in ours. Each one's setup scans for stale cgroups.
    let mut others = Vec::new();
    for round in 0..3 {
        let ns = grade_cmd(
            &["unshare", "--pid", "--fork", "--mount-proc"],
            &quick,
            short_tests.path(),
        )
        .spawn()
        .unwrap();
        let plain = grade_cmd(&[], &quick, short_tests.path()).spawn().unwrap();
        others.push((format!("pid-namespace judge {round}"), ns));
        others.push((format!("judge {round}"), plain));
        std::thread::sleep(Duration::from_millis(150));
    }
    for (who, child) in others {
        assert_all_ac(&who, &child.wait_with_output().unwrap(), 3);
    }
    assert_all_ac("long judge", &long.wait_with_output().unwrap(), long_count);
    // The long judge and the pid-namespace judges (pid 2 there, under `timeout`) removed
    // their cgroups when they ended. (Other judges on this machine may be starting or
    // running now, so their directories are not looked at.)
    let ours = |d: &PathBuf| {
        d.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(&format!("{long_pid}-")) || n.starts_with("2-"))
    };
    let left: Vec<_> = slot_dirs()
        .into_iter()
        .filter(|d| ours(d) && unlocked(d))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// True when nobody holds the directory's lock (a leftover, not a live judge's cgroup).
fn unlocked(dir: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(f) = std::fs::File::open(dir) else {
        return false;
    };
    // SAFETY: flock on an fd we own; released when `f` closes.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}
