//! The process-wide interruption flag: SIGINT and SIGTERM ask `judge` to stop.
//!
//! [`install`] blocks SIGINT and SIGTERM in the calling thread (and so in every thread started
//! after it) and starts one thread that waits for them with `sigwait` and stores the signal
//! number in an atomic. No signal handler runs anywhere, so no system call of a working thread
//! is ever interrupted (`EINTR`), and children never inherit a handler: the sandbox and
//! `std::process::Command` give their children an empty signal mask. Long-running stages poll
//! [`requested`] (or [`check`]) and stop: compilers are killed with their process group, the
//! sandbox ends the running program, runners stop starting tests, and the commands print what
//! they have so far and exit with 128 + the signal number (130 for SIGINT, 143 for SIGTERM).
//! Everything unwinds normally, so temporary folders (`tempfile::TempDir`) are removed on the
//! way out.
//!
//! A second signal at least [`INSIST_AFTER`] after the first exits at once (status 128 +
//! signal), for a user who does not want to wait for the clean-up. Copies of one signal that
//! arrive together (`timeout` sends it to the process and to its group) count as one.

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// The first signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// A second signal this long after the first exits at once.
pub const INSIST_AFTER: Duration = Duration::from_millis(300);

/// The signals that interrupt `judge`.
pub const SIGNALS: [i32; 2] = [libc::SIGINT, libc::SIGTERM];

/// The harness stopped because it was asked to (not a failure of the harness or the
/// contestant). Carried in error chains so commands can tell it apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted by {}", signal_name(*signal))]
pub struct Interrupted {
    /// The signal number (SIGINT or SIGTERM).
    pub signal: i32,
}

impl Interrupted {
    /// The conventional exit status of a process stopped by this signal: 128 + its number.
    pub fn exit_code(self) -> i32 {
        exit_code(self.signal)
    }
}

/// 128 + `signal`: 130 for SIGINT, 143 for SIGTERM.
pub fn exit_code(signal: i32) -> i32 {
    128 + signal
}

/// `SIGINT`, `SIGTERM`, or `signal N`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}

/// The set of [`SIGNALS`].
fn signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set before sigaddset adds valid signal numbers.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks SIGINT and SIGTERM and starts the thread that receives them. Call it once, first
/// thing, before any other thread is started (threads inherit the mask of their creator; a
/// thread started earlier could still receive a signal, with the default action: the process
/// ends).
pub fn install() -> std::io::Result<()> {
    let set = signal_set();
    // SAFETY: `set` is a valid, initialised signal set; the old mask is not needed.
    let r = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if r != 0 {
        return Err(std::io::Error::from_raw_os_error(r));
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first: Option<Instant> = None;
            loop {
                let mut signal: libc::c_int = 0;
                // SAFETY: `set` is valid and blocked in this thread (inherited); `signal` is a
                // valid out-pointer.
                if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
                    continue;
                }
                match first {
                    None => {
                        first = Some(Instant::now());
                        SIGNAL.store(signal, Ordering::SeqCst);
                    }
                    Some(at) if at.elapsed() >= INSIST_AFTER => {
                        // The user insists: leave at once, without cleaning up.
                        // SAFETY: _exit never returns and touches no Rust state.
                        unsafe { libc::_exit(exit_code(signal)) };
                    }
                    Some(_) => {}
                }
            }
        })?;
    Ok(())
}

/// The signal that asked `judge` to stop, if any.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// `Err(Interrupted)` once a stop was requested: `interrupt::check()?` between steps.
pub fn check() -> Result<(), Interrupted> {
    match requested() {
        Some(signal) => Err(Interrupted { signal }),
        None => Ok(()),
    }
}

/// The interruption in an error chain, if the error is one (or is caused by one).
pub fn in_chain(e: &anyhow::Error) -> Option<Interrupted> {
    e.chain()
        .find_map(|c| c.downcast_ref::<Interrupted>().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_names() {
        assert_eq!(exit_code(libc::SIGINT), 130);
        assert_eq!(exit_code(libc::SIGTERM), 143);
        let e = Interrupted {
            signal: libc::SIGTERM,
        };
        assert_eq!(e.to_string(), "interrupted by SIGTERM");
        let chained = anyhow::Error::new(e).context("cannot compile a.cpp");
        assert_eq!(in_chain(&chained), Some(e));
        assert_eq!(in_chain(&anyhow::anyhow!("other")), None);
    }

    #[test]
    fn install_blocks_both_signals_in_later_threads() {
        // Threads started after `install` (workers, the sandbox's) never receive the signals:
        // only the waiting thread does, so no system call of theirs sees EINTR.
        install().unwrap();
        let blocked = std::thread::spawn(|| {
            // SAFETY: query only; `mask` is a valid out-pointer.
            let mask = unsafe {
                let mut mask: libc::sigset_t = std::mem::zeroed();
                libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask);
                mask
            };
            // SAFETY: `mask` was filled in above.
            SIGNALS.map(|s| unsafe { libc::sigismember(&mask, s) } == 1)
        })
        .join()
        .unwrap();
        assert_eq!(blocked, [true, true]);
        assert_eq!(requested(), None);
    }
}
