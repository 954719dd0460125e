//! Reading a file that a package ships or a jury program wrote, without leaving the folder it
//! belongs to: the one rule for every such file judge reads.
//!
//! The path is resolved relative to a root folder (the package, a program's work folder) with
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`: a symbolic link that stays inside the
//! root is followed (test groups built from `../group1/x.in` links keep working), one that
//! leads outside it (an absolute link, too many `..`, a `/proc` magic link) is an error. Where
//! the kernel lacks `openat2`, the same walk is done component by component with `O_NOFOLLOW`.
//! The file is opened with `O_NONBLOCK` (a FIFO never blocks judge), must be a regular file
//! (so `/dev/zero` or a socket is never read), and is read up to a cap. Every error names the
//! file and the rule it broke.

use std::ffi::{CString, OsStr};
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

/// The cap on a test file (`.in`, `.ans`), a generator's output or a copied file.
pub const DATA_CAP: u64 = 1 << 30;
/// The cap on a small file judge interprets: a feedback file (`judgemessage.txt`,
/// `score.txt`, ...), a statement, a configuration file.
pub const SMALL_CAP: u64 = 64 << 20;

/// Symbolic links followed in one path before it counts as a loop (the kernel's limit).
const MAX_LINKS: usize = 40;

/// Why a file under a root folder cannot be read.
#[derive(Debug)]
pub enum Why {
    /// No such file (or a link inside the root to nothing).
    Missing,
    /// An absolute link, a `..` above the root, or a link into `/proc`.
    Outside,
    /// Not a regular file: the kind found ("a FIFO", "a folder", ...).
    NotRegular(&'static str),
    /// More bytes than the cap (in bytes).
    TooLarge(u64),
    /// Any other error of the system.
    Io(std::io::Error),
}

/// A file that could not be read under the rule, with the name to show.
#[derive(Debug)]
pub struct ReadError {
    /// The file as shown: relative to the root, escaped when needed ([`shown`]).
    pub file: String,
    /// What the root is: "the package", "the program's work folder".
    pub within: &'static str,
    pub why: Why,
}

impl ReadError {
    pub fn is_missing(&self) -> bool {
        matches!(self.why, Why::Missing)
    }
}

impl ReadError {
    /// The rule broken, without the file's name: "not a regular file (a FIFO)".
    pub fn rule(&self) -> String {
        match &self.why {
            Why::Missing => "no such file".into(),
            Why::Outside => format!(
                "a link that leads outside {} (links must stay inside it)",
                self.within
            ),
            Why::NotRegular(kind) => format!("not a regular file ({kind})"),
            Why::TooLarge(cap) => format!("larger than the cap of {} MiB", cap.div_ceil(1 << 20)),
            Why::Io(e) => format!("cannot be read: {e}"),
        }
    }
}

impl From<ReadError> for std::io::Error {
    /// The error as an I/O error of the same kind where there is one (`NotFound`), else one
    /// saying the rule.
    fn from(e: ReadError) -> std::io::Error {
        match e.why {
            Why::Io(io) => io,
            Why::Missing => std::io::ErrorKind::NotFound.into(),
            _ => std::io::Error::other(e.rule()),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.rule())
    }
}

impl std::error::Error for ReadError {}

/// What a path under a root is, once resolved under the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
    /// Anything else: a FIFO, a socket, a device.
    Other(&'static str),
}

/// A path as shown in a message: as it is when it is printable UTF-8, else quoted with every
/// odd byte escaped (`"a\u{7}b.in"`, `"\xFF.in"`), so any name can be shown and told apart.
pub fn shown(path: &Path) -> String {
    match path.to_str() {
        Some(s) if !s.chars().any(char::is_control) && !s.contains(' ') => s.to_string(),
        _ => format!("{path:?}"),
    }
}

/// The bytes of `rel` under `root`, at most `cap` of them, under the rule (see the module).
pub fn read_beneath(
    root: &Path,
    rel: &Path,
    cap: u64,
    within: &'static str,
) -> Result<Vec<u8>, ReadError> {
    let err = |why| ReadError {
        file: shown(rel),
        within,
        why,
    };
    read_capped(open_beneath(root, rel, within)?, cap).map_err(err)
}

/// The bytes of the file at `path` wherever it is (a user's own file, or a package's file
/// already checked by [`kind_beneath`]), at most `cap` of them: opened without blocking, and
/// it must be a regular file (never a FIFO or `/dev/zero`).
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let err = |why| ReadError {
        file: shown(path),
        within: "its folder",
        why,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => Why::NotRegular("a socket"),
            _ => why(e),
        })
        .map_err(err)?;
    match kind_of(file.as_raw_fd()).map_err(|e| err(Why::Io(e)))? {
        Kind::File => read_capped(file, cap).map_err(err),
        Kind::Folder => Err(err(Why::NotRegular("a folder"))),
        Kind::Other(kind) => Err(err(Why::NotRegular(kind))),
    }
}

/// Up to `cap` bytes of the regular file `file`; `TooLarge` past that (also when it grew
/// while read).
fn read_capped(file: File, cap: u64) -> Result<Vec<u8>, Why> {
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > cap {
        return Err(Why::TooLarge(cap));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(Why::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Why::TooLarge(cap));
    }
    Ok(bytes)
}

/// [`read_beneath`], `None` when there is no such file; every other failure stays an error.
pub fn read_if_present(
    root: &Path,
    rel: &Path,
    cap: u64,
    within: &'static str,
) -> Result<Option<Vec<u8>>, ReadError> {
    match read_beneath(root, rel, cap, within) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e),
    }
}

/// [`read_beneath`] as text (invalid UTF-8 replaced).
pub fn read_text_beneath(
    root: &Path,
    rel: &Path,
    cap: u64,
    within: &'static str,
) -> Result<String, ReadError> {
    read_beneath(root, rel, cap, within).map(|b| match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Opens the regular file `rel` under `root` for reading (see the module).
pub fn open_beneath(root: &Path, rel: &Path, within: &'static str) -> Result<File, ReadError> {
    let err = |why| ReadError {
        file: shown(rel),
        within,
        why,
    };
    let fd = resolve(
        root,
        rel,
        libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY,
    );
    let fd = match fd {
        // A socket cannot be opened: tell what it is.
        Err(Why::Io(e)) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(err(match kind_beneath(root, rel, within)?.1 {
                Kind::Other(kind) => Why::NotRegular(kind),
                _ => Why::Io(e),
            }))
        }
        r => r.map_err(err)?,
    };
    match kind_of(fd.as_raw_fd()).map_err(|e| err(Why::Io(e)))? {
        Kind::File => Ok(File::from(fd)),
        Kind::Folder => Err(err(Why::NotRegular("a folder"))),
        Kind::Other(kind) => Err(err(Why::NotRegular(kind))),
    }
}

/// What `rel` under `root` is, without opening it for reading (a FIFO or a socket is only
/// looked at), with the file's identity (device, inode) to tell a folder seen twice.
pub fn kind_beneath(
    root: &Path,
    rel: &Path,
    within: &'static str,
) -> Result<((u64, u64), Kind), ReadError> {
    let err = |why| ReadError {
        file: shown(rel),
        within,
        why,
    };
    let fd = resolve(root, rel, libc::O_PATH).map_err(err)?;
    let st = fstat(fd.as_raw_fd()).map_err(|e| err(Why::Io(e)))?;
    Ok(((st.st_dev, st.st_ino), kind_of_mode(st.st_mode)))
}

/// Checks that `path` (a file, or a folder and everything in it, at most 10,000 entries) is
/// reached from `root` under the rule and holds only regular files and folders; the error
/// names the first entry that breaks it.
pub fn check_tree(root: &Path, path: &Path, within: &'static str) -> Result<(), String> {
    const MAX_ENTRIES: usize = 10_000;
    let Ok(rel) = path.strip_prefix(root) else {
        return Err(format!("{}: not inside {within}", shown(path)));
    };
    let mut stack = vec![rel.to_path_buf()];
    let mut seen = 0;
    while let Some(rel) = stack.pop() {
        seen += 1;
        if seen > MAX_ENTRIES {
            return Err(format!(
                "{}: more than {MAX_ENTRIES} files",
                shown(path.strip_prefix(root).unwrap_or(path))
            ));
        }
        match kind_beneath(root, &rel, within)
            .map_err(|e| e.to_string())?
            .1
        {
            Kind::File => {}
            Kind::Folder => {
                let entries = std::fs::read_dir(root.join(&rel))
                    .map_err(|e| format!("cannot read {}: {e}", shown(&rel)))?;
                stack.extend(
                    entries
                        .filter_map(|e| e.ok())
                        .map(|e| rel.join(e.file_name())),
                );
            }
            Kind::Other(kind) => {
                return Err(format!("{}: not a regular file ({kind})", shown(&rel)));
            }
        }
    }
    Ok(())
}

fn fstat(fd: RawFd) -> std::io::Result<libc::stat> {
    // SAFETY: an all-zero `stat` is a valid value of this plain C struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `fd` is open for the call; `st` is a valid place for the kernel to write.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(st)
}

fn kind_of(fd: RawFd) -> std::io::Result<Kind> {
    Ok(kind_of_mode(fstat(fd)?.st_mode))
}

fn kind_of_mode(mode: libc::mode_t) -> Kind {
    match mode & libc::S_IFMT {
        libc::S_IFREG => Kind::File,
        libc::S_IFDIR => Kind::Folder,
        libc::S_IFIFO => Kind::Other("a FIFO"),
        libc::S_IFSOCK => Kind::Other("a socket"),
        libc::S_IFCHR => Kind::Other("a character device"),
        libc::S_IFBLK => Kind::Other("a block device"),
        libc::S_IFLNK => Kind::Other("a symbolic link"),
        _ => Kind::Other("of an unknown kind"),
    }
}

fn cstring(bytes: &[u8]) -> Result<CString, Why> {
    CString::new(bytes).map_err(|_| Why::Io(std::io::ErrorKind::InvalidInput.into()))
}

/// Opens `rel` under `root` with `flags` (plus close-on-exec), never leaving `root`.
fn resolve(root: &Path, rel: &Path, flags: libc::c_int) -> Result<OwnedFd, Why> {
    if rel.is_absolute() {
        return Err(Why::Outside);
    }
    let root_fd = open_root(root)?;
    let rel_c = cstring(rel.as_os_str().as_bytes())?;
    let path = if rel.as_os_str().is_empty() {
        c".".to_owned()
    } else {
        rel_c
    };
    for _ in 0..8 {
        match openat2(root_fd.as_raw_fd(), &path, flags) {
            Ok(fd) => return Ok(fd),
            // A rename raced with a `..` walk: the kernel asks to try again.
            Err(e) if e.raw_os_error() == Some(libc::EAGAIN) => continue,
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) => {
                return walk(&root_fd, rel, flags)
            }
            Err(e) => return Err(why(e)),
        }
    }
    walk(&root_fd, rel, flags)
}

fn why(e: std::io::Error) -> Why {
    match e.raw_os_error() {
        Some(libc::ENOENT) => Why::Missing,
        // EXDEV: the walk would leave the root; ELOOP: a magic link (or a loop).
        Some(libc::EXDEV | libc::ELOOP) => Why::Outside,
        _ => Why::Io(e),
    }
}

fn open_root(root: &Path) -> Result<OwnedFd, Why> {
    // The parent of a bare name (`data`) is the empty path: the current folder.
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let c = cstring(root.as_os_str().as_bytes())?;
    // SAFETY: a valid NUL-terminated path that outlives the call.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return Err(if e.raw_os_error() == Some(libc::ENOENT) {
            Why::Missing
        } else {
            Why::Io(e)
        });
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn openat2(dir: RawFd, path: &CString, flags: libc::c_int) -> std::io::Result<OwnedFd> {
    // SAFETY: an all-zero `open_how` is valid (no flags); the fields are set below.
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (flags | libc::O_CLOEXEC) as u64;
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS;
    // SAFETY: `path` is NUL-terminated and `how` a valid struct of the size given; both
    // outlive the call; `dir` is an open folder.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir,
            path.as_ptr(),
            &how as *const libc::open_how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the kernel returned a new file descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

fn openat(dir: RawFd, name: &[u8], flags: libc::c_int) -> Result<OwnedFd, Why> {
    let c = cstring(name)?;
    // SAFETY: a valid NUL-terminated name that outlives the call; `dir` is open.
    let fd = unsafe { libc::openat(dir, c.as_ptr(), flags | libc::O_CLOEXEC | libc::O_NOFOLLOW) };
    if fd < 0 {
        return Err(why(std::io::Error::last_os_error()));
    }
    // SAFETY: the kernel returned a new file descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn readlinkat(dir: RawFd, name: &[u8]) -> Result<Vec<u8>, Why> {
    let c = cstring(name)?;
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: `buf` has room for the length given; `c` is NUL-terminated; `dir` is open.
    let n = unsafe { libc::readlinkat(dir, c.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return Err(why(std::io::Error::last_os_error()));
    }
    buf.truncate(n as usize);
    Ok(buf)
}

/// The component-by-component walk where `openat2` is missing: each name opened with
/// `O_NOFOLLOW`, links read and followed by hand, `..` taken back along the folders walked
/// (never above the root), absolute links refused.
pub(super) fn walk(root: &OwnedFd, rel: &Path, flags: libc::c_int) -> Result<OwnedFd, Why> {
    let mut pending: Vec<Vec<u8>> = components(rel.as_os_str().as_bytes());
    pending.reverse();
    let mut folders: Vec<OwnedFd> = Vec::new();
    let mut links = 0;
    while let Some(name) = pending.pop() {
        let dir = folders.last().unwrap_or(root).as_raw_fd();
        if name == b".." {
            folders.pop().ok_or(Why::Outside)?;
            continue;
        }
        let fd = openat(dir, &name, libc::O_PATH)?;
        let st = fstat(fd.as_raw_fd()).map_err(Why::Io)?;
        if st.st_mode & libc::S_IFMT == libc::S_IFLNK {
            links += 1;
            let target = readlinkat(dir, &name)?;
            if links > MAX_LINKS || target.starts_with(b"/") {
                return Err(Why::Outside);
            }
            pending.extend(components(&target).into_iter().rev());
            continue;
        }
        if pending.is_empty() {
            return openat(dir, &name, flags);
        }
        if st.st_mode & libc::S_IFMT != libc::S_IFDIR {
            return Err(Why::Io(std::io::Error::from_raw_os_error(libc::ENOTDIR)));
        }
        folders.push(fd);
    }
    // The path named a folder (empty, or ending in `..`).
    openat(folders.last().unwrap_or(root).as_raw_fd(), b".", flags)
}

/// The names of a path, without empty and `.` ones.
fn components(path: &[u8]) -> Vec<Vec<u8>> {
    Path::new(OsStr::from_bytes(path))
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.as_bytes().to_vec()),
            Component::ParentDir => Some(b"..".to_vec()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
