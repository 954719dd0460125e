//! Starting the contestant: a proxy init and the contestant child, both sharing the harness's
//! address space until `execve`.
//!
//! ```text
//!   harness thread ──clone(CLONE_VM | CLONE_NEWPID | CLONE_PIDFD …)──► proxy (pid 1 of a new pid ns)
//!                                                                     │ clone(CLONE_VM | CLONE_VFORK)
//!                                                                     ▼
//!                                         contestant child: dup2, cgroups, setns, chdir, setuid,
//!                                         rlimits, no_new_privs, Landlock, seccomp, execve
//! ```
//!
//! Why a proxy: a program that is pid 1 of its namespace cannot kill itself with a signal it
//! does not handle (`abort()` would end in SIGSEGV). The proxy reaps everything, records the
//! contestant's wait status in [`Report`] and exits, which makes the kernel kill every other
//! process of the namespace. Killing the proxy (SIGKILL via its pidfd) kills the whole run.
//!
//! Nothing is forked: both clones share memory with the harness, so spawning costs the same
//! whatever the harness's size. Code in the two children uses only raw system calls
//! ([`super::sys`]) and data prepared in [`Plan`] before the first clone.

use std::ffi::{c_void, CString};
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering};

use super::fsview::MountOp;
use super::sys::{self, sc1, sc2, sc3, sc4};

mod mounts;

pub use mounts::build_base;
use mounts::build_box;
pub(super) use mounts::{mount, run_ops};

/// Steps of the child setup, reported when one fails (see [`step_name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Step {
    CloseFds = 1,
    CloneChild,
    Stdio,
    JoinCgroup,
    JoinNetns,
    Chdir,
    SetGroups,
    SetGid,
    SetUid,
    SetRlimit,
    NoNewPrivs,
    Landlock,
    Seccomp,
    Execve,
    /// Building the file-system view (the failing step's index is in `Report::err_detail`).
    Mount,
    /// Mapping the harness's uid and gid into the run's user namespace.
    IdMaps,
}

pub fn step_name(step: u32) -> &'static str {
    match step {
        1 => "closing inherited file descriptors",
        2 => "creating the process",
        3 => "setting up stdin/stdout/stderr",
        4 => "joining the slot's cgroups",
        5 => "joining the slot's network namespace",
        6 => "changing to work_dir",
        7 => "dropping supplementary groups",
        8 => "switching to the sandbox gid",
        9 => "switching to the sandbox uid",
        10 => "setting resource limits",
        11 => "setting no_new_privs",
        12 => "applying the Landlock ruleset",
        13 => "installing the seccomp filter",
        14 => "execve",
        15 => "building the file-system view",
        16 => "writing the user namespace's uid/gid maps",
        _ => "unknown step",
    }
}

/// Written by the children, read by the harness after it reaped the proxy.
#[derive(Default)]
pub struct Report {
    /// The contestant's `execve` succeeded (set by the proxy when vfork returns).
    pub started: AtomicBool,
    pub has_status: AtomicBool,
    /// `wait4` status of the contestant.
    pub status: AtomicI32,
    /// ru_maxrss of the contestant and its waited-for descendants, KiB.
    pub maxrss_kib: AtomicI64,
    /// User + system CPU of the contestant and its waited-for descendants, µs.
    pub cpu_us: AtomicI64,
    /// Non-zero: the [`Step`] that failed before `execve`.
    pub err_step: AtomicU32,
    pub err_errno: AtomicI32,
    /// User + system CPU and the largest `ru_maxrss` of every process of the run (all reaped
    /// by the proxy), µs and KiB.
    pub tree_cpu_us: AtomicI64,
    pub tree_maxrss_kib: AtomicI64,
    /// Every process of the run is gone and the figures above are final.
    pub finished: AtomicBool,
    /// For [`Step::Mount`]: index of the failing [`MountOp`] (`u32::MAX`: the root setup).
    pub err_detail: AtomicU32,
    /// Bytes used and available on the box's tmpfs after the run (file-system view only).
    pub disk_used: AtomicU64,
    pub disk_size: AtomicU64,
}

/// The file-system view of one run, prepared by [`super::fsview::FsView::plan`].
pub struct FsPlan {
    /// The slot's prebuilt base (a mount namespace whose root is the box's fixed part, see
    /// [`build_base`]): the proxy joins a private copy of it and `ops` are only the per-run
    /// part, in box coordinates. -1: the proxy builds the whole box under `stage`.
    pub base_fd: i32,
    /// Host folder the box's tmpfs is mounted on.
    pub stage: CString,
    pub ops: Vec<MountOp>,
    /// Writable scratch spaces inside the box, measured after the run.
    pub scratch: Vec<CString>,
}

/// `struct landlock_path_beneath_attr`.
#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Everything the children need, prepared (allocated) before the first clone.
pub struct Plan {
    pub path: CString,
    pub argv: Vec<CString>,
    pub argv_ptrs: Vec<*const libc::c_char>,
    pub envp: Vec<CString>,
    pub envp_ptrs: Vec<*const libc::c_char>,
    /// Sources for fds 0, 1, 2 (all >= 3).
    pub stdio: [i32; 3],
    /// Every fd the children use, sorted; the proxy closes all others.
    pub keep_fds: Vec<i32>,
    pub cgroup_procs: Vec<i32>,
    /// Network namespace to join, or -1.
    pub netns: i32,
    pub work_dir: CString,
    /// (uid, gid) to switch to, if any.
    pub ids: Option<(u32, u32)>,
    pub rlimits: Vec<(u32, libc::rlimit64)>,
    /// Landlock ruleset fd (-1: none), access for `/proc/self`, the path "/proc/self".
    pub landlock_fd: i32,
    pub landlock_proc_access: u64,
    pub proc_self: CString,
    pub seccomp: Vec<libc::sock_filter>,
    /// Signals whose disposition in the harness is not SIG_DFL (reset before exec).
    pub reset_signals: Vec<i32>,
    pub seccomp_prog: libc::sock_fprog,
    pub child_stack_top: *mut u8,
    /// The run's own file-system view, built by the proxy; `None`: the host's (Landlock).
    pub fs: Option<FsPlan>,
    /// An eventfd the proxy writes when the run is over (see `Report::finished`), or -1.
    pub done_fd: i32,
    /// In a new user namespace: the lines for `/proc/self/uid_map`, `setgroups` and
    /// `gid_map` that map the harness's uid and gid to 0 (written by the proxy itself).
    pub id_maps: Option<[CString; 3]>,
    pub report: Report,
}

impl Plan {
    pub fn finish_pointers(&mut self) {
        self.argv_ptrs = self
            .argv
            .iter()
            .map(|s| s.as_ptr())
            .chain([std::ptr::null()])
            .collect();
        self.envp_ptrs = self
            .envp
            .iter()
            .map(|s| s.as_ptr())
            .chain([std::ptr::null()])
            .collect();
        self.seccomp_prog = libc::sock_fprog {
            len: self.seccomp.len() as u16,
            filter: self.seccomp.as_mut_ptr(),
        };
        self.keep_fds.sort_unstable();
        self.keep_fds.dedup();
    }
}

unsafe fn fail(plan: &Plan, step: Step, ret: isize) -> ! {
    plan.report.err_errno.store((-ret) as i32, Ordering::SeqCst);
    plan.report.err_step.store(step as u32, Ordering::SeqCst);
    // SAFETY: ends only this task (a clone child), which touches nothing after this.
    unsafe { sys::exit(127) }
}

/// Entry point of the proxy (pid 1 of the run's pid namespace). Called by `libc::clone`.
///
/// # Safety
/// `arg` must point to a [`Plan`] that outlives this process.
pub unsafe extern "C" fn proxy_main(arg: *mut c_void) -> libc::c_int {
    // SAFETY: `start_proxy` passes a prepared `Plan` that stays alive and unmodified until
    // this process has said it finished or has been reaped.
    let plan = unsafe { &*(arg as *const Plan) };
    // SAFETY: raw system calls only, on the plan's prepared buffers and on locals (this task
    // has no TLS of its own, so no libc wrapper, no allocation).
    unsafe {
        // Block every signal: the contestant must not be able to disturb its reaper, and a
        // harness handler must never run on this stack. SIGKILL still works.
        let all: u64 = !0;
        sc4(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK as usize,
            &all as *const u64 as usize,
            0,
            8,
        );
        // If the harness dies, so does the run.
        sc2(
            libc::SYS_prctl,
            libc::PR_SET_PDEATHSIG as usize,
            libc::SIGKILL as usize,
        );
        // Pid 1 of the run: not the harness thread's name (see `fsview::PID1_MASKED`).
        sc2(
            libc::SYS_prctl,
            libc::PR_SET_NAME as usize,
            super::fsview::PID1_NAME.as_ptr() as usize,
        );
        // Our fd table is a copy of the harness's: drop everything but our own fds so
        // pipes of concurrent runs are not held open.
        let mut lo: i32 = 3;
        for &fd in plan.keep_fds.iter() {
            if fd >= lo {
                if fd > lo {
                    sc3(libc::SYS_close_range, lo as usize, (fd - 1) as usize, 0);
                }
                lo = fd.wrapping_add(1);
            }
        }
        let r = sc3(libc::SYS_close_range, lo as usize, u32::MAX as usize, 0);
        if r < 0 && r != -(libc::ENOSYS as isize) {
            plan.report.err_errno.store((-r) as i32, Ordering::SeqCst);
            plan.report
                .err_step
                .store(Step::CloseFds as u32, Ordering::SeqCst);
            return 127;
        }

        if let Some(maps) = &plan.id_maps {
            let files = [
                c"/proc/self/uid_map",
                c"/proc/self/setgroups",
                c"/proc/self/gid_map",
            ];
            for (file, line) in files.iter().zip(maps.iter()) {
                let fd = sc3(
                    libc::SYS_openat,
                    libc::AT_FDCWD as usize,
                    file.as_ptr() as usize,
                    (libc::O_WRONLY | libc::O_CLOEXEC) as usize,
                );
                let r = if fd < 0 {
                    fd
                } else {
                    let w = sc3(
                        libc::SYS_write,
                        fd as usize,
                        line.as_ptr() as usize,
                        line.as_bytes().len(),
                    );
                    sc1(libc::SYS_close, fd as usize);
                    w
                };
                if r < 0 {
                    plan.report.err_errno.store((-r) as i32, Ordering::SeqCst);
                    plan.report
                        .err_step
                        .store(Step::IdMaps as u32, Ordering::SeqCst);
                    return 127;
                }
            }
        }
        if let Some(fs) = &plan.fs {
            if let Err((index, errno)) = build_box(fs) {
                plan.report.err_errno.store(errno, Ordering::SeqCst);
                plan.report.err_detail.store(index, Ordering::SeqCst);
                plan.report
                    .err_step
                    .store(Step::Mount as u32, Ordering::SeqCst);
                return 127;
            }
        }

        let pid = sys::clone_vfork(
            0,
            plan.child_stack_top,
            contestant_main,
            arg,
            std::ptr::null_mut(),
        );
        if pid < 0 {
            plan.report.err_errno.store((-pid) as i32, Ordering::SeqCst);
            plan.report
                .err_step
                .store(Step::CloneChild as u32, Ordering::SeqCst);
            return 127;
        }
        if plan.report.err_step.load(Ordering::SeqCst) != 0 {
            return 127;
        }
        plan.report.started.store(true, Ordering::SeqCst);
        // The contestant holds its own copies of the pipes: ours must not delay their EOF.
        for &fd in plan.stdio.iter() {
            sc1(libc::SYS_close, fd as usize);
        }
        // Reap everything (orphans are reparented to us) until the contestant is gone.
        loop {
            let mut status: libc::c_int = 0;
            let mut ru: libc::rusage = core::mem::zeroed();
            let r = sc4(
                libc::SYS_wait4,
                -1isize as usize,
                &mut status as *mut libc::c_int as usize,
                libc::__WALL as usize,
                &mut ru as *mut libc::rusage as usize,
            );
            if r == pid {
                plan.report.status.store(status, Ordering::SeqCst);
                plan.report.maxrss_kib.store(ru.ru_maxrss, Ordering::SeqCst);
                let us =
                    |t: libc::timeval| t.tv_sec.wrapping_mul(1_000_000).wrapping_add(t.tv_usec);
                plan.report.cpu_us.store(
                    us(ru.ru_utime).wrapping_add(us(ru.ru_stime)),
                    Ordering::SeqCst,
                );
                plan.report.has_status.store(true, Ordering::SeqCst);
                break;
            }
            if r == -(libc::EINTR as isize) || r > 0 {
                continue;
            }
            break;
        }
        // The run is over: end every process left in it (as pid 1, `kill(-1)` reaches all
        // of them and only them), reap them, and measure what the run left behind.
        sc2(libc::SYS_kill, -1isize as usize, libc::SIGKILL as usize);
        loop {
            let mut status: libc::c_int = 0;
            let r = sc4(
                libc::SYS_wait4,
                -1isize as usize,
                &mut status as *mut libc::c_int as usize,
                libc::__WALL as usize,
                0,
            );
            if r == -(libc::EINTR as isize) || r > 0 {
                continue;
            }
            break;
        }
        let mut ru: libc::rusage = core::mem::zeroed();
        if sc2(
            libc::SYS_getrusage,
            libc::RUSAGE_CHILDREN as usize,
            &mut ru as *mut libc::rusage as usize,
        ) == 0
        {
            let us = |t: libc::timeval| t.tv_sec.wrapping_mul(1_000_000).wrapping_add(t.tv_usec);
            plan.report.tree_cpu_us.store(
                us(ru.ru_utime).wrapping_add(us(ru.ru_stime)),
                Ordering::SeqCst,
            );
            plan.report
                .tree_maxrss_kib
                .store(ru.ru_maxrss, Ordering::SeqCst);
        }
        if let Some(fs) = &plan.fs {
            // The fullest scratch space tells whether the quota was reached.
            let (mut worst_used, mut worst_size) = (0u64, 0u64);
            for path in fs.scratch.iter() {
                let mut st: libc::statfs = core::mem::zeroed();
                if sc2(
                    libc::SYS_statfs,
                    path.as_ptr() as usize,
                    &mut st as *mut libc::statfs as usize,
                ) == 0
                {
                    let bs = st.f_bsize as u64;
                    let size = (st.f_blocks as u64).wrapping_mul(bs);
                    let used = (st.f_blocks as u64)
                        .saturating_sub(st.f_bfree as u64)
                        .wrapping_mul(bs);
                    let free = size.saturating_sub(used);
                    if worst_size == 0 || free < worst_size.saturating_sub(worst_used) {
                        worst_used = used;
                        worst_size = size;
                    }
                }
            }
            plan.report.disk_size.store(worst_size, Ordering::SeqCst);
            plan.report.disk_used.store(worst_used, Ordering::SeqCst);
        }
        // Done: the harness need not wait for this process to be torn down (its mount
        // namespace's teardown waits for an RCU grace period).
        plan.report.finished.store(true, Ordering::SeqCst);
        if plan.done_fd >= 0 {
            let one: u64 = 1;
            sc3(
                libc::SYS_write,
                plan.done_fd as usize,
                &one as *const u64 as usize,
                8,
            );
        }
    }
    0
}

/// Entry point of the contestant child; ends in `execve` or reports the failed step.
pub(super) unsafe extern "C" fn contestant_main(arg: *mut c_void) -> ! {
    // SAFETY: the proxy passes its own plan pointer; the plan outlives this child, which
    // either execs or exits before the proxy (blocked in vfork) goes on.
    let plan = unsafe { &*(arg as *const Plan) };
    // SAFETY: raw system calls only, on the plan's prepared buffers and on locals (no TLS,
    // no allocation: the harness's address space is shared until execve).
    unsafe {
        for (target, &src) in plan.stdio.iter().enumerate() {
            let r = sc3(libc::SYS_dup3, src as usize, target, 0);
            if r < 0 {
                fail(plan, Step::Stdio, r);
            }
        }
        // Every other fd closes at exec (we still need the cgroup/netns/ruleset fds).
        sc3(
            libc::SYS_close_range,
            3,
            u32::MAX as usize,
            libc::CLOSE_RANGE_CLOEXEC as usize,
        );

        for &fd in plan.cgroup_procs.iter() {
            let r = sc3(libc::SYS_write, fd as usize, b"0".as_ptr() as usize, 1);
            if r < 0 {
                fail(plan, Step::JoinCgroup, r);
            }
        }
        if plan.netns >= 0 {
            let r = sc2(
                libc::SYS_setns,
                plan.netns as usize,
                libc::CLONE_NEWNET as usize,
            );
            if r < 0 {
                fail(plan, Step::JoinNetns, r);
            }
        }
        // As root (before dropping privileges) so work_dir's parents need not be searchable.
        let r = sc1(libc::SYS_chdir, plan.work_dir.as_ptr() as usize);
        if r < 0 {
            fail(plan, Step::Chdir, r);
        }
        if let Some((uid, gid)) = plan.ids {
            let r = sc2(libc::SYS_setgroups, 0, 0);
            if r < 0 {
                fail(plan, Step::SetGroups, r);
            }
            let g = gid as usize;
            let r = sc3(libc::SYS_setresgid, g, g, g);
            if r < 0 {
                fail(plan, Step::SetGid, r);
            }
            let u = uid as usize;
            let r = sc3(libc::SYS_setresuid, u, u, u);
            if r < 0 {
                fail(plan, Step::SetUid, r);
            }
        }
        for (res, lim) in plan.rlimits.iter() {
            let r = sc4(
                libc::SYS_prlimit64,
                0,
                *res as usize,
                lim as *const libc::rlimit64 as usize,
                0,
            );
            if r < 0 {
                fail(plan, Step::SetRlimit, r);
            }
        }
        let r = sc2(libc::SYS_prctl, libc::PR_SET_NO_NEW_PRIVS as usize, 1);
        if r < 0 {
            fail(plan, Step::NoNewPrivs, r);
        }
        if plan.landlock_fd >= 0 {
            // /proc/self of *this* process (same pid after exec), for runtimes that read it
            // (only when the ruleset restricts file access).
            let fd = if plan.landlock_proc_access != 0 {
                sc3(
                    libc::SYS_openat,
                    libc::AT_FDCWD as usize,
                    plan.proc_self.as_ptr() as usize,
                    (libc::O_PATH | libc::O_CLOEXEC) as usize,
                )
            } else {
                -1
            };
            if fd >= 0 {
                let attr = PathBeneathAttr {
                    allowed_access: plan.landlock_proc_access,
                    parent_fd: fd as i32,
                };
                sc4(
                    libc::SYS_landlock_add_rule,
                    plan.landlock_fd as usize,
                    1, /* LANDLOCK_RULE_PATH_BENEATH */
                    &attr as *const PathBeneathAttr as usize,
                    0,
                );
                sc1(libc::SYS_close, fd as usize);
            }
            let r = sc2(
                libc::SYS_landlock_restrict_self,
                plan.landlock_fd as usize,
                0,
            );
            if r < 0 {
                fail(plan, Step::Landlock, r);
            }
        }
        if !plan.seccomp.is_empty() {
            let r = sc3(
                libc::SYS_seccomp,
                1, /* SECCOMP_SET_MODE_FILTER */
                0,
                &plan.seccomp_prog as *const libc::sock_fprog as usize,
            );
            if r < 0 {
                fail(plan, Step::Seccomp, r);
            }
        }
        // Default dispositions (ignored signals would survive exec; handlers must not run
        // here), then unblock everything the proxy blocked.
        let dfl = [0u64; 4];
        for &sig in plan.reset_signals.iter() {
            sc4(
                libc::SYS_rt_sigaction,
                sig as usize,
                dfl.as_ptr() as usize,
                0,
                8,
            );
        }
        let none: u64 = 0;
        sc4(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK as usize,
            &none as *const u64 as usize,
            0,
            8,
        );
        let r = sc3(
            libc::SYS_execve,
            plan.path.as_ptr() as usize,
            plan.argv_ptrs.as_ptr() as usize,
            plan.envp_ptrs.as_ptr() as usize,
        );
        fail(plan, Step::Execve, r)
    }
}

/// Signals whose current disposition is not SIG_DFL (ignored or handled), which the child
/// must reset: ignored ones would survive `execve`, and a handler must not run in the child.
pub fn non_default_signals() -> Vec<i32> {
    let mut v = Vec::new();
    for sig in 1..=64 {
        if sig == libc::SIGKILL || sig == libc::SIGSTOP {
            continue;
        }
        let mut old = [0u64; 4];
        // SAFETY: query only (new action NULL); `old` is large enough for the kernel struct.
        let r = unsafe {
            libc::syscall(
                libc::SYS_rt_sigaction,
                sig,
                std::ptr::null::<u8>(),
                old.as_mut_ptr(),
                8,
            )
        };
        if r == 0 && old[0] != 0 {
            v.push(sig);
        }
    }
    v
}

/// Starts the proxy with `clone(CLONE_VM | CLONE_PIDFD | ns_flags)` on `stack_top`.
/// Returns the proxy's pid (in the harness's pid namespace) and pidfd. The caller must keep
/// `plan` alive and unmodified until the proxy has been reaped.
///
/// # Safety
/// `plan` must be fully prepared ([`Plan::finish_pointers`]) and `stack_top` must point to
/// the top of a stack that outlives the proxy.
pub unsafe fn start_proxy(
    plan: &Plan,
    stack_top: *mut u8,
    ns_flags: i32,
) -> std::io::Result<(i32, OwnedFd)> {
    // SAFETY: see the function contract.
    unsafe {
        start_task(
            proxy_main_c,
            stack_top,
            ns_flags,
            plan as *const Plan as *mut c_void,
        )
    }
}

/// Starts `f(arg)` as a new process sharing the harness's memory:
/// `clone(CLONE_VM | CLONE_PIDFD | flags)` on `stack_top`, exit signal 0 (invisible to a
/// `waitpid(-1)` elsewhere in the harness, and never auto-reaped even if the harness ignores
/// SIGCHLD). Returns its pid (in the harness's pid namespace) and pidfd.
///
/// # Safety
/// `f` may use only raw system calls; `arg` and `stack_top` (the top of a stack) must stay
/// valid until the process has been reaped.
pub unsafe fn start_task(
    f: extern "C" fn(*mut c_void) -> libc::c_int,
    stack_top: *mut u8,
    flags: i32,
    arg: *mut c_void,
) -> std::io::Result<(i32, OwnedFd)> {
    let mut pidfd: libc::c_int = -1;
    let flags = libc::CLONE_VM | libc::CLONE_PIDFD | flags;
    // SAFETY: see the function contract.
    let pid = unsafe {
        libc::clone(
            f,
            stack_top as *mut c_void,
            flags,
            arg,
            &mut pidfd as *mut libc::c_int,
        )
    };
    if pid < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: CLONE_PIDFD stored a fresh pidfd that nobody else owns.
    Ok((pid, unsafe { OwnedFd::from_raw_fd(pidfd) }))
}

extern "C" fn proxy_main_c(arg: *mut c_void) -> libc::c_int {
    // SAFETY: only ever called by `start_proxy` with a prepared plan.
    unsafe { proxy_main(arg) }
}
