//! Per-slot cgroups: memory limit and peak, CPU time of every process of a run, process
//! count, and killing what is left. One interface ([`SlotCgroups`]), two backends:
//!
//! * [`v1`]: a memory + pids + cpuacct triple per slot (root only), as on this machine kind;
//! * [`v2`]: one cgroup per slot in a subtree judge owns, as root or, without root, in a
//!   subtree delegated to the user (systemd's user delegation, or a folder chowned to them).
//!
//! Which one is used is decided once per process by [`available`]: v2 when the unified
//! hierarchy has the memory and pids controllers and a usable place for judge's subtree,
//! else v1 (as root), else none (the caller falls back to polling and says why).
//! Every slot directory is owned by its judge through a lock ([`owned`]).

mod owned;
pub mod parse;
mod v1;
mod v2;

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::OnceLock;

/// Counters sampled before a run, to detect events caused by this run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Baseline {
    oom_kills: u64,
    pids_max_events: u64,
}

/// What the cgroups measured for one run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub cpu_ns: u64,
    pub peak_bytes: u64,
    pub oom_killed: bool,
    /// Forks the pids controller refused during the run.
    pub forks_refused: u64,
}

/// The cgroups of one worker slot, on whichever hierarchy this machine has.
pub enum SlotCgroups {
    V1(v1::Slot),
    V2(v2::Slot),
}

/// The backend chosen for this process.
enum Backend {
    V1,
    V2(v2::Base),
}

fn backend() -> &'static Result<Backend, String> {
    static BACKEND: OnceLock<Result<Backend, String>> = OnceLock::new();
    BACKEND.get_or_init(|| {
        let v2_why = match v2::Base::detect() {
            Ok(base) => return Ok(Backend::V2(base)),
            Err(why) => why,
        };
        let v1_mounted = std::path::Path::new("/sys/fs/cgroup/memory/cgroup.procs").exists();
        // SAFETY: geteuid is a plain getter.
        if unsafe { libc::geteuid() } != 0 {
            return Err(if v1_mounted {
                format!("{v2_why}; cgroup v1 needs root")
            } else {
                v2_why
            });
        }
        match v1::available() {
            Ok(()) => Ok(Backend::V1),
            Err(v1_why) => Err(format!("{v2_why}; {v1_why}")),
        }
    })
}

/// Which cgroups runs use on this machine (for `judge doctor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendInfo {
    /// 1 or 2.
    pub version: u8,
    /// v2 in a subtree delegated to this process (or its container) rather than the whole
    /// hierarchy as root; always `false` for v1.
    pub delegated: bool,
    /// The folders judge's slot cgroups are made in.
    pub dirs: Vec<std::path::PathBuf>,
    /// The controllers runs are limited and measured by.
    pub controllers: Vec<&'static str>,
    /// Where a run's CPU time comes from.
    pub cpu_time: &'static str,
}

/// The backend [`available`] chose, or why there is none (the same answer: the first call
/// decides).
pub fn backend_info() -> Result<BackendInfo, String> {
    match backend() {
        Ok(Backend::V1) => Ok(BackendInfo {
            version: 1,
            delegated: false,
            dirs: v1::judge_dirs(),
            controllers: v1::CONTROLLERS.to_vec(),
            cpu_time: "cpuacct.usage of the slot's cpuacct cgroup (every process of the run)",
        }),
        Ok(Backend::V2(base)) => Ok(BackendInfo {
            version: 2,
            delegated: base.delegated(),
            dirs: vec![base.judge_dir().to_path_buf()],
            controllers: v2::NEED.to_vec(),
            cpu_time: "cpu.stat usage_usec of the slot's cgroup (every process of the run)",
        }),
        Err(why) => Err(why.clone()),
    }
}

/// `Ok` when runs can use cgroups, else why not (for the sandbox's warning line). The first
/// call decides, and on a v2 host it may move this process into a leaf cgroup of its own
/// delegated cgroup (see [`v2`]).
pub fn available() -> Result<(), String> {
    match backend() {
        Ok(_) => Ok(()),
        Err(why) => Err(why.clone()),
    }
}

fn read_u64(f: &File) -> io::Result<u64> {
    let mut buf = [0u8; 64];
    let n = f.read_at(&mut buf, 0)?;
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(parse::number)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "unparsable cgroup counter"))
}

/// Value of `key` in a "key value" per line file; 0 when absent.
fn read_keyed(f: &File, key: &str) -> io::Result<u64> {
    let mut buf = [0u8; 1024];
    let n = f.read_at(&mut buf, 0)?;
    Ok(parse::keyed(&String::from_utf8_lossy(&buf[..n]), key).unwrap_or(0))
}

fn write_str(f: &File, s: &str) -> io::Result<()> {
    f.write_at(s.as_bytes(), 0).map(|_| ())
}

impl SlotCgroups {
    /// Creates the slot's cgroups (named `name` under judge's directory) on the backend
    /// [`available`] chose.
    pub fn create(name: &str) -> io::Result<SlotCgroups> {
        match backend() {
            Ok(Backend::V1) => Ok(SlotCgroups::V1(v1::Slot::create(name)?)),
            Ok(Backend::V2(base)) => Ok(SlotCgroups::V2(v2::Slot::create(base, name)?)),
            Err(why) => Err(io::Error::other(why.clone())),
        }
    }

    /// Where a run's peak memory comes from, and `false` when that figure can miss a peak.
    pub fn peak_source(&self) -> (&'static str, bool) {
        match self {
            SlotCgroups::V1(s) => s.peak_source(),
            SlotCgroups::V2(s) => s.peak_source(),
        }
    }

    /// The `cgroup.procs` files the child writes `0` to before exec.
    pub fn procs_fds(&self) -> Vec<i32> {
        match self {
            SlotCgroups::V1(s) => s.procs_fds(),
            SlotCgroups::V2(s) => s.procs_fds(),
        }
    }

    /// Sets limits (only when changed) and resets peak/CPU counters for the next run.
    pub fn prepare(&mut self, memory_bytes: u64, processes: u32) -> io::Result<Baseline> {
        match self {
            SlotCgroups::V1(s) => s.prepare(memory_bytes, processes),
            SlotCgroups::V2(s) => s.prepare(memory_bytes, processes),
        }
    }

    /// CPU time used so far in this run by every task of the slot, in nanoseconds.
    pub fn cpu_ns(&self) -> u64 {
        match self {
            SlotCgroups::V1(s) => s.cpu_ns(),
            SlotCgroups::V2(s) => s.cpu_ns(),
        }
    }

    /// Forks refused at the process limit in this run so far.
    pub fn forks_refused(&self, base: Baseline) -> u64 {
        match self {
            SlotCgroups::V1(s) => s.forks_refused(base),
            SlotCgroups::V2(s) => s.forks_refused(base),
        }
    }

    pub fn usage(&self, base: Baseline) -> Usage {
        match self {
            SlotCgroups::V1(s) => s.usage(base),
            SlotCgroups::V2(s) => s.usage(base),
        }
    }

    /// Bytes still charged after a run (page cache of files the program wrote).
    pub fn charged_bytes(&self) -> u64 {
        match self {
            SlotCgroups::V1(s) => s.charged_bytes(),
            SlotCgroups::V2(s) => s.charged_bytes(),
        }
    }

    /// Asks the kernel to reclaim what is still charged (the slot has no tasks then).
    pub fn force_empty(&self) {
        match self {
            SlotCgroups::V1(s) => s.force_empty(),
            SlotCgroups::V2(s) => s.force_empty(),
        }
    }

    /// True if tasks are still in the slot (should never be after a run).
    pub fn has_tasks(&self) -> bool {
        match self {
            SlotCgroups::V1(s) => s.has_tasks(),
            SlotCgroups::V2(s) => s.has_tasks(),
        }
    }

    /// Tasks the slot counts, exited ones not yet reaped included.
    pub fn tasks(&self) -> u64 {
        match self {
            SlotCgroups::V1(s) => s.tasks(),
            SlotCgroups::V2(s) => s.tasks(),
        }
    }

    /// True when a long-lived process may sit in the slot's cgroups, so that the programs it
    /// starts are born there (no migration per run): cgroup v1, where each controller is a
    /// hierarchy of its own. (On v2 the run's leaf may be replaced per run.)
    pub fn spawner_may_join(&self) -> bool {
        matches!(self, SlotCgroups::V1(_))
    }

    pub fn kill_remaining(&self) {
        match self {
            SlotCgroups::V1(s) => s.kill_remaining(),
            SlotCgroups::V2(s) => s.kill_remaining(),
        }
    }
}
