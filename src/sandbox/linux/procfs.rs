//! Reading `/proc`: what one process or thread has used so far.
//!
//! Parsing is separate from reading so that it can be unit-tested on captured text.

use std::time::Duration;

/// One sample of a process: CPU time (its threads plus reaped children), current RSS and
/// peak RSS (`VmHWM`) of its address space, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcSample {
    pub cpu: Duration,
    pub rss: u64,
    pub hwm: u64,
}

/// Scheduler figures of one thread from `/proc/<pid>/task/<tid>/schedstat`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedStat {
    /// Time spent running on a CPU.
    pub run: Duration,
    /// Time spent runnable but waiting for a CPU (the run-queue delay).
    pub wait: Duration,
}

impl std::ops::Add for SchedStat {
    type Output = SchedStat;
    fn add(self, o: SchedStat) -> SchedStat {
        SchedStat {
            run: self.run + o.run,
            wait: self.wait + o.wait,
        }
    }
}

/// Clock ticks per second for `/proc/<pid>/stat` times.
fn clock_ticks() -> u64 {
    // SAFETY: sysconf is a plain getter.
    (unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).max(1) as u64
}

/// CPU time from the text of `/proc/<pid>/stat`: utime + stime + cutime + cstime (fields
/// 14-17 of proc(5)), given `hz` ticks per second. `None` when the text is malformed.
pub fn parse_stat_cpu(stat: &str, hz: u64) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may itself hold spaces or ')'.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state).
    let num = |i: usize| f.get(i - 3).and_then(|s| s.parse::<u64>().ok());
    let ticks = num(14)? + num(15)? + num(16)? + num(17)?;
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000 / hz.max(1)),
    ))
}

/// (VmRSS, VmHWM) in bytes from the text of a `/proc/<pid>/status` file; zero for a field
/// that is absent (a zombie has none).
pub fn parse_status_memory(text: &str) -> (u64, u64) {
    let kib = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    };
    (kib("VmRSS:"), kib("VmHWM:"))
}

/// The text of a `schedstat` file: "run_ns wait_ns timeslices". With the kernel's
/// scheduler statistics off it reads "0 0 0", which parses as zero (nothing measured).
pub fn parse_schedstat(text: &str) -> Option<SchedStat> {
    let mut it = text.split_whitespace();
    let run = it.next()?.parse::<u64>().ok()?;
    let wait = it.next()?.parse::<u64>().ok()?;
    Some(SchedStat {
        run: Duration::from_nanos(run),
        wait: Duration::from_nanos(wait),
    })
}

/// (VmRSS, VmHWM) of the process behind a `/proc/.../status` path.
pub fn status_memory(path: &str) -> (u64, u64) {
    parse_status_memory(&std::fs::read_to_string(path).unwrap_or_default())
}

/// Samples process `pid`; `None` once it is gone.
pub fn sample(pid: i32) -> Option<ProcSample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let cpu = parse_stat_cpu(&stat, clock_ticks())?;
    let (rss, hwm) = status_memory(&format!("/proc/{pid}/status"));
    Some(ProcSample { cpu, rss, hwm })
}

/// The sum over every process below `root` (not `root` itself): CPU time (each one's
/// threads plus its reaped children), RSS, and the largest single `VmHWM`. `None` when there
/// is no process below `root`.
pub fn sample_tree(root: i32, cap: usize) -> Option<ProcSample> {
    let mut total: Option<ProcSample> = None;
    for pid in descendants(root, cap) {
        if let Some(s) = sample(pid) {
            let t = total.get_or_insert_with(ProcSample::default);
            t.cpu += s.cpu;
            t.rss += s.rss;
            t.hwm = t.hwm.max(s.hwm);
        }
    }
    total
}

/// Scheduler figures of thread `tid` (any thread of any process: `/proc/<tid>/task/<tid>`
/// names the thread itself, where `/proc/<pid>/schedstat` would only be the main thread).
pub fn schedstat(tid: i32) -> Option<SchedStat> {
    parse_schedstat(&std::fs::read_to_string(format!("/proc/{tid}/task/{tid}/schedstat")).ok()?)
}

/// The sum over every thread of process `pid` (threads that already ended are not counted).
pub fn process_schedstat(pid: i32) -> SchedStat {
    try_process_schedstat(pid).unwrap_or_default()
}

/// [`process_schedstat`], `None` when the process is gone.
fn try_process_schedstat(pid: i32) -> Option<SchedStat> {
    let dir = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    Some(
        dir.flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(schedstat)
            .fold(SchedStat::default(), |a, b| a + b),
    )
}

/// The sum over every thread of process `root` and of every process below it; `None` when
/// `root` is gone.
pub fn tree_schedstat(root: i32, cap: usize) -> Option<SchedStat> {
    let own = try_process_schedstat(root)?;
    Some(
        descendants(root, cap)
            .into_iter()
            .map(process_schedstat)
            .fold(own, |a, b| a + b),
    )
}

/// The children of every thread of process `pid` (`/proc/<pid>/task/*/children`).
pub fn children(pid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for tid in dir
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
    {
        if let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    out
}

/// Every process below `root` (not `root` itself), breadth first, at most `cap` of them.
pub fn descendants(root: i32, cap: usize) -> Vec<i32> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for c in children(p) {
            if out.len() >= cap {
                return out;
            }
            out.push(c);
            frontier.push(c);
        }
        i += 1;
        if i > cap {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_cpu_sums_user_system_and_children() {
        // A command name with a space and a parenthesis, as a hostile program may choose.
        let stat = "4242 (a) b) R 1 4242 4242 0 -1 4194304 120 0 0 0 150 30 7 3 20 0 1 0 \
                    5000 2000000 300 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        assert_eq!(parse_stat_cpu(stat, 100), Some(Duration::from_millis(1900)));
        assert_eq!(parse_stat_cpu(stat, 250), Some(Duration::from_millis(760)));
    }

    #[test]
    fn stat_cpu_rejects_truncated_text() {
        assert_eq!(parse_stat_cpu("4242 (x) R 1 2 3", 100), None);
        assert_eq!(parse_stat_cpu("no parenthesis", 100), None);
        assert_eq!(parse_stat_cpu("", 100), None);
    }

    #[test]
    fn status_memory_reads_rss_and_hwm() {
        let text = "Name:\tprog\nVmPeak:\t  20000 kB\nVmHWM:\t   10240 kB\nVmRSS:\t    8192 kB\n";
        assert_eq!(parse_status_memory(text), (8192 * 1024, 10240 * 1024));
        // A zombie has no memory lines.
        assert_eq!(
            parse_status_memory("Name:\tprog\nState:\tZ (zombie)\n"),
            (0, 0)
        );
    }

    #[test]
    fn schedstat_reads_run_and_wait() {
        assert_eq!(
            parse_schedstat("345891147 151272 44\n"),
            Some(SchedStat {
                run: Duration::from_nanos(345_891_147),
                wait: Duration::from_nanos(151_272),
            })
        );
        assert_eq!(parse_schedstat("0 0 0\n"), Some(SchedStat::default()));
        assert_eq!(parse_schedstat("garbage"), None);
        assert_eq!(parse_schedstat(""), None);
    }

    #[test]
    fn own_process_is_readable() {
        let pid = std::process::id() as i32;
        let s = sample(pid).expect("own /proc entry");
        assert!(s.rss > 0 && s.hwm >= s.rss);
        assert!(schedstat(pid).is_some());
    }
}
