//! Raw system calls for code that runs between `clone` and `execve`.
//!
//! The proxy init and the contestant child share the harness's address space (`CLONE_VM`)
//! but run without their own thread-local storage, so they must not touch `errno` (the libc
//! wrappers write it into the *harness thread's* TLS) and must not allocate. These wrappers
//! issue the system call instruction directly and return `-errno` on failure.

use std::ffi::c_void;

/// Result of a raw system call: `>= 0` on success, `-errno` on failure.
pub type Ret = isize;

#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn syscall6(n: libc::c_long, a: [usize; 6]) -> Ret {
    let ret: isize;
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") n as isize => ret,
            in("rdi") a[0], in("rsi") a[1], in("rdx") a[2],
            in("r10") a[3], in("r8") a[4], in("r9") a[5],
            lateout("rcx") _, lateout("r11") _,
            options(nostack)
        );
    }
    ret
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub unsafe fn syscall6(n: libc::c_long, a: [usize; 6]) -> Ret {
    let ret: isize;
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe {
        std::arch::asm!(
            "svc 0",
            in("x8") n,
            inlateout("x0") a[0] as isize => ret,
            in("x1") a[1], in("x2") a[2], in("x3") a[3], in("x4") a[4], in("x5") a[5],
            options(nostack)
        );
    }
    ret
}

/// Other architectures: fall back to libc (which may write the caller thread's `errno` on
/// failure; harmless in practice, documented here for honesty).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
pub unsafe fn syscall6(n: libc::c_long, a: [usize; 6]) -> Ret {
    // SAFETY: forwarded verbatim.
    let r = unsafe { libc::syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]) };
    if r < 0 {
        -(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EINVAL) as isize)
    } else {
        r as isize
    }
}

#[inline(always)]
pub unsafe fn sc1(n: libc::c_long, a: usize) -> Ret {
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe { syscall6(n, [a, 0, 0, 0, 0, 0]) }
}
#[inline(always)]
pub unsafe fn sc2(n: libc::c_long, a: usize, b: usize) -> Ret {
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe { syscall6(n, [a, b, 0, 0, 0, 0]) }
}
#[inline(always)]
pub unsafe fn sc3(n: libc::c_long, a: usize, b: usize, c: usize) -> Ret {
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe { syscall6(n, [a, b, c, 0, 0, 0]) }
}
#[inline(always)]
pub unsafe fn sc4(n: libc::c_long, a: usize, b: usize, c: usize, d: usize) -> Ret {
    // SAFETY: the caller guarantees the arguments are valid for system call `n`.
    unsafe { syscall6(n, [a, b, c, d, 0, 0]) }
}

/// Terminates only the calling task (never `exit_group`, which is the same here but
/// clearer about intent for a `CLONE_VM` child).
#[inline(always)]
pub unsafe fn exit(code: i32) -> ! {
    loop {
        // SAFETY: `exit` takes no pointers and ends the calling task.
        unsafe {
            sc1(libc::SYS_exit, code as usize);
        }
    }
}

/// `clone(CLONE_VM | CLONE_VFORK | extra | SIGCHLD, stack)` that runs `f(arg)` on
/// `stack_top` in the child. Returns the child pid (in the caller's pid namespace) or
/// `-errno`. `f` must never return. `parent_tid` receives the pidfd when `extra` has
/// `CLONE_PIDFD` (else null).
pub unsafe fn clone_vfork(
    extra_flags: usize,
    stack_top: *mut u8,
    f: unsafe extern "C" fn(*mut c_void) -> !,
    arg: *mut c_void,
    parent_tid: *mut i32,
) -> Ret {
    let flags =
        libc::CLONE_VM as usize | libc::CLONE_VFORK as usize | extra_flags | libc::SIGCHLD as usize;
    // SAFETY: the caller's contract.
    unsafe { clone_raw(flags, stack_top, f, arg, parent_tid) }
}

/// `clone(flags, stack)` that runs `f(arg)` on `stack_top` in the child (which must share
/// the caller's memory: `CLONE_VM`). Returns the child pid or `-errno`; `f` must never
/// return. Implemented in assembly so that no libc code (and no `errno`) is involved.
#[cfg(target_arch = "x86_64")]
pub unsafe fn clone_raw(
    flags: usize,
    stack_top: *mut u8,
    f: unsafe extern "C" fn(*mut c_void) -> !,
    arg: *mut c_void,
    parent_tid: *mut i32,
) -> Ret {
    let ret: isize;
    // SAFETY: the child starts on `stack_top` (16-byte aligned by the caller) and
    // immediately calls `f`, which never returns; the parent continues normally.
    unsafe {
        std::arch::asm!(
            "syscall",
            "test rax, rax",
            "jnz 2f",
            "xor ebp, ebp",
            "mov rdi, r12",
            "call r13",
            "ud2",
            "2:",
            inlateout("rax") libc::SYS_clone as isize => ret,
            in("rdi") flags,
            in("rsi") stack_top,
            in("rdx") parent_tid,
            in("r10") 0usize,
            in("r8") 0usize,
            in("r12") arg,
            in("r13") f,
            lateout("rcx") _, lateout("r11") _,
        );
    }
    ret
}

#[cfg(target_arch = "aarch64")]
pub unsafe fn clone_raw(
    flags: usize,
    stack_top: *mut u8,
    f: unsafe extern "C" fn(*mut c_void) -> !,
    arg: *mut c_void,
    parent_tid: *mut i32,
) -> Ret {
    let ret: isize;
    // SAFETY: as for x86_64.
    unsafe {
        std::arch::asm!(
            "svc 0",
            "cbnz x0, 2f",
            "mov x29, xzr",
            "mov x0, x10",
            "blr x11",
            "brk #0",
            "2:",
            in("x8") libc::SYS_clone,
            inlateout("x0") flags as isize => ret,
            in("x1") stack_top,
            in("x2") parent_tid,
            in("x3") 0usize,
            in("x4") 0usize,
            in("x10") arg,
            in("x11") f,
        );
    }
    ret
}

/// Other architectures: through libc, and only for `CLONE_VFORK` children (the trampoline's
/// arguments live on the caller's stack, which a vfork parent does not leave).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub unsafe fn clone_raw(
    flags: usize,
    stack_top: *mut u8,
    f: unsafe extern "C" fn(*mut c_void) -> !,
    arg: *mut c_void,
    parent_tid: *mut i32,
) -> Ret {
    if flags & libc::CLONE_VFORK as usize == 0 {
        return -(libc::ENOSYS as isize);
    }
    unsafe extern "C" fn tramp(arg: *mut c_void) -> libc::c_int {
        // SAFETY: `arg` is the `pair` below, alive while the vfork parent waits.
        let pair =
            unsafe { &*(arg as *const (unsafe extern "C" fn(*mut c_void) -> !, *mut c_void)) };
        // SAFETY: the caller's contract for `f` and `arg`.
        unsafe { (pair.0)(pair.1) }
    }
    let pair = (f, arg);
    let flags = flags as libc::c_int;
    // SAFETY: CLONE_VFORK keeps `pair` and the stack alive until the child execs or exits.
    let r = unsafe {
        libc::clone(
            tramp,
            stack_top as *mut c_void,
            flags,
            &pair as *const _ as *mut c_void,
            parent_tid,
        )
    };
    if r < 0 {
        -(libc::EAGAIN as isize)
    } else {
        r as isize
    }
}

/// A small, page-aligned, zero-filled stack for a clone child, with a guard page below it.
pub struct Stack {
    base: *mut c_void,
    len: usize,
}

// SAFETY: the mapping is plain memory owned by this value; moving the owner to another
// thread moves nothing but the pointer.
unsafe impl Send for Stack {}
// SAFETY: `&Stack` only exposes the top address; the memory is written by clone children,
// never through the shared reference.
unsafe impl Sync for Stack {}

impl Stack {
    pub fn new(size: usize) -> std::io::Result<Stack> {
        let page = 4096;
        let len = size.div_ceil(page) * page + page;
        // SAFETY: anonymous private mapping; checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // Guard page: an overflow faults instead of corrupting harness memory.
        // SAFETY: the first page of our own mapping.
        unsafe { libc::mprotect(base, page, libc::PROT_NONE) };
        Ok(Stack { base, len })
    }

    /// Highest usable address, 16-byte aligned.
    pub fn top(&self) -> *mut u8 {
        // SAFETY: one past the end of our mapping, aligned down to 16 bytes.
        unsafe { (self.base as *mut u8).add(self.len - 64) }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: unmapping our own mapping exactly once.
        unsafe { libc::munmap(self.base, self.len) };
    }
}

/// Sends `sig` through a pidfd (immune to pid reuse). Errors are ignored: the process may
/// already be gone.
pub fn pidfd_kill(pidfd: i32, sig: i32) {
    // SAFETY: plain system call with integer arguments.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd,
            sig,
            std::ptr::null::<c_void>(),
            0,
        );
    }
}

/// `waitid(P_PIDFD, pidfd, WEXITED | __WALL)` with rusage. Retries on EINTR.
pub fn wait_pidfd(pidfd: i32) -> std::io::Result<(libc::siginfo_t, libc::rusage)> {
    loop {
        // SAFETY: siginfo_t is plain old data, valid when zeroed.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: rusage is plain old data, valid when zeroed.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: the raw waitid system call takes a rusage pointer as 5th argument.
        let r = unsafe {
            libc::syscall(
                libc::SYS_waitid,
                libc::P_PIDFD,
                pidfd,
                &mut info as *mut libc::siginfo_t,
                libc::WEXITED | libc::__WALL,
                &mut ru as *mut libc::rusage,
            )
        };
        if r == 0 {
            return Ok((info, ru));
        }
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() != Some(libc::EINTR) {
            return Err(e);
        }
    }
}

pub fn cvt(r: libc::c_int) -> std::io::Result<libc::c_int> {
    if r < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// Duration from a `timeval`.
pub fn tv(t: libc::timeval) -> std::time::Duration {
    std::time::Duration::new(
        t.tv_sec.max(0) as u64,
        (t.tv_usec.clamp(0, 999_999) as u32) * 1000,
    )
}
