//! One run in one slot: prepare the [`Plan`], start the proxy, supervise, and turn what was
//! measured into a [`RunOutcome`].

use std::collections::HashSet;
use std::ffi::CString;
use std::fs::File;
use std::io::{Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::cgroup::{Baseline, SlotCgroups};
use super::detect::high_fd;
use super::fsview::FsView;
use super::procfs::{self, ProcSample};
use super::slots::{FsBase, Slot, MAX_BASE_DIRS};
use super::spawn::{self, FsPlan, Plan, Report, Step};
use super::supervise::{self, Probe};
use super::sys::Stack;
use super::{setup_err, sys, LinuxSandbox};
use crate::sandbox::{LimitHit, RunOutcome, RunRequest, SandboxError, Stdin, Stdout, Termination};

mod io;

pub(super) use io::{host_work_dir, private_work_dir};
pub use io::{open_io, Io};

fn cstring(s: &[u8], what: &str, program: &str) -> Result<CString, SandboxError> {
    CString::new(s).map_err(|_| SandboxError::Spawn {
        program: program.to_string(),
        message: format!("{what} contains a NUL byte"),
    })
}

#[allow(clippy::unnecessary_cast)] // the resource type differs between libcs
fn rl(res: libc::__rlimit_resource_t, value: u64) -> (u32, libc::rlimit64) {
    let mut cur = libc::rlimit64 {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: reading our own limit into a local.
    unsafe { libc::getrlimit64(res, &mut cur) };
    // Without CAP_SYS_RESOURCE a hard limit can only be lowered.
    let v = value.min(cur.rlim_max);
    (
        res as u32,
        libc::rlimit64 {
            rlim_cur: v,
            rlim_max: v,
        },
    )
}

/// `(res, soft limit value)` that keeps the hard limit the harness has: the kernel signals
/// at the soft limit (`RLIMIT_CPU`: SIGXCPU, which ends a program that does not handle it) and
/// only sends SIGKILL at the hard one.
fn rl_soft(res: libc::__rlimit_resource_t, value: u64) -> (u32, libc::rlimit64) {
    let (res, mut lim) = rl(res, u64::MAX);
    lim.rlim_cur = value.min(lim.rlim_max);
    (res, lim)
}

/// Whole seconds of `RLIMIT_CPU`'s soft limit for a run with CPU limit `cpu`: twice the
/// limit, rounded up, plus 1 s. The kernel counts that limit in scheduler ticks (the task
/// running when a tick comes is charged the whole tick), which on a busy or virtual machine
/// (stolen time is charged, sleepers woken just before a tick are charged whole ticks) runs
/// ahead of the CPU time judge measures; with `⌈limit⌉ + 1 s` a 40 s run was signalled at
/// 38.8 s of measured CPU time. Judge's supervision stops a run at its limit; this is only
/// the kernel's backstop, and what it stops is a TLE (see [`outcome`]).
pub fn cpu_backstop_secs(cpu: Duration) -> u64 {
    let twice = cpu * 2;
    twice.as_secs() + u64::from(twice.subsec_nanos() > 0) + 1
}

/// Kills the proxy (and so the whole run) and reaps it if supervision did not, so the
/// children never outlive the plan they read from.
struct ProxyGuard {
    pidfd: OwnedFd,
    /// The proxy's stack: it must stay mapped until the proxy is gone.
    stack: Option<Stack>,
    reaped: bool,
}

impl Drop for ProxyGuard {
    fn drop(&mut self) {
        if !self.reaped {
            sys::pidfd_kill(self.pidfd.as_raw_fd(), libc::SIGKILL);
            self.reaped = sys::wait_pidfd(self.pidfd.as_raw_fd()).is_ok();
        }
        // The proxy is gone (reaped): its stack may serve another.
        if let Some(stack) = self.stack.take().filter(|_| self.reaped) {
            give_back_stack(stack);
        }
    }
}

/// Proxy stacks whose proxies are gone, kept for later runs: mapping and unmapping a stack
/// per run cost three system calls, and an unmap in a multi-threaded process flushes the
/// other CPUs' TLBs.
static SPARE_STACKS: Mutex<Vec<Stack>> = Mutex::new(Vec::new());

fn take_stack() -> std::io::Result<Stack> {
    let spare = SPARE_STACKS.lock().unwrap_or_else(|e| e.into_inner()).pop();
    spare.map_or_else(|| Stack::new(PROXY_STACK), Ok)
}

/// Only for the stack of a proxy that has been reaped.
fn give_back_stack(stack: Stack) {
    let mut spare = SPARE_STACKS.lock().unwrap_or_else(|e| e.into_inner());
    if spare.len() < 16 {
        spare.push(stack);
    }
}

/// Proxies that said their run is over but have not exited yet (their mount namespace's
/// teardown waits for an RCU grace period): reaped on a background thread, which then
/// frees their stacks. A finished proxy no longer reads its plan.
fn reap_later(pidfd: OwnedFd, stack: Stack) {
    static REAPER: OnceLock<Mutex<mpsc::Sender<(OwnedFd, Stack)>>> = OnceLock::new();
    let sender = REAPER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<(OwnedFd, Stack)>();
        std::thread::Builder::new()
            .name("judge-reaper".into())
            .spawn(move || {
                for (pidfd, stack) in rx {
                    if sys::wait_pidfd(pidfd.as_raw_fd()).is_ok() {
                        give_back_stack(stack);
                    }
                }
            })
            .expect("reaper thread");
        Mutex::new(tx)
    });
    let tx = sender.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(mpsc::SendError((pidfd, stack))) = tx.send((pidfd, stack)) {
        // No reaper thread: wait here.
        let _ = sys::wait_pidfd(pidfd.as_raw_fd());
        drop(stack);
    }
}

/// Stack size of the proxy.
const PROXY_STACK: usize = 64 * 1024;

/// A box with less than this free counts as full (a refused write was at most this close).
const DISK_FULL_SLACK: u64 = 64 * 1024;

/// The most processes of one run whose figures are polled (far above any process limit).
const MAX_POLLED_PROCESSES: usize = 1024;

/// What supervision can ask about a run in progress.
struct RunProbe<'a> {
    /// The slot's cgroups and their counters before the run.
    cg: Option<(&'a SlotCgroups, Baseline)>,
    report: &'a Report,
    proxy_pid: i32,
}

impl Probe for RunProbe<'_> {
    fn cpu(&mut self) -> Option<Duration> {
        self.cg.map(|(c, _)| Duration::from_nanos(c.cpu_ns()))
    }

    fn poll_process(&mut self) -> Option<ProcSample> {
        if self.cg.is_some() {
            return None;
        }
        if !self.report.started.load(Ordering::SeqCst) {
            return None;
        }
        // Every process of the run: a child's CPU and memory count while it runs, not only
        // once the program has waited for it.
        procfs::sample_tree(self.proxy_pid, MAX_POLLED_PROCESSES)
    }

    fn processes(&self) -> Vec<i32> {
        procfs::descendants(self.proxy_pid, supervise::MAX_TASKS_SCANNED)
    }

    fn root(&self) -> i32 {
        self.proxy_pid
    }

    fn forks_refused(&mut self) -> u64 {
        self.cg.map_or(0, |(c, base)| c.forks_refused(base))
    }
}

/// Why a run could not be made.
pub enum RunError {
    Sandbox(SandboxError),
    /// This host does not allow the run's own file-system view (the caller may go on
    /// without it).
    FsView(String),
    /// The slot's long-lived processes failed before the program started (they are
    /// replaced: the caller may try once more).
    SlotProcesses(String),
}

impl From<SandboxError> for RunError {
    fn from(e: SandboxError) -> RunError {
        RunError::Sandbox(e)
    }
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Sandbox(e.into())
    }
}

impl From<RunError> for SandboxError {
    fn from(e: RunError) -> SandboxError {
        match e {
            RunError::Sandbox(e) => e,
            RunError::FsView(why) => SandboxError::Setup(format!("file-system view: {why}")),
            RunError::SlotProcesses(why) => SandboxError::Setup(format!("slot processes: {why}")),
        }
    }
}

/// The slot's base mount namespace, built now if it was not yet (or rebuilt when runs have
/// left too many mount points in it); `None` when it cannot be built here.
pub fn slot_base<'a>(view: &FsView, slot: &'a mut Slot) -> Option<&'a mut FsBase> {
    if matches!(&slot.fs_base, Some(Ok(b)) if b.dirs.len() > MAX_BASE_DIRS) {
        slot.fs_base = None;
    }
    if slot.fs_base.is_none() {
        let built = view
            .base_ops()
            .and_then(|ops| spawn::build_base(view.stage(), ops).map_err(|e| e.to_string()));
        slot.fs_base = Some(built.map(|ns| FsBase {
            ns,
            dirs: HashSet::new(),
        }));
    }
    slot.fs_base.as_mut()?.as_mut().ok()
}

pub fn spawn_err(program: &str, message: String) -> SandboxError {
    SandboxError::Spawn {
        program: program.to_string(),
        message,
    }
}

/// The resource limits the program gets (see the module documentation of `linux`).
pub fn rlimits(lim: &crate::sandbox::Limits, cgroups: bool) -> Vec<(u32, libc::rlimit64)> {
    let mut rlimits = vec![
        // A soft limit only: past it the kernel sends SIGXCPU (once a second), never
        // SIGKILL, so a run it ends is told apart from a program that killed itself.
        rl_soft(libc::RLIMIT_CPU, cpu_backstop_secs(lim.cpu_time)),
        rl(libc::RLIMIT_CORE, 0),
        rl(libc::RLIMIT_FSIZE, lim.memory_bytes.max(lim.output_bytes)),
        rl(libc::RLIMIT_NOFILE, 512),
        rl(libc::RLIMIT_STACK, lim.memory_bytes),
        // With a pids cgroup, `pids.max` refuses first (it counts the refusals) and
        // RLIMIT_NPROC of the slot's uid is a looser second line. Without one, RLIMIT_NPROC
        // (counted per user namespace, where the proxy is the same uid) is the limit: the
        // same number of tasks either way.
        rl(
            libc::RLIMIT_NPROC,
            u64::from(lim.processes.max(1)) + if cgroups { 2 } else { 1 },
        ),
    ];
    if !cgroups {
        // Backstop only: polling is what enforces the limit, and it needs the program to
        // *get* its memory so that touching it shows up as RSS (a refused malloc would be an
        // RE, not an MLE). Thread stacks (RLIMIT_STACK each) count as data, and nobody can
        // touch 4 GiB within one 10 ms polling interval, so leave that much room.
        let per_proc = u64::from(lim.processes.max(1)) + 2;
        rlimits.push(rl(
            libc::RLIMIT_DATA,
            lim.memory_bytes
                .saturating_mul(per_proc)
                .max(1 << 30)
                .saturating_add(4 << 30),
        ));
    }
    rlimits
}

/// What the program's child process is given, beyond the fds of [`Io`].
pub struct ChildSpec {
    pub work_dir: CString,
    pub uid: Option<u32>,
    pub cgroup_procs: Vec<i32>,
    pub netns: i32,
    pub ruleset: Option<(i32, u64)>,
    pub seccomp: Vec<libc::sock_filter>,
    pub child_stack_top: *mut u8,
    pub fs: Option<FsPlan>,
    pub done_fd: i32,
    /// Fds the children need besides stdio, cgroups, network namespace and ruleset.
    pub more_fds: Vec<i32>,
}

/// The prepared plan of one run's children.
pub fn new_plan(
    sb: &LinuxSandbox,
    req: &RunRequest,
    program: &str,
    io: &Io,
    spec: ChildSpec,
) -> Result<Box<Plan>, RunError> {
    let mut keep = vec![
        io.stdin.as_raw_fd(),
        io.out_w.as_raw_fd(),
        io.err_w.as_raw_fd(),
    ];
    keep.extend(&spec.cgroup_procs);
    keep.extend(&spec.more_fds);
    if spec.netns >= 0 {
        keep.push(spec.netns);
    }
    if let Some((fd, _)) = spec.ruleset {
        keep.push(fd);
    }
    let mut argv = Vec::with_capacity(req.argv.len());
    for a in &req.argv {
        argv.push(cstring(a.as_bytes(), "an argument", program)?);
    }
    let mut envp = Vec::with_capacity(req.env.len());
    for (k, v) in &req.env {
        if k.contains('=') {
            return Err(spawn_err(
                program,
                format!("environment variable name {k:?} contains '='"),
            )
            .into());
        }
        envp.push(cstring(
            format!("{k}={v}").as_bytes(),
            "the environment",
            program,
        )?);
    }
    let mut plan = Box::new(Plan {
        path: cstring(program.as_bytes(), "argv[0]", program)?,
        argv,
        argv_ptrs: Vec::new(),
        envp,
        envp_ptrs: Vec::new(),
        stdio: [
            io.stdin.as_raw_fd(),
            io.out_w.as_raw_fd(),
            io.err_w.as_raw_fd(),
        ],
        keep_fds: keep,
        cgroup_procs: spec.cgroup_procs,
        netns: spec.netns,
        work_dir: spec.work_dir,
        ids: spec.uid.map(|u| (u, u)),
        rlimits: rlimits(&req.limits, sb.mech.cgroups),
        landlock_fd: spec.ruleset.map_or(-1, |r| r.0),
        landlock_proc_access: spec.ruleset.map_or(0, |r| r.1),
        proc_self: c"/proc/self".to_owned(),
        seccomp: spec.seccomp,
        reset_signals: sb.reset_signals.clone(),
        seccomp_prog: libc::sock_fprog {
            len: 0,
            filter: std::ptr::null_mut(),
        },
        child_stack_top: spec.child_stack_top,
        fs: spec.fs,
        done_fd: spec.done_fd,
        id_maps: if sb.mech.root {
            None
        } else {
            // SAFETY: getuid/getgid are plain getters.
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            Some([
                CString::new(format!("0 {uid} 1")).unwrap_or_default(),
                c"deny".to_owned(),
                CString::new(format!("0 {gid} 1")).unwrap_or_default(),
            ])
        },
        report: Report::default(),
    });
    plan.finish_pointers();
    Ok(plan)
}

/// The error of a child that failed before its program started, if it did.
pub fn failed_step(plan: &Plan, program: &str) -> Option<RunError> {
    let step = plan.report.err_step.load(Ordering::SeqCst);
    if step == 0 {
        return None;
    }
    let errno = plan.report.err_errno.load(Ordering::SeqCst);
    let err = std::io::Error::from_raw_os_error(errno);
    if step == Step::Mount as u32 {
        let detail = plan.report.err_detail.load(Ordering::SeqCst);
        let what = plan
            .fs
            .as_ref()
            .and_then(|fs| fs.ops.get(detail as usize))
            .map(|op| format!("{:?} {}", op.kind, op.dst.to_string_lossy()))
            .unwrap_or_else(|| "mounting the box".into());
        return Some(RunError::FsView(format!("{what}: {err}")));
    }
    Some(spawn_err(program, format!("{} failed: {err}", spawn::step_name(step))).into())
}

/// The figures of a run on the cgroup path: CPU time and peak memory; sets the limit the
/// cgroups saw fire (memory, processes) and empties the slot of what a run may have left.
pub fn cgroup_figures(
    sb: &LinuxSandbox,
    cg: &SlotCgroups,
    base: Baseline,
    limit_hit: &mut Option<LimitHit>,
    slot_owned: SlotOwned,
) -> (Duration, u64, u64) {
    let u = cg.usage(base);
    if u.oom_killed {
        *limit_hit = limit_hit.or(Some(LimitHit::Memory));
    }
    // A refused fork decides, whatever ended the run between the refusal and the
    // supervisor's next look (the OOM killer, the CPU limit, the program itself).
    if u.forks_refused > 0 && *limit_hit != Some(LimitHit::Overloaded) {
        *limit_hit = Some(LimitHit::Processes);
    }
    // Belt and braces: every process of the run is gone, so the slot must be empty.
    if slot_owned.spawner.is_none() && cg.has_tasks() {
        cg.kill_remaining();
    }
    // Page cache left by files the run wrote would count toward the next run's peak. (What
    // it read from the host, the harness read first: charged elsewhere, see prefetch.)
    if cg.charged_bytes() > (4 << 20) {
        cg.force_empty();
        sb.memory_emptied.fetch_add(1, Ordering::Relaxed);
    }
    (
        Duration::from_nanos(u.cpu_ns.saturating_sub(slot_owned.cpu_ns)),
        u.peak_bytes / 1024,
        u.forks_refused,
    )
}

/// What of a slot's cgroup figures is not the run's: a spawner that sits in the cgroups
/// (its pid, so that it is not killed) and the CPU time it spent starting the program.
#[derive(Debug, Clone, Copy, Default)]
pub struct SlotOwned {
    pub spawner: Option<i32>,
    pub cpu_ns: u64,
}

/// The outcome from what was measured: the CPU limit and a full disk (`disk`: bytes used and
/// available on the fullest scratch space) decide if no other limit did.
pub fn outcome(
    mon: supervise::Monitored,
    termination: Termination,
    mut limit_hit: Option<LimitHit>,
    (cpu_time, peak_memory_kib, forks_refused): (Duration, u64, u64),
    lim: &crate::sandbox::Limits,
    (disk_used, disk_size): (u64, u64),
) -> RunOutcome {
    // SIGXCPU: the kernel's CPU-time backstop (`RLIMIT_CPU`) ended it, by its own count (see
    // [`cpu_backstop_secs`]): a time limit, whatever judge measured.
    if cpu_time > lim.cpu_time || termination == Termination::Signaled(libc::SIGXCPU) {
        limit_hit = limit_hit.or(Some(LimitHit::CpuTime));
    }
    // A full box: the program wrote as much as its quota allows (and was refused more).
    if disk_size > 0 && disk_used + DISK_FULL_SLACK >= disk_size {
        limit_hit = limit_hit.or(Some(LimitHit::Disk));
    }
    RunOutcome {
        termination,
        limit_hit,
        cpu_time,
        wall_time: mon.wall,
        cpu_wait: mon.load.map(|l| l.sched.wait),
        peak_memory_kib,
        forks_refused,
        settled: mon.settled,
        stdout: mon.stdout,
        stderr: mon.stderr,
    }
}

/// A run with a proxy of its own (pid 1 of a pid namespace made for it), for the paths
/// without a slot spawner: an ordinary user (user namespaces), root without cgroups, a host
/// where the slot's prebuilt box cannot be made.
pub fn run_in_slot(
    sb: &LinuxSandbox,
    slot: &mut Slot,
    req: &RunRequest,
    program: &str,
) -> Result<RunOutcome, RunError> {
    let lim = &req.limits;
    let spawn_err = |message: String| spawn_err(program, message);

    // --- everything the children need, prepared before cloning ---
    let io = open_io(req, program)?;
    let uid = slot.uid.as_ref().map(|u| u.uid);
    let fsview = sb.fsview();
    let private_dir = private_work_dir(req, fsview.is_some())?;
    let host_work_dir = host_work_dir(req, &private_dir, uid, program)?;
    let (fs, work_dir) = match fsview {
        Some(view) => {
            // As root, the box's fixed part is built once per slot; the run only adds its
            // own mounts to a copy. The run's disk quota (per scratch space) is its output
            // limit.
            let base = if sb.mech.root {
                slot_base(view, slot)
            } else {
                None
            };
            let (read_only, wd, files, quota) = (
                &req.read_only,
                req.work_dir.as_deref(),
                &req.work_files,
                lim.output_bytes,
            );
            let b = match base {
                Some(base) => {
                    let b = view
                        .plan_on_base(read_only, wd, files, uid, quota)
                        .map_err(spawn_err)?;
                    base.dirs.extend(b.persistent_dirs.iter().cloned());
                    b
                }
                None => view
                    .plan(read_only, wd, files, uid, quota)
                    .map_err(spawn_err)?,
            };
            let base_fd = match &slot.fs_base {
                Some(Ok(base)) if sb.mech.root => base.ns.as_raw_fd(),
                _ => -1,
            };
            let fs = FsPlan {
                base_fd,
                stage: view.stage(),
                ops: b.ops,
                scratch: b.scratch,
            };
            (Some(fs), b.cwd)
        }
        None => {
            let dir = host_work_dir.unwrap_or(std::path::Path::new("/"));
            (
                None,
                cstring(dir.as_os_str().as_bytes(), "work_dir", program)?,
            )
        }
    };
    // With its own file-system view a run needs Landlock only for the network and scopes
    // (one ruleset for all runs); without one, for the files too.
    let own_ruleset = match (&sb.mech.landlock, &fs, host_work_dir) {
        (Some(ll), None, Some(dir)) => Some(
            ll.prepare(&req.read_only, dir)
                .map_err(|e| spawn_err(format!("Landlock: {e}")))?,
        ),
        _ => None,
    };
    let ruleset = match &fs {
        Some(_) => sb.scoped_ruleset.as_ref(),
        None => own_ruleset.as_ref(),
    };
    let baseline = match slot.cg.as_mut() {
        Some(cg) => Some(
            cg.prepare(lim.memory_bytes, lim.processes)
                .map_err(|e| setup_err("preparing cgroups", e))?,
        ),
        None => None,
    };
    let base_fd = fs.as_ref().map_or(-1, |fs| fs.base_fd);
    let plan = new_plan(
        sb,
        req,
        program,
        &io,
        ChildSpec {
            work_dir,
            uid,
            cgroup_procs: slot.cg.as_ref().map(|c| c.procs_fds()).unwrap_or_default(),
            netns: slot.netns.as_ref().map_or(-1, |f| f.as_raw_fd()),
            ruleset: ruleset.map(|r| (r.fd.as_raw_fd(), r.proc_self_access)),
            seccomp: sb.seccomp[usize::from(lim.processes <= 1)].clone(),
            child_stack_top: slot.child_stack.top(),
            fs,
            done_fd: slot.done.as_raw_fd(),
            more_fds: [slot.done.as_raw_fd(), base_fd]
                .into_iter()
                .filter(|fd| *fd >= 0)
                .collect(),
        },
    )?;

    let mut ns_flags = if sb.mech.root {
        libc::CLONE_NEWPID
    } else {
        libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC
    };
    // A proxy that joins its slot's base makes its own copy there: a copy of the harness's
    // namespace made here would only be thrown away again (and dropping a mount namespace
    // waits for an RCU grace period, in the proxy, before the program starts).
    if plan.fs.as_ref().is_some_and(|fs| fs.base_fd < 0) {
        ns_flags |= libc::CLONE_NEWNS;
    }

    // --- spawn ---
    let start = Instant::now();
    // A stack of its own: a finished proxy may still be exiting while the slot's next run
    // starts.
    let proxy_stack = take_stack().map_err(|e| setup_err("stack", e))?;
    // A count left by an earlier run that was killed after it finished.
    let mut stale = 0u64;
    // SAFETY: non-blocking read of our eventfd's counter into a local.
    unsafe { libc::read(slot.done.as_raw_fd(), (&mut stale as *mut u64).cast(), 8) };
    // SAFETY: `plan` is boxed (stable address) and is read by the proxy only until it has
    // either been reaped (the guard below) or said it finished; its stack moves with the
    // guard and is freed only once the proxy is gone.
    let (proxy_pid, pidfd) = unsafe { spawn::start_proxy(&plan, proxy_stack.top(), ns_flags) }
        .map_err(|e| spawn_err(format!("creating the sandbox process: {e}")))?;
    let mut proxy = ProxyGuard {
        pidfd,
        stack: Some(proxy_stack),
        reaped: false,
    };
    // The children hold their own copies now.
    let (out_r, err_r) = io.into_readers();

    let mut probe = RunProbe {
        cg: slot.cg.as_ref().zip(baseline),
        report: &plan.report,
        proxy_pid,
    };
    let mon = supervise::supervise(
        proxy.pidfd.as_raw_fd(),
        slot.done.as_raw_fd(),
        out_r,
        err_r,
        start,
        req,
        &mut probe,
    )?;
    proxy.reaped = true;
    if mon.rusage.is_none() {
        // Finished but still exiting: reap it in the background.
        if let (Some(stack), Ok(fd)) = (proxy.stack.take(), proxy.pidfd.try_clone()) {
            reap_later(fd, stack);
        } else {
            let _ = sys::wait_pidfd(proxy.pidfd.as_raw_fd());
        }
    }
    drop(own_ruleset);

    if let Some(e) = failed_step(&plan, program) {
        return Err(e);
    }
    let mut limit_hit = mon.limit_hit;
    let termination = if plan.report.has_status.load(Ordering::SeqCst) {
        let st = plan.report.status.load(Ordering::SeqCst);
        if libc::WIFSIGNALED(st) {
            Termination::Signaled(libc::WTERMSIG(st))
        } else {
            Termination::Exited(libc::WEXITSTATUS(st))
        }
    } else if !plan.report.started.load(Ordering::SeqCst) && limit_hit.is_none() {
        return Err(
            spawn_err("the sandbox process ended before the program started".into()).into(),
        );
    } else {
        // We killed the proxy (a limit) before the contestant was reaped.
        Termination::Signaled(libc::SIGKILL)
    };

    let figures = match (&slot.cg, baseline) {
        (Some(cg), Some(base)) => {
            cgroup_figures(sb, cg, base, &mut limit_hit, SlotOwned::default())
        }
        _ => {
            // Every process of the run, reaped by the proxy (or the proxy's own rusage when
            // it was killed before it could say so).
            let tree_cpu = match mon.rusage {
                Some(ru) => sys::tv(ru.ru_utime) + sys::tv(ru.ru_stime),
                None => Duration::from_micros(
                    plan.report.tree_cpu_us.load(Ordering::SeqCst).max(0) as u64,
                ),
            };
            // ru_maxrss of a process started with CLONE_VM includes the harness's own peak RSS
            // (the kernel folds the old address space's high-water mark in at exec), so it is
            // only the contestant's figure when it exceeds the harness's peak.
            let reported = plan
                .report
                .maxrss_kib
                .load(Ordering::SeqCst)
                .max(plan.report.tree_maxrss_kib.load(Ordering::SeqCst))
                .max(0) as u64;
            let harness_peak_kib = procfs::status_memory("/proc/self/status").1 / 1024;
            let polled = mon.polled_peak_bytes / 1024;
            let peak = if reported > harness_peak_kib {
                reported.max(polled)
            } else {
                polled
            };
            if peak.saturating_mul(1024) > lim.memory_bytes {
                limit_hit = limit_hit.or(Some(LimitHit::Memory));
            }
            (tree_cpu.max(mon.polled_cpu), peak, 0)
        }
    };
    let disk = (
        plan.report.disk_used.load(Ordering::SeqCst),
        plan.report.disk_size.load(Ordering::SeqCst),
    );
    Ok(outcome(mon, termination, limit_hit, figures, lim, disk))
}
