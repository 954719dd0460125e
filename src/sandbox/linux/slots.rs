//! Worker slots: what is prepared once per parallel run (cgroups, a network namespace, a
//! uid, stacks) and the pool that hands slots to callers.
//!
//! # Uids owned under a lock
//!
//! On the root path each slot runs its programs as a uid of its own, so file permissions,
//! signals and `RLIMIT_NPROC` never reach another slot's runs. A uid is leased by holding an
//! exclusive `flock` on `/run/judge/uids/<uid>.lock` for the sandbox's lifetime: two judges
//! (in any pid namespace that shares `/run`) never run programs as the same uid, and a
//! crashed judge's leases end with its open files.

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::cgroup::SlotCgroups;
use super::sys::Stack;
use crate::fsutil::{flock, LockMode};

const FIRST_UID: u32 = 60000;
const UID_RANGE: u32 = 5000;
const LEASE_DIR: &str = "/run/judge/uids";

/// A uid reserved for one slot while this value lives.
pub struct UidLease {
    pub uid: u32,
    _lock: File,
}

/// Leases the first free uid at or after `hint` (wrapping around the range) from the lock
/// files in `dir`.
pub fn lease_uid_in(dir: &Path, hint: u32) -> io::Result<UidLease> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(dir)?;
    for k in 0..UID_RANGE {
        let uid = FIRST_UID + (hint.wrapping_add(k)) % UID_RANGE;
        let path: PathBuf = dir.join(format!("{uid}.lock"));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_CLOEXEC)
            .open(&path)?;
        if flock(&file, LockMode::Exclusive, false)? {
            return Ok(UidLease { uid, _lock: file });
        }
    }
    Err(io::Error::other(format!(
        "all {UID_RANGE} sandbox uids are in use (locks in {})",
        dir.display()
    )))
}

/// Leases a uid for a slot (see the module documentation).
pub fn lease_uid(hint: u32) -> io::Result<UidLease> {
    lease_uid_in(Path::new(LEASE_DIR), hint)
}

/// One worker slot.
pub struct Slot {
    /// The slot's long-lived init and spawner (root path with cgroups; started at the first
    /// run). First: they are killed and reaped before the cgroups they used are removed.
    pub spawner: Option<super::spawner::SlotSpawner>,
    /// The per-run mounts currently in the slot's box (see [`super::slotrun`]).
    pub layer: Option<super::slotrun::Layer>,
    /// Set when the slot's processes could not be started here: runs use a proxy each.
    pub no_spawner: bool,
    /// The Landlock ruleset of the slot's last run without a file-system view, and the
    /// (device, inode) of the folders it was made for.
    pub ruleset: Option<(Vec<(u64, u64)>, super::policy::PreparedRuleset)>,
    /// The uid and gid its programs run as (root path only).
    pub uid: Option<UidLease>,
    pub cg: Option<SlotCgroups>,
    /// An empty network namespace the runs join (root path only).
    pub netns: Option<OwnedFd>,
    /// The prebuilt fixed part of its runs' file-system view (root path with a view; built
    /// at the first run), or why it could not be built (runs then build the whole box).
    pub fs_base: Option<Result<FsBase, String>>,
    /// The eventfd its runs' proxies signal the end of a run on.
    pub done: OwnedFd,
    pub child_stack: Stack,
}

/// A slot's base mount namespace (see [`super::spawn::build_base`]).
pub struct FsBase {
    pub ns: OwnedFd,
    /// Mount points (and their parents) runs have added to the base's root: they stay
    /// there, empty.
    pub dirs: HashSet<PathBuf>,
}

/// A base that has collected this many mount points is rebuilt (its root tmpfs has room for
/// 4096 inodes).
pub const MAX_BASE_DIRS: usize = 1024;

/// The slots and which of them are free. `acquire` blocks until one is.
pub struct SlotPool {
    slots: Vec<Mutex<Slot>>,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
}

/// A slot in use; returned to the pool when dropped.
pub struct SlotGuard<'a> {
    pool: &'a SlotPool,
    index: usize,
    slot: Option<MutexGuard<'a, Slot>>,
}

impl std::ops::Deref for SlotGuard<'_> {
    type Target = Slot;
    fn deref(&self) -> &Slot {
        self.slot.as_ref().expect("slot held until drop")
    }
}

impl std::ops::DerefMut for SlotGuard<'_> {
    fn deref_mut(&mut self) -> &mut Slot {
        self.slot.as_mut().expect("slot held until drop")
    }
}

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        self.slot = None;
        self.pool
            .free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.index);
        self.pool.freed.notify_one();
    }
}

impl SlotPool {
    pub fn new(slots: Vec<Slot>) -> SlotPool {
        SlotPool {
            free: Mutex::new((0..slots.len()).rev().collect()),
            slots: slots.into_iter().map(Mutex::new).collect(),
            freed: Condvar::new(),
        }
    }

    pub fn acquire(&self) -> SlotGuard<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let index = loop {
            if let Some(i) = free.pop() {
                break i;
            }
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        };
        drop(free);
        let slot = self.slots[index].lock().unwrap_or_else(|e| e.into_inner());
        SlotGuard {
            pool: self,
            index,
            slot: Some(slot),
        }
    }

    /// What `f` gives for each slot (waiting for slots in use).
    pub fn collect<T>(&self, f: impl Fn(&Slot) -> Option<T>) -> Vec<T> {
        self.slots
            .iter()
            .filter_map(|s| f(&s.lock().unwrap_or_else(|e| e.into_inner())))
            .collect()
    }

    /// True if `f` holds for a slot (waiting for slots in use).
    pub fn any(&self, f: impl Fn(&Slot) -> bool) -> bool {
        self.slots
            .iter()
            .any(|s| f(&s.lock().unwrap_or_else(|e| e.into_inner())))
    }

    /// The uids of the slots (for tests that look for leftover processes).
    pub fn uids(&self) -> Vec<u32> {
        self.slots
            .iter()
            .filter_map(|s| s.lock().ok().and_then(|s| s.uid.as_ref().map(|u| u.uid)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_are_exclusive_and_end_with_their_holder() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = lease_uid_in(dir.path(), 7).expect("first lease");
        let b = lease_uid_in(dir.path(), 7).expect("second lease");
        assert_eq!(a.uid, FIRST_UID + 7);
        assert_eq!(b.uid, FIRST_UID + 8, "a held uid is skipped");
        drop(a);
        let c = lease_uid_in(dir.path(), 7).expect("third lease");
        assert_eq!(c.uid, FIRST_UID + 7, "a released uid is free again");
    }

    #[test]
    fn hints_wrap_around_the_range() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = lease_uid_in(dir.path(), UID_RANGE - 1).expect("lease");
        let b = lease_uid_in(dir.path(), UID_RANGE - 1).expect("lease");
        assert_eq!(a.uid, FIRST_UID + UID_RANGE - 1);
        assert_eq!(b.uid, FIRST_UID);
    }
}
