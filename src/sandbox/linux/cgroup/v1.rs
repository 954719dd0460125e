//! The cgroup v1 backend: per slot a triple of cgroups (memory, pids, cpuacct), created once
//! and reused for every run.
//!
//! Layout: `/sys/fs/cgroup/<controller>/judge/<pid>-<instance>-slot<N>`, each directory
//! locked by its judge (see [`super::owned`]). The harness keeps the three `cgroup.procs`
//! files open so the child joins with one `write("0")` each before exec.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::owned::{self, DirLock};
use super::{read_keyed, read_u64, write_str, Baseline, Usage};

const ROOT: &str = "/sys/fs/cgroup";
const PARENT: &str = "judge";

/// The folders judge's slot cgroups are made in, one per controller.
pub fn judge_dirs() -> Vec<PathBuf> {
    CONTROLLERS
        .iter()
        .map(|c| Path::new(ROOT).join(c).join(PARENT))
        .collect()
}
pub const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

pub struct Slot {
    dirs: [PathBuf; 3],
    /// cgroup.procs of memory, pids, cpuacct (joined by the child).
    procs: [File; 3],
    mem_limit: File,
    memsw_limit: Option<File>,
    mem_max_usage: File,
    mem_usage: File,
    mem_oom_control: File,
    pids_max: File,
    pids_events: File,
    pids_current: File,
    cpu_usage: File,
    current_mem: Option<u64>,
    current_pids: Option<u32>,
    /// Dropped after the directories are removed (fields drop after `Drop::drop`).
    _locks: Vec<DirLock>,
}

fn open_rw(p: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(p)
}

fn kill_procs(dir: &Path) {
    owned::kill_listed(&dir.join("cgroup.procs"));
}

/// Why the v1 controllers cannot be used, or `Ok` when memory, pids and cpuacct are mounted
/// and we may create cgroups in them (as root).
pub fn available() -> Result<(), String> {
    for c in CONTROLLERS {
        let root = Path::new(ROOT).join(c);
        if !root.join("cgroup.procs").exists() {
            return Err(format!("no cgroup v1 {c} controller at {}", root.display()));
        }
        fs::create_dir_all(root.join(PARENT))
            .map_err(|e| format!("cgroup v1: creating {}: {e}", root.join(PARENT).display()))?;
    }
    Ok(())
}

impl Slot {
    pub fn create(name: &str) -> io::Result<Slot> {
        let mut locks = Vec::with_capacity(3);
        let mut mk = |c: &str| -> io::Result<PathBuf> {
            let parent = Path::new(ROOT).join(c).join(PARENT);
            fs::create_dir_all(&parent)?;
            let (dir, lock) = owned::create(&parent, name, &kill_procs, &|_| Ok(()))?;
            locks.push(lock);
            Ok(dir)
        };
        let mem = mk("memory")?;
        let pids = mk("pids")?;
        let cpu = mk("cpuacct")?;
        let memsw = mem.join("memory.memsw.limit_in_bytes");
        let cg = Slot {
            procs: [
                open_rw(&mem.join("cgroup.procs"))?,
                open_rw(&pids.join("cgroup.procs"))?,
                open_rw(&cpu.join("cgroup.procs"))?,
            ],
            mem_limit: open_rw(&mem.join("memory.limit_in_bytes"))?,
            memsw_limit: if memsw.exists() {
                open_rw(&memsw).ok()
            } else {
                None
            },
            mem_max_usage: open_rw(&mem.join("memory.max_usage_in_bytes"))?,
            mem_usage: File::open(mem.join("memory.usage_in_bytes"))?,
            mem_oom_control: File::open(mem.join("memory.oom_control"))?,
            pids_max: open_rw(&pids.join("pids.max"))?,
            pids_events: File::open(pids.join("pids.events"))?,
            pids_current: File::open(pids.join("pids.current"))?,
            cpu_usage: open_rw(&cpu.join("cpuacct.usage"))?,
            dirs: [mem, pids, cpu],
            current_mem: None,
            current_pids: None,
            _locks: locks,
        };
        // Swapping would let a program exceed its limit silently.
        let _ = fs::write(cg.dirs[0].join("memory.swappiness"), "0");
        Ok(cg)
    }

    /// Where a run's peak memory comes from (always exact here).
    pub fn peak_source(&self) -> (&'static str, bool) {
        (
            "memory.max_usage_in_bytes of the slot's memory cgroup",
            true,
        )
    }

    pub fn procs_fds(&self) -> Vec<i32> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Sets limits (only when changed) and resets peak/CPU counters for the next run.
    pub fn prepare(&mut self, memory_bytes: u64, processes: u32) -> io::Result<Baseline> {
        if self.current_mem != Some(memory_bytes) {
            let v = memory_bytes.to_string();
            // memsw must stay >= limit: raise memsw first when growing, lower it last.
            let growing = self.current_mem.is_some_and(|c| memory_bytes > c);
            if growing {
                if let Some(f) = &self.memsw_limit {
                    write_str(f, &v)?;
                }
                write_str(&self.mem_limit, &v)?;
            } else {
                write_str(&self.mem_limit, &v)?;
                if let Some(f) = &self.memsw_limit {
                    write_str(f, &v)?;
                }
            }
            self.current_mem = Some(memory_bytes);
        }
        if self.current_pids != Some(processes) {
            write_str(&self.pids_max, &processes.max(1).to_string())?;
            self.current_pids = Some(processes);
        }
        write_str(&self.mem_max_usage, "0")?;
        write_str(&self.cpu_usage, "0")?;
        Ok(Baseline {
            oom_kills: read_keyed(&self.mem_oom_control, "oom_kill")?,
            pids_max_events: read_keyed(&self.pids_events, "max")?,
        })
    }

    /// CPU time used so far by every task of the slot, in nanoseconds.
    pub fn cpu_ns(&self) -> u64 {
        read_u64(&self.cpu_usage).unwrap_or(0)
    }

    pub fn usage(&self, base: Baseline) -> Usage {
        Usage {
            cpu_ns: self.cpu_ns(),
            peak_bytes: read_u64(&self.mem_max_usage).unwrap_or(0),
            oom_killed: read_keyed(&self.mem_oom_control, "oom_kill").unwrap_or(0) > base.oom_kills,
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
        read_u64(&self.mem_usage).unwrap_or(0)
    }

    /// Asks the kernel to reclaim what is still charged (the slot has no tasks then).
    pub fn force_empty(&self) {
        let _ = fs::write(self.dirs[0].join("memory.force_empty"), "0");
    }

    /// True if tasks are still in the slot (should never be after a run).
    pub fn has_tasks(&self) -> bool {
        self.tasks() > 0
    }

    /// Tasks counted, exited ones not yet reaped included.
    pub fn tasks(&self) -> u64 {
        read_u64(&self.pids_current).unwrap_or(u64::MAX)
    }

    pub fn kill_remaining(&self) {
        for d in &self.dirs {
            kill_procs(d);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        for d in &self.dirs {
            owned::remove_tree(d, &kill_procs, std::time::Duration::from_millis(100));
        }
    }
}
