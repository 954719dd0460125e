//! The cgroup v2 backend: one cgroup per slot in a subtree judge owns.
//!
//! # Where the subtree lives ([`Base::detect`], once per process)
//!
//! v2 forbids processes in a cgroup whose `cgroup.subtree_control` enables controllers (the
//! "no internal processes" rule; the root cgroup is exempt), and moving a process needs
//! write access to `cgroup.procs` of the lowest common ancestor of its old and new cgroup.
//! So judge needs a *base* cgroup it may write, with no processes of its own, where the
//! memory and pids controllers can be enabled for children. Tried in this order:
//!
//! 1. **as root**: the root of the hierarchy (`/sys/fs/cgroup`);
//! 2. **alone in a writable cgroup** (a systemd scope or service with `Delegate=yes`, a
//!    folder chowned to the user, a container's cgroup): judge moves itself into the leaf
//!    `<own>/judge-harness` and uses its own cgroup as the base;
//! 3. **a writable parent** (our cgroup is shared with other processes, e.g. the shell's
//!    scope under systemd's delegated `user@UID.service`): the parent is the base and judge's
//!    cgroups are siblings of ours.
//!
//! Judge's cgroups are `<base>/judge/<name>`, one per slot, locked by their judge
//! (see [`super::owned`]).
//!
//! # One slot: `S = <base>/judge/<name>` and its leaf `S/run`
//!
//! `S` holds the limits (`memory.max`, `memory.swap.max` = 0, `pids.max`) and the counters
//! read as deltas over a run (`cpu.stat` `usage_usec`, `pids.events` `max`: forks refused;
//! pids is not enabled below `S`, so `S` counts the run's processes on every kernel). The
//! child joins `S/run` by writing `0` to its pre-opened `cgroup.procs`; `S/run` has its own
//! memory accounting for `memory.peak` and `memory.events` `oom_kill` (MLE). The peak must
//! start afresh for each run:
//!
//! * Linux >= 6.12: writing to `memory.peak` resets it for reads through the same open file;
//!   `S/run` is reused;
//! * Linux 5.19 - 6.11: `memory.peak` cannot be reset, so `S/run` is removed and created
//!   again before each run (an rmdir, a mkdir and three opens);
//! * older kernels have no `memory.peak`: the peak is the largest `memory.current` seen at
//!   the 10 ms CPU polls and at the end (short spikes between polls are missed).
//!
//! `cgroup.kill` (Linux >= 5.14) ends whatever is left; otherwise each listed task is killed.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::owned::{self, DirLock};
use super::parse;
use super::{read_keyed, read_u64, write_str, Baseline, Usage};

/// Controllers judge's subtree needs (CPU time comes from the core `cpu.stat`, present in
/// every cgroup, so the cpu controller is not needed).
pub const NEED: [&str; 2] = ["memory", "pids"];
const JUDGE_DIR: &str = "judge";
const HARNESS_LEAF: &str = "judge-harness";

/// Where judge's cgroups go on this machine.
#[derive(Debug)]
pub struct Base {
    /// `<base>/judge`, with memory and pids enabled for its children.
    judge: PathBuf,
    /// The base is a subtree (cases 2 and 3), not the hierarchy's root.
    delegated: bool,
}

fn euid() -> u32 {
    // SAFETY: geteuid is a plain getter.
    unsafe { libc::geteuid() }
}

fn read(p: &Path) -> Result<String, String> {
    fs::read_to_string(p).map_err(|e| format!("reading {}: {e}", p.display()))
}

/// True when we may write `p` (access(2) with the effective ids).
fn writable(p: &Path) -> bool {
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: valid C string; faccessat only reads it.
    unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) == 0 }
}

/// Makes sure `dir`'s children get the `wanted` controllers.
fn enable(dir: &Path, wanted: &[&str]) -> Result<(), String> {
    if parse::has_controllers(&read(&dir.join("cgroup.subtree_control"))?, wanted) {
        return Ok(());
    }
    let have = read(&dir.join("cgroup.controllers"))?;
    if !parse::has_controllers(&have, wanted) {
        return Err(format!(
            "{} does not offer the {} controllers (it has: {})",
            dir.display(),
            wanted.join(" and "),
            have.trim()
        ));
    }
    let line: Vec<String> = wanted.iter().map(|w| format!("+{w}")).collect();
    fs::write(dir.join("cgroup.subtree_control"), line.join(" ")).map_err(|e| {
        match e.raw_os_error() {
            Some(libc::EBUSY) => format!("{} holds processes", dir.display()),
            Some(libc::EACCES | libc::EPERM) => {
                format!("{} is not writable by uid {}", dir.display(), euid())
            }
            _ => format!("enabling controllers in {}: {e}", dir.display()),
        }
    })
}

/// Sets up `<base>/judge` and returns it.
fn prepare_base(base: &Path) -> Result<PathBuf, String> {
    enable(base, &NEED)?;
    let judge = base.join(JUDGE_DIR);
    make_dir(&judge).map_err(|e| format!("creating {}: {e}", judge.display()))?;
    if !writable(&judge) {
        return Err(format!(
            "{} is not writable by uid {}",
            judge.display(),
            euid()
        ));
    }
    enable(&judge, &NEED)?;
    Ok(judge)
}

/// Case 2: we are the only process in `own`, which we may write: move into a leaf below it.
fn move_into_own_leaf(own: &Path) -> Result<PathBuf, String> {
    for f in ["cgroup.procs", "cgroup.subtree_control"] {
        if !writable(&own.join(f)) {
            return Err(format!(
                "{} is not writable by uid {}",
                own.join(f).display(),
                euid()
            ));
        }
    }
    let have = read(&own.join("cgroup.controllers"))?;
    if !parse::has_controllers(&have, &NEED) {
        return Err(format!(
            "{} does not offer the memory and pids controllers (it has: {})",
            own.display(),
            have.trim()
        ));
    }
    let me = std::process::id() as i32;
    let others = parse::pids(&read(&own.join("cgroup.procs"))?)
        .into_iter()
        .filter(|p| *p != me)
        .count();
    if others > 0 {
        return Err(format!(
            "{} holds {others} other process(es)",
            own.display()
        ));
    }
    let leaf = own.join(HARNESS_LEAF);
    make_dir(&leaf).map_err(|e| format!("creating {}: {e}", leaf.display()))?;
    // "0": the writing thread's whole process (every thread) moves.
    fs::write(leaf.join("cgroup.procs"), "0")
        .map_err(|e| format!("moving into {}: {e}", leaf.display()))?;
    prepare_base(own).inspect_err(|_| {
        // Back where we were, as if nothing happened.
        let _ = fs::write(own.join("cgroup.procs"), "0");
        let _ = fs::remove_dir(&leaf);
    })
}

impl Base {
    /// Finds or makes judge's subtree (see the module documentation), or says why none.
    pub fn detect() -> Result<Base, String> {
        let mounts = read(Path::new("/proc/self/mounts"))?;
        let mount = parse::cgroup2_mount(&mounts).ok_or("no cgroup v2 hierarchy is mounted")?;
        if !parse::has_controllers(&read(&mount.join("cgroup.controllers"))?, &NEED) {
            return Err(format!(
                "the cgroup v2 hierarchy at {} has no memory and pids controllers",
                mount.display()
            ));
        }
        let own_rel = parse::own_cgroup_v2(&read(Path::new("/proc/self/cgroup"))?)
            .ok_or("this process is in no cgroup v2 visible here")?;
        let own = mount.join(&own_rel);
        let mut why = Vec::new();
        if euid() == 0 {
            match prepare_base(&mount) {
                Ok(judge) => {
                    return Ok(Base {
                        judge,
                        delegated: false,
                    })
                }
                Err(e) => why.push(e),
            }
        }
        match move_into_own_leaf(&own) {
            Ok(judge) => {
                return Ok(Base {
                    judge,
                    delegated: true,
                })
            }
            Err(e) => why.push(e),
        }
        if own != mount {
            if let Some(parent) = own.parent() {
                let procs = parent.join("cgroup.procs");
                let tried = if writable(&procs) {
                    prepare_base(parent)
                } else {
                    Err(format!(
                        "{} is not writable by uid {}",
                        procs.display(),
                        euid()
                    ))
                };
                match tried {
                    Ok(judge) => {
                        return Ok(Base {
                            judge,
                            delegated: true,
                        })
                    }
                    Err(e) => why.push(e),
                }
            }
        }
        Err(format!(
            "cgroup v2: no delegated cgroup to use ({}; e.g. run judge under \
             `systemd-run --user --scope -p Delegate=yes`)",
            why.join("; ")
        ))
    }
}

impl Base {
    /// The folder judge's slot cgroups are made in (`<base>/judge`).
    pub fn judge_dir(&self) -> &Path {
        &self.judge
    }

    /// True when the base is a subtree delegated to this process (or its container), not
    /// the hierarchy's root.
    pub fn delegated(&self) -> bool {
        self.delegated
    }
}

/// How the run's peak memory is measured (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PeakMode {
    Reset,
    FreshLeaf,
    Sampled,
}

/// The files of `S/run` that a run uses.
struct Leaf {
    procs: File,
    events: File,
    peak: Option<File>,
}

/// mkdir that accepts an existing directory.
fn make_dir(dir: &Path) -> io::Result<()> {
    match fs::create_dir(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}

fn open_rw(p: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(p)
}

fn open_opt(p: &Path, write: bool) -> Option<File> {
    OpenOptions::new().read(true).write(write).open(p).ok()
}

impl Leaf {
    fn open(dir: &Path, mode: PeakMode) -> io::Result<Leaf> {
        make_dir(dir)?;
        Ok(Leaf {
            procs: open_rw(&dir.join("cgroup.procs"))?,
            events: File::open(dir.join("memory.events"))?,
            peak: match mode {
                PeakMode::Reset => Some(open_rw(&dir.join("memory.peak"))?),
                PeakMode::FreshLeaf => Some(File::open(dir.join("memory.peak"))?),
                PeakMode::Sampled => None,
            },
        })
    }
}

/// Ends every task in `dir` and below.
fn kill_tree(dir: &Path) {
    if fs::write(dir.join("cgroup.kill"), "1").is_err() {
        owned::kill_listed(&dir.join("cgroup.procs"));
        owned::kill_listed(&dir.join("run/cgroup.procs"));
    }
}

pub struct Slot {
    dir: PathBuf,
    leaf_dir: PathBuf,
    leaf: Leaf,
    mode: PeakMode,
    /// The leaf has been used by a run since it was made (FreshLeaf mode).
    leaf_used: bool,
    memory_max: File,
    pids_max: File,
    pids_events: File,
    pids_current: File,
    cpu_stat: File,
    cgroup_events: File,
    memory_current: File,
    reclaim: Option<File>,
    cpu_base_usec: u64,
    /// Largest `memory.current` seen during the run (Sampled mode).
    sampled_peak: AtomicU64,
    current_mem: Option<u64>,
    current_pids: Option<u32>,
    /// Dropped after the directory is removed (fields drop after `Drop::drop`).
    _lock: DirLock,
}

impl Slot {
    pub fn create(base: &Base, name: &str) -> io::Result<Slot> {
        let (dir, lock) = owned::create(&base.judge, name, &kill_tree, &|d: &Path| {
            enable(d, &["memory"]).map_err(io::Error::other)
        })?;
        // Swapping would let a program exceed its limit silently (absent without swap
        // accounting, where there is nothing to limit).
        let _ = fs::write(dir.join("memory.swap.max"), "0");
        let leaf_dir = dir.join("run");
        make_dir(&leaf_dir)?;
        let peak_file = leaf_dir.join("memory.peak");
        let mode = match open_rw(&peak_file) {
            Ok(f) if write_str(&f, "reset").is_ok() => PeakMode::Reset,
            _ if peak_file.exists() => PeakMode::FreshLeaf,
            _ => PeakMode::Sampled,
        };
        let leaf = Leaf::open(&leaf_dir, mode)?;
        Ok(Slot {
            memory_max: open_rw(&dir.join("memory.max"))?,
            pids_max: open_rw(&dir.join("pids.max"))?,
            pids_events: File::open(dir.join("pids.events"))?,
            pids_current: File::open(dir.join("pids.current"))?,
            cpu_stat: File::open(dir.join("cpu.stat"))?,
            cgroup_events: File::open(dir.join("cgroup.events"))?,
            memory_current: File::open(dir.join("memory.current"))?,
            reclaim: open_opt(&dir.join("memory.reclaim"), true),
            dir,
            leaf_dir,
            leaf,
            mode,
            leaf_used: false,
            cpu_base_usec: 0,
            sampled_peak: AtomicU64::new(0),
            current_mem: None,
            current_pids: None,
            _lock: lock,
        })
    }

    pub fn procs_fds(&self) -> Vec<i32> {
        vec![self.leaf.procs.as_raw_fd()]
    }

    /// Where a run's peak memory comes from, and `false` when that figure can miss a peak.
    pub fn peak_source(&self) -> (&'static str, bool) {
        match self.mode {
            PeakMode::Reset => (
                "memory.peak of the run's cgroup, reset before each run",
                true,
            ),
            PeakMode::FreshLeaf => ("memory.peak of a fresh cgroup per run", true),
            PeakMode::Sampled => (
                "memory.current sampled every 10 ms (no memory.peak before Linux 5.19: short \
                 spikes are missed)",
                false,
            ),
        }
    }

    fn usage_usec(&self) -> u64 {
        read_keyed(&self.cpu_stat, "usage_usec").unwrap_or(0)
    }

    /// Replaces the used leaf by a fresh one (its `memory.peak` starts at zero).
    fn renew_leaf(&mut self) -> io::Result<()> {
        // The run's pid namespace is gone, so the leaf is empty and goes at once; kill_tree
        // and retries are the safeguard.
        if fs::remove_dir(&self.leaf_dir).is_err()
            && !owned::remove_tree(&self.leaf_dir, &kill_tree, Duration::from_millis(200))
        {
            return Err(io::Error::other(format!(
                "{} still holds tasks after the run",
                self.leaf_dir.display()
            )));
        }
        self.leaf = Leaf::open(&self.leaf_dir, self.mode)?;
        Ok(())
    }

    /// Sets limits (only when changed) and starts the run's counters afresh.
    pub fn prepare(&mut self, memory_bytes: u64, processes: u32) -> io::Result<Baseline> {
        if self.current_mem != Some(memory_bytes) {
            write_str(&self.memory_max, &memory_bytes.to_string())?;
            self.current_mem = Some(memory_bytes);
        }
        if self.current_pids != Some(processes) {
            write_str(&self.pids_max, &processes.max(1).to_string())?;
            self.current_pids = Some(processes);
        }
        match self.mode {
            PeakMode::Reset => {
                if let Some(f) = &self.leaf.peak {
                    write_str(f, "reset")?;
                }
            }
            PeakMode::FreshLeaf if self.leaf_used => self.renew_leaf()?,
            PeakMode::FreshLeaf => {}
            PeakMode::Sampled => self.sampled_peak.store(0, Ordering::Relaxed),
        }
        self.leaf_used = true;
        self.cpu_base_usec = self.usage_usec();
        Ok(Baseline {
            oom_kills: read_keyed(&self.leaf.events, "oom_kill")?,
            pids_max_events: read_keyed(&self.pids_events, "max")?,
        })
    }

    /// CPU time used in this run so far by every task of the slot, in nanoseconds.
    pub fn cpu_ns(&self) -> u64 {
        if self.mode == PeakMode::Sampled {
            let now = read_u64(&self.memory_current).unwrap_or(0);
            self.sampled_peak.fetch_max(now, Ordering::Relaxed);
        }
        self.usage_usec()
            .saturating_sub(self.cpu_base_usec)
            .saturating_mul(1000)
    }

    pub fn usage(&self, base: Baseline) -> Usage {
        let cpu_ns = self.cpu_ns();
        let peak_bytes = match &self.leaf.peak {
            Some(f) => read_u64(f).unwrap_or(0),
            None => self.sampled_peak.load(Ordering::Relaxed),
        };
        Usage {
            cpu_ns,
            peak_bytes,
            oom_killed: read_keyed(&self.leaf.events, "oom_kill").unwrap_or(0) > base.oom_kills,
            forks_refused: self.forks_refused(base),
        }
    }

    /// Forks the pids controller refused in this run so far.
    pub fn forks_refused(&self, base: Baseline) -> u64 {
        read_keyed(&self.pids_events, "max")
            .unwrap_or(0)
            .saturating_sub(base.pids_max_events)
    }

    /// Bytes still charged after a run (page cache of files the program wrote).
    pub fn charged_bytes(&self) -> u64 {
        read_u64(&self.memory_current).unwrap_or(0)
    }

    /// Asks the kernel to reclaim what is still charged (Linux >= 5.19; best effort).
    pub fn force_empty(&self) {
        if let Some(f) = &self.reclaim {
            let _ = write_str(f, &self.charged_bytes().to_string());
        }
    }

    /// True if tasks are still in the slot (should never be after a run).
    pub fn has_tasks(&self) -> bool {
        read_keyed(&self.cgroup_events, "populated").map_or(true, |n| n > 0)
    }

    /// Tasks counted, exited ones not yet reaped included.
    pub fn tasks(&self) -> u64 {
        read_u64(&self.pids_current).unwrap_or(u64::MAX)
    }

    pub fn kill_remaining(&self) {
        kill_tree(&self.dir);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        owned::remove_tree(&self.dir, &kill_tree, Duration::from_millis(100));
    }
}
