//! Small file helpers: atomic writes of files and folders, reading "file or standard
//! input", and reading a package's files without leaving it ([`beneath`]).

pub mod beneath;

use std::ffi::CString;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// reader never sees a half-written file and an interrupted write leaves the old file intact.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    // A temporary file is private (0600); what we write is data the user shares (reports,
    // test files), readable like any file they would create.
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Replaces the folder `dir` (created if missing) by one that `fill` writes: `fill` gets a
/// temporary folder next to `dir`, which then takes `dir`'s place in one atomic exchange
/// (`renameat2(RENAME_EXCHANGE)`; two renames where the file system lacks it). A reader, or
/// a judge killed at any point, sees the old folder or the new one, never a mix; files of
/// the old folder do not survive. The temporary folder is removed on every way out
/// (errors, interruptions); one left by a killed process is removed by the next call.
pub fn replace_dir(dir: &Path, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    // Replace what a symbolic link points to, not the link.
    let dir = match std::fs::canonicalize(dir) {
        Ok(real) => real,
        Err(_) => {
            std::path::absolute(dir).with_context(|| format!("cannot resolve {}", dir.display()))?
        }
    };
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        bail!("cannot replace {}: it has no parent folder", dir.display());
    };
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let prefix = format!(".{}.judge-tmp-", name.to_string_lossy());
    let tmp = TempFolder::create(parent, &prefix, 0o755)?;
    fill(tmp.path())?;
    if !dir.exists() {
        std::fs::rename(tmp.path(), &dir)
            .with_context(|| format!("cannot move the new folder to {}", dir.display()))?;
        // It lives on as `dir`.
        tmp.keep();
        return Ok(());
    }
    match exchange(tmp.path(), &dir) {
        // `tmp` now holds the old content; dropping it removes that.
        Ok(()) => Ok(()),
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
            // No atomic exchange here: move the old folder aside, then the new one in.
            let aside = TempFolder::create(parent, &prefix, 0o700)?;
            let old = aside.path().join("old");
            std::fs::rename(&dir, &old)
                .with_context(|| format!("cannot move {} aside", dir.display()))?;
            if let Err(e) = std::fs::rename(tmp.path(), &dir) {
                let _ = std::fs::rename(&old, &dir);
                return Err(e).with_context(|| format!("cannot replace {}", dir.display()));
            }
            tmp.keep();
            Ok(())
        }
        Err(e) => Err(e).with_context(|| format!("cannot replace {}", dir.display())),
    }
}

/// Swaps two paths atomically (Linux `renameat2` with `RENAME_EXCHANGE`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    renameat2(a, b, libc::RENAME_EXCHANGE)
}

/// Moves `from` to `to` unless `to` exists (`renameat2` with `RENAME_NOREPLACE`: an error
/// of kind `AlreadyExists` then, even if another process created `to` a moment ago).
/// Where the file system lacks the flag, a check then a plain rename.
pub fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    match renameat2(from, to, libc::RENAME_NOREPLACE) {
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
            if std::fs::symlink_metadata(to).is_ok() {
                return Err(std::io::ErrorKind::AlreadyExists.into());
            }
            std::fs::rename(from, to)
        }
        r => r,
    }
}

fn renameat2(a: &Path, b: &Path, flags: libc::c_uint) -> std::io::Result<()> {
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes()).map_err(|_| std::io::ErrorKind::InvalidInput)
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two valid NUL-terminated paths that outlive the call; no memory is written.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            flags,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// How long a folder being created ([`TempFolder::create`]: `.new`, not locked yet) must have
/// been left alone before another judge takes it for a killed one's.
const STALE_AFTER: Duration = Duration::from_secs(5);

/// Removes the `<prefix>*` folders in `parent` that no judge is filling: nobody holds their
/// lock ([`TempFolder`]), and a `.new` one (created but maybe not locked yet) was not changed
/// for a few seconds. Pids are not consulted, so a judge in another pid namespace never
/// loses its folder; where the file system has no locks, a folder whose process is gone is
/// removed. Best effort.
pub fn remove_stale_temp_dirs(parent: &Path, prefix: &str) {
    let Ok(read) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let path = entry.path();
        let young = || {
            std::fs::symlink_metadata(&path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| !matches!(t.elapsed(), Ok(age) if age >= STALE_AFTER))
        };
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || (name.ends_with(".new") && young()) {
            continue;
        }
        let Ok(file) = open_dir(&path) else { continue };
        let stale = match flock(&file, LockMode::Exclusive, false) {
            Ok(free) => free,
            // No locks here: the process named in the folder must be gone.
            Err(_) => rest
                .split('-')
                .next()
                .and_then(|pid| pid.parse::<libc::pid_t>().ok())
                .is_some_and(process_is_gone),
        };
        if stale {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

fn process_is_gone(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

/// Whether other processes may hold a [`flock`] beside this one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

/// Takes `file`'s `flock`, waiting for it when `wait` (a signal's EINTR retries).
/// `Ok(false)`: another open file holds a conflicting lock and `wait` is false. The lock lasts
/// as long as this open file (every duplicate of it) does, so it ends with the process
/// however it ends.
pub fn flock(file: &std::fs::File, mode: LockMode, wait: bool) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    let op = match mode {
        LockMode::Shared => libc::LOCK_SH,
        LockMode::Exclusive => libc::LOCK_EX,
    } | if wait { 0 } else { libc::LOCK_NB };
    loop {
        // SAFETY: flock on an fd `file` owns; no pointers.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => return Ok(false),
            _ => return Err(e),
        }
    }
}

/// Opens a folder to lock it or compare it (read-only, close-on-exec).
pub fn open_dir(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
        .open(path)
}

/// An exclusive `flock` on a directory, held while this value lives.
#[derive(Debug)]
pub struct DirLock {
    _file: std::fs::File,
}

/// Takes the directory's exclusive lock, waiting for it when `wait`; `None` when another
/// process holds it and `wait` is false.
pub fn lock_dir(path: &Path, wait: bool) -> std::io::Result<Option<DirLock>> {
    let file = open_dir(path)?;
    Ok(flock(&file, LockMode::Exclusive, wait)?.then_some(DirLock { _file: file }))
}

/// A folder `<prefix><pid>-<random>` in `parent` that judge fills before renaming it into
/// place, removed when dropped. It holds its own exclusive lock while it lives, which is how
/// [`remove_stale_temp_dirs`] (called first, with the same prefix) tells a killed judge's
/// folder from one being filled: it is created as `<name>.new`, locked, then renamed to
/// `<name>`, so a folder under its final name is always locked while its judge lives.
pub struct TempFolder {
    path: PathBuf,
    _lock: Option<DirLock>,
}

impl TempFolder {
    /// Creates the folder with permissions `mode` (for example 0o755: it becomes what the user
    /// sees).
    pub fn create(parent: &Path, prefix: &str, mode: u32) -> Result<TempFolder> {
        use std::os::unix::fs::DirBuilderExt;
        remove_stale_temp_dirs(parent, prefix);
        let cannot = || format!("cannot create a temporary folder in {}", parent.display());
        for _ in 0..100 {
            let path = parent.join(format!(
                "{prefix}{}-{:08x}",
                std::process::id(),
                rand::random::<u32>()
            ));
            let new = path.with_file_name(format!("{}.new", path.file_name().unwrap().display()));
            match std::fs::DirBuilder::new().mode(0o700).create(&new) {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                r => r.with_context(cannot)?,
            }
            let lock = lock_dir(&new, false).ok().flatten();
            let placed = rename_no_replace(&new, &path).and_then(|()| {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            });
            if let Err(e) = placed {
                let _ = std::fs::remove_dir(&new);
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    continue;
                }
                let _ = std::fs::remove_dir_all(&path);
                return Err(e).with_context(cannot);
            }
            return Ok(TempFolder { path, _lock: lock });
        }
        bail!("{}: every name tried was taken", cannot())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the folder (it was renamed into place) and lets go of its lock.
    pub fn keep(mut self) {
        self.path = PathBuf::new();
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        if !self.path.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// The entries of `dir` (empty if it does not exist).
pub fn list_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(read) => read
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<Vec<_>>>()
            .with_context(|| format!("cannot read {}", dir.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// Whether a folder entry is what tools leave beside the files a user wrote, not one of them:
/// hidden names (`.DS_Store`, `.foo.py.swp`, `.pytest_cache`), Python's byte-code folder
/// `__pycache__` (left by running a multi-file Python program) and editor backups (`foo.py~`).
/// Package readers skip such entries (submissions, jury programs) rather than judge them.
pub fn is_tool_litter(name: &std::ffi::OsStr) -> bool {
    let name = name.as_bytes();
    name.starts_with(b".") || name == b"__pycache__" || name.ends_with(b"~")
}

/// The bytes of `path`, or of standard input when `path` is `None` or `-`.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>> {
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))
        }
        _ => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .context("cannot read standard input")?;
            Ok(buf)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(path: &Path, secs: u64) {
        std::fs::File::open(path)
            .unwrap()
            .set_modified(std::time::SystemTime::now() - Duration::from_secs(secs))
            .unwrap();
    }

    #[test]
    fn only_an_unlocked_temporary_folder_left_alone_for_a_while_is_stale() {
        let parent = tempfile::tempdir().unwrap();
        let prefix = ".x.judge-tmp-";
        // Being filled by a judge (ours, or one in another pid namespace): its lock is held.
        let live = TempFolder::create(parent.path(), prefix, 0o755).unwrap();
        // A killed judge's, and one created a moment ago whose lock is not taken yet; a
        // killed judge's of that kind is removed once it was left alone for a while.
        let killed = parent.path().join(format!("{prefix}1-killed"));
        let young = parent.path().join(format!("{prefix}1-young.new"));
        let old = parent.path().join(format!("{prefix}1-old.new"));
        let other = parent.path().join(".y.judge-tmp-1-other");
        for dir in [&killed, &young, &old, &other] {
            std::fs::create_dir_all(dir.join("data")).unwrap();
        }
        age(&old, 60);
        remove_stale_temp_dirs(parent.path(), prefix);
        assert!(live.path().is_dir());
        assert!(!killed.exists());
        assert!(young.is_dir());
        assert!(!old.exists());
        assert!(other.is_dir(), "another prefix's folder was removed");
        // Once its judge lets go (it ends), the live one is stale too.
        let path = live.path().to_path_buf();
        live.keep();
        remove_stale_temp_dirs(parent.path(), prefix);
        assert!(!path.exists());
    }

    #[test]
    fn tool_litter_is_told_from_user_files() {
        use std::ffi::OsStr;
        for litter in [
            ".DS_Store",
            ".main.py.swp",
            "__pycache__",
            "main.py~",
            ".git",
        ] {
            assert!(is_tool_litter(OsStr::new(litter)), "{litter}");
        }
        for file in ["main.py", "Main.java", "__init__.py", "a.out", "pycache"] {
            assert!(!is_tool_litter(OsStr::new(file)), "{file}");
        }
    }

    #[test]
    fn atomic_write_replaces_content() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn replace_dir_swaps_the_whole_folder_and_leaves_no_temporary() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("tests");
        replace_dir(&out, |d| Ok(std::fs::write(d.join("a.in"), "1")?)).unwrap();
        std::fs::write(out.join("zz-stale.in"), "old").unwrap();
        replace_dir(&out, |d| Ok(std::fs::write(d.join("b.in"), "2")?)).unwrap();
        assert_eq!(names(&out), ["b.in"]);
        assert_eq!(names(root.path()), ["tests"]);
    }

    #[test]
    fn a_failed_fill_keeps_the_old_folder() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("tests");
        replace_dir(&out, |d| Ok(std::fs::write(d.join("a.in"), "1")?)).unwrap();
        let err = replace_dir(&out, |d| {
            std::fs::write(d.join("half.in"), "x")?;
            bail!("stopped")
        });
        assert!(err.is_err());
        assert_eq!(names(&out), ["a.in"]);
        assert_eq!(names(root.path()), ["tests"]);
    }

    #[test]
    fn rename_no_replace_refuses_an_existing_target() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("a"), root.path().join("b"));
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        let e = rename_no_replace(&a, &b).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        std::fs::remove_dir(&b).unwrap();
        rename_no_replace(&a, &b).unwrap();
        assert_eq!(names(root.path()), ["b"]);
    }

    #[test]
    fn replace_dir_removes_a_killed_judges_temporary_folder() {
        let root = tempfile::tempdir().unwrap();
        let stale = root.path().join(".tests.judge-tmp-2147483646-abc");
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join("x.in"), "1").unwrap();
        // Just created by another judge, which has not locked it yet.
        let young = root
            .path()
            .join(format!(".tests.judge-tmp-{}-abc.new", std::process::id()));
        std::fs::create_dir(&young).unwrap();
        replace_dir(&root.path().join("tests"), |_| Ok(())).unwrap();
        assert_eq!(
            names(root.path()),
            [young.file_name().unwrap().to_str().unwrap(), "tests"]
        );
    }
}
