//! Per-slot cgroup v1 triples (memory, pids, cpuacct), created once and reused per run.
//!
//! Layout: `/sys/fs/cgroup/<controller>/judge/<pid>-<instance>-slot<N>`. The harness keeps
//! the `cgroup.procs` files open so the child joins with one `write("0")` before exec.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const ROOT: &str = "/sys/fs/cgroup";
const PARENT: &str = "judge";

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

pub struct SlotCgroups {
    dirs: [PathBuf; 3],
    /// cgroup.procs of memory, pids, cpuacct (joined by the child).
    pub procs: [File; 3],
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
}

fn read_u64(f: &File) -> io::Result<u64> {
    let mut buf = [0u8; 64];
    let n = f.read_at(&mut buf, 0)?;
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "unparsable cgroup counter"))
}

/// Value of `key` in a "key value" per line file (memory.oom_control, pids.events).
fn read_keyed(f: &File, key: &str) -> io::Result<u64> {
    let mut buf = [0u8; 512];
    let n = f.read_at(&mut buf, 0)?;
    let text = String::from_utf8_lossy(&buf[..n]);
    Ok(text
        .lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0))
}

fn write_str(f: &File, s: &str) -> io::Result<()> {
    f.write_at(s.as_bytes(), 0).map(|_| ())
}

fn open_rw(p: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(p)
}

/// Kills every task listed in a `cgroup.procs` file (best effort).
fn kill_all(procs: &Path) {
    if let Ok(text) = fs::read_to_string(procs) {
        for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
            // SAFETY: plain signal; the tasks belong to a sandbox cgroup.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Removes cgroup directories left by judge processes that no longer exist.
fn remove_stale(controller_root: &Path) {
    let Ok(entries) = fs::read_dir(controller_root) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = name.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let dir = e.path();
        for _ in 0..20 {
            kill_all(&dir.join("cgroup.procs"));
            if fs::remove_dir(&dir).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// True when the three v1 controllers are mounted and writable by us.
pub fn available() -> bool {
    ["memory", "pids", "cpuacct"].iter().all(|c| {
        let root = Path::new(ROOT).join(c);
        root.join("cgroup.procs").exists() && fs::create_dir_all(root.join(PARENT)).is_ok()
    })
}

impl SlotCgroups {
    pub fn create(name: &str) -> io::Result<SlotCgroups> {
        let mk = |c: &str| -> io::Result<PathBuf> {
            let parent = Path::new(ROOT).join(c).join(PARENT);
            fs::create_dir_all(&parent)?;
            remove_stale(&parent);
            let dir = parent.join(name);
            match fs::create_dir(&dir) {
                Ok(()) => Ok(dir),
                // A leftover of a crashed process with our pid: reuse it after emptying it.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    kill_all(&dir.join("cgroup.procs"));
                    Ok(dir)
                }
                Err(e) => Err(e),
            }
        };
        let mem = mk("memory")?;
        let pids = mk("pids")?;
        let cpu = mk("cpuacct")?;
        let memsw = mem.join("memory.memsw.limit_in_bytes");
        let cg = SlotCgroups {
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
        };
        // Swapping would let a program exceed its limit silently.
        let _ = fs::write(cg.dirs[0].join("memory.swappiness"), "0");
        Ok(cg)
    }

    pub fn procs_fds(&self) -> [i32; 3] {
        [
            self.procs[0].as_raw_fd(),
            self.procs[1].as_raw_fd(),
            self.procs[2].as_raw_fd(),
        ]
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
            forks_refused: read_keyed(&self.pids_events, "max")
                .unwrap_or(0)
                .saturating_sub(base.pids_max_events),
        }
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
        read_u64(&self.pids_current).map_or(true, |n| n > 0)
    }

    pub fn kill_remaining(&self) {
        for d in &self.dirs {
            kill_all(&d.join("cgroup.procs"));
        }
    }
}

impl Drop for SlotCgroups {
    fn drop(&mut self) {
        for d in &self.dirs {
            for _ in 0..50 {
                kill_all(&d.join("cgroup.procs"));
                if fs::remove_dir(d).is_ok() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
}
