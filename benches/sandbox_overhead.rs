//! Per-run overhead of `LinuxSandbox::run` against bare spawns of the same trivial static
//! binary (`int main(){return 0;}`, `gcc -O2 -static`, built here at bench time).
//!
//! Run: `cargo bench --bench sandbox_overhead` (as root for the cgroup path). `BENCH_RUNS`
//! overrides the runs per variant (default 2000). Variants are interleaved in rounds so
//! background load hits all of them alike. `BENCH_ONLY=N` runs variant N alone (for `perf
//! stat`).

use std::ffi::CString;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use judge::sandbox::linux::LinuxSandbox;
use judge::sandbox::{Limits, RunRequest, Sandbox, Stdin, Stdout, Termination};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// CPU time of this process and every child it reaped (and what they reaped), µs. Under
/// load, wall time mostly measures waiting for a CPU; this measures the work.
fn cpu_us() -> f64 {
    let mut total = 0.0;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: rusage is plain old data, valid when zeroed.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage fills the local struct.
        unsafe { libc::getrusage(who, &mut ru) };
        for t in [ru.ru_utime, ru.ru_stime] {
            total += t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
        }
    }
    total
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// posix_spawn (glibc: clone(CLONE_VM | CLONE_VFORK)) + waitpid.
fn posix_spawn_wait(path: &CString, argv: &[*mut libc::c_char; 2]) {
    let envp: [*mut libc::c_char; 1] = [std::ptr::null_mut()];
    let mut pid: libc::pid_t = 0;
    // SAFETY: valid NUL-terminated argv/envp arrays and path.
    let r = unsafe {
        libc::posix_spawn(
            &mut pid,
            path.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            argv.as_ptr(),
            envp.as_ptr(),
        )
    };
    assert_eq!(r, 0, "posix_spawn failed");
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::Builder::new()
        .prefix("judge-bench-")
        .tempdir_in("/tmp")
        .expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let src = dir.path().join("true.c");
    std::fs::write(&src, "int main(void){return 0;}\n").expect("write source");
    let bin = dir.path().join("true");
    let st = std::process::Command::new("gcc")
        .args(["-O2", "-static", "-o"])
        .arg(&bin)
        .arg(&src)
        .status()
        .expect("gcc");
    assert!(st.success(), "gcc failed");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("work dir");
    std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o777)).expect("chmod");

    let sandbox = LinuxSandbox::new(1).expect("sandbox");
    println!("sandbox warning: {:?}", sandbox.warning());
    let request = RunRequest {
        stop: None,
        companions: None,
        argv: vec![bin.to_string_lossy().into_owned()],
        env: Vec::new(),
        stdin: Stdin::Null,
        stdout: Stdout::Capture,
        read_only: vec![dir.path().to_path_buf()],
        work_dir: Some(work.clone()),
        work_files: Vec::new(),
        limits: Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(5),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
            stderr_bytes: 1 << 16,
            processes: 16,
        },
    };
    let cpath = CString::new(bin.to_string_lossy().as_bytes()).expect("path");
    let argv: [*mut libc::c_char; 2] = [cpath.as_ptr() as *mut libc::c_char, std::ptr::null_mut()];

    let plain = LinuxSandbox::new(1).expect("sandbox").without_fs_view();
    let names = [
        "std Command::status",
        "posix_spawn+waitpid",
        "LinuxSandbox::run",
        "  without fs view",
    ];
    let mut times: [Vec<Duration>; 4] = Default::default();
    let mut cpu = [0f64; 4];
    let round = 50;
    let rounds = runs.div_ceil(round);
    // Warm-up (page cache, first-run setup).
    for _ in 0..20 {
        sandbox.run(&request).expect("run");
        plain.run(&request).expect("run");
        posix_spawn_wait(&cpath, &argv);
    }
    println!(
        "runs started by the slots' long-lived processes: {} (without fs view: {})",
        sandbox.uses_slot_processes(),
        plain.uses_slot_processes()
    );
    // BENCH_ONLY=N runs variant N alone (0-3, in the order printed), to count what one
    // variant does with `perf stat` (context switches, migrations); its figures only.
    let only: Option<usize> = std::env::var("BENCH_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    let load_before = loadavg();
    for r in 0..rounds {
        // Rotate the order each round.
        for k in 0..4 {
            let v = (k + r) % 4;
            if only.is_some_and(|o| o != v) {
                continue;
            }
            let cpu_before = cpu_us();
            for _ in 0..round {
                let t = Instant::now();
                match v {
                    0 => {
                        let s = std::process::Command::new(&bin)
                            .env_clear()
                            .status()
                            .expect("spawn");
                        assert!(s.success());
                    }
                    1 => posix_spawn_wait(&cpath, &argv),
                    _ => {
                        let sb = if v == 2 { &sandbox } else { &plain };
                        let o = sb.run(&request).expect("sandbox run");
                        assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
                    }
                }
                times[v].push(t.elapsed());
            }
            // The sandbox reaps a finished proxy in the background: let it, so its CPU is
            // counted in this round (a few runs' worth at most).
            if v >= 2 {
                std::thread::sleep(Duration::from_millis(2));
            }
            cpu[v] += cpu_us() - cpu_before;
        }
    }
    let mut med = [0f64; 4];
    let mut p90 = [0f64; 4];
    let mut p99 = [0f64; 4];
    let n = (rounds * round) as f64;
    println!(
        "{} runs per variant, interleaved in rounds of {round}; load average {load_before} \
         before, {} after",
        rounds * round,
        loadavg()
    );
    for v in 0..4 {
        if times[v].is_empty() {
            continue;
        }
        times[v].sort();
        med[v] = us(percentile(&times[v], 0.5));
        p90[v] = us(percentile(&times[v], 0.9));
        p99[v] = us(percentile(&times[v], 0.99));
        println!(
            "{:<22} median {:>7.0} µs   p90 {:>7.0} µs   p99 {:>7.0} µs   CPU/run {:>6.0} µs",
            names[v],
            med[v],
            p90[v],
            p99[v],
            cpu[v] / n
        );
    }
    if only.is_some() {
        return;
    }
    println!(
        "ratio sandbox / Command:     median {:.2}x  p90 {:.2}x",
        med[2] / med[0],
        p90[2] / p90[0]
    );
    println!(
        "ratio sandbox / posix_spawn: median {:.2}x  p90 {:.2}x  p99 {:.2}x   (targets: median <= 1.1x, p99 <= 2x)",
        med[2] / med[1],
        p90[2] / p90[1],
        p99[2] / p99[1]
    );
    println!(
        "ratio without fs view / posix_spawn: median {:.2}x  p90 {:.2}x",
        med[3] / med[1],
        p90[3] / p90[1]
    );
    println!(
        "CPU per run, sandbox / posix_spawn: {:.2}x (without fs view {:.2}x)",
        cpu[2] / cpu[1],
        cpu[3] / cpu[1]
    );
}
