//! Grading throughput: `judge grade --jobs N --all` on a full test set against a plain shell
//! loop that runs the same binary on the same files and compares outputs with `cmp`.
//!
//! `cargo bench --bench grade_throughput` (builds the release `judge` first). Every variant
//! runs in interleaved rounds in one process, so the ratios are measured on the same load.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROUNDS: usize = 7;

fn judge() -> &'static str {
    env!("CARGO_BIN_EXE_judge")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn run_ok(cmd: &mut Command) -> Duration {
    let start = Instant::now();
    let out = cmd.output().expect("spawn");
    let took = start.elapsed();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{:?}: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let problem = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| "magic-square".to_string());
    let work = tempfile::tempdir().expect("tempdir");
    let tests = work.path().join("tests");
    let cache = work.path().join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let status = Command::new(judge())
        .args(["gen", &problem, "--out"])
        .arg(&tests)
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(status.success());
    let n_tests = std::fs::read_dir(&tests)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "in")
        })
        .count();

    // The submission: the problem's first accepted C++ jury solution.
    let accepted = root
        .join("problems")
        .join(&problem)
        .join("submissions/accepted");
    let source = std::fs::read_dir(&accepted)
        .expect("submissions/accepted")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .min()
        .expect("an accepted .cpp jury solution");
    let binary = work.path().join("solution");
    let st = Command::new("g++")
        .args(["-O2", "-std=gnu++17", "-static", "-pipe", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(st.success());

    // Warm the judge's compile cache so every judge round measures grading only.
    let grade = |jobs: &str| {
        let mut c = Command::new(judge());
        c.args(["grade", &problem])
            .arg(&source)
            .args(["--all", "--jobs", jobs, "--tests"])
            .arg(&tests)
            .env("JUDGE_CACHE_DIR", &cache)
            .env("CI", "1")
            .current_dir(&root);
        c
    };
    run_ok(&mut grade("1"));

    let shell = |bin: &Path| {
        let script = format!(
            "for f in {}/*.in; do {} < \"$f\" > {}/out; cmp -s {}/out \"${{f%.in}}.ans\"; done",
            tests.display(),
            bin.display(),
            work.path().display(),
            work.path().display()
        );
        let mut c = Command::new("bash");
        c.arg("-c").arg(script);
        c
    };

    let (mut t_shell, mut t_j1, mut t_j2) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        t_shell.push(run_ok(&mut shell(&binary)));
        t_j1.push(run_ok(&mut grade("1")));
        t_j2.push(run_ok(&mut grade("2")));
    }
    let (s, j1, j2) = (median(t_shell), median(t_j1), median(t_j2));
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "grade throughput: {problem}, {n_tests} tests, {} (median of {ROUNDS} interleaved rounds)",
        source.file_name().unwrap().to_string_lossy()
    );
    println!(
        "  shell loop (run + cmp, no sandbox)   {:8.1} ms  {:6.2} ms/test",
        ms(s),
        ms(s) / n_tests as f64
    );
    println!(
        "  judge grade --jobs 1 (sandboxed)     {:8.1} ms  {:6.2} ms/test",
        ms(j1),
        ms(j1) / n_tests as f64
    );
    println!(
        "  judge grade --jobs 2 (sandboxed)     {:8.1} ms  {:6.2} ms/test",
        ms(j2),
        ms(j2) / n_tests as f64
    );
    println!(
        "  throughput vs shell loop: --jobs 1 {:.2}x, --jobs 2 {:.2}x (target >= 2.5x with --jobs 2)",
        s.as_secs_f64() / j1.as_secs_f64(),
        s.as_secs_f64() / j2.as_secs_f64()
    );
}
