//! The files a run reads from the host (its program, a runtime's install tree) are brought
//! into the page cache by the harness before the run, so that their pages are charged to the
//! harness's memory cgroup rather than the slot's.
//!
//! Why: page cache is charged to the cgroup that first reads a page. A slot's memory cgroup
//! that holds more than a few MiB after a run is emptied (`memory.force_empty`, see
//! [`super::run::cgroup_figures`]), so that the next run's peak is its own; emptying evicts
//! those pages from memory. A JVM (libjvm.so, the class-data archive: 40 MB) or a 4 MB jury
//! program first read inside a slot was thus evicted after every run and read again by the
//! next one, its page faults and read-ahead counted as the contestant's CPU time (a Java
//! submission's median test, after dropping the page cache, took 107-110 ms of CPU with that
//! cycle, 80-91 ms with this read-ahead) and
//! depending on what else the machine had cached. Read by the harness first, the pages are
//! in the cache, charged elsewhere, before any slot touches them.
//!
//! `posix_fadvise(POSIX_FADV_WILLNEED)`, in chunks, starts the read-ahead without copying
//! anything; each path is done once per process. Best effort: errors are ignored.

use std::collections::HashSet;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Most files looked at under one folder (a runtime's install tree has a few thousand).
const FILES_PER_DIR: usize = 20_000;
/// Smaller files under a folder are left alone: what fills a slot's cgroup is a runtime's
/// large files (libjvm.so, the class-data archive, the module image), and each file costs
/// system calls.
const LARGE_FILE: u64 = 256 * 1024;

/// Paths already read ahead by this process.
static DONE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Reads ahead every regular file among `paths` and the large ones under those that are
/// folders (not following symbolic links inside them), unless this process did so already.
pub fn prefetch<'a>(paths: impl IntoIterator<Item = &'a Path>) {
    let todo: Vec<PathBuf> = {
        let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
        let done = done.get_or_insert_with(HashSet::new);
        // Every run asks: only a path seen for the first time is copied.
        let mut todo = Vec::new();
        for p in paths {
            if !done.contains(p) {
                done.insert(p.to_path_buf());
                todo.push(p.to_path_buf());
            }
        }
        todo
    };
    for path in todo {
        if path.is_dir() {
            read_ahead_tree(&path);
        } else {
            read_ahead(&path);
        }
    }
}

fn read_ahead_tree(root: &Path) {
    let mut stack = vec![root.to_path_buf()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                files += 1;
                if files >= FILES_PER_DIR {
                    return;
                }
                if entry.metadata().is_ok_and(|m| m.len() >= LARGE_FILE) {
                    read_ahead(&entry.path());
                }
            }
        }
    }
}

/// The kernel reads ahead at most a few MiB per advice (8 MiB of a 23 MiB libjvm.so here),
/// so a file is advised in chunks.
const CHUNK: u64 = 2 << 20;

fn read_ahead(path: &Path) {
    let Ok(file) = std::fs::File::open(path) else {
        return;
    };
    let Ok(len) = file.metadata().map(|m| m.len()) else {
        return;
    };
    let mut offset = 0;
    while offset < len {
        // SAFETY: `file` is an open descriptor for the whole call; the advice only starts
        // read-ahead of the given range and touches no memory of ours.
        unsafe {
            libc::posix_fadvise(
                file.as_raw_fd(),
                offset as libc::off_t,
                CHUNK as libc::off_t,
                libc::POSIX_FADV_WILLNEED,
            );
        }
        offset += CHUNK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_is_read_ahead_once_and_missing_ones_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a"), b"a").unwrap();
        let missing = dir.path().join("missing");
        prefetch([dir.path(), missing.as_path()]);
        let done = DONE.lock().unwrap();
        let done = done.as_ref().unwrap();
        assert!(done.contains(dir.path()) && done.contains(&missing));
    }
}
