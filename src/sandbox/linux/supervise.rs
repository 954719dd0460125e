//! Supervising one run: collect stdout/stderr, enforce the CPU, memory, output and wall
//! limits, and reap the proxy.
//!
//! # Time limits that do not depend on the machine's load
//!
//! CPU time is what the program used, whatever else runs beside it. The wall-clock backstop
//! exists only to stop programs that do *not* run (sleeping, blocked on I/O, stopped); time a
//! program spent runnable but waiting for a CPU (the scheduler's run delay of every thread of
//! the run, `/proc/<tid>/schedstat`) is added to its deadline. So the backstop fires when
//! `wall - waiting > wall limit`. A program that keeps being starved past
//! [`Deadline::overload_bound`] is stopped and reported as [`LimitHit::Overloaded`]: a judge
//! error about the machine, never a contestant verdict.
//!
//! The run delay is only read when the plain deadline passes or a limit fires, so a run that
//! ends in time costs nothing extra.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use super::procfs::{self, SchedStat};
use super::sys;
use crate::sandbox::{LimitHit, Limits, RunRequest, SandboxError};

/// How often CPU time (and, without cgroups, memory) is checked.
pub const POLL_INTERVAL: Duration = Duration::from_millis(10);
/// After the run ended, how long to wait for the pipes to reach EOF.
const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// The most processes whose scheduler figures are summed for one run.
pub const MAX_TASKS_SCANNED: usize = 4096;

/// What the supervisor can ask about the run while it goes on.
pub trait Probe {
    /// CPU time of every process of the run so far, if the mechanism measures it live.
    fn cpu(&mut self) -> Option<Duration>;
    /// A sample of the program itself, for paths without cgroups. `None` when not polling
    /// (or not known yet).
    fn poll_process(&mut self) -> Option<procfs::ProcSample>;
    /// Every process of the run (pids in the harness's pid namespace).
    fn processes(&self) -> Vec<i32>;
    /// Forks refused at the process limit so far, where the mechanism counts them (0
    /// otherwise).
    fn forks_refused(&mut self) -> u64;
    /// The process supervised has been reaped: end whatever else of the run is left, before
    /// the pipes are drained (a process left behind could hold them open).
    fn ended(&mut self) {}
}

/// Times measured by the scheduler for every process of the run, at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadSample {
    /// When the sample was taken, since the start of the run.
    pub at: Duration,
    pub sched: SchedStat,
}

/// Sums the scheduler figures of every thread of the processes `pids`.
pub fn sample_load(pids: Vec<i32>, since: Instant) -> LoadSample {
    let sched = pids
        .into_iter()
        .take(MAX_TASKS_SCANNED)
        .map(procfs::process_schedstat)
        .fold(SchedStat::default(), |a, b| a + b);
    LoadSample {
        at: since.elapsed(),
        sched,
    }
}

/// The wall-clock rule of a run (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    /// The backstop for time not spent running: `Limits::wall_time`.
    pub backstop: Duration,
    /// Past this much wall time a run that is still mostly waiting for a CPU is stopped as
    /// [`LimitHit::Overloaded`].
    pub overload_bound: Duration,
}

/// What the wall-clock rule says at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallCheck {
    /// Fine until this much wall time has passed (then look again).
    Until(Duration),
    /// Not running (sleeping, blocked) for longer than the backstop: TLE.
    Exceeded,
    /// Starved by the machine past the bound: a judge error.
    Overloaded,
}

impl Deadline {
    pub fn new(limits: &Limits) -> Deadline {
        let backstop = limits.wall_time;
        Deadline {
            backstop,
            overload_bound: (limits.cpu_time * 10).max(backstop * 2),
        }
    }

    /// Judges `wall` of elapsed time of which `waiting` was spent waiting for a CPU.
    pub fn check(&self, wall: Duration, waiting: Duration) -> WallCheck {
        let own = wall.saturating_sub(waiting);
        if own >= self.backstop {
            return WallCheck::Exceeded;
        }
        if wall >= self.overload_bound {
            return WallCheck::Overloaded;
        }
        // If from now on it waits no more, the backstop is reached at `backstop + waiting`.
        WallCheck::Until((self.backstop + waiting).min(self.overload_bound))
    }
}

/// Everything the supervision measured.
pub struct Monitored {
    pub limit_hit: Option<LimitHit>,
    pub wall: Duration,
    /// The proxy's rusage when supervision reaped it (it exited or was killed); `None`
    /// when it said the run was over and was left to exit on its own.
    pub rusage: Option<libc::rusage>,
    /// How it ended, when supervision reaped it.
    pub exit: Option<libc::siginfo_t>,
    /// The largest CPU time and memory seen by polling (paths without cgroups).
    pub polled_cpu: Duration,
    pub polled_peak_bytes: u64,
    /// The last load sample taken (when a deadline passed or a limit fired).
    pub load: Option<LoadSample>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Appends what is readable on `fd` to `buf`, keeping at most `cap` bytes. Returns
/// (eof, overflowed).
fn drain(fd: i32, buf: &mut Vec<u8>, cap: u64) -> (bool, bool) {
    let mut chunk = [0u8; 65536];
    let mut overflow = false;
    loop {
        // SAFETY: reading into a stack buffer of the given size.
        let n = unsafe { libc::read(fd, chunk.as_mut_ptr() as *mut libc::c_void, chunk.len()) };
        if n == 0 {
            return (true, overflow);
        }
        if n < 0 {
            let e = std::io::Error::last_os_error().raw_os_error();
            if e == Some(libc::EINTR) {
                continue;
            }
            // EAGAIN: nothing more for now. Anything else: treat as closed.
            return (e != Some(libc::EAGAIN), overflow);
        }
        let n = n as usize;
        let room = cap.saturating_sub(buf.len() as u64).min(n as u64) as usize;
        buf.extend_from_slice(&chunk[..room]);
        if room < n {
            overflow = true;
        }
    }
}

/// The program's stdout and stderr pipes while they are open.
struct Pipes {
    out: OwnedFd,
    err: OwnedFd,
    out_open: bool,
    err_open: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Pipes {
    fn open(&self) -> bool {
        self.out_open || self.err_open
    }

    /// Poll entries for the open pipes, plus `extra` (the proxy's pidfd and the run's
    /// end-of-run eventfd) when given.
    fn pollfds(&self, extra: [Option<i32>; 2]) -> [libc::pollfd; 4] {
        let entry = |fd: i32| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        [
            entry(if self.out_open {
                self.out.as_raw_fd()
            } else {
                -1
            }),
            entry(if self.err_open {
                self.err.as_raw_fd()
            } else {
                -1
            }),
            entry(extra[0].unwrap_or(-1)),
            entry(extra[1].unwrap_or(-1)),
        ]
    }

    /// Reads what the poll reported; returns true when stdout overflowed its cap.
    fn read_ready(&mut self, fds: &[libc::pollfd; 4], limits: &Limits) -> bool {
        let mut over = false;
        if self.out_open && fds[0].revents != 0 {
            let (eof, o) = drain(self.out.as_raw_fd(), &mut self.stdout, limits.output_bytes);
            self.out_open = !eof;
            over = o;
        }
        if self.err_open && fds[1].revents != 0 {
            let (eof, _) = drain(self.err.as_raw_fd(), &mut self.stderr, limits.stderr_bytes);
            self.err_open = !eof;
        }
        over
    }
}

/// `ppoll` for at most `timeout`; EINTR counts as a timeout.
fn wait_ready(fds: &mut [libc::pollfd; 4], timeout: Duration) -> Result<(), SandboxError> {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `fds` holds four valid pollfd entries (negative fds are ignored).
    let r = unsafe { libc::ppoll(fds.as_mut_ptr(), 4, &ts, std::ptr::null()) };
    if r < 0 {
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() != Some(libc::EINTR) {
            return Err(SandboxError::Io(e));
        }
    }
    Ok(())
}

/// Supervises the run of `request` whose proxy is `pidfd` until the proxy says the run is
/// over (on `done_fd`, an eventfd; the proxy is then left to exit on its own) or has exited
/// (then it is reaped here). The request's limits are enforced, and its stop handle obeyed.
pub fn supervise(
    pidfd: i32,
    done_fd: i32,
    out_r: OwnedFd,
    err_r: OwnedFd,
    start: Instant,
    request: &RunRequest,
    probe: &mut dyn Probe,
) -> Result<Monitored, SandboxError> {
    let limits = &request.limits;
    let mut pipes = Pipes {
        out: out_r,
        err: err_r,
        out_open: true,
        err_open: true,
        stdout: Vec::new(),
        stderr: Vec::new(),
    };
    let deadline = Deadline::new(limits);
    let mut limit_hit: Option<LimitHit> = None;
    let mut wall_deadline = start + deadline.backstop;
    // Without live CPU accounting, sample early too: short programs would otherwise have no
    // peak figure.
    let mut next_tick = start
        + if probe.cpu().is_some() {
            POLL_INTERVAL
        } else {
            Duration::from_millis(1)
        };
    let mut polled_cpu = Duration::ZERO;
    let mut polled_peak = 0u64;
    let mut load: Option<LoadSample> = None;
    let mut killed = false;
    let mut finished = false;
    let mut interrupted = false;
    let mut stop = |why: LimitHit,
                    limit_hit: &mut Option<LimitHit>,
                    load: &mut Option<LoadSample>,
                    probe: &mut dyn Probe| {
        if limit_hit.is_none() {
            *limit_hit = Some(why);
            if load.is_none() {
                *load = Some(sample_load(probe.processes(), start));
            }
        }
        if !killed {
            sys::pidfd_kill(pidfd, libc::SIGKILL);
            killed = true;
        }
    };

    loop {
        let now = Instant::now();
        let until = next_tick.min(wall_deadline).saturating_duration_since(now);
        let mut fds = pipes.pollfds([Some(pidfd), Some(done_fd).filter(|fd| *fd >= 0)]);
        wait_ready(&mut fds, until)?;
        if pipes.read_ready(&fds, limits) {
            stop(LimitHit::Output, &mut limit_hit, &mut load, probe);
        }
        if fds[2].revents != 0 {
            break;
        }
        if fds[3].revents != 0 {
            let mut v = 0u64;
            // SAFETY: reading the 8-byte counter of our eventfd into a local.
            unsafe { libc::read(done_fd, (&mut v as *mut u64).cast(), 8) };
            finished = true;
            break;
        }
        // Ctrl-C or SIGTERM: end the run now; it has no verdict.
        if !interrupted && crate::interrupt::requested().is_some() {
            sys::pidfd_kill(pidfd, libc::SIGKILL);
            interrupted = true;
        }
        if request.stop.as_ref().is_some_and(|s| s.is_stopped()) {
            stop(LimitHit::Stopped, &mut limit_hit, &mut load, probe);
        }
        let now = Instant::now();
        if limit_hit.is_some() || interrupted {
            // Keep waiting for the (now dying) proxy, but do not spin.
            next_tick = now + POLL_INTERVAL;
            wall_deadline = next_tick;
            continue;
        }
        if now >= wall_deadline {
            let sample = sample_load(probe.processes(), start);
            load = Some(sample);
            match deadline.check(now - start, sample.sched.wait) {
                WallCheck::Until(d) => wall_deadline = start + d.max(now - start + POLL_INTERVAL),
                WallCheck::Exceeded => {
                    stop(LimitHit::WallTime, &mut limit_hit, &mut load, probe);
                    continue;
                }
                WallCheck::Overloaded => {
                    stop(LimitHit::Overloaded, &mut limit_hit, &mut load, probe);
                    continue;
                }
            }
        }
        if now >= next_tick {
            next_tick += POLL_INTERVAL;
            if next_tick < now {
                next_tick = now + POLL_INTERVAL;
            }
            if probe.forks_refused() > 0 {
                stop(LimitHit::Processes, &mut limit_hit, &mut load, probe);
            } else if let Some(cpu) = probe.cpu() {
                if cpu > limits.cpu_time {
                    stop(LimitHit::CpuTime, &mut limit_hit, &mut load, probe);
                }
            } else if let Some(smp) = probe.poll_process() {
                polled_cpu = polled_cpu.max(smp.cpu);
                polled_peak = polled_peak.max(smp.hwm).max(smp.rss);
                if smp.cpu > limits.cpu_time {
                    stop(LimitHit::CpuTime, &mut limit_hit, &mut load, probe);
                } else if smp.rss > limits.memory_bytes {
                    stop(LimitHit::Memory, &mut limit_hit, &mut load, probe);
                }
            }
        }
    }

    let wall = start.elapsed();
    if interrupted {
        sys::wait_pidfd(pidfd)?;
        probe.ended();
        if let Err(e) = crate::interrupt::check() {
            return Err(e.into());
        }
    }
    let (exit, rusage) = if finished {
        (None, None)
    } else {
        let (info, ru) = sys::wait_pidfd(pidfd)?;
        (Some(info), Some(ru))
    };
    probe.ended();

    // Every process of the run is gone; read what is left in the pipes. Another process
    // that briefly inherited a write end (a concurrent spawn) may delay EOF slightly.
    let drain_deadline = Instant::now() + DRAIN_GRACE;
    while pipes.open() {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let mut fds = pipes.pollfds([None, None]);
        wait_ready(&mut fds, left)?;
        if pipes.read_ready(&fds, limits) && limit_hit.is_none() {
            limit_hit = Some(LimitHit::Output);
        }
    }

    Ok(Monitored {
        limit_hit,
        wall,
        rusage,
        exit,
        polled_cpu,
        polled_peak_bytes: polled_peak,
        load,
        stdout: pipes.stdout,
        stderr: pipes.stderr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(cpu_ms: u64, wall_ms: u64) -> Limits {
        Limits {
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(wall_ms),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            stderr_bytes: 1024,
            processes: 1,
        }
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn time_spent_waiting_for_a_cpu_extends_the_backstop() {
        let d = Deadline::new(&limits(1000, 2000));
        // Idle machine: the backstop is the wall limit.
        assert_eq!(d.check(MS(500), MS(0)), WallCheck::Until(MS(2000)));
        // 1.5 s of 2.05 s spent waiting for a CPU: not a TLE, look again at 3.5 s.
        assert_eq!(d.check(MS(2050), MS(1500)), WallCheck::Until(MS(3500)));
        // Sleeping: 2.05 s of wall, no waiting.
        assert_eq!(d.check(MS(2050), MS(0)), WallCheck::Exceeded);
        // Waited 1 s but also slept: 2.1 s of its own time is over the backstop.
        assert_eq!(d.check(MS(3100), MS(1000)), WallCheck::Exceeded);
    }

    #[test]
    fn starvation_past_the_bound_is_overload_not_tle() {
        let d = Deadline::new(&limits(1000, 2000));
        assert_eq!(d.overload_bound, MS(10_000));
        // 10 s of wall, 9.5 s of it waiting: the program got 5 % of a CPU.
        assert_eq!(d.check(MS(10_000), MS(9_500)), WallCheck::Overloaded);
        // The next look is never later than the bound.
        assert_eq!(d.check(MS(9_000), MS(8_900)), WallCheck::Until(MS(10_000)));
        // Own time over the backstop wins over overload.
        assert_eq!(d.check(MS(10_000), MS(7_000)), WallCheck::Exceeded);
    }

    #[test]
    fn short_limits_get_a_bound_of_twice_the_backstop() {
        let d = Deadline::new(&limits(100, 1100));
        assert_eq!(d.overload_bound, MS(2200));
    }
}
