//! Interactive problems: the submission and the package's validator run at the same time,
//! each in its own sandbox run, connected by two pipes (validator stdout → submission stdin,
//! submission stdout → validator stdin). The harness keeps no pipe end, so when one side
//! exits the other sees EOF (or SIGPIPE) and ends too; a submission that forgets to flush
//! blocks both until the submission's wall-clock limit stops it (TLE).
//!
//! The verdict order is problemtools': the validator crashed or broke its protocol → JE; the
//! validator exited first with WA → WA; else the submission's TLE, then its crash, then the
//! validator's verdict (see `grade`).
//!
//! Who ended first is seen exactly, not from when the sandbox runs return (their clean-up
//! takes a while): the harness keeps a duplicate of each pipe's *read* end (which does not
//! delay anyone's EOF) and one watcher thread polls both, noting when each one's last writer
//! is gone.
//! One consequence: a submission writing to a validator that has exited gets no SIGPIPE; it
//! ends on the EOF of its stdin or on its limits.

use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::data::TestArgs;
use super::problem::RunDir;
use super::KattisPackage;
use crate::problems::{Interaction, JuryError};
use crate::sandbox::{HandOver, RunRequest, Sandbox, SandboxError, Stdin, Stdout, Termination};
use crate::testset::TestCase;

fn setup(e: JuryError) -> SandboxError {
    SandboxError::Setup(e.0)
}

/// Runs the submission `request` against the package's validator on `test`.
pub fn run(
    pkg: &KattisPackage,
    sandbox: &dyn Sandbox,
    mut request: RunRequest,
    test: &TestCase,
    args: &TestArgs,
) -> Result<Interaction, SandboxError> {
    let Some(validator) = &pkg.output_validator else {
        return Err(SandboxError::Setup(format!(
            "{}: an interactive problem needs an output validator",
            pkg.name
        )));
    };
    let built = pkg.jury.build(validator).map_err(setup)?;
    let jury_sandbox = pkg.jury.sandbox().map_err(setup)?;
    let dir = RunDir::new().map_err(setup)?;
    let input = dir.put("input", test.input.as_bytes()).map_err(setup)?;
    let answer = dir.put("answer", test.answer.as_bytes()).map_err(setup)?;
    let mut flags = vec![
        input.display().to_string(),
        answer.display().to_string(),
        dir.feedback_arg(),
    ];
    flags.extend(pkg.config.validator_flags.iter().cloned());
    flags.extend(args.output_validator.iter().cloned());

    let (to_submission_r, to_submission_w) = std::io::pipe()?;
    let (from_submission_r, from_submission_w) = std::io::pipe()?;
    // Their writers are the validator and the submission: a hang-up marks each one's end.
    let validator_out = to_submission_r.try_clone()?;
    let submission_out = from_submission_r.try_clone()?;
    request.stdin = Stdin::Pipe(HandOver::new(to_submission_r));
    request.stdout = Stdout::Pipe(HandOver::new(from_submission_w));
    let mut limits = pkg.validation_limits();
    // Waiting for the submission is not the validator's time: its wall clock runs until the
    // submission's limit, plus its own CPU allowance.
    limits.wall_time = request.limits.wall_time + limits.cpu_time;
    let jury_request = pkg.jury.request(
        &built,
        &flags,
        Stdin::Pipe(HandOver::new(from_submission_r)),
        Stdout::Pipe(HandOver::new(to_submission_w)),
        &dir.feedback,
        std::slice::from_ref(&dir.files),
        &limits,
    );

    let done = AtomicBool::new(false);
    let (jury, submission, ends) = std::thread::scope(|s| {
        let hangups =
            s.spawn(|| watch_hangups([validator_out.as_fd(), submission_out.as_fd()], &done));
        let jury = s.spawn(|| {
            let started = Instant::now();
            let r = jury_sandbox.run(&jury_request);
            // Drop the request (and any pipe end a failed run did not take) right away.
            drop(jury_request);
            let end = r.as_ref().map(|o| started + o.wall_time).unwrap_or(started);
            (r, end)
        });
        let started = Instant::now();
        let r = sandbox.run(&request);
        drop(request);
        let submission_end = r.as_ref().map(|o| started + o.wall_time).unwrap_or(started);
        let jury = jury.join();
        done.store(true, Ordering::SeqCst);
        let ends = hangups.join().unwrap_or([None, None]);
        (jury, (r, submission_end), ends)
    });
    let (jury, jury_end) =
        jury.map_err(|_| SandboxError::Setup("the validator thread panicked".into()))?;
    let jury =
        jury.map_err(|e| SandboxError::Setup(format!("cannot run {}: {e}", validator.display)))?;
    let (submission, submission_end) = submission;
    let outcome = submission?;
    let submission_failed =
        outcome.limit_hit.is_some() || outcome.termination != Termination::Exited(0);
    let jury_first = match ends {
        // Both hang-ups come from one poll, so their order is the kernel's, whatever the load.
        [Some(v), Some(s)] if v != s => v < s,
        // Both seen by the same wake-up (or one not seen): a submission that failed (a limit, a
        // crash) ended first, the validator only reacted to its EOF; otherwise each run's start
        // plus its measured wall time, which is off only by the runs' set-up times.
        _ if submission_failed => false,
        _ => jury_end < submission_end,
    };
    Ok(Interaction {
        outcome,
        judgement: pkg.judgement(validator, &jury, &limits, &dir.feedback),
        jury_first,
    })
}

/// When the last writer of each pipe read by `fds` went away. One thread polls both, so a
/// hang-up seen in an earlier wake-up really came first (two watcher threads could wake in
/// either order on a loaded machine); hang-ups seen by the same wake-up get the same instant.
/// `None` for one not seen shortly after `done` was set.
fn watch_hangups(fds: [BorrowedFd; 2], done: &AtomicBool) -> [Option<Instant>; 2] {
    let mut ends = [None, None];
    let mut rounds_after_done = 0;
    while ends.iter().any(Option::is_none) {
        // Events 0: only hang-ups and errors, which poll always reports (data waiting in a
        // pipe must not wake us: nobody here reads it). A pipe already seen is left out (fd -1).
        let mut p = [0, 1].map(|i| libc::pollfd {
            fd: if ends[i].is_none() {
                fds[i].as_raw_fd()
            } else {
                -1
            },
            events: 0,
            revents: 0,
        });
        // SAFETY: two valid pollfds (a negative fd is ignored) whose fds outlive this call.
        let r = unsafe { libc::poll(p.as_mut_ptr(), 2, 20) };
        if r > 0 {
            let now = Instant::now();
            for i in 0..2 {
                if p[i].revents & (libc::POLLHUP | libc::POLLERR) != 0 {
                    ends[i] = Some(now);
                }
            }
        }
        if done.load(Ordering::SeqCst) {
            rounds_after_done += 1;
            if rounds_after_done > 25 {
                break;
            }
        }
    }
    ends
}
