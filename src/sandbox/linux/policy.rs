//! The seccomp deny-list and the Landlock filesystem/network ruleset.
//!
//! The seccomp program is written by hand (a linear list of comparisons) rather than with
//! `seccompiler` because it needs two different errnos (`clone3` must fail with ENOSYS so
//! glibc falls back to `clone`; everything else with EPERM) and argument checks, and because
//! installing it costs about 1 µs per instruction per run: this one is ~50 instructions,
//! a quarter of the equivalent `seccompiler` output.

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
    Scope, ABI,
};

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Namespace-creating clone flags (any of them in `clone`'s flags → EPERM).
const NS_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWCGROUP
    | 0x80/* CLONE_NEWTIME */) as u32;

/// System calls the contestant never needs and that could reach outside the box.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn denied_syscalls() -> Vec<libc::c_long> {
    let mut v = vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        libc::SYS_open_by_handle_at,
        libc::SYS_kexec_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_pidfd_getfd,
        libc::SYS_chroot,
        // No sockets at all (`socketpair` stays allowed): a pathname Unix socket would reach
        // whatever listens on it (an ssh agent, D-Bus), whatever the file-system view.
        libc::SYS_socket,
    ];
    #[cfg(target_arch = "x86_64")]
    v.extend([libc::SYS_iopl, libc::SYS_ioperm]);
    v
}

/// Builds the BPF program (instructions for `PR_SET_SECCOMP`).
///
/// `single_task`: the run may have one process/thread, so creating another fails with EAGAIN
/// (what `pids.max` or `RLIMIT_NPROC` would answer) before the kernel does any work. A refused
/// fork that got as far as the pids check has charged the run kernel memory that is freed only
/// after an RCU grace period: a fork loop would end by an OOM kill on a busy machine and by its
/// time limit on an idle one.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn seccomp_program(single_task: bool) -> Vec<libc::sock_filter> {
    fn stmt(code: u32, k: u32) -> libc::sock_filter {
        libc::sock_filter {
            code: code as u16,
            jt: 0,
            jf: 0,
            k,
        }
    }
    fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
        libc::sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        }
    }
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jset = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
    let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let allow = libc::SECCOMP_RET_ALLOW;
    let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    let eagain = libc::SECCOMP_RET_ERRNO | libc::EAGAIN as u32;
    // seccomp_data: nr @0, arch @4, ip @8, args @16 (8 bytes each; low half first on LE).
    let arg0_lo = 16;

    let denied = denied_syscalls();
    let mut p = vec![
        stmt(ld, 4),
        jump(jeq, AUDIT_ARCH, 1, 0),
        stmt(ret, libc::SECCOMP_RET_KILL_PROCESS),
        stmt(ld, 0),
    ];
    // Tail layout (indices relative to the end of the comparison block):
    //   +0 ret ALLOW; +1 ret EPERM; +2 ret ENOSYS; +3 ret EAGAIN;
    //   +4 clone: ld arg0; +5 jset NS; +6 ret EPERM; +7 ret ALLOW
    #[cfg(target_arch = "x86_64")]
    let forks: &[libc::c_long] = if single_task {
        &[libc::SYS_fork, libc::SYS_vfork]
    } else {
        &[]
    };
    #[cfg(not(target_arch = "x86_64"))]
    let forks: &[libc::c_long] = &[];
    // x32 check, clone3, clone, fork and vfork (single task), each denied
    let n_cmp = denied.len() + forks.len() + 3;
    let to = |i: usize, target: usize| -> u8 {
        // Jump offsets count from the instruction after the current one.
        (n_cmp - i - 1 + target) as u8
    };
    let mut i = 0;
    p.push(jump(jge, X32_SYSCALL_BIT, to(i, 1), 0));
    i += 1;
    p.push(jump(jeq, libc::SYS_clone3 as u32, to(i, 2), 0));
    i += 1;
    let clone_target = if single_task { 3 } else { 4 };
    p.push(jump(jeq, libc::SYS_clone as u32, to(i, clone_target), 0));
    i += 1;
    for nr in forks {
        p.push(jump(jeq, *nr as u32, to(i, 3), 0));
        i += 1;
    }
    for nr in &denied {
        p.push(jump(jeq, *nr as u32, to(i, 1), 0));
        i += 1;
    }
    debug_assert_eq!(i, n_cmp);
    p.push(stmt(ret, allow));
    p.push(stmt(ret, eperm));
    p.push(stmt(ret, enosys));
    p.push(stmt(ret, eagain));
    // clone: the flags are argument 0 on x86_64 and aarch64.
    p.push(stmt(ld, arg0_lo));
    p.push(jump(jset, NS_FLAGS, 0, 1));
    p.push(stmt(ret, eperm));
    p.push(stmt(ret, allow));
    p
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn seccomp_program(_single_task: bool) -> Vec<libc::sock_filter> {
    Vec::new()
}

/// Directories every program may read and execute from.
pub const SYSTEM_DIRS: &[&str] = &["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc"];
/// Device files readable (and, for /dev/null, writable) by every program.
pub const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
    "/dev/random",
    "/dev/full",
];
/// /proc and /sys files runtimes read for CPU count and memory size (the JVM, CPython).
pub const PROC_FILES: &[&str] = &[
    "/proc/meminfo",
    "/proc/cpuinfo",
    "/proc/stat",
    "/proc/sys/vm/overcommit_memory",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
];

/// Landlock support on this kernel and pre-opened fds for the fixed rules.
pub struct Landlock {
    pub abi: ABI,
    /// (fd, writable) for system dirs, devices and /proc files that exist here.
    fixed: Vec<(PathFd, AccessKind)>,
}

#[derive(Clone, Copy)]
enum AccessKind {
    Read,
    ReadWriteFile,
}

/// Everything a child needs to finish the Landlock restriction without allocating.
pub struct PreparedRuleset {
    pub fd: OwnedFd,
    /// Access bits granted on the child's own `/proc/self` (added in the child).
    pub proc_self_access: u64,
}

impl Landlock {
    /// Probes the running kernel; `None` when Landlock is unavailable.
    pub fn detect() -> Option<Landlock> {
        // SAFETY: the version query takes no pointers.
        let v = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<u8>(),
                0usize,
                1u32, /* LANDLOCK_CREATE_RULESET_VERSION */
            )
        };
        if v < 1 {
            return None;
        }
        let abi = match v {
            1 => ABI::V1,
            2 => ABI::V2,
            3 => ABI::V3,
            4 => ABI::V4,
            5 => ABI::V5,
            _ => ABI::V6,
        };
        let mut fixed = Vec::new();
        for p in SYSTEM_DIRS.iter().chain(PROC_FILES) {
            if let Ok(fd) = PathFd::new(p) {
                fixed.push((fd, AccessKind::Read));
            }
        }
        for p in DEVICES {
            if let Ok(fd) = PathFd::new(p) {
                fixed.push((fd, AccessKind::ReadWriteFile));
            }
        }
        Some(Landlock { abi, fixed })
    }

    /// A ruleset that restricts no file access (the run has its own file-system view) but
    /// forbids TCP and, where the ABI allows, signals and abstract Unix sockets outside the
    /// run. Built once; `None` when this ABI has nothing of that to enforce.
    pub fn prepare_scoped(&self) -> Result<Option<PreparedRuleset>, String> {
        let abi = self.abi;
        if abi < ABI::V4 {
            return Ok(None);
        }
        let mut ruleset = Ruleset::default()
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| e.to_string())?;
        if abi >= ABI::V6 {
            ruleset = ruleset
                .scope(Scope::AbstractUnixSocket | Scope::Signal)
                .map_err(|e| e.to_string())?;
        }
        let created = ruleset.create().map_err(|e| e.to_string())?;
        let fd: Option<OwnedFd> = created.into();
        let fd = fd.ok_or_else(|| "landlock ruleset was not created".to_string())?;
        Ok(Some(PreparedRuleset {
            fd,
            proc_self_access: 0,
        }))
    }

    /// Builds the ruleset for one run: read+execute on system dirs and `read_only`,
    /// everything on `work_dir`, no TCP bind/connect, no signals or abstract unix sockets
    /// outside the sandbox (where the ABI supports it).
    pub fn prepare(
        &self,
        read_only: &[PathBuf],
        work_dir: &Path,
    ) -> Result<PreparedRuleset, String> {
        let abi = self.abi;
        let read = AccessFs::from_read(abi);
        let all = AccessFs::from_all(abi);
        let rw_file = AccessFs::from_file(abi);
        let mut ruleset = Ruleset::default()
            .handle_access(all)
            .map_err(|e| e.to_string())?;
        if abi >= ABI::V4 {
            ruleset = ruleset
                .handle_access(AccessNet::from_all(abi))
                .map_err(|e| e.to_string())?;
        }
        if abi >= ABI::V6 {
            ruleset = ruleset
                .scope(Scope::AbstractUnixSocket | Scope::Signal)
                .map_err(|e| e.to_string())?;
        }
        let mut created = ruleset.create().map_err(|e| e.to_string())?;
        for (fd, kind) in &self.fixed {
            let access = match kind {
                AccessKind::Read => read,
                AccessKind::ReadWriteFile => rw_file & !AccessFs::Execute,
            };
            created = created
                .add_rule(PathBeneath::new(fd.as_fd(), access))
                .map_err(|e| e.to_string())?;
        }
        for dir in read_only {
            let fd =
                PathFd::new(dir).map_err(|e| format!("read-only path {}: {e}", dir.display()))?;
            created = created
                .add_rule(PathBeneath::new(fd, read))
                .map_err(|e| e.to_string())?;
        }
        let fd =
            PathFd::new(work_dir).map_err(|e| format!("work_dir {}: {e}", work_dir.display()))?;
        created = created
            .add_rule(PathBeneath::new(fd, all))
            .map_err(|e| e.to_string())?;
        let fd: Option<OwnedFd> = created.into();
        let fd = fd.ok_or_else(|| "landlock ruleset was not created".to_string())?;
        Ok(PreparedRuleset {
            fd,
            proc_self_access: (read & !AccessFs::Execute).bits(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seccomp_jumps_land_inside_the_program() {
        for single_task in [false, true] {
            let p = seccomp_program(single_task);
            assert!(p.len() < 80, "filter grew to {} instructions", p.len());
            for (i, ins) in p.iter().enumerate() {
                let is_jump = (ins.code as u32 & 0x07) == libc::BPF_JMP;
                if is_jump {
                    assert!(i + 1 + (ins.jt as usize) < p.len());
                    assert!(i + 1 + (ins.jf as usize) < p.len());
                }
            }
            // The last instruction must be a return.
            assert_eq!(p.last().map(|i| i.code as u32 & 0x07), Some(libc::BPF_RET));
        }
    }

    /// Runs the classic-BPF program on a synthetic `seccomp_data`.
    fn eval(p: &[libc::sock_filter], arch: u32, nr: u32, arg0: u64) -> u32 {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&nr.to_ne_bytes());
        data[4..8].copy_from_slice(&arch.to_ne_bytes());
        data[16..24].copy_from_slice(&arg0.to_ne_bytes());
        let (mut pc, mut acc) = (0usize, 0u32);
        loop {
            let ins = p[pc];
            let code = ins.code as u32;
            match code & 0x07 {
                c if c == libc::BPF_LD => {
                    let k = ins.k as usize;
                    acc = u32::from_ne_bytes(data[k..k + 4].try_into().unwrap());
                    pc += 1;
                }
                c if c == libc::BPF_RET => return ins.k,
                c if c == libc::BPF_JMP => {
                    let taken = match code & 0xf0 {
                        op if op == libc::BPF_JEQ => acc == ins.k,
                        op if op == libc::BPF_JGE => acc >= ins.k,
                        op if op == libc::BPF_JSET => acc & ins.k != 0,
                        op => panic!("unexpected jump op {op:#x}"),
                    };
                    pc += 1 + if taken {
                        ins.jt as usize
                    } else {
                        ins.jf as usize
                    };
                }
                c => panic!("unexpected class {c:#x}"),
            }
        }
    }

    #[test]
    fn a_single_task_run_cannot_create_another() {
        let a = AUDIT_ARCH;
        let nr = |n: libc::c_long| n as u32;
        let eagain = libc::SECCOMP_RET_ERRNO | libc::EAGAIN as u32;
        let p = seccomp_program(true);
        let thread_flags = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(eval(&p, a, nr(libc::SYS_clone), thread_flags), eagain);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone), libc::SIGCHLD as u64),
            eagain
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(eval(&p, a, nr(libc::SYS_fork), 0), eagain);
            assert_eq!(eval(&p, a, nr(libc::SYS_vfork), 0), eagain);
        }
        // glibc falls back from clone3 to clone.
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone3), 0),
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32
        );
        // The rest of the policy is the same.
        assert_eq!(eval(&p, a, nr(libc::SYS_read), 0), libc::SECCOMP_RET_ALLOW);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_ptrace), 0),
            libc::SECCOMP_RET_ERRNO | libc::EPERM as u32
        );
        // A multi-process run may fork.
        let p = seccomp_program(false);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone), libc::SIGCHLD as u64),
            libc::SECCOMP_RET_ALLOW
        );
        #[cfg(target_arch = "x86_64")]
        assert_eq!(eval(&p, a, nr(libc::SYS_fork), 0), libc::SECCOMP_RET_ALLOW);
    }

    #[test]
    fn seccomp_decisions() {
        let p = seccomp_program(false);
        let a = AUDIT_ARCH;
        let allow = libc::SECCOMP_RET_ALLOW;
        let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        let nr = |n: libc::c_long| n as u32;
        assert_eq!(eval(&p, a, nr(libc::SYS_read), 0), allow);
        assert_eq!(eval(&p, a, nr(libc::SYS_execve), 0), allow);
        assert_eq!(eval(&p, a, nr(libc::SYS_ptrace), 0), eperm);
        assert_eq!(eval(&p, a, nr(libc::SYS_unshare), 0), eperm);
        assert_eq!(eval(&p, a, nr(libc::SYS_io_uring_setup), 0), eperm);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone3), 0),
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32
        );
        // Threads and fork are fine, namespaces are not.
        let thread_flags = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(eval(&p, a, nr(libc::SYS_clone), thread_flags), allow);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone), libc::CLONE_NEWUSER as u64),
            eperm
        );
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone), libc::CLONE_NEWNET as u64),
            eperm
        );
        assert_eq!(
            eval(&p, a, nr(libc::SYS_socket), libc::AF_UNIX as u64),
            eperm
        );
        assert_eq!(
            eval(&p, a, nr(libc::SYS_socketpair), libc::AF_UNIX as u64),
            allow
        );
        assert_eq!(eval(&p, a, nr(libc::SYS_chroot), 0), eperm);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_socket), libc::AF_INET as u64),
            eperm
        );
        assert_eq!(
            eval(&p, a, nr(libc::SYS_socket), libc::AF_INET6 as u64),
            eperm
        );
        assert_eq!(
            eval(&p, a, nr(libc::SYS_socket), libc::AF_NETLINK as u64),
            eperm
        );
        // Another architecture's calling convention is killed.
        assert_eq!(
            eval(&p, 0x4000_0003, nr(libc::SYS_read), 0),
            libc::SECCOMP_RET_KILL_PROCESS
        );
    }

    #[test]
    fn landlock_ruleset_builds_when_supported() {
        if let Some(ll) = Landlock::detect() {
            let dir = tempfile::tempdir().expect("tempdir");
            let r = ll.prepare(&[], dir.path()).expect("ruleset");
            assert!(r.proc_self_access != 0);
        }
    }
}
