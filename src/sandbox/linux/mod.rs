//! The real sandbox for Linux: [`LinuxSandbox`].
//!
//! # What a run gets
//!
//! Every run starts under a tiny *proxy init* in a fresh pid namespace (and IPC namespace);
//! the contestant is its only child (see [`spawn`] for why). Before `execve` the child, using
//! only raw system calls on data prepared in advance, wires stdin/stdout/stderr, joins the
//! slot's cgroups and network namespace, enters `work_dir`, switches to the slot's uid/gid,
//! lowers resource limits, sets `no_new_privs`, applies a Landlock ruleset and installs a
//! short seccomp deny-list. Nothing is forked from the harness (`CLONE_VM` throughout).
//!
//! Two configurations, chosen by [`LinuxSandbox::new`] from what the machine allows:
//!
//! * **root with writable cgroup v1** (memory, pids, cpuacct): per slot a cgroup triple under
//!   `/sys/fs/cgroup/<ctrl>/judge/<pid>-<instance>-slot<N>`, an empty network namespace
//!   joined with `setns`, and a dedicated uid/gid (60000 + n). Memory is limited by
//!   `memory.limit_in_bytes` (MLE = the cgroup's `oom_kill` counter rose), CPU time is
//!   `cpuacct.usage` (every process of the run, orphans included), processes by `pids.max`
//!   and `RLIMIT_NPROC`.
//! * **ordinary user** (or root without cgroups): the proxy is started in a new user
//!   namespace with new pid, network and IPC namespaces (a fresh network namespace per run
//!   costs ~1 ms). The contestant process's `/proc/<pid>/stat` and `status` are polled
//!   (1 ms after start, then every 10 ms): CPU time (its threads and reaped children) and
//!   RSS, killing on overrun. Memory is thus enforced by polling (a program can overshoot by
//!   what it touches in one interval), with `RLIMIT_DATA` = max(limit × (processes + 2),
//!   1 GiB) + 4 GiB, as a backstop only (thread stacks count as data; a refused allocation
//!   would turn an MLE into an RE, so the backstop leaves the polling room to see it). Processes are limited by
//!   `RLIMIT_NPROC`, which the kernel counts per user namespace. Known gaps of this path:
//!   CPU and memory of *descendants* are only seen once the contestant has waited for them
//!   (an orphan's CPU is not counted; the wall limit and the per-process `RLIMIT_CPU` bound
//!   it).
//!
//! Both: seccomp, Landlock (read+exec: system dirs, `read_only`; everything: `work_dir`; no
//! TCP; no signals/abstract sockets outside the run), `RLIMIT_CPU` = ⌈limit⌉ + 1 s backstop,
//! `RLIMIT_STACK` = memory limit, `RLIMIT_FSIZE` = max(memory, output) limit, `RLIMIT_CORE`
//! = 0, `RLIMIT_NOFILE` = 512, never `RLIMIT_AS` (it breaks the JVM and turns MLE into
//! crashes).
//!
//! # Which figures a caller gets
//!
//! * `cpu_time`: root path `cpuacct.usage` of the slot cgroup (every process of the run);
//!   other path the larger of the last poll and the kernel's rusage of the proxy (the
//!   contestant plus everything it waited for).
//! * `wall_time`: from just before the first clone until the proxy is reaped.
//! * `peak_memory_kib`: root path **`memory.max_usage_in_bytes` of the slot cgroup** (all
//!   processes of the run together; includes page cache and tmpfs pages the run wrote,
//!   excludes shared library pages first charged to another cgroup — so the JVM reports
//!   ~16–20 MiB where its RSS is ~34 MiB). Other path: the largest `VmHWM`/RSS of the
//!   contestant process seen by the poll, or its `ru_maxrss` when that exceeds the harness's
//!   own peak RSS — the kernel folds the spawning address space's high-water mark into
//!   `ru_maxrss` at exec, and the contestant is spawned from the harness's address space, so
//!   a smaller `ru_maxrss` says nothing about the program. A program that ends before the
//!   first sample (1 ms) reports 0 there.
//!
//! # Caller obligations
//!
//! `argv[0]` must be an absolute path executable by an unprivileged uid (its directories
//! searchable by "others" on the root path). `work_dir` is made owned by the slot's uid.

mod cgroup;
mod policy;
mod spawn;
mod sys;

use std::ffi::CString;
use std::fs::File;
use std::io::{Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::{LimitHit, RunOutcome, RunRequest, Sandbox, SandboxError, Stdin, Stdout, Termination};
use cgroup::SlotCgroups;
use policy::Landlock;
use spawn::{Plan, Report};
use sys::Stack;

/// How often CPU time (and, without cgroups, memory) is checked.
const POLL_INTERVAL: Duration = Duration::from_millis(10);
/// After the run ended, how long to wait for the pipes to reach EOF.
const DRAIN_GRACE: Duration = Duration::from_millis(200);
const FIRST_UID: u32 = 60000;
const UID_RANGE: u32 = 5000;

static INSTANCES: AtomicU32 = AtomicU32::new(0);
static NEXT_UID: AtomicU32 = AtomicU32::new(u32::MAX);

/// Which isolation mechanisms this machine allows.
#[derive(Debug, Clone, Copy)]
struct Mechanisms {
    cgroups: bool,
    /// Can switch uid and join prepared network namespaces (CAP_SETUID, CAP_SYS_ADMIN).
    root: bool,
}

struct Slot {
    uid: u32,
    cg: Option<SlotCgroups>,
    netns: Option<OwnedFd>,
    proxy_stack: Stack,
    child_stack: Stack,
}

/// The Linux sandbox. Create once with [`LinuxSandbox::new`]; `run` may be called from up
/// to `slots` threads at once (more callers block until a slot is free).
pub struct LinuxSandbox {
    mech: Mechanisms,
    slots: Vec<Mutex<Slot>>,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
    landlock: Option<Landlock>,
    seccomp: Vec<libc::sock_filter>,
    /// Signals not at SIG_DFL in the harness when `new` ran, plus SIGPIPE (which Rust
    /// programs ignore): reset in the child. Handlers installed later are reset by `execve`
    /// anyway; only signals *ignored* after `new` would leak into the program.
    reset_signals: Vec<i32>,
    warning: Option<String>,
}

fn setup_err(what: &str, e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Setup(format!("{what}: {e}"))
}

/// Moves an fd to a number >= 3 so it never collides with the stdio targets.
fn high_fd(fd: OwnedFd) -> std::io::Result<OwnedFd> {
    if fd.as_raw_fd() >= 3 {
        return Ok(fd);
    }
    // SAFETY: duplicating an fd we own.
    let n = sys::cvt(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) })?;
    // SAFETY: `n` is a fresh fd owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(n) })
}

/// A fresh empty network namespace, held by an fd (created on a short-lived thread so the
/// harness's own threads keep their namespace).
fn new_netns() -> std::io::Result<OwnedFd> {
    std::thread::spawn(|| -> std::io::Result<OwnedFd> {
        // SAFETY: affects only this thread, which ends right after.
        sys::cvt(unsafe { libc::unshare(libc::CLONE_NEWNET) })?;
        let f = File::open("/proc/thread-self/ns/net")?;
        high_fd(OwnedFd::from(f))
    })
    .join()
    .map_err(|_| std::io::Error::other("netns thread panicked"))?
}

/// Tries `clone(CLONE_VM | CLONE_VFORK | flags)` of a child that exits at once.
fn probe_clone(flags: i32) -> bool {
    extern "C" fn child(_: *mut libc::c_void) -> libc::c_int {
        0
    }
    let Ok(stack) = Stack::new(16 * 1024) else {
        return false;
    };
    // SAFETY: the child only returns; vfork keeps the stack alive until then.
    let pid = unsafe {
        libc::clone(
            child,
            stack.top() as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | flags | libc::SIGCHLD,
            std::ptr::null_mut(),
        )
    };
    if pid <= 0 {
        return false;
    }
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid, &mut status, libc::__WALL) };
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

impl LinuxSandbox {
    /// Detects the available mechanisms and prepares `slots` worker slots (cgroups, network
    /// namespaces, uids, stacks). Fails with [`SandboxError::Setup`] when neither seccomp nor
    /// namespaces are usable (a run would be unconfined) or when preparing a slot fails.
    pub fn new(slots: usize) -> Result<LinuxSandbox, SandboxError> {
        let slots = slots.max(1);
        // SAFETY: plain getters.
        let root = unsafe { libc::geteuid() } == 0;
        // SAFETY: PR_GET_SECCOMP takes no pointers; EINVAL when seccomp is compiled out.
        let seccomp = unsafe { libc::prctl(libc::PR_GET_SECCOMP) } >= 0;
        let landlock = Landlock::detect();
        let cgroups = root && cgroup::available();
        let userns = !root
            && probe_clone(
                libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC,
            );
        let pidns = root || userns;
        if !seccomp && !pidns {
            return Err(SandboxError::Setup(
                "neither seccomp nor namespaces are available: refusing to run programs unconfined"
                    .into(),
            ));
        }
        if !pidns {
            return Err(SandboxError::Setup(
                "no pid namespace available (need root or unprivileged user namespaces): \
                 processes of a run could not be contained"
                    .into(),
            ));
        }
        let mech = Mechanisms { cgroups, root };

        let instance = INSTANCES.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        // Start uids at a pid-derived offset so concurrent judge processes rarely share one.
        let _ = NEXT_UID.compare_exchange(
            u32::MAX,
            (pid.wrapping_mul(37)) % UID_RANGE,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
        let mut slot_vec = Vec::with_capacity(slots);
        for n in 0..slots {
            let uid = FIRST_UID + NEXT_UID.fetch_add(1, Ordering::Relaxed) % UID_RANGE;
            let cg = if cgroups {
                Some(
                    SlotCgroups::create(&format!("{pid}-{instance}-slot{n}"))
                        .map_err(|e| setup_err("creating cgroups", e))?,
                )
            } else {
                None
            };
            let netns = if root {
                Some(new_netns().map_err(|e| setup_err("creating network namespace", e))?)
            } else {
                None
            };
            slot_vec.push(Mutex::new(Slot {
                uid,
                cg,
                netns,
                proxy_stack: Stack::new(64 * 1024).map_err(|e| setup_err("stack", e))?,
                child_stack: Stack::new(64 * 1024).map_err(|e| setup_err("stack", e))?,
            }));
        }

        let mut missing = Vec::new();
        if !root {
            missing.push("not root: no per-slot uid, fresh network namespace per run");
        }
        if !cgroups {
            missing.push(
                "no cgroups: memory limit enforced by polling the program's RSS every 10 ms \
                 (RLIMIT_DATA backstop), CPU time polled from /proc and totalled from rusage, \
                 peak memory from polled VmHWM / ru_maxrss",
            );
        }
        if !seccomp {
            missing.push("no seccomp filter");
        }
        if landlock.is_none() {
            missing.push("no Landlock: the program can read any file its uid can read");
        }
        let warning = if missing.is_empty() {
            None
        } else {
            Some(missing.join("; "))
        };

        Ok(LinuxSandbox {
            mech,
            slots: slot_vec,
            free: Mutex::new((0..slots).rev().collect()),
            freed: Condvar::new(),
            landlock,
            seccomp: if seccomp {
                policy::seccomp_program()
            } else {
                Vec::new()
            },
            reset_signals: {
                let mut v = spawn::non_default_signals();
                if !v.contains(&libc::SIGPIPE) {
                    v.push(libc::SIGPIPE);
                }
                v
            },
            warning,
        })
    }

    /// True when runs use cgroups (root path).
    pub fn uses_cgroups(&self) -> bool {
        self.mech.cgroups
    }

    /// The uids used by this sandbox's slots (for finding leftover processes).
    pub fn slot_uids(&self) -> Vec<u32> {
        self.slots
            .iter()
            .filter_map(|s| s.lock().ok().map(|s| s.uid))
            .collect()
    }

    fn acquire(&self) -> usize {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(i) = free.pop() {
                return i;
            }
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn release(&self, i: usize) {
        self.free.lock().unwrap_or_else(|e| e.into_inner()).push(i);
        self.freed.notify_one();
    }
}

struct SlotGuard<'a> {
    sb: &'a LinuxSandbox,
    index: usize,
}

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        self.sb.release(self.index);
    }
}

fn cstring(s: &[u8], what: &str, program: &str) -> Result<CString, SandboxError> {
    CString::new(s).map_err(|_| SandboxError::Spawn {
        program: program.to_string(),
        message: format!("{what} contains a NUL byte"),
    })
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two fds.
    sys::cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: fresh fds we own.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: flag change on our own fd.
    unsafe { libc::fcntl(r.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    Ok((high_fd(r)?, high_fd(w)?))
}

fn stdin_fd(stdin: &Stdin) -> std::io::Result<OwnedFd> {
    let f = match stdin {
        Stdin::Pipe(fd) => return high_fd(fd.take().ok_or_else(handed_over_twice)?),
        Stdin::File(p) => File::open(p)?,
        Stdin::Null => File::open("/dev/null")?,
        Stdin::Bytes(b) => {
            // A sealed-size memfd instead of a pipe: no writer thread, no SIGPIPE, seekable.
            // SAFETY: the name is a valid C string.
            let fd = sys::cvt(unsafe {
                libc::memfd_create(c"judge-stdin".as_ptr(), libc::MFD_CLOEXEC)
            })?;
            // SAFETY: fresh fd we own.
            let mut f = unsafe { File::from_raw_fd(fd) };
            f.write_all(b)?;
            f.rewind()?;
            f
        }
    };
    high_fd(OwnedFd::from(f))
}

fn handed_over_twice() -> std::io::Error {
    std::io::Error::other("the pipe was already handed to an earlier run")
}

#[allow(clippy::unnecessary_cast)] // the resource type differs between libcs
fn rl(res: libc::__rlimit_resource_t, value: u64) -> (u32, libc::rlimit64) {
    let mut cur = libc::rlimit64 {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: reading our own limit.
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

/// One poll of a process: CPU time (its threads plus reaped children), current RSS and
/// peak RSS (`VmHWM`) of its address space, in bytes.
#[derive(Debug, Clone, Copy, Default)]
struct ProcSample {
    cpu: Duration,
    rss: u64,
    hwm: u64,
}

fn proc_sample(pid: i32) -> Option<ProcSample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Field numbers as in proc(5); `rest` starts at field 3 (state).
    let num = |i: usize| {
        f.get(i - 3)
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // SAFETY: sysconf getter.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let ticks = num(14) + num(15) + num(16) + num(17);
    let (rss, hwm) = status_memory(&format!("/proc/{pid}/status"));
    Some(ProcSample {
        cpu: Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / hz)),
        rss,
        hwm,
    })
}

/// (VmRSS, VmHWM) in bytes from a /proc status file; zeros when absent (e.g. a zombie).
fn status_memory(path: &str) -> (u64, u64) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let kib = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    };
    (kib("VmRSS:"), kib("VmHWM:"))
}

/// Kills the proxy (and so the whole run) and reaps it if the monitor did not, so the
/// children never outlive the plan they read from.
struct ProxyGuard {
    pidfd: OwnedFd,
    reaped: bool,
}

impl Drop for ProxyGuard {
    fn drop(&mut self) {
        if !self.reaped {
            sys::pidfd_kill(self.pidfd.as_raw_fd(), libc::SIGKILL);
            let _ = sys::wait_pidfd(self.pidfd.as_raw_fd());
        }
    }
}

impl Sandbox for LinuxSandbox {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        let program = request.argv.first().cloned().unwrap_or_default();
        if program.is_empty() || !program.starts_with('/') {
            return Err(SandboxError::Spawn {
                program,
                message: "argv[0] must be an absolute path".into(),
            });
        }
        let _guard = SlotGuard {
            sb: self,
            index: self.acquire(),
        };
        let mut slot = self.slots[_guard.index]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        run_in_slot(self, &mut slot, request, &program)
    }

    fn warning(&self) -> Option<String> {
        self.warning.clone()
    }
}

fn run_in_slot(
    sb: &LinuxSandbox,
    slot: &mut Slot,
    req: &RunRequest,
    program: &str,
) -> Result<RunOutcome, SandboxError> {
    let lim = &req.limits;
    let spawn_err = |message: String| SandboxError::Spawn {
        program: program.to_string(),
        message,
    };

    // --- everything the children need, prepared before cloning ---
    let stdin = stdin_fd(&req.stdin).map_err(|e| spawn_err(format!("opening stdin: {e}")))?;
    let (out_r, out_w) = pipe()?;
    // A caller's pipe replaces the capture pipe, whose write end then closes at once.
    let out_w = match &req.stdout {
        Stdout::Capture => out_w,
        Stdout::Pipe(fd) => high_fd(
            fd.take()
                .ok_or_else(handed_over_twice)
                .map_err(|e| spawn_err(format!("stdout: {e}")))?,
        )?,
    };
    let (err_r, err_w) = pipe()?;
    if sb.mech.root {
        let wd = cstring(req.work_dir.as_os_str().as_bytes(), "work_dir", program)?;
        // SAFETY: valid C string.
        if unsafe { libc::chown(wd.as_ptr(), slot.uid, slot.uid) } != 0 {
            return Err(spawn_err(format!(
                "making work_dir {} writable for the sandbox: {}",
                req.work_dir.display(),
                std::io::Error::last_os_error()
            )));
        }
    }
    let ruleset = match &sb.landlock {
        Some(ll) => Some(
            ll.prepare(&req.read_only, &req.work_dir)
                .map_err(|e| spawn_err(format!("Landlock: {e}")))?,
        ),
        None => None,
    };
    let baseline = match slot.cg.as_mut() {
        Some(cg) => Some(
            cg.prepare(lim.memory_bytes, lim.processes)
                .map_err(|e| setup_err("preparing cgroups", e))?,
        ),
        None => None,
    };

    let cpu_secs = lim.cpu_time.as_secs() + u64::from(lim.cpu_time.subsec_nanos() > 0) + 1;
    let mut rlimits = vec![
        rl(libc::RLIMIT_CPU, cpu_secs),
        rl(libc::RLIMIT_CORE, 0),
        rl(libc::RLIMIT_FSIZE, lim.memory_bytes.max(lim.output_bytes)),
        rl(libc::RLIMIT_NOFILE, 512),
        rl(libc::RLIMIT_STACK, lim.memory_bytes),
        // With a pids cgroup, `pids.max` is the limit that must refuse forks: it counts the
        // refusals (`pids.events`), so a fork bomb is reported as such. RLIMIT_NPROC (per uid)
        // is then only a looser second line.
        rl(
            libc::RLIMIT_NPROC,
            u64::from(lim.processes.max(1)) + if sb.mech.cgroups { 2 } else { 0 },
        ),
    ];
    if !sb.mech.cgroups {
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

    let mut keep = vec![stdin.as_raw_fd(), out_w.as_raw_fd(), err_w.as_raw_fd()];
    let cgroup_procs: Vec<i32> = slot
        .cg
        .as_ref()
        .map(|c| c.procs_fds().to_vec())
        .unwrap_or_default();
    keep.extend(&cgroup_procs);
    let netns = slot.netns.as_ref().map(|f| f.as_raw_fd()).unwrap_or(-1);
    if netns >= 0 {
        keep.push(netns);
    }
    if let Some(r) = &ruleset {
        keep.push(r.fd.as_raw_fd());
    }
    let mut argv = Vec::with_capacity(req.argv.len());
    for a in &req.argv {
        argv.push(cstring(a.as_bytes(), "an argument", program)?);
    }
    let mut envp = Vec::with_capacity(req.env.len());
    for (k, v) in &req.env {
        if k.contains('=') {
            return Err(spawn_err(format!(
                "environment variable name {k:?} contains '='"
            )));
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
        stdio: [stdin.as_raw_fd(), out_w.as_raw_fd(), err_w.as_raw_fd()],
        keep_fds: keep,
        cgroup_procs,
        netns,
        work_dir: cstring(req.work_dir.as_os_str().as_bytes(), "work_dir", program)?,
        ids: if sb.mech.root {
            Some((slot.uid, slot.uid))
        } else {
            None
        },
        rlimits,
        landlock_fd: ruleset.as_ref().map(|r| r.fd.as_raw_fd()).unwrap_or(-1),
        landlock_proc_access: ruleset.as_ref().map(|r| r.proc_self_access).unwrap_or(0),
        proc_self: c"/proc/self".to_owned(),
        seccomp: sb.seccomp.clone(),
        reset_signals: sb.reset_signals.clone(),
        seccomp_prog: libc::sock_fprog {
            len: 0,
            filter: std::ptr::null_mut(),
        },
        child_stack_top: slot.child_stack.top(),
        report: Report::default(),
    });
    plan.finish_pointers();

    let ns_flags = if sb.mech.root {
        libc::CLONE_NEWPID
    } else {
        libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC
    };

    // --- spawn ---
    let start = Instant::now();
    // SAFETY: `plan` is boxed (stable address) and lives until after the guard below has
    // reaped the proxy; the stack belongs to the slot we hold.
    let pidfd = unsafe { spawn::start_proxy(&plan, slot.proxy_stack.top(), ns_flags) }
        .map_err(|e| spawn_err(format!("creating the sandbox process: {e}")))?;
    // SAFETY: fresh pidfd owned by us.
    let mut proxy = ProxyGuard {
        pidfd: unsafe { OwnedFd::from_raw_fd(pidfd) },
        reaped: false,
    };
    // The children hold their own copies now.
    drop(out_w);
    drop(err_w);
    drop(stdin);

    let mon = monitor(slot, &plan, &mut proxy, out_r, err_r, start, req)?;
    drop(ruleset);

    let step = plan.report.err_step.load(Ordering::SeqCst);
    if step != 0 {
        let errno = plan.report.err_errno.load(Ordering::SeqCst);
        return Err(spawn_err(format!(
            "{} failed: {}",
            spawn::step_name(step),
            std::io::Error::from_raw_os_error(errno)
        )));
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
        return Err(spawn_err(
            "the sandbox process ended before the program started".into(),
        ));
    } else {
        // We killed the proxy (a limit) before the contestant was reaped.
        Termination::Signaled(libc::SIGKILL)
    };

    let (cpu_time, peak_memory_kib) = match (&slot.cg, baseline) {
        (Some(cg), Some(base)) => {
            let u = cg.usage(base);
            if u.oom_killed {
                limit_hit = limit_hit.or(Some(LimitHit::Memory));
            }
            // A refused fork that the program did not survive is the root cause of whatever
            // limit fired next: a fork bomb also piles up kernel memory and burns time.
            if u.pids_limited && termination != Termination::Exited(0) {
                limit_hit = Some(LimitHit::Processes);
            }
            // Belt and braces: the pid namespace is gone, so the slot must be empty.
            if cg.has_tasks() {
                cg.kill_remaining();
            }
            // Page cache left by files the run wrote would count toward the next run's peak.
            if cg.charged_bytes() > (4 << 20) {
                cg.force_empty();
            }
            (Duration::from_nanos(u.cpu_ns), u.peak_bytes / 1024)
        }
        _ => {
            let rusage_cpu = sys::tv(mon.rusage.ru_utime) + sys::tv(mon.rusage.ru_stime);
            // ru_maxrss of a process started with CLONE_VM includes the harness's own peak RSS
            // (the kernel folds the old address space's high-water mark in at exec), so it is
            // only the contestant's figure when it exceeds the harness's peak.
            let reported = plan.report.maxrss_kib.load(Ordering::SeqCst).max(0) as u64;
            let harness_peak_kib = status_memory("/proc/self/status").1 / 1024;
            let polled = mon.polled_peak_bytes / 1024;
            let peak = if reported > harness_peak_kib {
                reported.max(polled)
            } else {
                polled
            };
            if peak.saturating_mul(1024) > lim.memory_bytes {
                limit_hit = limit_hit.or(Some(LimitHit::Memory));
            }
            (rusage_cpu.max(mon.polled_cpu), peak)
        }
    };
    if cpu_time > lim.cpu_time {
        limit_hit = limit_hit.or(Some(LimitHit::CpuTime));
    }

    Ok(RunOutcome {
        termination,
        limit_hit,
        cpu_time,
        wall_time: mon.wall,
        peak_memory_kib,
        stdout: mon.stdout,
        stderr: mon.stderr,
    })
}

struct Monitored {
    limit_hit: Option<LimitHit>,
    wall: Duration,
    rusage: libc::rusage,
    polled_cpu: Duration,
    polled_peak_bytes: u64,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
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

fn monitor(
    slot: &Slot,
    plan: &Plan,
    proxy: &mut ProxyGuard,
    out_r: OwnedFd,
    err_r: OwnedFd,
    start: Instant,
    req: &RunRequest,
) -> Result<Monitored, SandboxError> {
    let lim = &req.limits;
    let pidfd = proxy.pidfd.as_raw_fd();
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut out_open = true;
    let mut err_open = true;
    let mut limit_hit: Option<LimitHit> = None;
    let wall_deadline = start + lim.wall_time;
    // Without cgroups, sample early too: short programs would otherwise have no peak figure.
    let mut next_tick = start
        + if slot.cg.is_some() {
            POLL_INTERVAL
        } else {
            Duration::from_millis(1)
        };
    let mut contestant: Option<i32> = None;
    let mut polled_cpu = Duration::ZERO;
    let mut polled_peak = 0u64;
    let mut killed = false;
    let kill = |why: LimitHit, limit_hit: &mut Option<LimitHit>, killed: &mut bool| {
        if limit_hit.is_none() {
            *limit_hit = Some(why);
        }
        if !*killed {
            sys::pidfd_kill(pidfd, libc::SIGKILL);
            *killed = true;
        }
    };

    loop {
        let now = Instant::now();
        let until = next_tick.min(wall_deadline).saturating_duration_since(now);
        let mut fds = [
            libc::pollfd {
                fd: if out_open { out_r.as_raw_fd() } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if err_open { err_r.as_raw_fd() } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: pidfd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let ts = libc::timespec {
            tv_sec: until.as_secs() as libc::time_t,
            tv_nsec: until.subsec_nanos() as libc::c_long,
        };
        // SAFETY: three valid pollfd entries.
        let r = unsafe { libc::ppoll(fds.as_mut_ptr(), 3, &ts, std::ptr::null()) };
        if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return Err(SandboxError::Io(std::io::Error::last_os_error()));
        }
        if out_open && fds[0].revents != 0 {
            let (eof, over) = drain(out_r.as_raw_fd(), &mut stdout, lim.output_bytes);
            out_open = !eof;
            if over {
                kill(LimitHit::Output, &mut limit_hit, &mut killed);
            }
        }
        if err_open && fds[1].revents != 0 {
            let (eof, _) = drain(err_r.as_raw_fd(), &mut stderr, lim.stderr_bytes);
            err_open = !eof;
        }
        if fds[2].revents != 0 {
            break;
        }
        let now = Instant::now();
        if now >= wall_deadline {
            kill(LimitHit::WallTime, &mut limit_hit, &mut killed);
            // Keep waiting for the (now dying) proxy, but do not spin.
            next_tick = now + POLL_INTERVAL;
            continue;
        }
        if now >= next_tick {
            next_tick += POLL_INTERVAL;
            if next_tick < now {
                next_tick = now + POLL_INTERVAL;
            }
            if killed {
                continue;
            }
            if let Some(cg) = &slot.cg {
                if Duration::from_nanos(cg.cpu_ns()) > lim.cpu_time {
                    kill(LimitHit::CpuTime, &mut limit_hit, &mut killed);
                }
            } else {
                if contestant.is_none() && plan.report.started.load(Ordering::SeqCst) {
                    contestant =
                        Some(plan.report.host_pid.load(Ordering::SeqCst)).filter(|p| *p > 0);
                }
                if let Some(smp) = contestant.and_then(proc_sample) {
                    polled_cpu = polled_cpu.max(smp.cpu);
                    polled_peak = polled_peak.max(smp.hwm).max(smp.rss);
                    if smp.cpu > lim.cpu_time {
                        kill(LimitHit::CpuTime, &mut limit_hit, &mut killed);
                    } else if smp.rss > lim.memory_bytes {
                        kill(LimitHit::Memory, &mut limit_hit, &mut killed);
                    }
                }
            }
        }
    }

    let (_info, rusage) = sys::wait_pidfd(pidfd)?;
    proxy.reaped = true;
    let wall = start.elapsed();

    // Every process of the run is gone; read what is left in the pipes. Another process
    // that briefly inherited a write end (a concurrent spawn) may delay EOF slightly.
    let drain_deadline = Instant::now() + DRAIN_GRACE;
    while out_open || err_open {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let mut fds = [
            libc::pollfd {
                fd: if out_open { out_r.as_raw_fd() } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if err_open { err_r.as_raw_fd() } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: two valid pollfd entries.
        unsafe { libc::poll(fds.as_mut_ptr(), 2, left.as_millis().max(1) as i32) };
        if out_open && fds[0].revents != 0 {
            let (eof, over) = drain(out_r.as_raw_fd(), &mut stdout, lim.output_bytes);
            out_open = !eof;
            if over && limit_hit.is_none() {
                limit_hit = Some(LimitHit::Output);
            }
        }
        if err_open && fds[1].revents != 0 {
            let (eof, _) = drain(err_r.as_raw_fd(), &mut stderr, lim.stderr_bytes);
            err_open = !eof;
        }
    }

    Ok(Monitored {
        limit_hit,
        wall,
        rusage,
        polled_cpu,
        polled_peak_bytes: polled_peak,
        stdout,
        stderr,
    })
}
