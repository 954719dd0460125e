//! Mounting the box: the slot's base mount namespace ([`build_base`], once per slot) and the
//! per-run part that the proxy mounts with raw system calls ([`build_box`], [`run_ops`]).

use std::ffi::CString;
use std::os::fd::{FromRawFd, OwnedFd};

use super::FsPlan;
use crate::sandbox::linux::fsview::{MountOp, OpKind, ROOT_OPTIONS};
use crate::sandbox::linux::sys::{sc1, sc2, sc3, sc4, syscall6};

/// `mount(2)`.
pub(in crate::sandbox::linux) unsafe fn mount(
    src: *const u8,
    dst: *const u8,
    fstype: *const u8,
    flags: libc::c_ulong,
    data: *const u8,
) -> isize {
    // SAFETY: the caller passes NUL-terminated strings or null pointers.
    unsafe {
        syscall6(
            libc::SYS_mount,
            [
                src as usize,
                dst as usize,
                fstype as usize,
                flags as usize,
                data as usize,
                0,
            ],
        )
    }
}

/// Builds the box in the proxy's fresh mount namespace and moves into it (see
/// [`crate::sandbox::linux::fsview`]). On failure: (index of the failing op or `u32::MAX`, errno).
///
/// # Safety
/// Runs in the proxy: raw system calls on prepared data only.
pub(super) unsafe fn build_box(fs: &FsPlan) -> Result<(), (u32, i32)> {
    let null = std::ptr::null::<u8>();
    let root_err = |r: isize| (u32::MAX, (-r) as i32);
    let check = |r: isize| if r < 0 { Err(r) } else { Ok(()) };
    // SAFETY: raw system calls on the prepared NUL-terminated paths of `fs`.
    unsafe {
        // Modes as given (the harness's umask must not clip /tmp's 1777).
        sc1(libc::SYS_umask, 0);
        if fs.base_fd >= 0 {
            // The slot's base: every mount already private, the box's fixed part already
            // under the stage. The copy made here is this run's alone.
            check(sc2(
                libc::SYS_setns,
                fs.base_fd as usize,
                libc::CLONE_NEWNS as usize,
            ))
            .map_err(root_err)?;
            check(sc1(libc::SYS_unshare, libc::CLONE_NEWNS as usize)).map_err(root_err)?;
        } else {
            // Nothing mounted here may propagate back to the host.
            check(mount(
                null,
                c"/".as_ptr().cast(),
                null,
                libc::MS_REC | libc::MS_PRIVATE,
                null,
            ))
            .map_err(root_err)?;
            check(mount(
                c"judge-box".as_ptr().cast(),
                fs.stage.as_ptr().cast(),
                c"tmpfs".as_ptr().cast(),
                libc::MS_NOSUID | libc::MS_NODEV,
                ROOT_OPTIONS.as_ptr().cast(),
            ))
            .map_err(root_err)?;
        }
        run_ops(&fs.ops)?;
        // The box becomes `/` of the proxy and so of everything it starts. `chroot`, not
        // `pivot_root` + detaching the old root: any unmount waits for an RCU grace period
        // (tens of milliseconds on a busy machine). The host's mounts stay in this private
        // namespace but out of reach: the contestant cannot `chroot`, mount or unmount
        // (seccomp), holds no file descriptor outside the box, and `/proc/1/root` is this
        // root too; `/proc/self/mountinfo` lists only mounts below it.
        check(sc1(libc::SYS_chdir, fs.stage.as_ptr() as usize)).map_err(root_err)?;
        check(sc1(libc::SYS_chroot, c".".as_ptr() as usize)).map_err(root_err)?;
        check(sc1(libc::SYS_chdir, c"/".as_ptr() as usize)).map_err(root_err)?;
        sc1(libc::SYS_umask, 0o022);
    }
    Ok(())
}

/// Executes the prepared mount steps in order. On failure: (index of the failing op, errno).
///
/// # Safety
/// Raw system calls on prepared data only (safe in the proxy and on a plain thread).
pub(in crate::sandbox::linux) unsafe fn run_ops(ops: &[MountOp]) -> Result<(), (u32, i32)> {
    let null = std::ptr::null::<u8>();
    let check = |r: isize| if r < 0 { Err(r) } else { Ok(()) };
    // SAFETY: every path is a NUL-terminated C string of a prepared op.
    unsafe {
        for (i, op) in ops.iter().enumerate() {
            let err = |r: isize| (i as u32, (-r) as i32);
            let src = op.src.as_ptr().cast::<u8>();
            let dst = op.dst.as_ptr().cast::<u8>();
            let mkdir = |mode: u32| {
                let r = sc3(
                    libc::SYS_mkdirat,
                    libc::AT_FDCWD as usize,
                    dst as usize,
                    mode as usize,
                );
                if r == -(libc::EEXIST as isize) {
                    0
                } else {
                    r
                }
            };
            match op.kind {
                OpKind::Mkdir => check(mkdir(op.mode)).map_err(err)?,
                OpKind::Symlink => check(sc3(
                    libc::SYS_symlinkat,
                    src as usize,
                    libc::AT_FDCWD as usize,
                    dst as usize,
                ))
                .map_err(err)?,
                OpKind::BindDir | OpKind::BindFile => {
                    if op.kind == OpKind::BindDir {
                        check(mkdir(0o755)).map_err(err)?;
                    } else {
                        let fd = sc4(
                            libc::SYS_openat,
                            libc::AT_FDCWD as usize,
                            dst as usize,
                            (libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC) as usize,
                            0o644,
                        );
                        check(fd).map_err(err)?;
                        sc1(libc::SYS_close, fd as usize);
                    }
                    let rec = if op.kind == OpKind::BindDir {
                        libc::MS_REC
                    } else {
                        0
                    };
                    check(mount(src, dst, null, libc::MS_BIND | rec, null)).map_err(err)?;
                    check(mount(
                        null,
                        dst,
                        null,
                        libc::MS_REMOUNT | libc::MS_BIND | op.flags,
                        null,
                    ))
                    .map_err(err)?;
                }
                OpKind::Chown => check(sc4(
                    libc::SYS_fchownat,
                    libc::AT_FDCWD as usize,
                    dst as usize,
                    op.mode as usize,
                    op.mode as usize,
                ))
                .map_err(err)?,
                OpKind::Tmpfs => {
                    check(mkdir(0o755)).map_err(err)?;
                    check(mount(
                        c"judge-scratch".as_ptr().cast(),
                        dst,
                        c"tmpfs".as_ptr().cast(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        src,
                    ))
                    .map_err(err)?;
                }
                OpKind::RemountRootReadOnly => check(mount(
                    null,
                    dst,
                    null,
                    libc::MS_REMOUNT
                        | libc::MS_RDONLY
                        | libc::MS_NOSUID
                        | libc::MS_NODEV
                        | op.flags,
                    null,
                ))
                .map_err(err)?,
                OpKind::RemountRootWritable => check(mount(
                    null,
                    dst,
                    null,
                    libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NODEV | op.flags,
                    null,
                ))
                .map_err(err)?,
                OpKind::Unmount => check(sc2(
                    libc::SYS_umount2,
                    dst as usize,
                    libc::MNT_DETACH as usize,
                ))
                .map_err(err)?,
                OpKind::Mask => check(mount(src, dst, null, libc::MS_BIND, null)).map_err(err)?,
                OpKind::Proc => check(mount(
                    c"proc".as_ptr().cast(),
                    dst,
                    c"proc".as_ptr().cast(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    null,
                ))
                .map_err(err)?,
            }
        }
    }
    Ok(())
}

/// Builds a slot's base: a new mount namespace, every mount a slave of the host's, with a tmpfs on
/// `stage` holding the box's fixed part (`ops`). Runs once per slot on a short-lived thread
/// of its own (unsharing the mount namespace unshares only that thread's file-system
/// context); returns an fd that keeps the namespace alive. Each run's proxy then joins a
/// private copy of it (the kernel clones the mount tree in one call) and adds only the
/// run's own mounts, instead of making ~35 mounts again. The host's mounts stay in the base
/// (bind sources are host paths); the run's `chroot` puts them out of reach as before.
pub fn build_base(stage: CString, ops: Vec<MountOp>) -> std::io::Result<OwnedFd> {
    let work = move || -> std::io::Result<OwnedFd> {
        let null = std::ptr::null::<u8>();
        let fail = |what: &str, r: isize| {
            let e = std::io::Error::from_raw_os_error((-r) as i32);
            std::io::Error::new(e.kind(), format!("{what}: {e}"))
        };
        let check = |what: &str, r: isize| if r < 0 { Err(fail(what, r)) } else { Ok(()) };
        // SAFETY: raw system calls on NUL-terminated strings owned by this closure; they
        // change only this thread's mount namespace, root, cwd and umask.
        unsafe {
            check(
                "unshare",
                sc1(libc::SYS_unshare, libc::CLONE_NEWNS as usize),
            )?;
            let fd = sc3(
                libc::SYS_openat,
                libc::AT_FDCWD as usize,
                c"/proc/thread-self/ns/mnt".as_ptr() as usize,
                (libc::O_RDONLY | libc::O_CLOEXEC) as usize,
            );
            check("opening the mount namespace", fd)?;
            let ns = OwnedFd::from_raw_fd(fd as i32);
            sc1(libc::SYS_umask, 0);
            // Slave, not private: the host's later mounts and unmounts still reach the base
            // (and the runs' copies), so a bind source on a file system mounted after the
            // sandbox was made is the host's current one; nothing flows back to the host.
            let root_flags = libc::MS_REC | libc::MS_SLAVE;
            check(
                "making / a slave of the host",
                mount(null, c"/".as_ptr().cast(), null, root_flags, null),
            )?;
            check(
                "mounting the box's root",
                mount(
                    c"judge-box".as_ptr().cast(),
                    stage.as_ptr().cast(),
                    c"tmpfs".as_ptr().cast(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    ROOT_OPTIONS.as_ptr().cast(),
                ),
            )?;
            if let Err((i, errno)) = run_ops(&ops) {
                let what = ops
                    .get(i as usize)
                    .map(|op| format!("{:?} {}", op.kind, op.dst.to_string_lossy()))
                    .unwrap_or_default();
                return Err(fail(&what, -(errno as isize)));
            }
            Ok(ns)
        }
    };
    std::thread::Builder::new()
        .name("judge-box-base".into())
        .spawn(work)?
        .join()
        .map_err(|_| std::io::Error::other("the box builder thread panicked"))?
}
