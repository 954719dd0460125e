//! Interactive problems: the submission and the package's validator run at the same time,
//! each in its own sandbox run, connected through the harness's relay (validator stdout →
//! submission stdin, submission stdout → validator stdin; see [`relay`]). When one side's
//! output ends, the relay delivers what it sent and closes the other side's input, so that
//! side sees EOF and ends too; a submission that forgets to flush blocks both until the
//! submission's wall-clock limit stops it (TLE).
//!
//! The verdict order is problemtools': the validator crashed or broke its protocol → JE; the
//! validator exited first with WA → WA; else the submission's TLE, then its crash, then the
//! validator's verdict (see `grade`).
//!
//! Who ended first comes from causality, not from timing: the validator can only learn of the
//! submission's end through the EOF the relay delivers, so a validator whose output ended
//! before that ended first. One consequence: a submission writing to a validator that has
//! exited gets no SIGPIPE (the relay drops what it writes). A validator that rejected first
//! decides the verdict (WA) whatever the submission does next, so the submission is then
//! stopped at once rather than left to run to its limits; after a validator that accepted
//! first, it ends on the EOF of its stdin or on its limits (it may still crash or time out).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::data::TestArgs;
use super::problem::RunDir;
use super::{relay, KattisPackage};
use crate::problems::{Interaction, Judgement, JuryError, TestCase};
use crate::sandbox::{
    Companion, Companions, HandOver, RunRequest, Sandbox, SandboxError, Stdin, Stdout, StopHandle,
    Termination,
};

/// How long, after the validator exited, the relay may take to see its output's end (and so
/// whether it ended first). Normally a wake-up; past this the submission is not stopped.
const FIRST_SEEN_WAIT: Duration = Duration::from_millis(200);

fn setup(e: JuryError) -> SandboxError {
    SandboxError::Setup(e.0)
}

/// Runs the submission `request` against the package's validator on `test`.
pub fn run(
    pkg: &KattisPackage,
    sandbox: &dyn Sandbox,
    request: RunRequest,
    test: &TestCase,
    args: &TestArgs,
) -> Result<Interaction, SandboxError> {
    let dir = RunDir::new().map_err(setup)?;
    run_in(
        pkg,
        sandbox,
        request,
        test.input.as_bytes(),
        &test.answer,
        args,
        &dir,
    )
}

/// [`run`] on `input` (a multi-pass problem's pass), with `dir`'s feedback folder (kept
/// across the passes of one test).
pub(super) fn run_in(
    pkg: &KattisPackage,
    sandbox: &dyn Sandbox,
    mut request: RunRequest,
    input: &[u8],
    answer: &str,
    args: &TestArgs,
    dir: &RunDir,
) -> Result<Interaction, SandboxError> {
    let Some(validator) = &pkg.output_validator else {
        return Err(SandboxError::Setup(format!(
            "{}: an interactive problem needs an output validator",
            pkg.name
        )));
    };
    let built = pkg.jury.build(validator).map_err(setup)?;
    let jury_sandbox = pkg.jury.sandbox().map_err(setup)?;
    let input = dir.put("input", input).map_err(setup)?;
    let answer = dir.put("answer", answer.as_bytes()).map_err(setup)?;
    let mut flags = vec![
        input.display().to_string(),
        answer.display().to_string(),
        dir.feedback_arg(),
    ];
    flags.extend(pkg.config.validator_flags.iter().cloned());
    flags.extend(args.output_validator.iter().cloned());

    // Four pipes through the relay: validator stdout → relay → submission stdin, and
    // submission stdout → relay → validator stdin.
    let (submission_in_r, submission_in_w) = std::io::pipe()?;
    let (submission_out_r, submission_out_w) = std::io::pipe()?;
    let (validator_in_r, validator_in_w) = std::io::pipe()?;
    let (validator_out_r, validator_out_w) = std::io::pipe()?;
    request.stdin = Stdin::Pipe(HandOver::new(submission_in_r));
    request.stdout = Stdout::Pipe(HandOver::new(submission_out_w));
    let stop = StopHandle::new();
    request.stop = Some(stop.clone());
    let mut limits = pkg.validation_limits();
    // Waiting for the submission is not the validator's time: its wall clock runs until the
    // submission's limit, plus its own CPU allowance.
    limits.wall_time = request.limits.wall_time + limits.cpu_time;
    let mut jury_request = pkg.jury.request(
        &built,
        &flags,
        Stdin::Pipe(HandOver::new(validator_in_r)),
        Stdout::Pipe(HandOver::new(validator_out_w)),
        &dir.feedback,
        std::slice::from_ref(&dir.files),
        &limits,
    );
    // What the submission waits on: the relay thread, the thread supervising the validator,
    // and the validator's run. Their waits for a CPU are the machine's, not the submission's.
    let companions = Companions::new(3);
    jury_request.companions = Some(Companion::Is(companions.clone()));
    request.companions = Some(Companion::WaitsOn(companions.clone()));
    let ends = relay::Ends {
        validator_out: validator_out_r.into(),
        submission_in: submission_in_w.into(),
        submission_out: submission_out_r.into(),
        validator_in: validator_in_w.into(),
    };

    let done = AtomicBool::new(false);
    let first = OnceLock::new();
    let (jury, submission, order) = std::thread::scope(|s| {
        let relayed = s.spawn(|| {
            companions.register_thread();
            relay::relay(ends, &done, &first)
        });
        let jury = s.spawn(|| {
            companions.register_thread();
            let started = Instant::now();
            let r = jury_sandbox.run(&jury_request);
            // Drop the request (and any pipe end a failed run did not take) right away.
            drop(jury_request);
            let end = r.as_ref().map(|o| started + o.wall_time).unwrap_or(started);
            if let Ok(outcome) = &r {
                let rejected = matches!(
                    pkg.judgement(validator, outcome, &limits, &dir.feedback),
                    Judgement::Rejected(_)
                );
                if rejected && ended_first(&first) {
                    stop.stop();
                }
            }
            (r, end)
        });
        let started = Instant::now();
        let r = sandbox.run(&request);
        drop(request);
        let submission_end = r.as_ref().map(|o| started + o.wall_time).unwrap_or(started);
        let jury = jury.join();
        done.store(true, Ordering::SeqCst);
        let order = relayed.join();
        (jury, (r, submission_end), order)
    });
    let (jury, jury_end) =
        jury.map_err(|_| SandboxError::Setup("the validator thread panicked".into()))?;
    let jury =
        jury.map_err(|e| SandboxError::Setup(format!("cannot run {}: {e}", validator.display)))?;
    let (submission, submission_end) = submission;
    let outcome = submission?;
    order
        .map_err(|_| SandboxError::Setup("the relay thread panicked".into()))?
        .map_err(|e| SandboxError::Setup(format!("relaying the interaction: {e}")))?;
    let validator_first = first.get().copied();
    let submission_failed =
        outcome.limit_hit.is_some() || outcome.termination != Termination::Exited(0);
    let jury_first = match validator_first {
        Some(first) => first,
        // The validator's end not seen (its pipe outlived both runs): a submission that
        // failed (a limit, a crash) ended first; otherwise each run's start plus its measured
        // wall time.
        None if submission_failed => false,
        None => jury_end < submission_end,
    };
    let judgement = pkg.judgement(validator, &jury, &limits, &dir.feedback);
    // A scoring problem's validator may write score.txt here too (`validation: custom score
    // interactive`).
    let (judgement, score) = super::problem::scored(validator, judgement, &dir.feedback);
    Ok(Interaction {
        outcome,
        judgement,
        jury_first,
        score,
        next_pass: None,
    })
}

/// Whether the relay saw the validator's output end before the submission's (waiting a
/// little for it to see the end of a validator that just exited).
fn ended_first(first: &OnceLock<bool>) -> bool {
    let since = Instant::now();
    loop {
        if let Some(&first) = first.get() {
            return first;
        }
        if since.elapsed() > FIRST_SEEN_WAIT {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
