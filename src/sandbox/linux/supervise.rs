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
//!
//! Two more kinds of time are the machine's, and are left out the same way: CPU work that ran
//! slower because of the load (up to [`LOAD_CPU_FACTOR`] times, so `1 - 1/factor` of the CPU
//! time measured), and, in an interactive run, the waits and the slowed-down work of the
//! [`Companions`] it waits on (the validator, the relay): a submission blocked on a starved
//! validator is not running through no fault of its own. When every such figure was there
//! (scheduler statistics on, every companion measured, no thread's figures lost, no pipe the
//! harness drains ever full), a stop by the backstop is [`Monitored::settled`]: alone the
//! program would be stopped too, so it need not be re-run alone to be sure.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use super::procfs::{self, SchedStat};
use super::sys;
use crate::sandbox::{
    Companion, Companions, LimitHit, Limits, RunRequest, SandboxError, Stdin, Stdout,
    LOAD_CPU_FACTOR,
};

/// How often CPU time (and, without cgroups, memory) is checked.
pub const POLL_INTERVAL: Duration = Duration::from_millis(10);
/// After the run ended, how long to wait for the pipes to reach EOF.
const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// The most processes whose scheduler figures are summed for one run.
pub const MAX_TASKS_SCANNED: usize = 4096;
/// The least a pipe holds (one page, as Linux gives a user past `pipe-user-pages-soft`): a
/// program that wrote less than this in all to the pipes the harness drains never blocked on
/// them, whatever the harness's threads were doing.
const PIPE_MIN_CAPACITY: u64 = 4096;
/// How much more CPU time the run's counters may show than its live threads' scheduler
/// figures (ticks of `/proc/<pid>/stat`, rounding) before figures are taken as lost: a
/// thread or child that ended took its waits with it.
const LOST_CPU_SLACK: Duration = Duration::from_millis(20);

/// What the supervisor can ask about the run while it goes on.
pub trait Probe {
    /// CPU time of every process of the run so far, if the mechanism measures it live.
    fn cpu(&mut self) -> Option<Duration>;
    /// A sample of the program itself, for paths without cgroups. `None` when not polling
    /// (or not known yet).
    fn poll_process(&mut self) -> Option<procfs::ProcSample>;
    /// Every process of the run (pids in the harness's pid namespace).
    fn processes(&self) -> Vec<i32>;
    /// The process the run's own processes descend from (or are): what the run registers as
    /// a companion of another run (see [`Companions`]).
    fn root(&self) -> i32;
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

    /// Judges `wall` of elapsed time of which `waiting` was the machine's (spent waiting for
    /// a CPU, or owed to the load another way: see the module documentation).
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

/// The part of `cpu` that may be the load's: CPU work runs up to [`LOAD_CPU_FACTOR`] times
/// slower beside other runs.
fn slowed(cpu: Duration) -> Duration {
    cpu.mul_f64(1.0 - 1.0 / LOAD_CPU_FACTOR)
}

/// The scheduler figures of every part of `companions`; `None` until every expected part has
/// registered, or once one is gone (its figures went with it).
fn companion_load(companions: &Companions) -> Option<SchedStat> {
    let ids = companions.ids()?;
    let mut total = SchedStat::default();
    for tid in ids.threads {
        total = total + procfs::schedstat(tid)?;
    }
    for root in ids.runs {
        total = total + procfs::tree_schedstat(root, MAX_TASKS_SCANNED)?;
    }
    Some(total)
}

/// The machine's share of a run's wall time so far (see the module documentation), and
/// whether it is complete: `own` is the run's live threads, `cpu` its CPU time by its
/// counters, `companions` what it waits on (outer `None`: nothing; inner: not measured).
fn owed_to_machine(
    own: SchedStat,
    cpu: Option<Duration>,
    companions: Option<Option<SchedStat>>,
) -> (Duration, bool) {
    let mut owed = own.wait + slowed(own.run.max(cpu.unwrap_or_default()));
    // With scheduler statistics off every figure reads zero; a program that ran has run time.
    let mut complete =
        own.run > Duration::ZERO && cpu.is_some_and(|c| c <= own.run + LOST_CPU_SLACK);
    match companions {
        None => {}
        Some(Some(c)) => owed += c.wait + slowed(c.run),
        Some(None) => complete = false,
    }
    (owed, complete)
}

/// Everything the supervision measured.
pub struct Monitored {
    pub limit_hit: Option<LimitHit>,
    /// A stop by the wall-clock backstop that a run alone would get too (see the module
    /// documentation and [`crate::sandbox::RunOutcome::settled`]).
    pub settled: bool,
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

/// Appends what is readable on `fd` to `buf`, keeping at most `cap` bytes, and counts every
/// byte read in `seen`. Returns (eof, overflowed).
fn drain(fd: i32, buf: &mut Vec<u8>, cap: u64, seen: &mut u64) -> (bool, bool) {
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
        *seen += n as u64;
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
    /// Bytes read from both pipes so far.
    seen: u64,
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
            let (eof, o) = drain(
                self.out.as_raw_fd(),
                &mut self.stdout,
                limits.output_bytes,
                &mut self.seen,
            );
            self.out_open = !eof;
            over = o;
        }
        if self.err_open && fds[1].revents != 0 {
            let (eof, _) = drain(
                self.err.as_raw_fd(),
                &mut self.stderr,
                limits.stderr_bytes,
                &mut self.seen,
            );
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
        seen: 0,
    };
    let waits_on = match &request.companions {
        Some(Companion::Is(c)) => {
            c.register_run(probe.root());
            None
        }
        Some(Companion::WaitsOn(c)) => Some(c),
        None => None,
    };
    // A pipe into or out of the program is drained by someone: settled only if that someone
    // is a measured companion.
    let piped =
        matches!(request.stdin, Stdin::Pipe(_)) || matches!(request.stdout, Stdout::Pipe(_));
    let mut settled = false;
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
            let cpu = probe
                .cpu()
                .or_else(|| probe.poll_process().map(|s| s.cpu.max(polled_cpu)));
            let (owed, complete) = owed_to_machine(sample.sched, cpu, waits_on.map(companion_load));
            match deadline.check(now - start, owed) {
                WallCheck::Until(d) => wall_deadline = start + d.max(now - start + POLL_INTERVAL),
                WallCheck::Exceeded => {
                    settled = complete
                        && pipes.seen < PIPE_MIN_CAPACITY
                        && (!piped || waits_on.is_some());
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
        // Set only where the backstop becomes the first (and so the final) limit hit.
        settled,
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
    fn the_machines_share_counts_waits_and_slowed_work_and_is_complete_only_when_measured() {
        let stat = |run, wait| SchedStat {
            run: MS(run),
            wait: MS(wait),
        };
        // Waits, and a third of the CPU work (LOAD_CPU_FACTOR 1.5), of the run and of its
        // companions.
        assert_eq!(
            owed_to_machine(stat(300, 100), Some(MS(300)), Some(Some(stat(600, 50)))),
            (MS(100 + 100 + 50 + 200), true)
        );
        assert_eq!(
            owed_to_machine(stat(3, 0), Some(MS(3)), None),
            (MS(1), true)
        );
        // Scheduler statistics off: everything reads zero.
        assert!(!owed_to_machine(stat(0, 0), Some(MS(0)), None).1);
        // A companion not measured (not registered yet, or gone).
        assert!(!owed_to_machine(stat(300, 0), Some(MS(300)), Some(None)).1);
        // A thread or child that ended took its figures with it: the counters show more CPU.
        let (owed, complete) = owed_to_machine(stat(300, 0), Some(MS(400)), None);
        assert!(!complete);
        assert_eq!(
            owed.as_micros(),
            133_333,
            "a third of the larger CPU figure"
        );
        // No CPU counter at all.
        assert!(!owed_to_machine(stat(300, 0), None, None).1);
    }

    #[test]
    fn companions_are_measured_once_every_part_registered_and_while_each_lives() {
        let c = Companions::new(2);
        c.register_thread();
        // One part of two: not measured yet.
        assert_eq!(companion_load(&c), None);
        // This test process as a run (its threads and children count).
        c.register_run(std::process::id() as i32);
        let load = companion_load(&c).expect("both parts live");
        assert!(load.run > Duration::ZERO, "{load:?}");
        // A part that is gone took its figures with it.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id() as i32;
        child.wait().unwrap();
        let c = Companions::new(1);
        c.register_run(gone);
        assert_eq!(companion_load(&c), None);
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
