//! The program's own view of the file system: a mount namespace per run, as isolate does.
//!
//! The proxy (pid 1 of the run) starts in a new mount namespace, makes every mount private,
//! mounts a size-limited tmpfs on the staging folder, fills it with what a program needs and
//! `chroot`s into it. As root, the fixed part (everything but `/proc`, the scratch spaces,
//! `read_only` dirs and the work dir) is built once per slot in a base namespace
//! ([`super::spawn::build_base`]); each run's proxy joins a private copy of the base and adds
//! only its own mounts ([`FsView::plan_on_base`]). The box:
//!
//! ```text
//!   /usr /lib* /bin /sbin   read-only binds of the host's (or the same symlinks)
//!   /etc                    only ld.so.*, alternatives, java-*, python3*, localtime
//!   /dev                    null zero full random urandom, fd/stdin/stdout/stderr links
//!   /proc                   a new procfs of the run's pid namespace (only its processes)
//!   /sys/devices/system/cpu read-only (CPU count)
//!   /tmp, /box              tmpfs mounts: the run's private scratch space (its disk quota)
//!   <read_only dirs>        read-only binds at their own paths (the binary, a runtime)
//!   <work_dir>              a read-write bind at its own path, when the caller shares one
//!   /box/<file>             the request's work files, read-only binds (a package's include/)
//! ```
//!
//! Nothing else of the host is reachable: no other runs, no `/sys/fs/cgroup`, no home
//! folders, no sockets of other programs (pathname Unix sockets live in folders the box does
//! not have). The tmpfs is the disk quota: files a run writes outside a shared `work_dir`
//! count toward it, and a full tmpfs is reported (see [`super::spawn::Report::disk_used`]).
//!
//! Every step is prepared here as a [`MountOp`] with its paths as C strings; the proxy only
//! executes them with raw system calls.

use std::collections::BTreeSet;
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Host folders bound read-only at their own paths (or recreated as the same symlink).
pub(crate) const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
];
/// Entries of `/etc` that loaders and runtimes read (exact names, or prefixes ending in `*`).
const ETC_ENTRIES: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "alternatives",
    "java-*",
    "python3*",
    // Compilers' configuration: Free Pascal's unit paths, Mono's assembly map.
    "fpc*",
    "mono",
];
/// Device files bound into `/dev` (read-write).
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];
/// Read-only binds of `/sys` (glibc and runtimes read the CPU count here).
const SYS_DIRS: &[&str] = &["/sys/devices/system/cpu"];

/// The private working directory of a run when the caller shares none.
pub const PRIVATE_WORK_DIR: &str = "/box";

/// One preparation step, executed by the proxy in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// `mkdir(dst, mode)`; an existing folder is fine.
    Mkdir,
    /// `symlink(src, dst)`.
    Symlink,
    /// Bind folder `src` at `dst` (recursively), then remount with `flags`.
    BindDir,
    /// Create an empty file at `dst`, bind file `src` on it, then remount with `flags`.
    BindFile,
    /// `chown(dst, mode, mode)` (the mode field carries the uid).
    Chown,
    /// Mount a new procfs at `dst`.
    Proc,
    /// Mount a tmpfs at `dst` (created first) with options `src`.
    Tmpfs,
    /// Remount the box's root read-only (`dst` is the staging mount point).
    RemountRootReadOnly,
    /// Make the box's root mount writable again (`dst` is the staging mount point), so that
    /// mount points can be made in a slot's long-lived box.
    RemountRootWritable,
    /// Detach the mount at `dst` and everything mounted below it.
    Unmount,
    /// Bind `src` (`/dev/null`) over the existing file `dst`: a file of the box's `/proc`
    /// about its pid 1 (see [`PID1_MASKED`]).
    Mask,
}

/// What a run could read of its pid namespace's pid 1 (the slot's init or the run's proxy,
/// which share the harness's memory and so show judge's command line and environment, and
/// whose mount table names the host's folders bound into the box): each is covered by
/// `/dev/null`, relative to the box's `/proc`. Its `comm` is set to [`PID1_NAME`]; its links
/// (`exe`, `cwd`, `root`, `fd/*`) the kernel already keeps from the run.
pub const PID1_MASKED: [&str; 9] = [
    "1/cmdline",
    "1/environ",
    "1/mountinfo",
    "1/mounts",
    "1/mountstats",
    "1/task/1/cmdline",
    "1/task/1/environ",
    "1/task/1/mountinfo",
    "1/task/1/mounts",
];

/// The name (`comm`) pid 1 of a run's pid namespace takes.
pub const PID1_NAME: &std::ffi::CStr = c"init";

/// A step of building the box; paths are absolute paths under the staging mount point.
#[derive(Debug, Clone)]
pub struct MountOp {
    pub kind: OpKind,
    pub src: CString,
    pub dst: CString,
    pub flags: libc::c_ulong,
    pub mode: u32,
}

/// What the file-system view needs that does not change between runs.
pub struct FsView {
    /// An empty host folder the box's tmpfs is mounted on (inside the run's own mount
    /// namespace only, so concurrent runs share it without seeing each other).
    stage: PathBuf,
    /// The fixed part of every box, relative to `/` of the box.
    base: Vec<Step>,
    /// Box paths covered by the fixed part (read-only dirs under them need no bind).
    covered: Vec<PathBuf>,
}

/// A step in box coordinates, before the staging prefix is added.
#[derive(Debug, Clone)]
struct Step {
    kind: OpKind,
    src: PathBuf,
    dst: PathBuf,
    flags: libc::c_ulong,
    mode: u32,
}

/// The mount flags a bind of `path` must keep: inside a user namespace, `nosuid`, `nodev`,
/// `noexec` and the atime flags of the source mount are locked and a remount that drops them
/// fails. Read-only is added by the caller.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: statvfs fills a zeroed local struct from a valid C string path.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let f = st.f_flag;
    let mut out = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if f & st_flag != 0 {
            out |= ms_flag;
        }
    }
    out
}

fn ro_flags(path: &Path) -> libc::c_ulong {
    libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | locked_flags(path)
}

/// The `mkdir` steps for every missing ancestor of `dst` (box coordinates), in order.
fn parents(dst: &Path, made: &mut BTreeSet<PathBuf>, out: &mut Vec<Step>) {
    let mut chain: Vec<PathBuf> = dst
        .ancestors()
        .skip(1)
        .filter(|p| *p != Path::new("/"))
        .map(Path::to_path_buf)
        .collect();
    chain.reverse();
    for p in chain {
        if made.insert(p.clone()) {
            out.push(Step {
                kind: OpKind::Mkdir,
                src: PathBuf::new(),
                dst: p,
                flags: 0,
                mode: 0o755,
            });
        }
    }
}

fn step(
    kind: OpKind,
    src: impl Into<PathBuf>,
    dst: impl Into<PathBuf>,
    flags: libc::c_ulong,
    mode: u32,
) -> Step {
    Step {
        kind,
        src: src.into(),
        dst: dst.into(),
        flags,
        mode,
    }
}

impl FsView {
    /// Prepares the fixed part of the box from what exists on this host, with `stage` as
    /// the mount point (created if missing).
    pub fn new(stage: &Path) -> std::io::Result<FsView> {
        std::fs::create_dir_all(stage)?;
        let mut base = Vec::new();
        let mut made = BTreeSet::new();
        let mut covered = Vec::new();
        for d in SYSTEM_DIRS {
            let p = Path::new(d);
            let Ok(meta) = std::fs::symlink_metadata(p) else {
                continue;
            };
            if meta.file_type().is_symlink() {
                base.push(step(OpKind::Symlink, std::fs::read_link(p)?, p, 0, 0));
            } else if meta.is_dir() {
                base.push(step(OpKind::BindDir, p, p, ro_flags(p), 0));
            }
            covered.push(p.to_path_buf());
        }
        base.push(step(OpKind::Mkdir, "", "/etc", 0, 0o755));
        made.insert(PathBuf::from("/etc"));
        if let Ok(entries) = std::fs::read_dir("/etc") {
            let mut names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
            names.sort();
            for name in names {
                let n = name.to_string_lossy();
                let wanted = ETC_ENTRIES.iter().any(|w| match w.strip_suffix('*') {
                    Some(prefix) => n.starts_with(prefix),
                    None => n == *w,
                });
                if !wanted {
                    continue;
                }
                let p = Path::new("/etc").join(&name);
                let Ok(meta) = std::fs::symlink_metadata(&p) else {
                    continue;
                };
                if meta.file_type().is_symlink() {
                    base.push(step(OpKind::Symlink, std::fs::read_link(&p)?, &p, 0, 0));
                } else if meta.is_dir() {
                    base.push(step(OpKind::BindDir, &p, &p, ro_flags(&p), 0));
                } else {
                    base.push(step(OpKind::BindFile, &p, &p, ro_flags(&p), 0));
                }
                covered.push(p);
            }
        }
        base.push(step(OpKind::Mkdir, "", "/dev", 0, 0o755));
        made.insert(PathBuf::from("/dev"));
        for d in DEVICES {
            let p = Path::new("/dev").join(d);
            if p.exists() {
                // Devices must stay usable: no `nodev` here (the source mount allows them).
                let flags = libc::MS_NOSUID | (locked_flags(&p) & !libc::MS_NODEV);
                base.push(step(OpKind::BindFile, &p, &p, flags, 0));
            }
        }
        for (link, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            base.push(step(
                OpKind::Symlink,
                target,
                Path::new("/dev").join(link),
                0,
                0,
            ));
        }
        // Mount points of the per-run mounts (procfs of the run's pid namespace, scratch).
        base.push(step(OpKind::Mkdir, "", "/proc", 0, 0o555));
        made.insert(PathBuf::from("/proc"));
        for d in ["/tmp", PRIVATE_WORK_DIR] {
            base.push(step(OpKind::Mkdir, "", d, 0, 0o755));
            made.insert(PathBuf::from(d));
        }
        for d in SYS_DIRS {
            let p = Path::new(d);
            if p.is_dir() {
                parents(p, &mut made, &mut base);
                base.push(step(OpKind::BindDir, p, p, ro_flags(p), 0));
            }
        }
        Ok(FsView {
            stage: stage.to_path_buf(),
            base,
            covered,
        })
    }

    /// The staging mount point as a C string.
    pub fn stage(&self) -> CString {
        CString::new(self.stage.as_os_str().as_bytes()).unwrap_or_default()
    }

    /// Every step of one run's box: the fixed part, `read_only` folders bound read-only at
    /// their own paths (unless already inside the fixed part), and the working directory:
    /// `work_dir` bound read-write at its own path, or a private [`PRIVATE_WORK_DIR`] owned
    /// by `uid` holding `work_files` (host files bound read-only under their names). The
    /// writable scratch spaces (`/tmp`, the private work dir) are tmpfs mounts of
    /// `quota_bytes` each; the rest of the box is read-only. Returns the steps, the working
    /// directory's path inside the box and the scratch spaces' paths.
    pub fn plan(
        &self,
        read_only: &[PathBuf],
        work_dir: Option<&Path>,
        work_files: &[PathBuf],
        uid: Option<u32>,
        quota_bytes: u64,
    ) -> Result<BoxPlan, String> {
        self.plan_from(
            self.base.clone(),
            read_only,
            work_dir,
            work_files,
            uid,
            quota_bytes,
        )
    }

    /// The fixed part alone, under the staging mount point: what [`super::spawn::build_base`]
    /// builds once per slot.
    pub fn base_ops(&self) -> Result<Vec<MountOp>, String> {
        self.base.iter().map(|s| s.op(|p| self.staged(p))).collect()
    }

    /// The per-run part alone, for a run that starts from a private copy of a slot's
    /// prebuilt base (where the fixed part is already mounted under the staging mount
    /// point): the same box as [`FsView::plan`] gives. Mount points made outside the scratch spaces stay in the
    /// slot's base (listed in [`BoxPlan::persistent_dirs`]).
    pub fn plan_on_base(
        &self,
        read_only: &[PathBuf],
        work_dir: Option<&Path>,
        work_files: &[PathBuf],
        uid: Option<u32>,
        quota_bytes: u64,
    ) -> Result<BoxPlan, String> {
        let mut plan = self.plan_from(
            Vec::new(),
            read_only,
            work_dir,
            work_files,
            uid,
            quota_bytes,
        )?;
        for op in plan.ops.iter_mut() {
            if op.kind == OpKind::RemountRootReadOnly {
                // The base's root superblock is the slot's: make only this copy read-only.
                op.flags |= libc::MS_BIND;
            }
        }
        Ok(plan)
    }

    /// The per-run mounts of a slot's long-lived box (see [`super::spawner`]), made once for
    /// a given request shape and kept while later requests have the same one: the same box
    /// as [`FsView::plan_on_base`] gives, without `/proc` (mounted once per slot, for the
    /// slot's pid namespace), opened by a step that makes the box's root writable for the
    /// new mount points. [`SlotLayer::teardown`] removes it again.
    pub fn slot_layer(
        &self,
        read_only: &[PathBuf],
        work_dir: Option<&Path>,
        work_files: &[PathBuf],
        uid: Option<u32>,
        quota_bytes: u64,
    ) -> Result<SlotLayer, String> {
        let plan = self.plan_on_base(read_only, work_dir, work_files, uid, quota_bytes)?;
        let root = self.stage();
        let mut ops = vec![MountOp {
            kind: OpKind::RemountRootWritable,
            src: CString::default(),
            dst: root,
            flags: 0,
            mode: 0,
        }];
        // The slot's init mounts the box's /proc (and masks its own files) itself.
        ops.extend(
            plan.ops
                .into_iter()
                .filter(|op| !matches!(op.kind, OpKind::Proc | OpKind::Mask)),
        );
        // Detaching a mount takes what is mounted below it along: only the outermost ones.
        let mounted: Vec<&MountOp> = ops
            .iter()
            .filter(|op| matches!(op.kind, OpKind::Tmpfs | OpKind::BindDir | OpKind::BindFile))
            .collect();
        let below = |inner: &CString, outer: &CString| {
            inner != outer
                && Path::new(OsStr::from_bytes(inner.as_bytes()))
                    .starts_with(OsStr::from_bytes(outer.as_bytes()))
        };
        let teardown = mounted
            .iter()
            .filter(|op| !mounted.iter().any(|o| below(&op.dst, &o.dst)))
            .rev()
            .map(|op| MountOp {
                kind: OpKind::Unmount,
                src: CString::default(),
                dst: op.dst.clone(),
                flags: 0,
                mode: 0,
            })
            .collect();
        let staged_scratch = plan
            .scratch
            .iter()
            .map(|p| self.staged(Path::new(OsStr::from_bytes(p.as_bytes()))))
            .collect::<Result<_, _>>()?;
        Ok(SlotLayer {
            ops,
            teardown,
            cwd: plan.cwd,
            scratch: staged_scratch,
            persistent_dirs: plan.persistent_dirs,
        })
    }

    fn staged(&self, p: &Path) -> Result<CString, String> {
        let rel = p.strip_prefix("/").unwrap_or(p);
        cstr(&self.stage.join(rel))
    }

    fn plan_from(
        &self,
        mut steps: Vec<Step>,
        read_only: &[PathBuf],
        work_dir: Option<&Path>,
        work_files: &[PathBuf],
        uid: Option<u32>,
        quota_bytes: u64,
    ) -> Result<BoxPlan, String> {
        let mut made: BTreeSet<PathBuf> = self
            .base
            .iter()
            .filter(|s| s.kind == OpKind::Mkdir)
            .map(|s| s.dst.clone())
            .collect();
        let base_len = steps.len();
        steps.push(step(OpKind::Proc, "", "/proc", 0, 0));
        for file in PID1_MASKED {
            steps.push(step(
                OpKind::Mask,
                "/dev/null",
                Path::new("/proc").join(file),
                0,
                0,
            ));
        }
        // /tmp first: folders bound below it (a binary in /tmp/...) go on top of it.
        let size = quota_bytes.max(1 << 20).div_ceil(4096) * 4096;
        let scratch_opts = |mode: &str| format!("size={size},nr_inodes=8192,mode={mode}");
        steps.push(step(OpKind::Tmpfs, scratch_opts("1777"), "/tmp", 0, 0));
        made.insert(PathBuf::from("/tmp"));
        let mut scratch = vec![PathBuf::from("/tmp")];
        // The private work dir too, before any bind that could lie below its path.
        let private = work_dir.is_none().then(|| PathBuf::from(PRIVATE_WORK_DIR));
        if let Some(w) = &private {
            steps.push(step(OpKind::Tmpfs, scratch_opts("755"), w, 0, 0));
            if let Some(uid) = uid {
                steps.push(step(OpKind::Chown, "", w, 0, uid));
            }
            made.insert(w.clone());
            scratch.push(w.clone());
            // The files it starts with: read-only binds (not on its quota; a mount point
            // cannot be removed).
            for file in work_files {
                let name = file
                    .file_name()
                    .filter(|n| !n.is_empty())
                    .ok_or_else(|| format!("work file {}: not a file name", file.display()))?;
                steps.push(step(
                    OpKind::BindFile,
                    file,
                    w.join(name),
                    ro_flags(file),
                    0,
                ));
            }
        }
        let mut bound: Vec<PathBuf> = self.covered.clone();
        for dir in read_only {
            let real = std::fs::canonicalize(dir)
                .map_err(|e| format!("read-only path {}: {e}", dir.display()))?;
            for p in [dir.clone(), real] {
                if bound.iter().any(|b| p.starts_with(b)) {
                    continue;
                }
                // A symlinked prefix (e.g. /lib -> usr/lib) is already handled by the links.
                if p.ancestors()
                    .skip(1)
                    .any(|a| std::fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()))
                {
                    continue;
                }
                parents(&p, &mut made, &mut steps);
                let kind = if p.is_dir() {
                    OpKind::BindDir
                } else {
                    OpKind::BindFile
                };
                steps.push(step(kind, &p, &p, ro_flags(&p), 0));
                bound.push(p);
            }
        }
        let cwd = match work_dir {
            Some(w) => {
                parents(w, &mut made, &mut steps);
                let flags = libc::MS_NOSUID | libc::MS_NODEV | locked_flags(w);
                steps.push(step(OpKind::BindDir, w, w, flags, 0));
                w.to_path_buf()
            }
            None => PathBuf::from(PRIVATE_WORK_DIR),
        };
        // Nothing but the scratch spaces is writable, whatever uid the program has (in a
        // user namespace it is the owner of the box's root).
        steps.push(step(OpKind::RemountRootReadOnly, "", "/", 0, 0));
        let persistent_dirs = steps[base_len..]
            .iter()
            .filter(|s| matches!(s.kind, OpKind::Mkdir | OpKind::BindDir | OpKind::BindFile))
            .filter(|s| !scratch.iter().any(|t| s.dst.starts_with(t)))
            .map(|s| s.dst.clone())
            .collect();
        let ops = steps
            .iter()
            .map(|s| s.op(|p| self.staged(p)))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(BoxPlan {
            ops,
            cwd: cstr(&cwd)?,
            scratch: scratch.iter().map(|p| cstr(p)).collect::<Result<_, _>>()?,
            persistent_dirs,
        })
    }
}

fn cstr(p: &Path) -> Result<CString, String> {
    CString::new(p.as_os_str().as_bytes())
        .map_err(|_| format!("path {} contains a NUL byte", p.display()))
}

impl Step {
    fn op(&self, dst: impl Fn(&Path) -> Result<CString, String>) -> Result<MountOp, String> {
        Ok(MountOp {
            kind: self.kind,
            // Link targets stay as they are; bind sources are host paths.
            src: cstr(&self.src)?,
            dst: dst(&self.dst)?,
            flags: self.flags,
            mode: self.mode,
        })
    }
}

/// One run's box, ready for the proxy.
#[derive(Debug)]
pub struct BoxPlan {
    pub ops: Vec<MountOp>,
    /// The working directory, as the program sees it.
    pub cwd: CString,
    /// The writable scratch spaces (their fill is the run's disk use), as the program sees
    /// them.
    pub scratch: Vec<CString>,
    /// Folders and files the run creates outside the scratch spaces (mount points of binds
    /// and their parents), box coordinates: on a slot's prebuilt base they stay for later
    /// runs.
    pub persistent_dirs: Vec<PathBuf>,
}

/// A slot's per-run mounts (see [`FsView::slot_layer`]).
#[derive(Debug)]
pub struct SlotLayer {
    /// The steps that make it, for the slot's init.
    pub ops: Vec<MountOp>,
    /// The steps that remove it again (outermost mounts only, last made first).
    pub teardown: Vec<MountOp>,
    /// The working directory, as the program sees it.
    pub cwd: CString,
    /// The writable scratch spaces, as paths under the staging mount point.
    pub scratch: Vec<CString>,
    /// As [`BoxPlan::persistent_dirs`].
    pub persistent_dirs: Vec<PathBuf>,
}

/// Options of the box's root tmpfs: it only holds the folders and files things are bound
/// on, and is remounted read-only once built.
pub const ROOT_OPTIONS: &std::ffi::CStr = c"size=1m,nr_inodes=4096,mode=755";

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> (tempfile::TempDir, FsView) {
        let stage = tempfile::tempdir().expect("tempdir");
        let v = FsView::new(stage.path()).expect("view");
        (stage, v)
    }

    fn dsts(ops: &[MountOp], stage: &Path) -> Vec<(OpKind, String)> {
        ops.iter()
            .map(|o| {
                let d = PathBuf::from(std::ffi::OsStr::from_bytes(o.dst.as_bytes()));
                let rel = d.strip_prefix(stage).expect("under the stage");
                (o.kind, format!("/{}", rel.display()))
            })
            .collect()
    }

    #[test]
    fn the_base_has_system_dirs_devices_proc_and_tmp_but_not_the_rest_of_etc() {
        let (stage, v) = view();
        let BoxPlan {
            ops, cwd, scratch, ..
        } = v.plan(&[], None, &[], Some(60001), 1 << 20).expect("plan");
        let got = dsts(&ops, stage.path());
        assert!(got.contains(&(OpKind::BindDir, "/usr".into())), "{got:?}");
        assert!(got.contains(&(OpKind::BindFile, "/dev/null".into())));
        assert!(got.contains(&(OpKind::Proc, "/proc".into())));
        assert!(got.contains(&(OpKind::Tmpfs, "/tmp".into())));
        assert!(got.contains(&(OpKind::Tmpfs, "/box".into())));
        assert_eq!(got.last(), Some(&(OpKind::RemountRootReadOnly, "/".into())));
        assert_eq!(scratch, vec![c"/tmp".to_owned(), c"/box".to_owned()]);
        assert!(got.contains(&(OpKind::Chown, "/box".into())));
        assert!(got
            .iter()
            .all(|(_, d)| d != "/etc/passwd" && d != "/etc/shadow"));
        assert!(got.iter().all(|(_, d)| !d.starts_with("/sys/fs")));
        assert_eq!(cwd.as_bytes(), b"/box");
        // Mount points are created before anything is mounted below them.
        let proc_mkdir = got
            .iter()
            .position(|s| *s == (OpKind::Mkdir, "/proc".into()));
        let proc_mount = got
            .iter()
            .position(|s| *s == (OpKind::Proc, "/proc".into()));
        assert!(proc_mkdir < proc_mount);
    }

    #[test]
    fn work_files_are_read_only_binds_in_the_private_work_dir_after_its_tmpfs() {
        let (stage, v) = view();
        let src = tempfile::tempdir().expect("tempdir");
        let file = src.path().join("data.txt");
        std::fs::write(&file, "7\n").expect("write");
        let plan = v
            .plan(
                std::slice::from_ref(&src.path().to_path_buf()),
                None,
                std::slice::from_ref(&file),
                Some(60001),
                1 << 20,
            )
            .expect("plan");
        let got = dsts(&plan.ops, stage.path());
        let at = |s: (OpKind, &str)| got.iter().position(|g| *g == (s.0, s.1.into()));
        let bind = at((OpKind::BindFile, "/box/data.txt")).expect("bound");
        assert!(at((OpKind::Tmpfs, "/box")) < Some(bind), "{got:?}");
        let op = &plan.ops[bind];
        assert_eq!(op.src.as_bytes(), file.as_os_str().as_bytes());
        assert_ne!(op.flags & libc::MS_RDONLY, 0);
        // A file that is not one (a path ending in `..`) is refused, not bound at /box.
        let err = v
            .plan(&[], None, &[PathBuf::from("/tmp/..")], None, 1 << 20)
            .expect_err("refused");
        assert!(err.contains("not a file name"), "{err}");
    }

    #[test]
    fn read_only_dirs_and_a_shared_work_dir_are_bound_at_their_own_paths() {
        let (stage, v) = view();
        let bin = tempfile::tempdir().expect("tempdir");
        let work = tempfile::tempdir().expect("tempdir");
        let BoxPlan {
            ops, cwd, scratch, ..
        } = v
            .plan(
                &[bin.path().to_path_buf(), PathBuf::from("/usr/lib")],
                Some(work.path()),
                &[],
                None,
                1 << 20,
            )
            .expect("plan");
        assert_eq!(
            scratch,
            vec![c"/tmp".to_owned()],
            "a shared work dir has no quota"
        );
        let got = dsts(&ops, stage.path());
        let bin_dst = bin.path().canonicalize().unwrap().display().to_string();
        assert!(got.contains(&(OpKind::BindDir, bin_dst.clone())), "{got:?}");
        // Already inside /usr: no second bind.
        assert!(!got.contains(&(OpKind::BindDir, "/usr/lib".into())));
        let work_op = ops
            .iter()
            .find(|o| o.src.as_bytes() == work.path().as_os_str().as_bytes())
            .expect("work dir bind");
        assert_eq!(
            work_op.flags & libc::MS_RDONLY,
            0,
            "the work dir is writable"
        );
        let bin_op = ops
            .iter()
            .find(|o| o.kind == OpKind::BindDir && o.src.as_bytes() == bin_dst.as_bytes())
            .expect("bin bind");
        assert_ne!(
            bin_op.flags & libc::MS_RDONLY,
            0,
            "read-only dirs are read-only"
        );
        assert_eq!(cwd.as_bytes(), work.path().as_os_str().as_bytes());
        // The parents of a bind exist before it.
        let first_bind = got.iter().position(|s| s.1 == bin_dst).unwrap();
        let parent = Path::new(&bin_dst).parent().unwrap().display().to_string();
        let mkdir = got
            .iter()
            .position(|s| *s == (OpKind::Mkdir, parent.clone()));
        assert!(
            mkdir.is_some_and(|m| m < first_bind) || got.iter().any(|s| s.1 == parent),
            "{got:?}"
        );
    }

    #[test]
    fn a_run_on_a_slot_base_adds_only_its_own_mounts() {
        let (stage, v) = view();
        let base = v.base_ops().expect("base");
        let base_dsts = dsts(&base, stage.path());
        assert!(base_dsts.contains(&(OpKind::BindDir, "/usr".into())));
        assert!(base_dsts.iter().all(|(k, _)| *k != OpKind::Proc));
        // A read-only dir outside the scratch spaces: the crate's folder.
        let bin = std::env::current_dir().expect("cwd");
        let plan = v
            .plan_on_base(std::slice::from_ref(&bin), None, &[], Some(60001), 1 << 20)
            .expect("plan");
        let got = dsts(&plan.ops, stage.path());
        assert!(got
            .iter()
            .all(|(k, d)| *k != OpKind::BindDir || d != "/usr"));
        assert!(got.contains(&(OpKind::Proc, "/proc".into())));
        assert!(got.contains(&(OpKind::Tmpfs, "/tmp".into())));
        let last = plan.ops.last().expect("ops");
        assert_eq!(last.kind, OpKind::RemountRootReadOnly);
        assert_ne!(
            last.flags & libc::MS_BIND,
            0,
            "only this copy is made read-only"
        );
        let real = bin.canonicalize().expect("canonical");
        if !real.starts_with("/usr") && !real.starts_with("/tmp") {
            assert!(
                plan.persistent_dirs.contains(&real),
                "{:?}",
                plan.persistent_dirs
            );
        }
    }

    #[test]
    fn a_slot_layer_is_undone_by_detaching_its_outermost_mounts() {
        let (stage, v) = view();
        let bin = std::env::current_dir().expect("cwd");
        let layer = v
            .slot_layer(std::slice::from_ref(&bin), None, &[], Some(60001), 1 << 20)
            .expect("layer");
        let got = dsts(&layer.ops, stage.path());
        assert_eq!(
            got.first(),
            Some(&(OpKind::RemountRootWritable, "/".into()))
        );
        assert_eq!(got.last(), Some(&(OpKind::RemountRootReadOnly, "/".into())));
        assert!(got.iter().all(|(k, _)| *k != OpKind::Proc), "{got:?}");
        let undo = dsts(&layer.teardown, stage.path());
        assert!(undo.iter().all(|(k, _)| *k == OpKind::Unmount));
        // /tmp and /box are scratch tmpfs mounts; a bind below /tmp goes with it.
        assert!(undo.contains(&(OpKind::Unmount, "/tmp".into())), "{undo:?}");
        assert!(undo.contains(&(OpKind::Unmount, "/box".into())), "{undo:?}");
        assert!(
            undo.iter().all(|(_, d)| !d.starts_with("/tmp/")),
            "{undo:?}"
        );
        let staged = |p: &str| CString::new(format!("{}{p}", stage.path().display())).unwrap();
        assert_eq!(layer.scratch, vec![staged("/tmp"), staged("/box")]);
        assert_eq!(layer.cwd.as_bytes(), b"/box");
    }

    #[test]
    fn a_missing_read_only_dir_is_an_error_naming_it() {
        let (_stage, v) = view();
        let err = v
            .plan(
                &[PathBuf::from("/nonexistent/judge-dir")],
                None,
                &[],
                None,
                1 << 20,
            )
            .unwrap_err();
        assert!(err.contains("/nonexistent/judge-dir"), "{err}");
    }
}
