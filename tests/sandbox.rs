//! Real programs under the real Linux sandbox: limits, verdict data and containment.
//!
//! Hostile programs (C sources in `tests/sandbox/`) are compiled at test time and only ever run
//! through `LinuxSandbox` with its own limits, inside an outer deadline thread. The
//! unprivileged path is tested by re-running this test binary as uid 65534 (see
//! `unprivileged_path`).
#![cfg(target_os = "linux")]

use crate::common;

use std::collections::HashMap;
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use judge::sandbox::linux::LinuxSandbox;
use judge::sandbox::{
    HandOver, LimitHit, Limits, RunOutcome, RunRequest, Sandbox, Stdin, Stdout, StopHandle,
    Termination,
};

const PROGRAMS: &[&str] = &[
    "hello",
    "exit3",
    "cpu_loop",
    "sleep",
    "membomb",
    "segv",
    "abort",
    "recurse",
    "spam",
    "bigstderr",
    "forkbomb",
    "connect",
    "files",
    "orphan",
    "cpuclock",
    "threads",
    "true",
    "unix_connect",
    "view",
    "diskfill",
    "ipc",
    "sibling",
    "bigdata",
    "tickcharge",
    "pid1",
];

/// Set (to the directory holding the compiled programs) when this binary runs as the inner,
/// unprivileged half of `unprivileged_path`.
const UNPRIV_ENV: &str = "JUDGE_SANDBOX_UNPRIV_DIR";
/// Set (to the same) when this binary runs as the judge that `a_killed_harness_leaves_nothing`
/// kills.
const KILLED_ENV: &str = "JUDGE_SANDBOX_KILLED_DIR";

struct Fixture {
    /// World-readable directory with the compiled programs.
    dir: PathBuf,
    bins: HashMap<&'static str, PathBuf>,
    _keep: Option<tempfile::TempDir>,
}

fn world_dir(prefix: &str) -> tempfile::TempDir {
    let d = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in("/tmp")
        .expect("tempdir");
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    d
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        if let Ok(dir) = std::env::var(UNPRIV_ENV).or_else(|_| std::env::var(KILLED_ENV)) {
            let dir = PathBuf::from(dir);
            let bins = PROGRAMS.iter().map(|p| (*p, dir.join(p))).collect();
            return Fixture {
                dir,
                bins,
                _keep: None,
            };
        }
        let tmp = world_dir("judge-sbx-bins-");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sandbox");
        let handles: Vec<_> = PROGRAMS
            .iter()
            .map(|p| {
                let out = tmp.path().join(p);
                let c = src.join(format!("{p}.c"));
                std::thread::spawn(move || {
                    let st = std::process::Command::new("gcc")
                        .args(["-O2", "-static", "-pthread", "-o"])
                        .arg(&out)
                        .arg(&c)
                        .status()
                        .expect("run gcc");
                    assert!(st.success(), "gcc failed for {}", c.display());
                })
            })
            .collect();
        for h in handles {
            h.join().expect("compile thread");
        }
        let bins = PROGRAMS.iter().map(|p| (*p, tmp.path().join(p))).collect();
        Fixture {
            dir: tmp.path().to_path_buf(),
            bins,
            _keep: Some(tmp),
        }
    })
}

fn sandbox() -> &'static LinuxSandbox {
    static S: OnceLock<LinuxSandbox> = OnceLock::new();
    S.get_or_init(|| LinuxSandbox::new(2).expect("sandbox setup"))
}

fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(1),
        // Generous: other jobs may share the cores, so a CPU-bound run can take several
        // times its CPU time.
        wall_time: Duration::from_secs(10),
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
        stderr_bytes: 64 << 10,
        processes: 16,
    }
}

/// A request for one of the compiled programs, with a fresh world-searchable work dir.
fn request(prog: &str, args: &[&str]) -> (RunRequest, tempfile::TempDir) {
    let f = fixture();
    let work = world_dir("judge-sbx-work-");
    std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let bin = f.bins[prog].to_string_lossy().into_owned();
    let mut argv = vec![bin];
    argv.extend(args.iter().map(|s| s.to_string()));
    let req = RunRequest {
        stop: None,
        companions: None,
        argv,
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        stdin: Stdin::Null,
        stdout: Stdout::Capture,
        read_only: vec![f.dir.clone()],
        work_dir: Some(work.path().to_path_buf()),
        work_files: Vec::new(),
        limits: limits(),
    };
    (req, work)
}

/// Runs on another thread with an outer deadline so a sandbox bug cannot hang the suite.
fn run(req: RunRequest) -> RunOutcome {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(sandbox().run(&req));
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(r) => r.expect("sandbox error"),
        Err(_) => panic!("sandbox run did not finish within 30 s"),
    }
}

/// One run on a sandbox of the test's own, with the same outer deadline.
fn run_on(sb: &LinuxSandbox, req: &RunRequest) -> RunOutcome {
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        s.spawn(|| {
            let _ = tx.send(sb.run(req));
        });
        rx.recv_timeout(Duration::from_secs(30))
            .expect("run finished within 30 s")
            .expect("sandbox run")
    })
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ---------------------------------------------------------------- checks shared by both paths

fn check_exit_code() {
    let (req, _w) = request("exit3", &[]);
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(3), "{o:?}");
    assert_eq!(o.limit_hit, None);
}

fn check_cpu_limit() {
    let (req, _w) = request("cpu_loop", &[]);
    let t = Instant::now();
    let o = run(req);
    assert_eq!(o.limit_hit, Some(LimitHit::CpuTime), "{o:?}");
    assert!(o.cpu_time >= Duration::from_secs(1), "{o:?}");
    assert!(o.cpu_time < Duration::from_millis(1300), "{o:?}");
    // However busy the machine, a CPU-bound run ends by its CPU limit, and never later
    // than the overload bound (10 x the CPU limit here; 2 x the wall limit of 10 s).
    assert!(
        t.elapsed() < Duration::from_secs(21),
        "took {:?}",
        t.elapsed()
    );
}

fn check_wall_limit() {
    let (mut req, _w) = request("sleep", &[]);
    req.limits.wall_time = Duration::from_secs(2);
    let t = Instant::now();
    let o = run(req);
    assert_eq!(o.limit_hit, Some(LimitHit::WallTime), "{o:?}");
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "took {:?}",
        t.elapsed()
    );
    assert!(o.wall_time >= Duration::from_secs(2));
}

fn check_memory_limit() {
    let (req, _w) = request("membomb", &[]);
    let o = run(req);
    assert_eq!(
        o.limit_hit,
        Some(LimitHit::Memory),
        "{o:?} {}",
        text(&o.stdout)
    );
    assert!(!text(&o.stdout).contains("survived"));
}

fn check_network_blocked() {
    let (req, _w) = request("connect", &[]);
    let o = run(req);
    let out = text(&o.stdout);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert!(out.contains("failed"), "{out}");
    assert!(!out.contains("connected"), "{out}");
}

/// No IPC object that would outlive the run (System V shared memory, message queues,
/// semaphores; POSIX message queues): each is refused, so no run can leave state for the
/// slot's next run or talk to a run elsewhere on the host.
fn check_ipc_refused() {
    let (req, _w) = request("ipc", &[]);
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert_eq!(
        text(&o.stdout),
        "shmget:Operation not permitted\nmsgget:Operation not permitted\n\
         semget:Operation not permitted\nmq_open:Operation not permitted\n"
    );
}

/// A pathname Unix socket the program could reach by its file permissions (0777 as root;
/// the user's own 0600 socket in a 0700 folder, the ssh-agent case, as a normal user) is out
/// of reach, and nothing arrives on it.
fn check_unix_socket() {
    use std::os::unix::net::UnixListener;
    let root = common::is_root();
    let dir = world_dir("judge-sbx-sock-");
    let (dir_mode, sock_mode) = if root { (0o755, 0o777) } else { (0o700, 0o600) };
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(dir_mode)).expect("chmod");
    let path = dir.path().join("agent.sock");
    let listener = UnixListener::bind(&path).expect("bind");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(sock_mode)).expect("chmod");
    listener.set_nonblocking(true).expect("nonblocking");
    let (req, _w) = request("unix_connect", &[path.to_str().expect("utf-8 path")]);
    let o = run(req);
    let out = text(&o.stdout);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert!(out.starts_with("socket:Operation not permitted"), "{out}");
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "the program reached the socket"
    );
}

/// The program sees its own small world: no cgroups, no /etc beyond the loader's files, no
/// other processes, no host mounts; what runtimes need still works.
fn check_view() {
    let (mut req, _w) = request("view", &[]);
    req.work_dir = None;
    let o = run(req);
    let out = text(&o.stdout);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    for hidden in ["cgroups", "cgroup2", "passwd", "hostname", "run", "home"] {
        assert!(
            out.contains(&format!("{hidden}:No such file or directory")),
            "{hidden}: {out}"
        );
    }
    let procs: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("procs:"))
        .and_then(|n| n.parse().ok())
        .expect("procs line");
    assert!(procs <= 2, "{out}");
    assert!(out.contains("host-mounts:0"), "{out}");
    assert!(out.contains("ld.so.cache:visible"), "{out}");
    assert!(out.contains("devnull:ok"), "{out}");
    assert!(out.contains("tmp:writable"), "{out}");
}

/// Files a run writes in its private space are bounded by its disk quota (the output
/// limit), reported as such, and quickly.
/// Pid 1 of a run's pid namespace (the slot's init, or the run's proxy) shares judge's
/// memory: its files must show nothing of judge (command line, environment, name), so a
/// program cannot tell which command runs it or see other submissions' names.
fn check_pid1_shows_nothing_of_judge() {
    let (req, _w) = request("pid1", &[]);
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    let out = text(&o.stdout);
    let words: Vec<String> = std::env::args().filter(|a| a.len() >= 4).collect();
    assert!(!words.is_empty());
    for w in &words {
        assert!(
            !out.contains(w.as_str()),
            "judge's argument {w:?} in:\n{out}"
        );
    }
    for (k, v) in std::env::vars() {
        let pair = format!("{k}={v}");
        assert!(!out.contains(&pair), "judge's environment {k} in:\n{out}");
    }
    // Every file was there to read (a run that could not read them proves nothing).
    for file in [
        "cmdline",
        "environ",
        "mountinfo",
        "task/1/cmdline",
        "task/1/environ",
    ] {
        assert!(
            out.contains(&format!("/proc/1/{file}: \n")),
            "{file}:\n{out}"
        );
    }
    assert!(out.contains("/proc/1/comm: init\n"), "{out}");
    assert!(out.contains("/proc/1/task/1/comm: init\n"), "{out}");
    // Its executable, folders and open files are judge's: none can be followed or listed
    // (they would name judge's binary and lead to the host's file system).
    for link in ["exe", "cwd", "root", "fd/0", "root/", "cwd/"] {
        assert!(
            out.contains(&format!("/proc/1/{link}: -\n")),
            "/proc/1/{link} is readable:\n{out}"
        );
    }
}

fn check_disk_quota() {
    for target in ["big.bin", "/tmp/big.bin"] {
        let (mut req, _w) = request("diskfill", &[target, "900"]);
        req.work_dir = None;
        req.limits.output_bytes = 16 << 20;
        let t = Instant::now();
        let o = run(req);
        let out = text(&o.stdout);
        assert_eq!(o.limit_hit, Some(LimitHit::Disk), "{target}: {o:?} {out}");
        assert!(out.starts_with("wrote:1"), "{target}: {out}");
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    }
}

fn check_files() {
    let (req, work) = request("files", &[]);
    // A world-writable directory outside work_dir, and a secret readable by everyone.
    let outside = world_dir("judge-sbx-outside-");
    std::fs::set_permissions(outside.path(), std::fs::Permissions::from_mode(0o777))
        .expect("chmod");
    let secret = outside.path().join("answer.txt");
    std::fs::write(&secret, "42 is the answer").expect("write secret");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let target = outside.path().join("escaped.txt");
    let mut req = req;
    req.argv.push(target.to_string_lossy().into_owned());
    req.argv.push(secret.to_string_lossy().into_owned());
    let o = run(req);
    let out = text(&o.stdout);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert!(out.contains("inside:ok"), "{out}");
    assert_eq!(
        std::fs::read_to_string(work.path().join("inside.txt")).expect("inside file"),
        "ok"
    );
    // The run has its own file-system view: the folder does not exist there at all.
    assert!(out.contains("outside:No such file or directory"), "{out}");
    assert!(!target.exists());
    assert!(out.contains("secret:No such file or directory"), "{out}");
    assert!(!out.contains("42"), "{out}");
}

/// Pids of live processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<i32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) {
            if text(&cmd).contains(marker) {
                v.push(pid);
            }
        }
    }
    v
}

fn check_fork_bomb() {
    let marker = format!("forkbomb-marker-{}-{}", std::process::id(), rand_suffix());
    let (mut req, _w) = request("forkbomb", &[&marker]);
    req.limits.cpu_time = Duration::from_millis(500);
    req.limits.wall_time = Duration::from_secs(2);
    let t = Instant::now();
    let o = run(req);
    assert!(
        o.limit_hit.is_some() || o.termination != Termination::Exited(0),
        "{o:?}"
    );
    assert!(
        t.elapsed() < Duration::from_secs(4),
        "fork bomb took {:?}",
        t.elapsed()
    );
    let left = processes_with(&marker);
    assert!(left.is_empty(), "fork bomb processes left: {left:?}");
}

fn rand_suffix() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

// ---------------------------------------------------------------- root path (this process)

#[test]
fn hello_with_stdin_file() {
    let (mut req, w) = request("hello", &[]);
    let input = w.path().join("input.txt");
    std::fs::write(&input, "line one\n").expect("write input");
    req.stdin = Stdin::File(input);
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert_eq!(text(&o.stdout), "read:line one\nhello\n");
    assert_eq!(o.limit_hit, None);
    // Without cgroups (an ordinary user) a program that ends before the first sample of its
    // memory reports 0; with them the peak is always measured.
    assert!(o.peak_memory_kib > 0 || !sandbox().uses_cgroups(), "{o:?}");
}

#[test]
fn stdin_bytes() {
    let (mut req, _w) = request("hello", &[]);
    req.stdin = Stdin::Bytes(b"bytes\n".to_vec());
    let o = run(req);
    assert_eq!(text(&o.stdout), "read:bytes\nhello\n");
}

/// Two runs connected by a caller's pipe (how interactive problems are run): the first
/// program's stdout is the second one's stdin, and the caller keeps no copy of either end.
#[test]
fn pipe_between_two_runs() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    let (mut first, _w1) = request("hello", &[]);
    first.stdout = Stdout::Pipe(HandOver::new(writer));
    let (mut second, _w2) = request("hello", &[]);
    second.stdin = Stdin::Pipe(HandOver::new(reader));
    let again = first.clone();
    let a = std::thread::spawn(move || run(first));
    let b = run(second);
    let a = a.join().expect("writer thread");
    assert_eq!(a.termination, Termination::Exited(0), "{a:?}");
    assert!(a.stdout.is_empty(), "piped stdout is not captured");
    assert_eq!(text(&b.stdout), "read:hello\nhello\n");
    // The fd was handed over once; a second run of the same request cannot have it.
    assert!(sandbox().run(&again).is_err());
}

#[test]
fn a_run_stopped_by_its_handle_ends_at_once() {
    // The harness's way to end a run whose verdict is already decided (an interactive
    // validator that rejected first): the program sleeps for a long time; stopped after
    // 200 ms, it ends then, marked as stopped rather than by a limit of its own.
    let (mut req, _w) = request("sleep", &[]);
    let stop = StopHandle::new();
    req.stop = Some(stop.clone());
    let t = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.stop();
    });
    let o = run(req);
    stopper.join().unwrap();
    assert_eq!(o.limit_hit, Some(LimitHit::Stopped), "{o:?}");
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn exit_code() {
    check_exit_code();
}

#[test]
fn cpu_time_limit() {
    check_cpu_limit();
}

#[test]
fn wall_time_limit() {
    check_wall_limit();
}

#[test]
fn memory_limit() {
    check_memory_limit();
}

#[test]
fn segfault_is_sigsegv() {
    let (req, _w) = request("segv", &[]);
    let o = run(req);
    assert_eq!(o.termination, Termination::Signaled(libc::SIGSEGV), "{o:?}");
    assert_eq!(o.limit_hit, None);
}

#[test]
fn abort_is_sigabrt() {
    let (req, _w) = request("abort", &[]);
    let o = run(req);
    assert_eq!(o.termination, Termination::Signaled(libc::SIGABRT), "{o:?}");
    assert_eq!(o.limit_hit, None);
}

#[test]
fn stack_overflow_is_a_signal() {
    let (req, _w) = request("recurse", &[]);
    let o = run(req);
    assert!(matches!(o.termination, Termination::Signaled(_)), "{o:?}");
}

#[test]
fn endless_output_hits_output_limit() {
    let (mut req, _w) = request("spam", &[]);
    req.limits.output_bytes = 100_000;
    let o = run(req);
    assert_eq!(o.limit_hit, Some(LimitHit::Output), "{o:?}");
    assert_eq!(o.stdout.len(), 100_000);
}

#[test]
fn large_stderr_is_truncated() {
    let (mut req, _w) = request("bigstderr", &[]);
    req.limits.stderr_bytes = 1000;
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    assert_eq!(o.limit_hit, None);
    assert_eq!(o.stderr.len(), 1000);
    assert_eq!(text(&o.stdout), "done\n");
}

#[test]
fn fork_bomb_is_contained() {
    check_fork_bomb();
}

#[test]
fn network_is_blocked() {
    check_network_blocked();
}

#[test]
fn ipc_objects_that_outlive_a_run_are_refused() {
    check_ipc_refused();
}

#[test]
fn files_outside_work_dir_are_off_limits() {
    check_files();
}

#[test]
fn unix_sockets_are_out_of_reach() {
    check_unix_socket();
}

#[test]
fn the_program_sees_only_its_own_file_system_view() {
    check_view();
}

#[test]
fn files_written_are_bounded_by_the_disk_quota() {
    check_disk_quota();
}

#[test]
fn background_child_is_killed() {
    let (req0, w) = request("orphan", &[]);
    let marker = w.path().join("marker");
    let mut req = req0;
    req.argv.push(marker.to_string_lossy().into_owned());
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    std::thread::sleep(Duration::from_millis(1200));
    assert!(!marker.exists(), "a process of the run outlived it");
}

#[test]
fn pid_1_of_a_run_shows_nothing_of_judge() {
    check_pid1_shows_nothing_of_judge();
}

#[test]
fn the_kernels_cpu_backstop_is_a_time_limit_never_a_crash() {
    // `tickcharge` is charged whole scheduler ticks for the little it runs across each, so
    // the kernel's count (RLIMIT_CPU's) runs ~10x ahead of judge's, as stolen time on a busy
    // virtual machine makes it do (a 40 s CPython run was ended at 38.8 s by judge's count
    // and reported "RE: killed by SIGKILL"). The backstop ends it far under its limit by
    // judge's count: a TLE that says so, never a crash.
    let (mut req, _w) = request("tickcharge", &[]);
    req.limits.cpu_time = Duration::from_millis(500);
    // It sleeps most of the time: room for that on a busy machine, where its wake-ups come
    // late (then it is charged less, and may reach judge's limit first).
    req.limits.wall_time = Duration::from_secs(25);
    let limits = req.limits.clone();
    let o = run(req);
    assert_eq!(o.limit_hit, Some(LimitHit::CpuTime), "{o:?}");
    let (verdict, message) =
        judge::verdict::decide(&o, &limits, &[], |_| panic!("checker must not run"));
    assert_eq!(verdict, judge::verdict::Verdict::TLE, "{message}");
    if o.cpu_time < limits.cpu_time {
        assert_eq!(o.termination, Termination::Signaled(libc::SIGXCPU), "{o:?}");
        assert!(
            message.starts_with("stopped by the kernel's CPU-time backstop (SIGXCPU)"),
            "{message}"
        );
    }
}

#[test]
fn cpu_time_is_accurate() {
    let (mut req, _w) = request("cpuclock", &[]);
    req.limits.cpu_time = Duration::from_secs(2);
    let o = run(req);
    assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
    let ns: u64 = text(&o.stdout).trim().parse().expect("cpu ns");
    let printed = Duration::from_nanos(ns).as_secs_f64();
    let reported = o.cpu_time.as_secs_f64();
    assert!(
        (reported - printed).abs() <= 0.05 * printed,
        "reported {reported} vs printed {printed}"
    );
}

#[test]
fn threads_work() {
    let (req, _w) = request("threads", &[]);
    let o = run(req);
    assert_eq!(text(&o.stdout), "threads ok\n", "{o:?}");
}

#[test]
fn missing_program_is_a_spawn_error() {
    let (mut req, _w) = request("true", &[]);
    req.argv[0] = "/nonexistent/program".into();
    match sandbox().run(&req) {
        Err(judge::sandbox::SandboxError::Spawn { program, message }) => {
            assert_eq!(program, "/nonexistent/program");
            assert!(message.contains("execve"), "{message}");
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
}

#[test]
fn concurrent_runs() {
    let f = fixture();
    let _ = f;
    let hs: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(|| {
                for _ in 0..20 {
                    let (req, _w) = request("hello", &[]);
                    let o = run(req);
                    assert_eq!(text(&o.stdout), "hello\n");
                }
            })
        })
        .collect();
    for h in hs {
        h.join().expect("thread");
    }
}

#[test]
fn python_runs() {
    let (mut req, _w) = request("true", &[]);
    req.argv = vec![
        "/usr/bin/python3".into(),
        "-c".into(),
        "import sys, json; print(sum(range(10**6)), json.dumps([1,2]))".into(),
    ];
    req.limits.memory_bytes = 256 << 20;
    req.limits.cpu_time = Duration::from_secs(5);
    req.limits.wall_time = Duration::from_secs(10);
    let o = run(req);
    assert_eq!(
        o.termination,
        Termination::Exited(0),
        "{o:?} {}",
        text(&o.stderr)
    );
    assert_eq!(text(&o.stdout), "499999500000 [1, 2]\n");
}

#[test]
fn java_runs() {
    if !common::require_root("the sandbox's root path") {
        return;
    }
    let Some(java_home) = common::java_home() else {
        common::require(false, "needs a JDK (`java` and `javac` on PATH)");
        return;
    };
    let java = java_home.join("bin/java");
    let src = world_dir("judge-sbx-java-");
    std::fs::write(
        src.path().join("Main.java"),
        "public class Main { public static void main(String[] a) { long s = 0; for (int i = 0; i < 1000000; i++) s += i; System.out.println(\"sum \" + s); } }",
    )
    .expect("write java");
    let st = std::process::Command::new(java_home.join("bin/javac"))
        .arg("Main.java")
        .current_dir(src.path())
        .status()
        .expect("javac");
    assert!(st.success());
    std::fs::set_permissions(
        src.path().join("Main.class"),
        std::fs::Permissions::from_mode(0o644),
    )
    .expect("chmod");
    let (mut req, _w) = request("true", &[]);
    req.argv = [
        java.to_str().expect("a UTF-8 java path"),
        "-Xmx200m",
        "-Xss64m",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-XX:-UsePerfData",
        "-cp",
        &src.path().to_string_lossy(),
        "Main",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    req.read_only.push(src.path().to_path_buf());
    req.read_only.push(java_home.clone());
    req.limits.memory_bytes = 256 << 20;
    req.limits.cpu_time = Duration::from_secs(5);
    req.limits.wall_time = Duration::from_secs(10);
    req.limits.processes = 64;
    let o = run(req);
    assert_eq!(
        o.termination,
        Termination::Exited(0),
        "{o:?} {}",
        text(&o.stderr)
    );
    assert_eq!(text(&o.stdout), "sum 499999500000\n");
}

#[test]
fn root_path_uses_cgroups_and_no_warning() {
    if !common::require_root("the sandbox's root path") {
        return;
    }
    let cgroups = sandbox().uses_cgroups();
    if common::require(cgroups, "the root path uses no cgroups on this host") {
        assert_eq!(sandbox().warning(), None);
        // Runs go through the slots' long-lived processes, not a proxy each.
        let sb = LinuxSandbox::new(1).expect("sandbox setup");
        let (req, _w) = request("hello", &[]);
        let o = run_on(&sb, &req);
        assert_eq!(text(&o.stdout), "hello\n");
        assert!(sb.uses_slot_processes(), "a proxy per run");
    }
}

/// A slot's memory cgroup holding more than a few MiB after a run is emptied, which evicts
/// what it holds; the files a run reads from the host are read by the harness first, so that
/// they are not charged to the slot: a large program is not thrown out of memory and read
/// again from disk (counted as its CPU time) at every run.
#[test]
fn a_large_program_is_not_evicted_from_memory_after_every_run() {
    if !common::require_root("the sandbox's root path") {
        return;
    }
    let sb = LinuxSandbox::new(1).expect("sandbox setup");
    if !common::require(
        sb.uses_cgroups(),
        "the root path uses no cgroups on this host",
    ) {
        return;
    }
    // Out of the page cache, as after a reboot or memory pressure: whoever reads the pages
    // first is charged for them.
    let bin = std::fs::File::open(&fixture().bins["bigdata"]).unwrap();
    bin.sync_all().unwrap();
    // SAFETY: `bin` is open for the whole call; the advice drops clean cached pages of the
    // file and touches no memory of ours.
    let r = unsafe { libc::posix_fadvise(bin.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    assert_eq!(r, 0);
    for _ in 0..2 {
        let (req, _w) = request("bigdata", &[]);
        let o = run_on(&sb, &req);
        assert_eq!(text(&o.stdout), "1\n", "{o:?}");
    }
    assert_eq!(sb.memory_emptied(), 0, "the slot's memory was emptied");
}

// ---------------------------------------------------------------- unprivileged path

/// Re-runs `unprivileged_inner` from a copy of this binary as uid 65534.
#[test]
fn unprivileged_path() {
    if std::env::var(UNPRIV_ENV).is_ok() {
        // This is the copy running as an ordinary user: only `unprivileged_inner` runs here.
        return;
    }
    if !common::require_root("switches to uid 65534")
        || !common::require(
            Path::new("/usr/bin/setpriv").exists(),
            "needs /usr/bin/setpriv (util-linux)",
        )
    {
        return;
    }
    let f = fixture();
    let dir = world_dir("judge-sbx-unpriv-");
    for (name, path) in &f.bins {
        let to = dir.path().join(name);
        std::fs::copy(path, &to).expect("copy program");
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let me = std::env::current_exe().expect("current_exe");
    let copy = dir.path().join("sandbox-tests");
    std::fs::copy(&me, &copy).expect("copy test binary");
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = Arc::new(std::sync::Mutex::new(None));
    let out2 = out.clone();
    let d = dir.path().to_path_buf();
    let h = std::thread::spawn(move || {
        // Another test thread that forks while the copy above is open for writing holds it
        // open until its child execs, and exec then fails with ETXTBSY: try again shortly.
        let run = || {
            std::process::Command::new("timeout")
                .args([
                    "60",
                    "/usr/bin/setpriv",
                    "--reuid=65534",
                    "--regid=65534",
                    "--clear-groups",
                ])
                .arg(&copy)
                .args(["--exact", &inner_test_name("unprivileged_inner")])
                .args(["--include-ignored", "--nocapture", "--test-threads=1"])
                .env(UNPRIV_ENV, &d)
                .env("HOME", "/tmp")
                .env_remove("CARGO_TARGET_DIR")
                .current_dir("/tmp")
                .output()
                .expect("run setpriv")
        };
        let mut o = run();
        for _ in 0..10 {
            if !String::from_utf8_lossy(&o.stderr).contains("Text file busy") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
            o = run();
        }
        *out2.lock().expect("lock") = Some(o);
    });
    h.join().expect("inner thread");
    let o = out.lock().expect("lock").take().expect("output");
    let stdout = text(&o.stdout);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "inner test failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("unprivileged checks passed"),
        "inner test did not run:\n{stdout}\n{stderr}"
    );
}

/// `unprivileged_inner` as the test harness names it: its module path without the crate
/// (`sandbox::unprivileged_inner` in the one integration test binary).
/// The name the test harness knows the test `name` of this file by (`sandbox::name` in the
/// one integration test binary), for `--exact`.
fn inner_test_name(name: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.into(),
    }
}

#[test]
#[ignore = "run as an ordinary user by `unprivileged_path`"]
fn unprivileged_inner() {
    if std::env::var(UNPRIV_ENV).is_err() {
        return;
    }
    assert!(!common::is_root(), "must run as an ordinary user");
    let w = sandbox()
        .warning()
        .expect("a warning about missing mechanisms");
    assert!(w.contains("not root") && w.contains("no cgroups"), "{w}");
    check_exit_code();
    check_cpu_limit();
    check_wall_limit();
    check_memory_limit();
    check_network_blocked();
    check_files();
    check_fork_bomb();
    check_unix_socket();
    check_ipc_refused();
    check_view();
    check_disk_quota();
    check_pid1_shows_nothing_of_judge();
    let (req, _w) = request("hello", &[]);
    assert_eq!(text(&run(req).stdout), "hello\n");
    println!("unprivileged checks passed");
}

/// Runs of one slot share its prebuilt file-system base: nothing a run writes (scratch
/// files, new folders) is there for the next, and the base itself is read-only to programs.
#[test]
fn a_run_finds_nothing_an_earlier_run_of_its_slot_left() {
    let sb = LinuxSandbox::new(1).expect("sandbox setup");
    if !sb.has_fs_view() {
        assert!(std::env::var_os("CI").is_none(), "no file-system view here");
        return;
    }
    // The last run also makes its working directory unusable (it owns it): the next run
    // of the slot must get a fresh one.
    let script = "ls -A /tmp /box; echo x > /tmp/left; echo x > /box/left; \
                  mkdir /newdir 2>&1; mkdir /usr/newdir 2>&1; echo done; chmod 0 /box";
    for round in 0..3 {
        let (mut req, _w) = request("view", &[]);
        req.argv = vec!["/bin/sh".into(), "-c".into(), script.into()];
        req.work_dir = None;
        let o = run_on(&sb, &req);
        let out = text(&o.stdout);
        assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
        assert!(out.ends_with("done\n"), "round {round}: {out}");
        assert!(
            !out.contains("left"),
            "round {round}: a file survived: {out}"
        );
        assert_eq!(
            out.matches("Read-only file system").count(),
            2,
            "round {round}: {out}"
        );
    }
}

/// Children of this test binary (a harness) that stay zombies: never reaped. The other tests
/// of this process start programs too, each a zombie for the moment between its exit and
/// its `wait`, so only the zombies still there after two seconds count.
fn unreaped_children() -> Vec<i32> {
    let mut left = own_zombies();
    let deadline = Instant::now() + Duration::from_secs(2);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        let now = own_zombies();
        left.retain(|p| now.contains(p));
    }
    left
}

/// Children of this test binary that are zombies now.
fn own_zombies() -> Vec<i32> {
    let me = std::process::id();
    let mut v = Vec::new();
    for t in std::fs::read_dir(format!("/proc/{me}/task"))
        .expect("task dir")
        .flatten()
    {
        let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        for pid in children
            .split_whitespace()
            .filter_map(|p| p.parse::<i32>().ok())
        {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next());
            if state == Some("Z") {
                v.push(pid);
            }
        }
    }
    v
}

/// A program can make a process whose parent is its own parent (`clone(CLONE_PARENT)`):
/// it is ended with the run like any other, nothing is left unreaped, and the slot's
/// process limit is not used up by it.
#[test]
fn a_sibling_made_with_clone_parent_ends_with_the_run() {
    let sb = LinuxSandbox::new(1).expect("sandbox setup");
    for round in 0..20 {
        let (req0, w) = request("sibling", &[]);
        let marker = w.path().join("marker");
        let mut req = req0;
        req.argv.push(marker.to_string_lossy().into_owned());
        let o = run_on(&sb, &req);
        assert_eq!(o.termination, Termination::Exited(0), "{o:?}");
        assert_eq!(text(&o.stdout), "sibling started\n", "round {round}: {o:?}");
        if round == 0 {
            std::thread::sleep(Duration::from_millis(1000));
            assert!(!marker.exists(), "the sibling outlived the run");
        }
    }
    // A run limited to one process cannot make one either.
    let (mut req, w) = request("sibling", &[]);
    req.argv
        .push(w.path().join("m").to_string_lossy().into_owned());
    req.limits.processes = 1;
    let o = run(req);
    assert!(text(&o.stdout).starts_with("clone failed"), "{o:?}");
    if common::is_root() && sb.uses_cgroups() {
        assert_eq!(unreaped_children(), Vec::<i32>::new(), "unreaped processes");
    }
}

/// Runs of one slot with different read-only folders: the second does not see the first's.
#[test]
fn a_run_sees_only_its_own_read_only_folders() {
    let sb = LinuxSandbox::new(1).expect("sandbox setup");
    if !sb.has_fs_view() {
        assert!(std::env::var_os("CI").is_none(), "no file-system view here");
        return;
    }
    let a = world_dir("judge-sbx-ro-a-");
    let b = world_dir("judge-sbx-ro-b-");
    for d in [&a, &b] {
        std::fs::write(d.path().join("file"), "here").expect("write");
        std::fs::set_permissions(
            d.path().join("file"),
            std::fs::Permissions::from_mode(0o644),
        )
        .expect("chmod");
    }
    let script = format!(
        "cat {}/file 2>&1; echo; cat {}/file 2>&1; echo",
        a.path().display(),
        b.path().display()
    );
    for (round, (mine, other)) in [(&a, &b), (&b, &a), (&a, &b)].into_iter().enumerate() {
        let (mut req, _w) = request("view", &[]);
        req.argv = vec!["/bin/sh".into(), "-c".into(), script.clone()];
        req.read_only.push(mine.path().to_path_buf());
        let o = run_on(&sb, &req);
        let out = text(&o.stdout);
        assert_eq!(out.matches("here").count(), 1, "round {round}: {out}");
        assert!(out.contains("No such file"), "round {round}: {out}");
        let _ = other;
    }
}

/// A judge killed (SIGKILL) in the middle of a run leaves nothing running: not the program,
/// not the slot's processes.
#[test]
fn a_killed_harness_leaves_nothing_running() {
    if std::env::var(KILLED_ENV).is_ok() {
        return;
    }
    let f = fixture();
    let marker = format!("killed-harness-{}-{}", std::process::id(), rand_suffix());
    let me = std::env::current_exe().expect("current_exe");
    let mut child = std::process::Command::new("timeout")
        .arg("60")
        .arg(&me)
        .args(["--exact", &inner_test_name("killed_harness_inner")])
        .args(["--include-ignored", "--nocapture", "--test-threads=1"])
        .env(KILLED_ENV, &f.dir)
        .env("JUDGE_SANDBOX_KILLED_MARKER", &marker)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the inner judge");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let judge_pid = loop {
        match lines.next() {
            Some(Ok(l)) => {
                // After the test harness's "test killed_harness_inner ... ".
                if let Some(i) = l.find("running as ") {
                    break l[i + 11..].trim().parse::<i32>().expect("pid");
                }
            }
            _ => panic!("the inner judge did not start its run"),
        }
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while processes_with(&marker).is_empty() {
        assert!(Instant::now() < deadline, "the program never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: killing the judge we started.
    unsafe { libc::kill(judge_pid, libc::SIGKILL) };
    let _ = child.wait();
    // The slot's processes share the judge's memory, so they show its command line.
    let me_text = me.to_string_lossy().into_owned();
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left: Vec<i32> = processes_with(&marker)
            .into_iter()
            .chain(processes_with(&me_text).into_iter().filter(|p| {
                std::fs::read_to_string(format!("/proc/{p}/environ"))
                    .is_ok_and(|e| e.contains(&marker))
            }))
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "left running: {left:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
#[ignore = "run and killed by `a_killed_harness_leaves_nothing_running`"]
fn killed_harness_inner() {
    let Ok(marker) = std::env::var("JUDGE_SANDBOX_KILLED_MARKER") else {
        return;
    };
    let (req, _w) = request("sleep", &[&marker]);
    println!("running as {}", std::process::id());
    let _ = sandbox().run(&req);
}

/// The slot's spawner sits in the slot's memory cgroup exempt from the OOM killer; neither
/// the program nor the harness (whose memory the spawner shares) is exempt.
#[test]
fn the_program_and_the_harness_keep_their_oom_score() {
    let before = std::fs::read_to_string("/proc/self/oom_score_adj").expect("own score");
    let (mut req, _w) = request("view", &[]);
    req.argv = vec![
        "/bin/sh".into(),
        "-c".into(),
        "cat /proc/self/oom_score_adj".into(),
    ];
    let o = run(req);
    assert_eq!(text(&o.stdout), "0\n", "{o:?}");
    let after = std::fs::read_to_string("/proc/self/oom_score_adj").expect("own score");
    assert_eq!(before, after);
}

/// The slot's long-lived processes killed by someone between runs: the next run gets new
/// ones and its verdict.
#[test]
fn a_slot_whose_processes_were_killed_gets_new_ones() {
    if !common::require_root("slot processes exist on the root path") {
        return;
    }
    let sb = LinuxSandbox::new(1).expect("sandbox setup");
    let hello = || {
        let (req, _w) = request("hello", &[]);
        let o = run_on(&sb, &req);
        assert_eq!(text(&o.stdout), "hello\n", "{o:?}");
    };
    hello();
    if !sb.uses_slot_processes() {
        assert!(
            std::env::var_os("CI").is_none() || !sb.uses_cgroups(),
            "no slot processes"
        );
        return;
    }
    for which in [0, 1] {
        let before = sb.slot_process_pids();
        let (init, spawner) = before[0];
        let victim = if which == 0 { init } else { spawner };
        // SAFETY: killing a process of this test's own sandbox.
        unsafe { libc::kill(victim, libc::SIGKILL) };
        std::thread::sleep(Duration::from_millis(100));
        hello();
        let after = sb.slot_process_pids();
        assert_ne!(after, before, "the slot kept its killed processes");
    }
}
