//! Parsing of the kernel's cgroup files: pure functions on their text, unit-tested.

use std::path::PathBuf;

/// The value of `key` in a "key value" per line file: `cpu.stat` (`usage_usec`),
/// `memory.events` (`oom_kill`), `pids.events` (`max`), `cgroup.events` (`populated`),
/// v1 `memory.oom_control` (`oom_kill`). `None` when the key is absent or not a number.
pub fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
}

/// A single number file (`memory.peak`, `memory.current`, `cpuacct.usage`, ...).
pub fn number(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// Our cgroup in the v2 hierarchy, from `/proc/self/cgroup`: the path of the `0::` line
/// (relative to the hierarchy's root as mounted in our cgroup namespace), without the
/// leading `/`. `None` when the process is in no v2 hierarchy.
pub fn own_cgroup_v2(proc_self_cgroup: &str) -> Option<String> {
    proc_self_cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        // A cgroup namespace shows "/.." paths for cgroups outside it: not usable.
        .filter(|p| p.starts_with('/') && !p.split('/').any(|c| c == ".."))
        .map(|p| p.trim_start_matches('/').to_string())
}

/// Where the cgroup v2 hierarchy is mounted, from `/proc/self/mounts`: `/sys/fs/cgroup` if a
/// `cgroup2` file system is mounted there, else the first `cgroup2` mount point.
pub fn cgroup2_mount(mounts: &str) -> Option<PathBuf> {
    let points: Vec<String> = mounts
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 3 && f[2] == "cgroup2").then(|| unescape_mount(f[1]))
        })
        .collect();
    points
        .iter()
        .find(|p| p.as_str() == "/sys/fs/cgroup")
        .or(points.first())
        .map(PathBuf::from)
}

/// Undoes the octal escapes (`\040` for a space) of a mount point in `/proc/self/mounts`.
fn unescape_mount(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        if let (b'\\', Some(d)) = (b[i], octal) {
            let v = d.iter().fold(0u32, |a, c| a * 8 + u32::from(c - b'0'));
            out.push(v as u8);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// True when a whitespace-separated controller list (`cgroup.controllers`,
/// `cgroup.subtree_control`) names every controller in `wanted`.
pub fn has_controllers(list: &str, wanted: &[&str]) -> bool {
    wanted
        .iter()
        .all(|w| list.split_whitespace().any(|c| c == *w))
}

/// Process ids listed in a `cgroup.procs` file.
pub fn pids(procs: &str) -> Vec<i32> {
    procs
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_stat_usage() {
        let text = "usage_usec 1523407\nuser_usec 1400000\nsystem_usec 123407\n\
                    nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n";
        assert_eq!(keyed(text, "usage_usec"), Some(1_523_407));
        assert_eq!(keyed(text, "system_usec"), Some(123_407));
        // A prefix of another key is not that key.
        assert_eq!(keyed(text, "usage"), None);
        assert_eq!(keyed("", "usage_usec"), None);
    }

    #[test]
    fn memory_events_oom_kill() {
        let text = "low 0\nhigh 0\nmax 1942\noom 3\noom_kill 2\noom_group_kill 0\n";
        assert_eq!(keyed(text, "oom_kill"), Some(2));
        assert_eq!(keyed(text, "oom"), Some(3));
        assert_eq!(keyed(text, "max"), Some(1942));
        assert_eq!(keyed(text, "oom_group_kill"), Some(0));
    }

    #[test]
    fn pids_events_max() {
        assert_eq!(keyed("max 13021\n", "max"), Some(13021));
        // Newer kernels add a line; older ones have only `max`.
        assert_eq!(keyed("max 0\nmax.imposed 5\n", "max"), Some(0));
        assert_eq!(keyed("max.imposed 5\n", "max"), None);
    }

    #[test]
    fn cgroup_events_and_v1_oom_control() {
        assert_eq!(keyed("populated 1\nfrozen 0\n", "populated"), Some(1));
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 4\n";
        assert_eq!(keyed(v1, "oom_kill"), Some(4));
        assert_eq!(keyed("oom_kill x\n", "oom_kill"), None);
    }

    #[test]
    fn single_numbers() {
        assert_eq!(number("104857600\n"), Some(104_857_600));
        assert_eq!(number("max\n"), None);
        assert_eq!(number(""), None);
    }

    #[test]
    fn own_cgroup_from_proc_self_cgroup() {
        // Pure v2.
        assert_eq!(
            own_cgroup_v2("0::/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope\n")
                .as_deref(),
            Some("user.slice/user-1000.slice/user@1000.service/app.slice/x.scope")
        );
        assert_eq!(own_cgroup_v2("0::/\n").as_deref(), Some(""));
        // Hybrid (v1 controllers plus the unified hierarchy).
        let hybrid = "12:pids:/user.slice\n4:memory:/user.slice\n1:name=systemd:/init.scope\n\
                      0::/init.scope\n";
        assert_eq!(own_cgroup_v2(hybrid).as_deref(), Some("init.scope"));
        // v1 only: no `0::` line.
        assert_eq!(own_cgroup_v2("4:memory:/\n3:pids:/\n"), None);
        // Outside our cgroup namespace.
        assert_eq!(own_cgroup_v2("0::/../../sibling\n"), None);
    }

    #[test]
    fn cgroup2_mount_point() {
        let v2 = "sysfs /sys sysfs rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nsdelegate 0 0\n";
        assert_eq!(cgroup2_mount(v2), Some(PathBuf::from("/sys/fs/cgroup")));
        let hybrid = "tmpfs /sys/fs/cgroup tmpfs ro 0 0\n\
                      cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n\
                      cgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n";
        assert_eq!(
            cgroup2_mount(hybrid),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        assert_eq!(
            cgroup2_mount("cgroup2 /mnt/my\\040cg cgroup2 rw 0 0\n"),
            Some(PathBuf::from("/mnt/my cg"))
        );
        assert_eq!(
            cgroup2_mount("cgroup /sys/fs/cgroup/pids cgroup rw 0 0\n"),
            None
        );
    }

    #[test]
    fn controller_lists() {
        let list = "cpuset cpu io memory hugetlb pids rdma misc\n";
        assert!(has_controllers(list, &["memory", "pids"]));
        assert!(!has_controllers("cpu io memory\n", &["memory", "pids"]));
        assert!(!has_controllers("", &["memory"]));
        assert!(has_controllers("", &[]));
    }

    #[test]
    fn procs_list() {
        assert_eq!(pids("12\n345\n\n"), vec![12, 345]);
        assert!(pids("").is_empty());
    }
}
