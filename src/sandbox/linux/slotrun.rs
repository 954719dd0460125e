//! One run through its slot's long-lived processes ([`super::spawner`]): root with cgroups.
//!
//! What a run needs from the box beyond its fixed part (scratch spaces, read-only binds, the
//! work dir) is a *layer* of mounts in the slot's box, made by the slot's init for one request
//! shape and kept while the following requests have the same shape (every test of one
//! submission). A run that wrote to a scratch space leaves it changed: the layer is then
//! removed right after the run (without waiting) and made afresh for the next one, so no run
//! ever sees what an earlier one wrote.

use std::ffi::CString;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::cgroup::{Baseline, SlotCgroups};
use super::fsview::{FsView, MountOp};
use super::procfs;
use super::run::{self, ChildSpec, RunError};
use super::slots::{Slot, MAX_BASE_DIRS};
use super::spawner::{Config, SlotSpawner};
use super::supervise::{self, Probe};
use super::{setup_err, LinuxSandbox};
use crate::sandbox::{RunOutcome, RunRequest, Termination};

/// What decides a layer: the same request shape gets the same mounts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    read_only: Vec<PathBuf>,
    work_dir: Option<PathBuf>,
    work_files: Vec<PathBuf>,
    quota: u64,
}

/// A slot's current layer of per-run mounts (see the module documentation).
pub struct Layer {
    shape: Shape,
    teardown: Vec<MountOp>,
    cwd: CString,
    scratch: Vec<Scratch>,
}

/// A scratch space of the layer, opened from the harness, and how it looked when made.
struct Scratch {
    dir: File,
    fresh: Look,
}

/// What shows whether a scratch space was written: a new entry changes its root's times
/// (every other folder in it is made by the run, which changes the root), data and inodes
/// change the file system's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Look {
    inodes: u64,
    blocks: u64,
    block_size: u64,
    total_blocks: u64,
    ctime: (i64, i64),
    mtime: (i64, i64),
}

#[allow(clippy::unnecessary_cast)] // the field types differ between libcs and architectures
fn look(dir: &File) -> std::io::Result<Look> {
    // SAFETY: fstatfs/fstat fill zeroed local structs from our own fd.
    let (st, sfs) = unsafe {
        let mut sfs: libc::statfs = std::mem::zeroed();
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstatfs(dir.as_raw_fd(), &mut sfs) != 0
            || libc::fstat(dir.as_raw_fd(), &mut st) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
        (st, sfs)
    };
    Ok(Look {
        inodes: (sfs.f_files as u64).saturating_sub(sfs.f_ffree as u64),
        blocks: (sfs.f_blocks as u64).saturating_sub(sfs.f_bfree as u64),
        block_size: sfs.f_bsize as u64,
        total_blocks: sfs.f_blocks as u64,
        ctime: (st.st_ctime, st.st_ctime_nsec),
        mtime: (st.st_mtime, st.st_mtime_nsec),
    })
}

/// Whether this run goes through the slot's spawner: root with cgroups, the slot's prebuilt
/// box usable (or no file-system view at all), and the slot's processes could be started.
pub fn applies(sb: &LinuxSandbox, slot: &Slot) -> bool {
    sb.mech.root
        && sb.mech.cgroups
        && sb.harness_pidfd.is_some()
        && slot.cg.is_some()
        && !slot.no_spawner
        && !(sb.fsview().is_some() && matches!(slot.fs_base, Some(Err(_))))
}

/// Makes sure the slot has its base box and its processes. `false`: they cannot be made
/// here (the slot then uses a proxy per run).
fn ensure_spawner(sb: &LinuxSandbox, slot: &mut Slot) -> bool {
    let view = sb.fsview();
    if matches!(&slot.fs_base, Some(Ok(b)) if b.dirs.len() > MAX_BASE_DIRS) {
        // The base is rebuilt (too many mount points left in its root): so are its processes.
        slot.spawner = None;
        slot.layer = None;
    }
    if let Some(view) = view {
        if run::slot_base(view, slot).is_none() {
            return false;
        }
    }
    if slot.spawner.as_ref().is_some_and(SlotSpawner::alive) {
        return true;
    }
    // Not started yet, or killed by someone: (new) slot processes, a new layer.
    slot.spawner = None;
    slot.layer = None;
    let fs = match (view, &slot.fs_base) {
        (Some(view), Some(Ok(base))) => Some((base.ns.as_raw_fd(), view.stage())),
        _ => None,
    };
    let cfg = Config {
        fs,
        netns: slot.netns.as_ref().map_or(-1, |f| f.as_raw_fd()),
        landlock: match (view, &sb.scoped_ruleset) {
            (Some(_), Some(r)) => r.fd.as_raw_fd(),
            _ => -1,
        },
        seccomp: &sb.seccomp[0],
        harness: sb.harness_pidfd.as_ref().map_or(-1, |f| f.as_raw_fd()),
        cgroup_procs: match &slot.cg {
            Some(cg) if cg.spawner_may_join() => cg.procs_fds(),
            _ => Vec::new(),
        },
        // Programs that join their cgroups themselves need root for it.
        uid: slot
            .uid
            .as_ref()
            .map(|u| u.uid)
            .filter(|_| slot.cg.as_ref().is_some_and(|c| c.spawner_may_join())),
    };
    match SlotSpawner::start(&cfg) {
        Ok(s) => {
            slot.spawner = Some(s);
            true
        }
        Err(_) => {
            slot.no_spawner = true;
            false
        }
    }
}

fn describe(ops: &[MountOp], (index, errno): (u32, i32)) -> String {
    let err = std::io::Error::from_raw_os_error(errno);
    match ops.get(index as usize) {
        Some(op) => format!("{:?} {}: {err}", op.kind, op.dst.to_string_lossy()),
        None => format!("the slot's init: {err}"),
    }
}

/// The slot's layer for this request (made now unless the current one has its shape);
/// returns the program's working directory.
fn ensure_layer(
    view: &FsView,
    slot: &mut Slot,
    req: &RunRequest,
    program: &str,
) -> Result<CString, RunError> {
    let shape = Shape {
        read_only: req.read_only.clone(),
        work_dir: req.work_dir.clone(),
        work_files: req.work_files.clone(),
        quota: req.limits.output_bytes,
    };
    if let Some(layer) = slot.layer.as_ref().filter(|l| l.shape == shape) {
        return Ok(layer.cwd.clone());
    }
    let uid = slot.uid.as_ref().map(|u| u.uid);
    let Some(spawner) = slot.spawner.as_mut() else {
        return Err(RunError::FsView("the slot has no init".into()));
    };
    if let Some(old) = slot.layer.take() {
        spawner.mount_later(old.teardown);
    }
    let made = view
        .slot_layer(
            &req.read_only,
            req.work_dir.as_deref(),
            &req.work_files,
            uid,
            shape.quota,
        )
        .map_err(|e| run::spawn_err(program, e))?;
    if let Some(Ok(base)) = slot.fs_base.as_mut() {
        base.dirs.extend(made.persistent_dirs.iter().cloned());
    }
    spawner
        .finish_pending()
        .map_err(|e| RunError::FsView(format!("removing the previous mounts: {e:?}")))?;
    if let Err(e) = spawner.mount(&made.ops) {
        // Half made: take down what was made (the slot's box stays usable) and say why.
        spawner.mount_later(made.teardown);
        let _ = spawner.finish_pending();
        return Err(RunError::FsView(describe(&made.ops, e)));
    }
    let root = format!("/proc/{}/root", spawner.init_pid());
    let mut scratch = Vec::with_capacity(made.scratch.len());
    for p in &made.scratch {
        let mut path = root.clone().into_bytes();
        path.extend_from_slice(p.as_bytes());
        let dir = File::open(std::ffi::OsStr::from_bytes(&path))?;
        let fresh = look(&dir)?;
        scratch.push(Scratch { dir, fresh });
    }
    let cwd = made.cwd.clone();
    slot.layer = Some(Layer {
        shape,
        teardown: made.teardown,
        cwd: made.cwd,
        scratch,
    });
    Ok(cwd)
}

/// The Landlock ruleset of a run without a file-system view: the slot's last one when its
/// folders are the same ones (the same inodes: a ruleset holds the folders it was made for,
/// not their paths), else a new one. Returns its fd and the access for `/proc/self`.
fn ruleset_for(
    ll: &super::policy::Landlock,
    slot: &mut Slot,
    read_only: &[PathBuf],
    work_dir: &std::path::Path,
    program: &str,
) -> Result<(i32, u64), RunError> {
    use std::os::unix::fs::MetadataExt;
    let key: Option<Vec<(u64, u64)>> = read_only
        .iter()
        .map(PathBuf::as_path)
        .chain([work_dir])
        .map(|p| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino())))
        .collect();
    let fresh = match (&slot.ruleset, &key) {
        (Some((have, _)), Some(want)) => have != want,
        _ => true,
    };
    if fresh {
        let r = ll
            .prepare(read_only, work_dir)
            .map_err(|e| run::spawn_err(program, format!("Landlock: {e}")))?;
        slot.ruleset = Some((key.unwrap_or_default(), r));
    }
    let r = slot.ruleset.as_ref().map(|(_, r)| r);
    Ok(r.map_or((-1, 0), |r| (r.fd.as_raw_fd(), r.proc_self_access)))
}

/// What supervision can ask about a run started by the slot's spawner.
struct SlotProbe<'a> {
    cg: &'a SlotCgroups,
    base: Baseline,
    /// What of the cgroups' figures is the slot's, not the run's.
    owned: run::SlotOwned,
    child: i32,
    init: i32,
    spawner: &'a mut SlotSpawner,
}

impl Probe for SlotProbe<'_> {
    fn cpu(&mut self) -> Option<Duration> {
        Some(Duration::from_nanos(
            self.cg.cpu_ns().saturating_sub(self.owned.cpu_ns),
        ))
    }

    fn poll_process(&mut self) -> Option<procfs::ProcSample> {
        None
    }

    fn processes(&self) -> Vec<i32> {
        // The program, what it started, and what it left to the init.
        let mut v = vec![self.child];
        v.extend(procfs::descendants(
            self.child,
            supervise::MAX_TASKS_SCANNED,
        ));
        v.extend(procfs::descendants(self.init, supervise::MAX_TASKS_SCANNED));
        v
    }

    fn root(&self) -> i32 {
        // What it leaves to the slot's init is not counted as a companion.
        self.child
    }

    fn forks_refused(&mut self) -> u64 {
        self.cg.forks_refused(self.base)
    }

    fn ended(&mut self) {
        // The program is reaped; anything it left is still counted by the slot's cgroups.
        let resident = u64::from(self.owned.spawner.is_some());
        if self.cg.tasks() > resident {
            let _ = self.spawner.kill_all();
        }
    }
}

/// Runs `req` in `slot` through the slot's spawner (see [`applies`]), or with a proxy of its
/// own when the slot's processes cannot be made here.
pub fn run_in_slot(
    sb: &LinuxSandbox,
    slot: &mut Slot,
    req: &RunRequest,
    program: &str,
) -> Result<RunOutcome, RunError> {
    if !ensure_spawner(sb, slot) {
        return run::run_in_slot(sb, slot, req, program);
    }
    let lim = &req.limits;
    let io = run::open_io(req, program)?;
    let uid = slot.uid.as_ref().map(|u| u.uid);
    let view = sb.fsview();
    let private_dir = run::private_work_dir(req, view.is_some())?;
    let host_work_dir = run::host_work_dir(req, &private_dir, uid, program)?;
    let (work_dir, ruleset) = match view {
        Some(view) => (ensure_layer(view, slot, req, program)?, None),
        None => {
            let dir = host_work_dir.unwrap_or(std::path::Path::new("/"));
            let ruleset = match &sb.mech.landlock {
                Some(ll) => Some(ruleset_for(ll, slot, &req.read_only, dir, program)?),
                None => None,
            };
            let wd = CString::new(dir.as_os_str().as_bytes())
                .map_err(|_| run::spawn_err(program, "work_dir contains a NUL byte".into()))?;
            (wd, ruleset)
        }
    };
    let Some(cg) = slot.cg.as_mut() else {
        return run::run_in_slot(sb, slot, req, program);
    };
    // A spawner in the slot's cgroups is one of the tasks they count.
    let resident = cg.spawner_may_join();
    let base = cg
        .prepare(lim.memory_bytes, lim.processes + u32::from(resident))
        .map_err(|e| setup_err("preparing cgroups", e))?;
    let plan = run::new_plan(
        sb,
        req,
        program,
        &io,
        ChildSpec {
            work_dir,
            // The spawner has the slot's uid already when it sits in the cgroups.
            uid: uid.filter(|_| !resident),
            // Born in the cgroups when the spawner sits in them.
            cgroup_procs: if resident { Vec::new() } else { cg.procs_fds() },
            // The spawner is in the slot's network namespace already.
            netns: -1,
            ruleset,
            // The spawner's filter (several tasks) is inherited; a one-task run adds a
            // short one that refuses every new task.
            seccomp: if lim.processes <= 1 {
                sb.no_more_tasks.clone()
            } else {
                Vec::new()
            },
            child_stack_top: slot.child_stack.top(),
            fs: None,
            done_fd: -1,
            more_fds: Vec::new(),
        },
    )?;
    let (Some(spawner), Some(cg)) = (slot.spawner.as_mut(), slot.cg.as_ref()) else {
        return Err(RunError::FsView("the slot has no spawner".into()));
    };

    let start = Instant::now();
    // SAFETY: `plan` is boxed and lives until the program has been reaped (below, by
    // supervision or by the error path).
    let spawned = unsafe { spawner.spawn(&plan) };
    let (child, pidfd) = match spawned {
        Ok(c) => c,
        Err(e) => {
            // The spawner is gone or stuck (or the init, without which its pid namespace
            // takes no new process): the next attempt gets new slot processes.
            slot.spawner = None;
            slot.layer = None;
            return Err(RunError::SlotProcesses(format!(
                "starting the program: {e}"
            )));
        }
    };
    // The program holds its own copies now.
    let (out_r, err_r) = io.into_readers();
    let init = spawner.init_pid();
    let owned = run::SlotOwned {
        spawner: resident.then(|| spawner.spawner_pid()),
        cpu_ns: if resident { spawner.spawn_cpu_ns() } else { 0 },
    };
    let mut probe = SlotProbe {
        cg,
        base,
        owned,
        child,
        init,
        spawner,
    };
    let supervised =
        supervise::supervise(pidfd.as_raw_fd(), -1, out_r, err_r, start, req, &mut probe);
    let mon = match supervised {
        Ok(m) => m,
        Err(e) => {
            // Not reaped (an I/O error) or interrupted: end the run here.
            crate::sandbox::linux::sys::pidfd_kill(pidfd.as_raw_fd(), libc::SIGKILL);
            let _ = crate::sandbox::linux::sys::wait_pidfd(pidfd.as_raw_fd());
            let _ = probe.spawner.kill_all();
            return Err(e.into());
        }
    };
    if let Some(e) = run::failed_step(&plan, program) {
        return Err(e);
    }
    let termination = match mon.exit {
        Some(info) => {
            // SAFETY: siginfo filled by waitid for a child that ended: si_status is set.
            let status = unsafe { info.si_status() };
            if info.si_code == libc::CLD_EXITED {
                Termination::Exited(status)
            } else {
                Termination::Signaled(status)
            }
        }
        None => Termination::Signaled(libc::SIGKILL),
    };
    let mut limit_hit = mon.limit_hit;
    let figures = run::cgroup_figures(sb, cg, base, &mut limit_hit, owned);
    // The fullest scratch space tells whether the quota was reached; a written one is
    // replaced before the next run.
    let mut disk = (0u64, 0u64);
    let mut written = false;
    if let Some(layer) = &slot.layer {
        for s in &layer.scratch {
            let now = look(&s.dir).ok();
            written |= now != Some(s.fresh);
            if let Some(l) = now {
                let (used, size) = (l.blocks * l.block_size, l.total_blocks * l.block_size);
                if disk.1 == 0 || size.saturating_sub(used) < disk.1.saturating_sub(disk.0) {
                    disk = (used, size);
                }
            }
        }
    }
    if written {
        if let (Some(layer), Some(spawner)) = (slot.layer.take(), slot.spawner.as_mut()) {
            spawner.mount_later(layer.teardown);
        }
    }
    Ok(run::outcome(
        mon,
        termination,
        limit_hit,
        figures,
        lim,
        disk,
    ))
}
