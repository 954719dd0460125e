//! A run's standard streams (stdin as a memfd, a file or a pipe; pipes for stdout and stderr)
//! and its working folder on the host.

use super::*;

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two fds.
    sys::cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: fresh fds we own.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: flag change on our own fd.
    unsafe { libc::fcntl(r.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    Ok((high_fd(r)?, high_fd(w)?))
}

fn handed_over_twice() -> std::io::Error {
    std::io::Error::other("the pipe was already handed to an earlier run")
}

fn stdin_fd(stdin: &Stdin) -> std::io::Result<OwnedFd> {
    let f = match stdin {
        Stdin::Pipe(fd) => return high_fd(fd.take().ok_or_else(handed_over_twice)?),
        Stdin::File(p) => File::open(p)?,
        Stdin::Null => File::open("/dev/null")?,
        Stdin::Bytes(b) => {
            // A memfd instead of a pipe: no writer thread, no SIGPIPE, seekable.
            // SAFETY: the name is a valid C string.
            let fd = sys::cvt(unsafe {
                libc::memfd_create(c"judge-stdin".as_ptr(), libc::MFD_CLOEXEC)
            })?;
            // SAFETY: fresh fd we own.
            let mut f = unsafe { File::from_raw_fd(fd) };
            f.write_all(b)?;
            f.rewind()?;
            f
        }
    };
    high_fd(OwnedFd::from(f))
}

/// The fds a run's program gets and the harness's ends of its pipes.
pub struct Io {
    pub stdin: OwnedFd,
    pub out_r: OwnedFd,
    pub out_w: OwnedFd,
    pub err_r: OwnedFd,
    pub err_w: OwnedFd,
}

impl Io {
    /// Once the program (or its parent in the box) holds its own copies: closes the harness's
    /// copies of the program's ends, so the pipes see EOF when the program ends, and returns
    /// the harness's read ends of stdout and stderr.
    pub fn into_readers(self) -> (OwnedFd, OwnedFd) {
        let Io {
            stdin,
            out_r,
            out_w,
            err_r,
            err_w,
        } = self;
        drop((out_w, err_w, stdin));
        (out_r, err_r)
    }
}

/// stdin, and pipes for stdout (or the caller's pipe) and stderr.
pub fn open_io(req: &RunRequest, program: &str) -> Result<Io, RunError> {
    let stdin =
        stdin_fd(&req.stdin).map_err(|e| spawn_err(program, format!("opening stdin: {e}")))?;
    let (out_r, out_w) = pipe()?;
    // A caller's pipe replaces the capture pipe, whose write end then closes at once.
    let out_w = match &req.stdout {
        Stdout::Capture => out_w,
        Stdout::Pipe(fd) => high_fd(
            fd.take()
                .ok_or_else(handed_over_twice)
                .map_err(|e| spawn_err(program, format!("stdout: {e}")))?,
        )?,
    };
    let (err_r, err_w) = pipe()?;
    Ok(Io {
        stdin,
        out_r,
        out_w,
        err_r,
        err_w,
    })
}

/// Without a file-system view, a private work dir (none in the request) is a fresh host
/// folder, removed when the returned guard drops, holding copies of the request's
/// `work_files`.
pub(in crate::sandbox::linux) fn private_work_dir(
    req: &RunRequest,
    has_view: bool,
) -> Result<Option<tempfile::TempDir>, RunError> {
    if req.work_dir.is_some() || has_view {
        return Ok(None);
    }
    let dir = tempfile::Builder::new().prefix("judge-run-").tempdir()?;
    for file in &req.work_files {
        let name = file.file_name().ok_or_else(|| {
            std::io::Error::other(format!("work file {}: not a file name", file.display()))
        })?;
        std::fs::copy(file, dir.path().join(name))?;
    }
    Ok(Some(dir))
}

/// The run's work dir on the host (the request's, else the private one), given to the slot's
/// uid when it has one.
pub(in crate::sandbox::linux) fn host_work_dir<'a>(
    req: &'a RunRequest,
    private_dir: &'a Option<tempfile::TempDir>,
    uid: Option<u32>,
    program: &str,
) -> Result<Option<&'a std::path::Path>, RunError> {
    let dir = req
        .work_dir
        .as_deref()
        .or(private_dir.as_ref().map(|d| d.path()));
    if let (Some(uid), Some(dir)) = (uid, dir) {
        give_dir(dir, uid, program)?;
    }
    Ok(dir)
}

/// Makes the host folder `dir` owned by `uid` (the slot's), so the program may write it.
pub fn give_dir(dir: &std::path::Path, uid: u32, program: &str) -> Result<(), RunError> {
    let wd = cstring(dir.as_os_str().as_bytes(), "work_dir", program)?;
    // SAFETY: valid C string.
    if unsafe { libc::chown(wd.as_ptr(), uid, uid) } != 0 {
        return Err(spawn_err(
            program,
            format!(
                "making work_dir {} writable for the sandbox: {}",
                dir.display(),
                std::io::Error::last_os_error()
            ),
        )
        .into());
    }
    Ok(())
}
