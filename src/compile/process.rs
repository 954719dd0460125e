//! Running a (trusted) compiler under a CPU-time limit, rlimits and an output cap.
//!
//! The limit counts the CPU time of the compiler's process group (every process below the
//! compiler, with what they reaped), polled every [`POLL`], so a busy machine, where a
//! compiler waits for a CPU, never turns into a compile error. A wall-clock backstop ends a
//! compiler that does not run: [`BACKSTOP_FACTOR`] times the limit of wall time less the
//! time its processes waited for a CPU (their scheduler run delay, as a run's backstop
//! counts it), or [`OVERLOAD_FACTOR`] times the limit of wall time in all, however much of
//! it was waiting. That is [`Exit::Stalled`]: the machine's or the compiler's fault, never
//! the submission's.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// How the compiler ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    Code(i32),
    Signal(i32),
    /// Killed (with its whole process group) past its CPU-time limit.
    TimedOut,
    /// Killed (with its whole process group) at the wall-clock backstop, its CPU time still
    /// under the limit: the machine was too busy to give it the CPU, or it hung.
    Stalled,
    /// Killed (with its whole process group) because judge was asked to stop by this signal
    /// (see [`crate::interrupt`]).
    Interrupted(i32),
}

#[derive(Debug)]
pub(crate) struct Finished {
    pub exit: Exit,
    /// stdout then stderr, each capped; a note is appended where output was dropped.
    pub output: Vec<u8>,
    pub wall: Duration,
    /// CPU time of the process group as last polled (zero for a compiler that ended before
    /// the first poll).
    pub cpu: Duration,
}

impl Finished {
    /// The one line for a compiler `program` under CPU limit `limit` that ended as
    /// [`Exit::Stalled`].
    pub fn stalled(&self, program: &str, limit: Duration) -> String {
        let s = |d: Duration| format!("{:.1} s", d.as_secs_f64());
        format!(
            "compiler `{program}` stopped after {} of wall time having used only {} of CPU \
             time (the compile limit is {} of CPU time): the machine is too busy, or the \
             compiler hung; not a compile error of the submission",
            s(self.wall),
            s(self.cpu),
            s(limit)
        )
    }
}

/// How often the compiler's CPU time (and an interruption) is looked at.
const POLL: Duration = Duration::from_millis(50);
/// The backstop for wall time not spent waiting for a CPU, as a multiple of the CPU limit.
pub(crate) const BACKSTOP_FACTOR: u32 = 10;
/// The backstop for wall time in all, as a multiple of the CPU limit.
pub(crate) const OVERLOAD_FACTOR: u32 = 100;

/// CPU time of process `pid` and every process below it (each with the children it
/// reaped), and the time their live threads waited for a CPU.
#[cfg(target_os = "linux")]
fn measure(pid: i32, _elapsed: Duration) -> (Duration, Duration) {
    use crate::sandbox::linux::procfs;
    let mut pids = vec![pid];
    pids.extend(procfs::descendants(pid, 4096));
    let (mut cpu, mut waited) = (Duration::ZERO, Duration::ZERO);
    for p in pids {
        cpu += procfs::sample(p).map_or(Duration::ZERO, |s| s.cpu);
        waited += procfs::process_schedstat(p).wait;
    }
    (cpu, waited)
}

/// Without `/proc`: the wall time, as before CPU time was measured.
#[cfg(not(target_os = "linux"))]
fn measure(_pid: i32, elapsed: Duration) -> (Duration, Duration) {
    (elapsed, Duration::ZERO)
}

/// rlimits applied in the child before `exec`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rlimits {
    pub address_space: Option<u64>,
    pub file_size: u64,
}

/// Runs `argv` (argv[0] a resolved path) in `cwd` with judge's environment plus `env`, stdin
/// from /dev/null, in its own process group, for at most `cpu_limit` of CPU time (and the
/// wall-clock backstops of the module documentation). Each of stdout and stderr keeps at most
/// `output_cap` bytes; both are drained concurrently so a chatty compiler never blocks.
///
/// The group is in the background of the terminal, so a Ctrl-C does not reach it: the wait
/// polls [`crate::interrupt::requested`] and kills the whole group when judge must stop.
pub(crate) fn run(
    argv: &[String],
    cwd: &Path,
    env: &BTreeMap<String, String>,
    cpu_limit: Duration,
    rlimits: Rlimits,
    output_cap: usize,
) -> io::Result<Finished> {
    let Some((program, args)) = argv.split_first() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty argv"));
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .envs(env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: the closure only calls setrlimit and sigprocmask, which are async-signal-safe,
    // and touches no memory shared with the parent besides the copied-in `rlimits`.
    unsafe {
        cmd.pre_exec(move || {
            // judge blocks SIGINT and SIGTERM in its threads (see `crate::interrupt`); the
            // compiler starts with none blocked.
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            if libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
            set_rlimit(libc::RLIMIT_CORE, 0)?;
            set_rlimit(libc::RLIMIT_FSIZE, rlimits.file_size)?;
            if let Some(bytes) = rlimits.address_space {
                set_rlimit(libc::RLIMIT_AS, bytes)?;
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let (tx, rx) = mpsc::channel();
    let mut readers = 0;
    if let Some(out) = child.stdout.take() {
        spawn_drain(0, out, output_cap, tx.clone());
        readers += 1;
    }
    if let Some(err) = child.stderr.take() {
        spawn_drain(1, err, output_cap, tx);
        readers += 1;
    }

    let pgid = child.id() as libc::pid_t;
    let backstop = cpu_limit.saturating_mul(BACKSTOP_FACTOR);
    let overload = cpu_limit.saturating_mul(OVERLOAD_FACTOR);
    let mut stopped = None;
    let (mut cpu, mut waited) = (Duration::ZERO, Duration::ZERO);
    let status = loop {
        // Wake up every POLL to measure the CPU time and notice an interruption.
        if let Some(status) = child.wait_timeout(POLL)? {
            break Some(status);
        }
        let elapsed = start.elapsed();
        let (c, w) = measure(pgid, elapsed);
        // A process that ended took its waits along: keep the most seen.
        (cpu, waited) = (cpu.max(c), waited.max(w));
        if let Some(signal) = crate::interrupt::requested() {
            stopped = Some(Exit::Interrupted(signal));
        } else if cpu > cpu_limit {
            stopped = Some(Exit::TimedOut);
        } else if elapsed.saturating_sub(waited) >= backstop || elapsed >= overload {
            stopped = Some(Exit::Stalled);
        } else {
            continue;
        }
        kill_group(pgid);
        child.wait()?;
        break None;
    };
    // Helpers the compiler left behind (and that may hold our pipes open) go too.
    kill_group(pgid);
    let wall = start.elapsed();

    let mut streams: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let deadline = Instant::now() + Duration::from_secs(2);
    for _ in 0..readers {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((index, bytes)) => streams[index] = bytes,
            Err(_) => break, // a detached grandchild still holds a pipe: keep what we have
        }
    }
    let [mut output, stderr] = streams;
    if !output.is_empty() && !output.ends_with(b"\n") && !stderr.is_empty() {
        output.push(b'\n');
    }
    output.extend_from_slice(&stderr);

    let exit = match status {
        None => stopped.unwrap_or(Exit::TimedOut),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(sig)) => Exit::Signal(sig),
            (None, None) => Exit::Code(-1),
        },
    };
    Ok(Finished {
        exit,
        output,
        wall,
        cpu,
    })
}

#[cfg(target_env = "gnu")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
type Resource = libc::c_int;

fn set_rlimit(resource: Resource, value: u64) -> io::Result<()> {
    let lim = libc::rlimit {
        rlim_cur: value as libc::rlim_t,
        rlim_max: value as libc::rlim_t,
    };
    // SAFETY: plain syscall with a valid pointer to a local struct.
    if unsafe { libc::setrlimit(resource, &lim) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn kill_group(pgid: libc::pid_t) {
    if pgid > 0 {
        // SAFETY: signalling our own child's process group; ESRCH (already gone) is fine.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

fn spawn_drain(
    index: usize,
    mut pipe: impl Read + Send + 'static,
    cap: usize,
    tx: mpsc::Sender<(usize, Vec<u8>)>,
) {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut dropped: u64 = 0;
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    let take = room.min(n);
                    kept.extend_from_slice(&buf[..take]);
                    dropped += (n - take) as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        if dropped > 0 {
            kept.extend_from_slice(
                format!(
                    "\n... ({} of output dropped)\n",
                    crate::text::count(dropped, "more byte")
                )
                .as_bytes(),
            );
        }
        let _ = tx.send((index, kept));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, wall: Duration, cap: usize) -> Finished {
        let argv = ["/bin/sh", "-c", script].map(String::from);
        let rl = Rlimits {
            address_space: None,
            file_size: 1 << 20,
        };
        run(&argv, Path::new("/"), &BTreeMap::new(), wall, rl, cap).unwrap()
    }

    #[test]
    fn captures_both_streams_and_exit_code() {
        let f = sh(
            "echo out; echo err >&2; exit 3",
            Duration::from_secs(10),
            1000,
        );
        assert_eq!(f.exit, Exit::Code(3));
        assert_eq!(String::from_utf8_lossy(&f.output), "out\nerr\n");
    }

    #[test]
    fn output_is_capped_but_drained() {
        // 1 MB on each stream would deadlock an undrained pipe.
        let f = sh(
            "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2",
            Duration::from_secs(10),
            100,
        );
        assert_eq!(f.exit, Exit::Code(0));
        let text = String::from_utf8_lossy(&f.output);
        assert!(
            text.contains("999900 more bytes of output dropped"),
            "{text}"
        );
        assert!(f.output.len() < 400);
    }

    #[test]
    fn the_backstop_kills_the_whole_group_of_a_compiler_that_does_not_run() {
        let start = Instant::now();
        // The background sleep holds stdout open; killing only the shell would hang the drain.
        let f = sh("sleep 30 & sleep 30", Duration::from_millis(300), 100);
        assert_eq!(f.exit, Exit::Stalled);
        assert!(f.cpu < Duration::from_millis(300), "{:?}", f.cpu);
        assert!(f.wall >= Duration::from_secs(3), "{:?}", f.wall);
        assert!(start.elapsed() < Duration::from_secs(8));
    }

    #[test]
    fn cpu_time_of_the_group_past_the_limit_is_a_timeout() {
        // The burning child is the shell's: counted while it runs.
        let f = sh(
            "sh -c 'while :; do :; done' & wait",
            Duration::from_millis(300),
            100,
        );
        assert_eq!(f.exit, Exit::TimedOut);
        assert!(f.cpu > Duration::from_millis(300), "{:?}", f.cpu);
    }

    #[test]
    fn the_compiler_starts_with_no_signal_blocked() {
        // As judge's threads have after `interrupt::install`.
        // SAFETY: initialising a local set and blocking two signals in this thread only.
        let set = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            set
        };
        let f = sh(
            "grep SigBlk /proc/self/status",
            Duration::from_secs(10),
            1000,
        );
        // SAFETY: undoing the block above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
        assert_eq!(
            String::from_utf8_lossy(&f.output).trim(),
            "SigBlk:\t0000000000000000"
        );
    }

    #[test]
    fn file_size_limit_applies() {
        let dir = tempfile::tempdir().unwrap();
        let script = format!("head -c 2000000 /dev/zero > {}/big", dir.path().display());
        let f = sh(&script, Duration::from_secs(10), 1000);
        assert_ne!(f.exit, Exit::Code(0));
        let size = std::fs::metadata(dir.path().join("big")).unwrap().len();
        assert!(size <= 1 << 20, "{size}");
    }
}
