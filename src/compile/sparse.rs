//! Large compiled files kept sparse in the cache. A program with a large initialised static
//! array (BAPCtools' `test-memstatic.cc`: 512 MiB, all zero but one byte) links into a binary
//! as large, which the linker writes out in full. Before an entry is installed, the zero
//! blocks of its large files are turned into holes, so such an entry takes the disk space of
//! its non-zero bytes. The file reads the same; where the file system cannot punch holes, it
//! stays as it was.

use std::fs::{self, File};
use std::io::Read;
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// Files smaller than this are left alone (reading them costs more than it saves).
const SMALLEST: u64 = 16 << 20;
/// Blocks looked at (a multiple of every file system's block size).
const BLOCK: usize = 64 << 10;

/// Turns the zero blocks of every file of at least 16 MiB directly in `dir` into holes.
/// Returns the bytes freed. Errors are ignored: this only saves disk space.
pub(super) fn punch_zero_blocks(dir: &Path) -> u64 {
    let Ok(read) = fs::read_dir(dir) else {
        return 0;
    };
    read.filter_map(|e| e.ok())
        .filter(|e| {
            e.file_type().is_ok_and(|t| t.is_file())
                && e.metadata().is_ok_and(|m| m.len() >= SMALLEST)
        })
        .map(|e| punch_file(&e.path()).unwrap_or(0))
        .sum()
}

fn punch_file(path: &Path) -> std::io::Result<u64> {
    let mut file = fs::OpenOptions::new().read(true).write(true).open(path)?;
    let mut buf = vec![0u8; BLOCK];
    let (mut offset, mut freed) = (0u64, 0u64);
    // The run of zero blocks seen last: (start, length).
    let mut run: Option<(u64, u64)> = None;
    loop {
        let n = read_full(&mut file, &mut buf)?;
        if n == 0 {
            break;
        }
        // Only whole blocks: the file's tail stays as written.
        if n == BLOCK && buf.iter().all(|&b| b == 0) {
            let (start, len) = run.unwrap_or((offset, 0));
            run = Some((start, len + BLOCK as u64));
        } else if let Some((start, len)) = run.take() {
            freed += punch(&file, start, len)?;
        }
        offset += n as u64;
    }
    if let Some((start, len)) = run {
        freed += punch(&file, start, len)?;
    }
    Ok(freed)
}

fn read_full(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

fn punch(file: &File, start: u64, len: u64) -> std::io::Result<u64> {
    let (Ok(off), Ok(l)) = (i64::try_from(start), i64::try_from(len)) else {
        return Ok(0);
    };
    // SAFETY: fallocate on an open descriptor with plain integer arguments.
    let rc = unsafe {
        libc::fallocate(
            file.as_raw_fd(),
            libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
            off,
            l,
        )
    };
    if rc == 0 {
        Ok(len)
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn zero_blocks_become_holes_and_the_file_reads_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("solution");
        let mut bytes = vec![0u8; 32 << 20];
        bytes[0] = 1;
        bytes[(20 << 20) + 5] = 7;
        *bytes.last_mut().unwrap() = 9;
        File::create(&big).unwrap().write_all(&bytes).unwrap();
        let small = dir.path().join("small");
        fs::write(&small, vec![0u8; 1 << 20]).unwrap();
        let before = fs::metadata(&big).unwrap().blocks() * 512;
        let freed = punch_zero_blocks(dir.path());
        assert_eq!(fs::read(&big).unwrap(), bytes);
        assert_eq!(fs::metadata(&small).unwrap().blocks() * 512, 1 << 20);
        if freed == 0 {
            // A file system without hole punching (the file is unchanged, as checked).
            return;
        }
        let after = fs::metadata(&big).unwrap().blocks() * 512;
        assert!(freed >= 31 << 20, "{freed}");
        assert!(after < before / 8, "{before} -> {after}");
    }
}
