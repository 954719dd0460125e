//! What this machine allows: root or not, cgroups, seccomp, Landlock, user namespaces.

use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::policy::Landlock;
use super::sys::{self, Stack};
use super::{cgroup, setup_err};
use crate::sandbox::SandboxError;

/// The isolation mechanisms in use.
pub struct Mechanisms {
    /// Can switch uid and join prepared namespaces (CAP_SETUID, CAP_SYS_ADMIN).
    pub root: bool,
    /// Per-slot cgroups (memory, pids, CPU accounting).
    pub cgroups: bool,
    /// Why there are none (for the warning line).
    pub cgroups_why_not: Option<String>,
    pub seccomp: bool,
    pub landlock: Option<Landlock>,
}

/// A mechanism the sandbox goes without on this machine: one part of its warning line
/// ([`Mechanisms::warning`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shortfall {
    /// Not root: runs share the harness's uid (in a user namespace of their own).
    NotRoot,
    /// No cgroups, and why not: limits and figures come from polling.
    NoCgroups(String),
    NoSeccomp,
    NoLandlock,
}

impl Shortfall {
    /// What is missing and what is used instead, as the warning line says it.
    pub fn text(&self) -> String {
        match self {
            Shortfall::NotRoot => {
                "not root: no per-slot uid, fresh network namespace per run".to_string()
            }
            Shortfall::NoCgroups(why) => format!(
                "no cgroups ({why}): memory limit enforced by polling the program's RSS every \
                 10 ms (RLIMIT_DATA backstop), CPU time polled from /proc and totalled from \
                 rusage, peak memory from polled VmHWM / ru_maxrss"
            ),
            Shortfall::NoSeccomp => "no seccomp filter: programs may call ptrace, socket, \
                                     mount, System V IPC and the other calls of its deny-list"
                .to_string(),
            Shortfall::NoLandlock => {
                "no Landlock: the program can read any file its uid can read".to_string()
            }
        }
    }
}

/// True when this process runs with effective uid 0.
pub fn is_root() -> bool {
    // SAFETY: geteuid is a plain getter.
    unsafe { libc::geteuid() == 0 }
}

/// True when the kernel has seccomp.
pub fn seccomp_available() -> bool {
    // SAFETY: PR_GET_SECCOMP takes no pointers; EINVAL when seccomp is compiled out.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP) >= 0 }
}

/// True when an unprivileged run can get its own user, pid, network and IPC namespaces (the
/// namespaces a run starts in when the harness is not root).
pub fn user_namespaces_available() -> bool {
    probe_clone(libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC)
}

impl Mechanisms {
    /// Probes the machine. Fails when runs could not be contained (no pid namespace).
    pub fn detect() -> Result<Mechanisms, SandboxError> {
        let root = is_root();
        let seccomp = seccomp_available();
        let landlock = Landlock::detect();
        // Root or not: without root, a delegated cgroup v2 subtree gives the same limits.
        let cgroups_why_not = cgroup::available().err();
        if !root && !user_namespaces_available() {
            return Err(SandboxError::Setup(NO_CONTAINMENT.into()));
        }
        Ok(Mechanisms {
            root,
            cgroups: cgroups_why_not.is_none(),
            cgroups_why_not,
            seccomp,
            landlock,
        })
    }

    /// What the sandbox goes without here, in the order of the warning line.
    pub fn shortfalls(&self) -> Vec<Shortfall> {
        shortfalls(
            self.root,
            self.cgroups_why_not.as_deref(),
            self.seccomp,
            self.landlock.is_some(),
        )
    }

    /// One line naming what is missing and what is used instead, or `None`.
    pub fn warning(&self) -> Option<String> {
        let missing: Vec<String> = self.shortfalls().iter().map(Shortfall::text).collect();
        (!missing.is_empty()).then(|| missing.join("; "))
    }
}

/// The shortfalls of a machine with these mechanisms, in the order of the warning line.
pub fn shortfalls(
    root: bool,
    cgroups_why_not: Option<&str>,
    seccomp: bool,
    landlock: bool,
) -> Vec<Shortfall> {
    let mut missing = Vec::new();
    if !root {
        missing.push(Shortfall::NotRoot);
    }
    if let Some(why) = cgroups_why_not {
        missing.push(Shortfall::NoCgroups(why.to_string()));
    }
    if !seccomp {
        missing.push(Shortfall::NoSeccomp);
    }
    if !landlock {
        missing.push(Shortfall::NoLandlock);
    }
    missing
}

/// Why [`Mechanisms::detect`] fails without root and user namespaces.
pub const NO_CONTAINMENT: &str = "no pid namespace available (need root or unprivileged user \
                                  namespaces): processes of a run could not be contained";

/// Moves an fd to a number >= 3 so it never collides with the stdio targets.
pub fn high_fd(fd: OwnedFd) -> std::io::Result<OwnedFd> {
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
pub fn new_netns() -> Result<OwnedFd, SandboxError> {
    std::thread::spawn(|| -> std::io::Result<OwnedFd> {
        // SAFETY: affects only this thread, which ends right after.
        sys::cvt(unsafe { libc::unshare(libc::CLONE_NEWNET) })?;
        let f = File::open("/proc/thread-self/ns/net")?;
        high_fd(OwnedFd::from(f))
    })
    .join()
    .map_err(|_| std::io::Error::other("netns thread panicked"))
    .and_then(|r| r)
    .map_err(|e| setup_err("creating network namespace", e))
}

/// Whether this process can give a child a mount namespace of its own (what each run's
/// private file-system view is built in).
pub fn mount_namespaces() -> bool {
    probe_clone(libc::CLONE_NEWNS)
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
