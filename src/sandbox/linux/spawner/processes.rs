//! What the slot's long-lived processes run: the init (mounts, `kill(-1)` and reaping on
//! request) and the spawner (set up once, then one program per request), with raw system
//! calls only on the data the harness prepared.

use super::*;

/// Records a failed setup step of a slot process and tells the harness.
///
/// # Safety
/// Raw system calls only.
unsafe fn setup_failed(step: &AtomicU32, errno: &AtomicI32, s: spawn::Step, r: isize, fd: i32) {
    errno.store((-r) as i32, Ordering::SeqCst);
    step.store(s as u32, Ordering::SeqCst);
    // SAFETY: as the caller's.
    unsafe { answer(fd) };
}

/// Signals eventfd `fd`.
///
/// # Safety
/// Raw system calls only.
unsafe fn answer(fd: i32) {
    let one: u64 = 1;
    // SAFETY: writing 8 bytes from a local.
    unsafe { sc3(libc::SYS_write, fd as usize, &one as *const u64 as usize, 8) };
}

/// Blocks until eventfd `fd` is signalled (consuming it); `false` when the harness
/// (`harness`, a pidfd) is gone instead.
///
/// # Safety
/// Raw system calls only.
unsafe fn next_request(fd: i32, harness: i32) -> bool {
    loop {
        let mut fds = [
            libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: harness,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: ppoll on two local pollfd entries, no timeout, no mask change.
        let r = unsafe { sc4(libc::SYS_ppoll, fds.as_mut_ptr() as usize, 2, 0, 0) };
        if r < 0 {
            continue;
        }
        if fds[1].revents != 0 {
            return false;
        }
        if fds[0].revents != 0 {
            let mut v = 0u64;
            // SAFETY: reading the 8-byte counter into a local.
            let n = unsafe { sc3(libc::SYS_read, fd as usize, &mut v as *mut u64 as usize, 8) };
            if n == 8 {
                return true;
            }
        }
    }
}

/// Blocks every signal of the calling task (SIGKILL still works).
///
/// # Safety
/// Raw system calls only.
unsafe fn block_signals() {
    let all: u64 = !0;
    // SAFETY: rt_sigprocmask with a local mask.
    unsafe {
        sc4(
            libc::SYS_rt_sigprocmask,
            libc::SIG_SETMASK as usize,
            &all as *const u64 as usize,
            0,
            8,
        )
    };
}

pub(super) extern "C" fn init_main_c(arg: *mut c_void) -> libc::c_int {
    // SAFETY: only ever called by `SlotSpawner::start` with its prepared setup.
    unsafe { init_main(&*(arg as *const InitSetup)) }
}

/// The slot's init: pid 1 of the slot's pid namespace.
///
/// # Safety
/// Raw system calls only, on `s` and the channel it points to.
unsafe fn init_main(s: &InitSetup) -> libc::c_int {
    use spawn::Step;
    // SAFETY: raw system calls on the prepared setup and locals.
    unsafe {
        block_signals();
        // Not the harness thread's name: nothing of judge shows in pid 1.
        sc2(
            libc::SYS_prctl,
            libc::PR_SET_NAME as usize,
            crate::sandbox::linux::fsview::PID1_NAME.as_ptr() as usize,
        );
        if s.mnt >= 0 {
            let r = sc2(libc::SYS_setns, s.mnt as usize, libc::CLONE_NEWNS as usize);
            if r < 0 {
                setup_failed(&s.err_step, &s.err_errno, Step::Mount, r, s.reply);
                return 127;
            }
            // The box's /proc shows the slot's pid namespace (this process's).
            let r = spawn::mount(
                c"proc".as_ptr().cast(),
                s.proc_dir.as_ptr().cast(),
                c"proc".as_ptr().cast(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            );
            if r < 0 {
                setup_failed(&s.err_step, &s.err_errno, Step::Mount, r, s.reply);
                return 127;
            }
            // Runs see nothing of judge in pid 1's files (it shares the harness's memory).
            for mask in s.masks.iter() {
                let r = spawn::mount(
                    c"/dev/null".as_ptr().cast(),
                    mask.as_ptr().cast(),
                    std::ptr::null(),
                    libc::MS_BIND,
                    std::ptr::null(),
                );
                if r < 0 {
                    setup_failed(&s.err_step, &s.err_errno, Step::Mount, r, s.reply);
                    return 127;
                }
            }
        }
        // Our fd table is a copy of the harness's: keep only our own, so that pipes of
        // concurrent runs are not held open.
        let mut lo: i32 = 3;
        for &fd in s.keep.iter() {
            if fd >= lo {
                if fd > lo {
                    sc3(libc::SYS_close_range, lo as usize, (fd - 1) as usize, 0);
                }
                lo = fd.wrapping_add(1);
            }
        }
        sc3(libc::SYS_close_range, lo as usize, u32::MAX as usize, 0);
        answer(s.reply);
        let chan = &*s.chan;
        while next_request(s.req, s.harness) {
            match chan.cmd.load(Ordering::SeqCst) {
                CMD_OPS => {
                    let ops = std::slice::from_raw_parts(
                        chan.ops.load(Ordering::SeqCst),
                        chan.ops_len.load(Ordering::SeqCst),
                    );
                    let (index, errno) = match spawn::run_ops(ops) {
                        Ok(()) => (u32::MAX, 0),
                        Err(e) => e,
                    };
                    chan.err_errno.store(errno, Ordering::SeqCst);
                    chan.err_index.store(index, Ordering::SeqCst);
                }
                CMD_KILL_ALL => {
                    // As pid 1, `kill(-1)` reaches every other process of the namespace.
                    sc2(libc::SYS_kill, -1isize as usize, libc::SIGKILL as usize);
                    loop {
                        let r = sc4(
                            libc::SYS_wait4,
                            -1isize as usize,
                            0,
                            libc::__WALL as usize,
                            0,
                        );
                        if r == -(libc::EINTR as isize) || r > 0 {
                            continue;
                        }
                        break;
                    }
                }
                _ => {}
            }
            answer(s.reply);
        }
    }
    0
}

pub(super) extern "C" fn start_main_c(arg: *mut c_void) -> libc::c_int {
    // SAFETY: only ever called by `SlotSpawner::start` with its prepared setup.
    unsafe { start_main(&*(arg as *const HelperSetup)) }
}

/// The spawner's starter: starts the spawner with `CLONE_VFORK | CLONE_PARENT` and waits,
/// as a vfork parent, until the spawner ends. So the spawner, which never calls `execve`,
/// is "in vfork" for its whole life with the harness as its parent, sharing its memory:
/// the OOM killer never chooses such a task (`in_vfork()`), which matters because the
/// spawner may sit in the slot's memory cgroup, and killing it would kill every process
/// that shares its memory, the harness included. (Lowering its `oom_score_adj` instead
/// needs CAP_SYS_RESOURCE, and would be copied to the harness.)
///
/// # Safety
/// Raw system calls only, on `s`.
unsafe fn start_main(s: &HelperSetup) -> libc::c_int {
    // SAFETY: raw system calls on the prepared setup and locals.
    unsafe {
        block_signals();
        let flags = libc::CLONE_VM
            | libc::CLONE_FILES
            | libc::CLONE_PARENT
            | libc::CLONE_VFORK
            | libc::CLONE_PIDFD;
        // The pidfd goes straight where the harness reads it (the kernel writes it before the
        // spawner runs, which answers only once it is set up).
        let pid = sys::clone_raw(
            flags as usize,
            s.stack_top,
            helper_entry,
            s as *const HelperSetup as *mut c_void,
            s.pidfd.as_ptr(),
        );
        if pid < 0 {
            s.pid.store(pid as i32, Ordering::SeqCst);
            answer(s.done);
            return 127;
        }
    }
    0
}

unsafe extern "C" fn helper_entry(arg: *mut c_void) -> ! {
    // SAFETY: only ever started by `start_main` with the prepared setup.
    unsafe {
        let s = &*(arg as *const HelperSetup);
        s.pid
            .store(sc1(libc::SYS_getpid, 0) as i32, Ordering::SeqCst);
        let code = helper_main(s);
        sys::exit(code)
    }
}

/// The calling thread's CPU time, ns.
///
/// # Safety
/// Raw system call on a local.
unsafe fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the local.
    unsafe {
        sc2(
            libc::SYS_clock_gettime,
            libc::CLOCK_THREAD_CPUTIME_ID as usize,
            &mut t as *mut libc::timespec as usize,
        )
    };
    (t.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(t.tv_nsec as u64)
}

/// The slot's spawner.
///
/// # Safety
/// Raw system calls only, on `s`, the channel it points to and the plans handed over.
unsafe fn helper_main(s: &HelperSetup) -> libc::c_int {
    use spawn::Step;
    // SAFETY: raw system calls on the prepared setup and locals.
    unsafe {
        block_signals();
        let fail = |step: Step, r: isize| {
            setup_failed(&s.err_step, &s.err_errno, step, r, s.done);
        };
        // Children are born in the slot's pid namespace; this process stays outside it.
        let r = sc2(
            libc::SYS_setns,
            s.pidns as usize,
            libc::CLONE_NEWPID as usize,
        );
        if r < 0 {
            fail(Step::CloneChild, r);
            return 127;
        }
        if s.mnt >= 0 {
            let r = sc2(libc::SYS_setns, s.mnt as usize, libc::CLONE_NEWNS as usize);
            let r = if r < 0 {
                r
            } else {
                let r = sc1(libc::SYS_chdir, s.stage.as_ptr() as usize);
                if r < 0 {
                    r
                } else {
                    sc1(libc::SYS_chroot, c".".as_ptr() as usize)
                }
            };
            if r < 0 {
                fail(Step::Mount, r);
                return 127;
            }
            sc1(libc::SYS_chdir, c"/".as_ptr() as usize);
        }
        sc1(libc::SYS_umask, 0o022);
        if s.netns >= 0 {
            let r = sc2(
                libc::SYS_setns,
                s.netns as usize,
                libc::CLONE_NEWNET as usize,
            );
            if r < 0 {
                fail(Step::JoinNetns, r);
                return 127;
            }
        }
        let r = sc2(libc::SYS_prctl, libc::PR_SET_NO_NEW_PRIVS as usize, 1);
        if r < 0 {
            fail(Step::NoNewPrivs, r);
            return 127;
        }
        if s.landlock >= 0 {
            let r = sc2(libc::SYS_landlock_restrict_self, s.landlock as usize, 0);
            if r < 0 {
                fail(Step::Landlock, r);
                return 127;
            }
        }
        if !s.seccomp.is_empty() {
            let r = sc3(
                libc::SYS_seccomp,
                1, /* SECCOMP_SET_MODE_FILTER */
                0,
                &s.seccomp_prog as *const libc::sock_fprog as usize,
            );
            if r < 0 {
                fail(Step::Seccomp, r);
                return 127;
            }
        }
        // Last: what the set-up allocated is not charged to the slot.
        for &fd in s.cgroup_procs.iter() {
            let r = sc3(libc::SYS_write, fd as usize, b"0".as_ptr() as usize, 1);
            if r < 0 {
                fail(Step::JoinCgroup, r);
                return 127;
            }
        }
        // The slot's uid: the programs are born with it. This process stays out of their
        // reach: it is not in their pid namespace, and they may not ptrace.
        if let Some(uid) = s.uid {
            let u = uid as usize;
            for (step, r) in [
                (Step::SetGroups, sc2(libc::SYS_setgroups, 0, 0)),
                (Step::SetGid, sc3(libc::SYS_setresgid, u, u, u)),
                (Step::SetUid, sc3(libc::SYS_setresuid, u, u, u)),
            ] {
                if r < 0 {
                    fail(step, r);
                    return 127;
                }
            }
        }
        answer(s.done);
        let chan = &*s.chan;
        while next_request(s.go, s.harness) {
            let cpu_before = thread_cpu_ns();
            let plan = chan.plan.load(Ordering::SeqCst);
            let mut pidfd: i32 = -1;
            // The program's parent is the harness (CLONE_PARENT): it reaps it and reads its
            // status directly. We wait here (CLONE_VFORK) until it has called execve.
            let pid = sys::clone_vfork(
                (libc::CLONE_PARENT | libc::CLONE_PIDFD) as usize,
                (*plan).child_stack_top,
                spawn::contestant_main,
                plan.cast(),
                &mut pidfd,
            );
            chan.spawn_cpu_ns
                .store(thread_cpu_ns().wrapping_sub(cpu_before), Ordering::SeqCst);
            chan.child_pidfd.store(pidfd, Ordering::SeqCst);
            chan.child_pid.store(pid as i32, Ordering::SeqCst);
            answer(s.done);
        }
    }
    0
}
