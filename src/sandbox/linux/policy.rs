//! The seccomp deny-list and the Landlock filesystem/network ruleset.
//!
//! The seccomp program is written by hand (a binary search over the system call number)
//! rather than with `seccompiler` because it needs several errnos (`clone3` must fail with
//! ENOSYS so glibc falls back to `clone`; everything else with EPERM) and argument checks,
//! and because installing it is paid on every run: the kernel checks, converts and JITs the
//! program (cost per instruction; ~60 here, a quarter of the equivalent `seccompiler`
//! output) and then runs it once for every system call number to fill its allow cache (cost
//! per comparison on the way to a number's answer: ~6 here instead of ~40 for a linear list).

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
        // No System V IPC and no POSIX message queues: their objects live in the IPC
        // namespace, not in the box, so a segment one run made would still be there for the
        // next run of the slot (a test's answer kept for the next test) and for every other
        // run on the host (two submissions talking). Pipes, socketpairs and files in the
        // box's scratch space stay: those are the run's own.
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmdt,
        libc::SYS_shmctl,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semtimedop,
        libc::SYS_semctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
        libc::SYS_mq_timedsend,
        libc::SYS_mq_timedreceive,
        libc::SYS_mq_notify,
        libc::SYS_mq_getsetattr,
    ];
    #[cfg(target_arch = "x86_64")]
    v.extend([libc::SYS_iopl, libc::SYS_ioperm]);
    v
}

/// What the filter answers for one system call number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Allow,
    Eperm,
    Enosys,
    Eagain,
    /// `clone`: EPERM when its flags ask for a namespace, else allowed.
    CloneFlags,
}

/// A jump target while the program is laid out: an instruction of the tree, or one of the
/// shared returns at the end.
#[derive(Debug, Clone, Copy)]
enum Target {
    Next,
    At(usize),
    Tail(Verdict),
}

/// An instruction before its jump offsets are known.
#[derive(Debug, Clone, Copy)]
struct Insn {
    code: u32,
    k: u32,
    jt: Target,
    jf: Target,
}

/// Emits a binary search over `entries` (sorted by number): a `jge` per inner node, a `jeq`
/// per number at the leaves, `ret ALLOW` when no number matches. A lookup takes ~log2(n)
/// comparisons instead of n, which is what the kernel pays per system call number when it
/// precomputes its allow cache at install time (it runs the filter for every number of the
/// architecture), and what every system call pays while the program runs.
fn emit_tree(entries: &[(u32, Verdict)], out: &mut Vec<Insn>) {
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
    if entries.len() <= 4 {
        for &(nr, verdict) in entries {
            out.push(Insn {
                code: jeq,
                k: nr,
                jt: Target::Tail(verdict),
                jf: Target::Next,
            });
        }
        out.push(Insn {
            code: libc::BPF_RET | libc::BPF_K,
            k: libc::SECCOMP_RET_ALLOW,
            jt: Target::Next,
            jf: Target::Next,
        });
        return;
    }
    let mid = entries.len() / 2;
    let node = out.len();
    out.push(Insn {
        code: jge,
        k: entries[mid].0,
        jt: Target::Next, // patched below
        jf: Target::Next,
    });
    emit_tree(&entries[..mid], out);
    out[node].jt = Target::At(out.len());
    emit_tree(&entries[mid..], out);
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
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let ret = libc::BPF_RET | libc::BPF_K;
    // seccomp_data: nr @0, arch @4, ip @8, args @16 (8 bytes each; low half first on LE).
    let arg0_lo = 16;
    let nr = |n: libc::c_long| n as u32;

    let mut entries: Vec<(u32, Verdict)> = denied_syscalls()
        .into_iter()
        .map(|n| (nr(n), Verdict::Eperm))
        .collect();
    // glibc falls back from clone3 to clone on ENOSYS (EPERM would fail pthread_create).
    entries.push((nr(libc::SYS_clone3), Verdict::Enosys));
    entries.push((
        nr(libc::SYS_clone),
        if single_task {
            Verdict::Eagain
        } else {
            Verdict::CloneFlags
        },
    ));
    #[cfg(target_arch = "x86_64")]
    if single_task {
        entries.push((nr(libc::SYS_fork), Verdict::Eagain));
        entries.push((nr(libc::SYS_vfork), Verdict::Eagain));
    }
    entries.sort_unstable_by_key(|e| e.0);
    entries.dedup_by_key(|e| e.0);

    let insn = |code: u32, k: u32| Insn {
        code,
        k,
        jt: Target::Next,
        jf: Target::Next,
    };
    let mut p = vec![
        insn(ld, 4),
        Insn {
            code: libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            k: AUDIT_ARCH,
            jt: Target::At(3),
            jf: Target::Next,
        },
        insn(ret, libc::SECCOMP_RET_KILL_PROCESS),
        insn(ld, 0),
        // x32 system calls (same arch value, numbers with bit 30 set).
        Insn {
            code: libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K,
            k: X32_SYSCALL_BIT,
            jt: Target::Tail(Verdict::Eperm),
            jf: Target::Next,
        },
    ];
    emit_tree(&entries, &mut p);
    let tails = [
        (Verdict::Allow, p.len()),
        (Verdict::Eperm, p.len() + 1),
        (Verdict::Enosys, p.len() + 2),
        (Verdict::Eagain, p.len() + 3),
        (Verdict::CloneFlags, p.len() + 4),
    ];
    p.push(insn(ret, libc::SECCOMP_RET_ALLOW));
    p.push(insn(ret, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    p.push(insn(ret, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32));
    p.push(insn(ret, libc::SECCOMP_RET_ERRNO | libc::EAGAIN as u32));
    // clone: the flags are argument 0 on x86_64 and aarch64.
    p.push(insn(ld, arg0_lo));
    let ns_check = p.len();
    p.push(Insn {
        code: libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K,
        k: NS_FLAGS,
        jt: Target::At(ns_check + 1),
        jf: Target::At(ns_check + 2),
    });
    p.push(insn(ret, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    p.push(insn(ret, libc::SECCOMP_RET_ALLOW));

    let resolve = |i: usize, t: Target| -> u8 {
        let to = match t {
            Target::Next => i + 1,
            Target::At(j) => j,
            Target::Tail(v) => tails.iter().find(|(w, _)| *w == v).map_or(i + 1, |t| t.1),
        };
        // Jumps go forward, at most 255 instructions (the program is far shorter).
        u8::try_from(to - (i + 1)).expect("seccomp jump within 255 instructions")
    };
    p.iter()
        .enumerate()
        .map(|(i, ins)| libc::sock_filter {
            code: ins.code as u16,
            jt: resolve(i, ins.jt),
            jf: resolve(i, ins.jf),
            k: ins.k,
        })
        .collect()
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn seccomp_program(_single_task: bool) -> Vec<libc::sock_filter> {
    Vec::new()
}

/// A short second filter for a run limited to one process/thread whose first filter (the
/// several-task one, inherited from a slot's spawner) lets it create more: every `clone`,
/// `fork` and `vfork` fails with EAGAIN, as in `seccomp_program(true)`. The first filter
/// still decides everything else (it kills other architectures and answers `clone3`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn no_more_tasks_program() -> Vec<libc::sock_filter> {
    let ld = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    let jeq = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    let ret = (libc::BPF_RET | libc::BPF_K) as u16;
    let mut refused = vec![libc::SYS_clone as u32];
    #[cfg(target_arch = "x86_64")]
    refused.extend([libc::SYS_fork as u32, libc::SYS_vfork as u32]);
    let n = refused.len();
    let mut p = vec![libc::sock_filter {
        code: ld,
        jt: 0,
        jf: 0,
        k: 0,
    }];
    for (i, nr) in refused.iter().enumerate() {
        p.push(libc::sock_filter {
            code: jeq,
            // To the EAGAIN return after the ALLOW one.
            jt: (n - i) as u8,
            jf: 0,
            k: *nr,
        });
    }
    p.push(libc::sock_filter {
        code: ret,
        jt: 0,
        jf: 0,
        k: libc::SECCOMP_RET_ALLOW,
    });
    p.push(libc::sock_filter {
        code: ret,
        jt: 0,
        jf: 0,
        k: libc::SECCOMP_RET_ERRNO | libc::EAGAIN as u32,
    });
    p
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn no_more_tasks_program() -> Vec<libc::sock_filter> {
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
    /// The kernel's own ABI version (`abi` is capped at the newest one the landlock crate
    /// knows).
    pub version: u32,
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
        Some(Landlock {
            abi,
            version: v as u32,
            fixed,
        })
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
            // A jump reaches at most 255 instructions ahead, and the first ones jump to the
            // shared returns at the end: stay well inside that (97 with the IPC calls).
            assert!(p.len() < 160, "filter grew to {} instructions", p.len());
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
    fn every_number_gets_the_answer_of_the_deny_list_in_a_few_steps() {
        let a = AUDIT_ARCH;
        let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        let denied: Vec<u32> = denied_syscalls().iter().map(|n| *n as u32).collect();
        for single_task in [false, true] {
            let p = seccomp_program(single_task);
            for nr in 0..1024u32 {
                let special = [libc::SYS_clone, libc::SYS_clone3]
                    .iter()
                    .any(|n| *n as u32 == nr);
                #[cfg(target_arch = "x86_64")]
                let special =
                    special || nr == libc::SYS_fork as u32 || nr == libc::SYS_vfork as u32;
                if special {
                    continue;
                }
                let want = if denied.contains(&nr) {
                    eperm
                } else {
                    libc::SECCOMP_RET_ALLOW
                };
                assert_eq!(eval(&p, a, nr, 0), want, "system call {nr}");
                assert!(steps(&p, a, nr) <= 16, "system call {nr}: too many steps");
            }
            assert_eq!(eval(&p, a, X32_SYSCALL_BIT, 0), eperm, "x32");
        }
    }

    /// Instructions executed for `nr` (what the kernel's allow-cache precomputation pays).
    fn steps(p: &[libc::sock_filter], arch: u32, nr: u32) -> usize {
        let (mut n, mut pc, mut acc) = (0usize, 0usize, 0u32);
        loop {
            n += 1;
            let ins = p[pc];
            let code = ins.code as u32;
            match code & 0x07 {
                c if c == libc::BPF_LD => {
                    acc = match ins.k {
                        0 => nr,
                        4 => arch,
                        _ => 0,
                    };
                    pc += 1;
                }
                c if c == libc::BPF_RET => return n,
                _ => {
                    let taken = match code & 0xf0 {
                        op if op == libc::BPF_JEQ => acc == ins.k,
                        op if op == libc::BPF_JGE => acc >= ins.k,
                        _ => acc & ins.k != 0,
                    };
                    pc += 1 + if taken { ins.jt } else { ins.jf } as usize;
                }
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
    fn the_second_filter_refuses_every_new_task_and_nothing_else() {
        let p = no_more_tasks_program();
        let a = AUDIT_ARCH;
        let nr = |n: libc::c_long| n as u32;
        let eagain = libc::SECCOMP_RET_ERRNO | libc::EAGAIN as u32;
        let thread_flags = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(eval(&p, a, nr(libc::SYS_clone), thread_flags), eagain);
        assert_eq!(
            eval(&p, a, nr(libc::SYS_clone), libc::CLONE_PARENT as u64),
            eagain
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(eval(&p, a, nr(libc::SYS_fork), 0), eagain);
            assert_eq!(eval(&p, a, nr(libc::SYS_vfork), 0), eagain);
        }
        for n in [
            libc::SYS_read,
            libc::SYS_execve,
            libc::SYS_clone3,
            libc::SYS_ptrace,
        ] {
            assert_eq!(eval(&p, a, nr(n), 0), libc::SECCOMP_RET_ALLOW, "{n}");
        }
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
