//! The harness between the two programs of an interactive run: it copies the validator's
//! output to the submission's input and the submission's output to the validator's input,
//! and closes each input only after the other side's output ended.
//!
//! That makes the order of the two ends causal rather than a race between wake-ups: a
//! validator can see the submission's end only through the EOF this relay delivers, so a
//! validator whose output ends before the relay closed its input ended on its own (it was
//! first, whatever the submission did meanwhile); one that ends after that may have reacted
//! to the submission's end (the submission was first). No timing or thread scheduling enters
//! the decision, so a loaded machine cannot swap it.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How much one direction holds for a reader that does not read, before it stops reading
/// from the writer (who then blocks, as on a plain pipe).
const BUFFER_CAP: usize = 1 << 20;
/// How long the relay goes on after both runs returned (their pipes normally end at once).
const AFTER_DONE: Duration = Duration::from_millis(500);

/// One direction: bytes read from `from` wait in `buf` until `to` takes them.
struct Flow {
    from: OwnedFd,
    from_ended: bool,
    /// `None` once closed (after `from` ended and `buf` was delivered) or once its reader
    /// went away (then what arrives is read and dropped, so the writer never blocks).
    to: Option<OwnedFd>,
    buf: Vec<u8>,
}

impl Flow {
    fn new(from: OwnedFd, to: OwnedFd) -> io::Result<Flow> {
        set_nonblocking(&from)?;
        set_nonblocking(&to)?;
        Ok(Flow {
            from,
            from_ended: false,
            to: Some(to),
            buf: Vec::new(),
        })
    }

    fn wants_input(&self) -> bool {
        !self.from_ended && self.buf.len() < BUFFER_CAP
    }

    /// Reads what is there; notes the end of `from`.
    fn read(&mut self) {
        let mut chunk = [0u8; 65536];
        while self.wants_input() {
            // SAFETY: reading into a stack buffer of the given size from an fd we own.
            let n = unsafe {
                libc::read(
                    self.from.as_raw_fd(),
                    chunk.as_mut_ptr().cast(),
                    chunk.len(),
                )
            };
            match n {
                0 => self.from_ended = true,
                n if n > 0 => {
                    if self.to.is_some() {
                        self.buf.extend_from_slice(&chunk[..n as usize]);
                    }
                }
                _ => match io::Error::last_os_error().raw_os_error() {
                    Some(libc::EINTR) => {}
                    // EAGAIN: nothing more for now. Anything else: treat as the end.
                    Some(libc::EAGAIN) => return,
                    _ => self.from_ended = true,
                },
            }
        }
    }

    /// Delivers what it can; closes `to` once `from` ended and everything was delivered.
    /// Returns true when it closed `to` now.
    fn write(&mut self) -> bool {
        while let (Some(to), false) = (&self.to, self.buf.is_empty()) {
            // SAFETY: writing from a live buffer of the given length to an fd we own.
            let n =
                unsafe { libc::write(to.as_raw_fd(), self.buf.as_ptr().cast(), self.buf.len()) };
            if n >= 0 {
                self.buf.drain(..n as usize);
                continue;
            }
            match io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => {}
                Some(libc::EAGAIN) => return false,
                // EPIPE: the reader is gone; drop what it will never read.
                _ => {
                    self.to = None;
                    self.buf.clear();
                }
            }
        }
        if self.from_ended && self.buf.is_empty() && self.to.is_some() {
            self.to = None;
            return true;
        }
        false
    }
}

fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL on an fd we own; no pointers involved.
    let r = unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 {
            -1
        } else {
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK)
        }
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The harness's ends of the four pipes.
pub struct Ends {
    /// The validator's stdout (read) and the submission's stdin (write).
    pub validator_out: OwnedFd,
    pub submission_in: OwnedFd,
    /// The submission's stdout (read) and the validator's stdin (write).
    pub submission_out: OwnedFd,
    pub validator_in: OwnedFd,
}

/// Relays until both outputs ended (or shortly after `done` is set). Sets `validator_first`
/// as soon as it is known whether the validator ended first: `true` if its output ended
/// before the relay closed its input, `false` if after; left unset if its end was not seen.
pub fn relay(ends: Ends, done: &AtomicBool, validator_first: &OnceLock<bool>) -> io::Result<()> {
    let mut to_submission = Flow::new(ends.validator_out, ends.submission_in)?;
    let mut to_validator = Flow::new(ends.submission_out, ends.validator_in)?;
    let mut validator_in_closed = false;
    let mut done_at: Option<Instant> = None;
    loop {
        // The validator's end first: if both ended in one wake-up, the validator's input was
        // still open, so it did not react to the submission's end.
        to_submission.read();
        if to_submission.from_ended {
            // Only the first call sets it.
            let _ = validator_first.set(!validator_in_closed);
        }
        to_validator.read();
        to_submission.write();
        if to_validator.write() {
            validator_in_closed = true;
        }
        if to_submission.from_ended && to_validator.from_ended {
            break;
        }
        if done.load(Ordering::SeqCst) {
            let at = *done_at.get_or_insert_with(Instant::now);
            if at.elapsed() > AFTER_DONE {
                break;
            }
        }
        let flows = [&to_submission, &to_validator];
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 4];
        for (i, f) in flows.iter().enumerate() {
            if f.wants_input() {
                fds[2 * i].fd = f.from.as_raw_fd();
                fds[2 * i].events = libc::POLLIN;
            }
            if let (Some(to), false) = (&f.to, f.buf.is_empty()) {
                fds[2 * i + 1].fd = to.as_raw_fd();
                fds[2 * i + 1].events = libc::POLLOUT;
            }
        }
        // SAFETY: four valid pollfds (negative fds are ignored) whose fds outlive the call.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 4, 20) };
        if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    struct Sides {
        ends: Ends,
        validator_out: std::io::PipeWriter,
        validator_in: std::io::PipeReader,
        submission_out: std::io::PipeWriter,
        submission_in: std::io::PipeReader,
    }

    fn sides() -> Sides {
        let (vo_r, vo_w) = std::io::pipe().unwrap();
        let (si_r, si_w) = std::io::pipe().unwrap();
        let (so_r, so_w) = std::io::pipe().unwrap();
        let (vi_r, vi_w) = std::io::pipe().unwrap();
        Sides {
            ends: Ends {
                validator_out: vo_r.into(),
                submission_in: si_w.into(),
                submission_out: so_r.into(),
                validator_in: vi_w.into(),
            },
            validator_out: vo_w,
            validator_in: vi_r,
            submission_out: so_w,
            submission_in: si_r,
        }
    }

    #[test]
    fn a_validator_that_ends_on_its_own_is_first_even_if_both_end_together() {
        let mut s = sides();
        s.validator_out.write_all(b"lower\n").unwrap();
        s.submission_out.write_all(b"500\n").unwrap();
        // Both end before the relay even starts: one wake-up sees both ends.
        drop(s.validator_out);
        drop(s.submission_out);
        let done = AtomicBool::new(false);
        let first = OnceLock::new();
        relay(s.ends, &done, &first).unwrap();
        assert_eq!(first.get(), Some(&true));
        let mut got = String::new();
        s.submission_in.read_to_string(&mut got).unwrap();
        assert_eq!(got, "lower\n");
        let mut got = String::new();
        s.validator_in.read_to_string(&mut got).unwrap();
        assert_eq!(got, "500\n");
    }

    #[test]
    fn a_validator_that_ends_after_the_submission_ended_was_second() {
        let s = sides();
        let done = AtomicBool::new(false);
        let first = OnceLock::new();
        let Sides {
            ends,
            validator_out,
            mut validator_in,
            submission_out,
            submission_in: _submission_in,
        } = s;
        std::thread::scope(|sc| {
            let r = sc.spawn(|| relay(ends, &done, &first));
            drop(submission_out);
            // The validator sees the EOF the relay delivers, then ends.
            let mut rest = Vec::new();
            validator_in.read_to_end(&mut rest).unwrap();
            drop(validator_out);
            r.join().unwrap().unwrap();
            assert_eq!(first.get(), Some(&false));
        });
    }
}
