//! The process-wide interruption flag: SIGINT and SIGTERM ask `judge` to stop.
//!
//! [`install`] replaces the default dispositions of SIGINT and SIGTERM by a handler that only
//! stores the signal number in an atomic. Long-running stages poll [`requested`] (or
//! [`check`]) and stop: compilers are killed with their process group, the sandbox kills the
//! running program, runners stop starting tests, and the commands print what they have so far
//! and exit with 128 + the signal number (130 for SIGINT, 143 for SIGTERM). Everything unwinds
//! normally, so temporary folders (`tempfile::TempDir`) are removed on the way out.
//!
//! A second signal at least [`INSIST_AFTER`] after the first exits at once (status 128 +
//! signal), for a user who does not want to wait for the clean-up. Copies of one signal that
//! arrive together (`timeout` sends it to the process and to its group) count as one.

use std::sync::atomic::{AtomicI32, AtomicI64, Ordering};

/// The first signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The pid of the process that installed the handler. A clone of the harness that has not yet
/// blocked its signals (the sandbox's `clone(CLONE_VM)` children) must not act on a signal.
static OWNER: AtomicI32 = AtomicI32::new(0);

/// When the first signal arrived (CLOCK_MONOTONIC, milliseconds).
static FIRST_MS: AtomicI64 = AtomicI64::new(0);
/// A second signal this long after the first exits at once.
pub const INSIST_AFTER: std::time::Duration = std::time::Duration::from_millis(300);

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

extern "C" fn on_signal(signal: libc::c_int) {
    // Only async-signal-safe work here: getpid, atomics, _exit.
    // SAFETY: getpid has no preconditions.
    if unsafe { libc::getpid() } != OWNER.load(Ordering::SeqCst) {
        return;
    }
    let now = monotonic_ms();
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        FIRST_MS.store(now, Ordering::SeqCst);
    } else if now - FIRST_MS.load(Ordering::SeqCst) >= INSIST_AFTER.as_millis() as i64 {
        // A second signal: the user insists. Leave at once.
        // SAFETY: _exit is async-signal-safe and never returns.
        unsafe { libc::_exit(exit_code(signal)) };
    }
}

/// CLOCK_MONOTONIC in milliseconds (async-signal-safe).
fn monotonic_ms() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime is async-signal-safe and writes only to `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}

/// Installs the SIGINT and SIGTERM handlers. Call it once, first thing, before the sandbox is
/// created (the sandbox resets every non-default disposition in its children, from a list
/// taken when it is created). Idempotent.
pub fn install() -> std::io::Result<()> {
    // SAFETY: getpid has no preconditions.
    OWNER.store(unsafe { libc::getpid() }, Ordering::SeqCst);
    for signal in SIGNALS {
        // SAFETY: `action` is fully initialised (zeroed, then the handler, flags and an empty
        // mask); the handler is an `extern "C" fn(c_int)` that only does async-signal-safe work.
        let r = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // SA_RESTART: system calls of threads that are not polling the flag continue.
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if r != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
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
    fn installed_handlers_are_not_default_dispositions() {
        // The sandbox resets, in its children, the dispositions that differ from the default
        // when it is created (`spawn::non_default_signals`, the same query): after `install`
        // both signals must be among them.
        install().unwrap();
        for s in SIGNALS {
            // SAFETY: query only (new action NULL); `old` is a valid out-pointer.
            let handler = unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                assert_eq!(libc::sigaction(s, std::ptr::null(), &mut old), 0);
                old.sa_sigaction
            };
            assert_ne!(handler, libc::SIG_DFL, "signal {s}");
        }
        assert_eq!(requested(), None);
    }
}
