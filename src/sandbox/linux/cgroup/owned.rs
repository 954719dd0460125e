//! Cgroup directories owned by a judge process, proven by a lock rather than guessed.
//!
//! Every judge holds an exclusive `flock` on each slot cgroup directory it created, for as
//! long as it uses it (the lock ends with the process, however it ends). A directory under
//! the shared parent is *stale* only if its lock can be taken: then nobody uses it, and its
//! tasks are killed and it is removed. Pids are never consulted, so a judge in another pid
//! namespace (a container sharing the cgroup file system) never mistakes a running judge's
//! cgroups for leftovers. Creating a directory and locking it, and scanning for stale ones,
//! both happen under an exclusive lock on the shared parent, so a scan never sees a directory
//! between its creation and its lock.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use crate::fsutil::{lock_dir, DirLock};

/// Kills every task listed in a `cgroup.procs` file (best effort).
pub fn kill_listed(procs: &Path) {
    if let Ok(text) = fs::read_to_string(procs) {
        for pid in super::parse::pids(&text) {
            // SAFETY: plain signal to a task of a cgroup nobody owns any more.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Removes a cgroup directory and the cgroups below it, calling `kill` on each (deepest
/// first) until the kernel lets it go; gives up after `patience`.
pub fn remove_tree(dir: &Path, kill: &dyn Fn(&Path), patience: Duration) -> bool {
    let deadline = Instant::now() + patience;
    let children: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    for c in &children {
        remove_tree(c, kill, deadline.saturating_duration_since(Instant::now()));
    }
    loop {
        kill(dir);
        match fs::remove_dir(dir) {
            Ok(()) => return true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => return false,
        }
    }
}

/// Removes the unlocked (stale) directories in `parent`. The caller holds `parent`'s lock.
fn remove_stale(parent: &Path, kill: &dyn Fn(&Path)) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let dir = e.path();
        // Held by a live judge (in whatever pid namespace): not ours to touch.
        if let Ok(Some(_lock)) = lock_dir(&dir, false) {
            remove_tree(&dir, kill, Duration::from_millis(200));
        }
    }
}

/// Creates `parent/<name>` (or `<name>-2`, `-3`, ... while the name is held by another
/// live judge), locked for as long as the returned lock lives, after removing the stale
/// directories in `parent`. `kill` empties a cgroup directory of its tasks; `init` sets
/// up a fresh directory before anyone else can see it unlocked.
pub fn create(
    parent: &Path,
    name: &str,
    kill: &dyn Fn(&Path),
    init: &dyn Fn(&Path) -> io::Result<()>,
) -> io::Result<(PathBuf, DirLock)> {
    let _parent_lock = lock_dir(parent, true)?;
    remove_stale(parent, kill);
    for k in 1..=100 {
        let dir = if k == 1 {
            parent.join(name)
        } else {
            parent.join(format!("{name}-{k}"))
        };
        match fs::create_dir(&dir) {
            Ok(()) => {
                let lock = lock_dir(&dir, false)?
                    .ok_or_else(|| io::Error::other("a new cgroup was locked by someone else"))?;
                init(&dir)?;
                return Ok((dir, lock));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                // A leftover that could not be removed (its lock is free): reuse it after
                // emptying it. A live judge's directory: try the next name.
                if let Some(lock) = lock_dir(&dir, false)? {
                    kill(&dir);
                    init(&dir)?;
                    return Ok((dir, lock));
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "no free cgroup name {name}-N in {}",
        parent.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn no_init(_: &Path) -> io::Result<()> {
        Ok(())
    }

    #[test]
    fn a_held_directory_survives_a_scan_and_a_free_one_is_removed() {
        let parent = tempfile::tempdir().unwrap();
        let killed = RefCell::new(Vec::new());
        let kill = |d: &Path| killed.borrow_mut().push(d.to_path_buf());
        let (held, lock) = create(parent.path(), "1-0-slot0", &kill, &no_init).unwrap();
        // A leftover of a judge that died: nobody holds its lock.
        let stale = parent.path().join("1-0-slot1");
        fs::create_dir_all(stale.join("run")).unwrap();
        let (other, _other_lock) = create(parent.path(), "2-0-slot0", &kill, &no_init).unwrap();
        assert!(held.is_dir(), "a live judge's cgroup was removed");
        assert!(other.is_dir());
        assert!(!stale.exists(), "the stale cgroup was kept");
        assert!(killed.borrow().contains(&stale));
        assert!(!killed.borrow().contains(&held));
        drop(lock);
        let _third = create(parent.path(), "3-0-slot0", &kill, &no_init).unwrap();
        assert!(!held.exists(), "a released cgroup is stale");
    }

    #[test]
    fn a_name_held_by_another_judge_gets_a_suffix() {
        let parent = tempfile::tempdir().unwrap();
        let kill = |_: &Path| {};
        // Same pid in two pid namespaces: the same name.
        let (a, _la) = create(parent.path(), "1-0-slot0", &kill, &no_init).unwrap();
        let (b, _lb) = create(parent.path(), "1-0-slot0", &kill, &no_init).unwrap();
        assert_eq!(a, parent.path().join("1-0-slot0"));
        assert_eq!(b, parent.path().join("1-0-slot0-2"));
    }

    #[test]
    fn locks_are_exclusive_between_open_files() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_dir(dir.path(), false).unwrap();
        assert!(first.is_some());
        assert!(lock_dir(dir.path(), false).unwrap().is_none());
        drop(first);
        assert!(lock_dir(dir.path(), false).unwrap().is_some());
    }
}
