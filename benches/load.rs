//! Verdicts on a busy machine: `cargo bench --bench load [-- ROUNDS]`.
//!
//! 1. A correct program that uses about 0.6 s of CPU per test is graded ROUNDS times (default
//!    20) on 3 tests under a 1 s limit with `--jobs 2`, first on an idle machine (the
//!    baseline), then with 6 busy loops on the machine's cores. Every grading must be AC.
//! 2. A program that sleeps 10 s under a 1 s limit is graded with the busy loops running:
//!    it must be TLE, within 15 s of wall time.
//!
//! The busy loops are plain shell loops (`sh -c 'while :; do :; done'`) started by this
//! bench and killed at its end; the programs under test only run inside `judge`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BURN_C: &str = r#"
/* Burns about 0.6 s of CPU, then prints the answer to the 3x3 sample. */
#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec t;
    volatile unsigned long x = 0;
    do {
        for (int i = 0; i < 100000; i++) x += i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < 600);
    printf("2 7 6\n9 5 1\n4 3 8\n");
    return 0;
}
"#;

const SLEEP_C: &str = "#include <unistd.h>\nint main(void) { sleep(10); return 0; }\n";

fn judge() -> &'static str {
    env!("CARGO_BIN_EXE_judge")
}

#[path = "../tests/common/busy.rs"]
mod busy;
use busy::BusyLoops as Busy;

/// One `judge grade --json`: (verdict, wall time, the JSON line).
fn grade(sub: &Path, tests: &Path, cache: &Path) -> (String, Duration, String) {
    let start = Instant::now();
    let out = Command::new("timeout")
        .arg("120")
        .arg(judge())
        .args(["grade", "magic-square", "--json", "--jobs", "2", "--tests"])
        .arg(tests)
        .arg(sub)
        .env("JUDGE_CACHE_DIR", cache)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(Stdio::inherit())
        .output()
        .expect("judge");
    let took = start.elapsed();
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
    let verdict = v["verdict"].as_str().unwrap_or("?").to_string();
    (verdict, took, line)
}

fn rounds(label: &str, n: usize, sub: &Path, tests: &Path, cache: &Path) -> usize {
    let mut ac = 0;
    let mut walls = Vec::new();
    for i in 0..n {
        let (verdict, took, line) = grade(sub, tests, cache);
        walls.push(took);
        if verdict == "AC" {
            ac += 1;
        } else {
            eprintln!("{label} round {i}: {verdict}: {line}");
        }
    }
    walls.sort();
    println!(
        "{label}: {ac} of {n} AC; judge wall time per grading median {:.2} s, max {:.2} s",
        walls[n / 2].as_secs_f64(),
        walls[n - 1].as_secs_f64()
    );
    ac
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path();
    let cache = dir.join("cache");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::create_dir_all(&tests).unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square/data/sample");
    for i in 1..=3 {
        std::fs::copy(sample.join("1.in"), tests.join(format!("t{i}.in"))).unwrap();
        std::fs::copy(sample.join("1.ans"), tests.join(format!("t{i}.ans"))).unwrap();
    }
    let burn = dir.join("burn.c");
    let sleep = dir.join("sleep.c");
    std::fs::write(&burn, BURN_C).unwrap();
    std::fs::write(&sleep, SLEEP_C).unwrap();
    // Compile both once (cached) so that no compile happens under load.
    grade(&burn, &tests, &cache);
    grade(&sleep, &tests, &cache);

    println!("{cores} cores; a 0.6 s-CPU program graded {n} times on 3 tests, 1 s limit, --jobs 2");
    let idle = rounds("idle machine", n, &burn, &tests, &cache);
    let busy = Busy::start(6);
    std::thread::sleep(Duration::from_millis(200));
    let loaded = rounds("6 busy loops", n, &burn, &tests, &cache);
    let (verdict, took, line) = grade(&sleep, &tests, &cache);
    drop(busy);
    println!(
        "sleep(10) under a 1 s limit with 6 busy loops: {verdict} after {:.2} s of wall time",
        took.as_secs_f64()
    );
    let ok = idle == n && loaded == n && verdict == "TLE" && took < Duration::from_secs(15);
    if !ok {
        eprintln!("FAILED: {line}");
        std::process::exit(1);
    }
}
