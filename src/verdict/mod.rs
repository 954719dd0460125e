//! Verdicts: what a run plus a checker judgement mean for the contestant.

pub mod expectation;
pub mod score;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::problems::Judgement;
use crate::sandbox::{LimitHit, Limits, RunOutcome, Termination};

/// The closed set of verdicts. A contestant failure is one of these, never an `Err`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer (the checker's reason is in the message).
    WA,
    /// Time limit exceeded (CPU time, or the wall-clock backstop).
    TLE,
    /// Memory limit exceeded.
    MLE,
    /// Run-time error: non-zero exit status or a signal.
    RE,
    /// Output limit exceeded.
    OLE,
    /// Compilation error.
    CE,
    /// Judge error: the checker, the reference or the sandbox failed. Never the contestant's fault.
    JE,
}

impl Verdict {
    /// The short code used in reports and JSON (`AC`, `WA`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::RE => "RE",
            Verdict::OLE => "OLE",
            Verdict::CE => "CE",
            Verdict::JE => "JE",
        }
    }

    /// The verdict for a `submissions/<folder>/` name (Kattis/ICPC folder names).
    pub fn from_folder(folder: &str) -> Option<Verdict> {
        Some(match folder {
            "accepted" => Verdict::AC,
            "wrong_answer" => Verdict::WA,
            "time_limit_exceeded" => Verdict::TLE,
            "memory_limit_exceeded" => Verdict::MLE,
            "run_time_error" => Verdict::RE,
            "output_limit_exceeded" => Verdict::OLE,
            "compile_error" => Verdict::CE,
            _ => return None,
        })
    }

    /// Parses a code such as `TLE` (case-insensitive).
    pub fn from_code(code: &str) -> Option<Verdict> {
        ALL.iter()
            .copied()
            .find(|v| v.code().eq_ignore_ascii_case(code))
    }
}

/// Every verdict, in display order.
pub const ALL: [Verdict; 8] = [
    Verdict::AC,
    Verdict::WA,
    Verdict::TLE,
    Verdict::MLE,
    Verdict::RE,
    Verdict::OLE,
    Verdict::CE,
    Verdict::JE,
];

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// The verdict for one run and a one-line message explaining it.
///
/// Limits are checked before the exit status (a program killed for a limit is TLE/MLE/OLE,
/// not RE), and the checker runs only on a clean exit. `check` receives the stdout.
/// `out_of_memory` lists stderr markers with which a runtime reports that it ran out of the
/// memory the limit gave it (`java.lang.OutOfMemoryError` with `-Xmx` = the limit): a failed
/// run whose stderr has one is an MLE, not an RE.
///
/// A fork refused at the process limit decides the verdict only where the sandbox stops the
/// run for it ([`LimitHit::Processes`], runs allowed several processes under a pids cgroup):
/// an RE that says so. Elsewhere (a run allowed one process, whose forks seccomp refuses;
/// no cgroups) nothing counts refusals and the program decides what to do about them.
pub fn decide(
    outcome: &RunOutcome,
    limits: &Limits,
    out_of_memory: &[String],
    check: impl FnOnce(&[u8]) -> Judgement,
) -> (Verdict, String) {
    decide_run(outcome, limits, out_of_memory, check)
}

/// `1 fork`, `3 forks`, `1 process/thread`, `64 processes/threads`.
fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let many = noun
        .split('/')
        .map(|w| {
            if w.ends_with('s') {
                format!("{w}es")
            } else {
                format!("{w}s")
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    format!("{n} {many}")
}

fn decide_run(
    outcome: &RunOutcome,
    limits: &Limits,
    out_of_memory: &[String],
    check: impl FnOnce(&[u8]) -> Judgement,
) -> (Verdict, String) {
    let secs = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    let over_cpu = outcome.cpu_time > limits.cpu_time;
    let over_mem = outcome.peak_memory_kib.saturating_mul(1024) > limits.memory_bytes;
    // SIGXCPU comes from the kernel's CPU-time backstop (the run's `RLIMIT_CPU`), the
    // harness's limit: a TLE, never a crash (the Linux sandbox says so in `limit_hit` too).
    let xcpu = outcome.termination == Termination::Signaled(libc::SIGXCPU);
    let limit_hit = outcome.limit_hit.or(xcpu.then_some(LimitHit::CpuTime));
    match limit_hit {
        Some(LimitHit::CpuTime) if xcpu && !over_cpu => {
            // Only the kernel's CPU-time backstop (SIGXCPU) stops a run under its limit: the
            // kernel counts CPU time in scheduler ticks, which run ahead on a busy or virtual
            // machine. Stopped by the harness's own limits, so never a crash.
            return (
                Verdict::TLE,
                format!(
                    "stopped by the kernel's CPU-time backstop (SIGXCPU) at {} of CPU time by \
                     judge's count, under the {} limit: the kernel counts in scheduler ticks, \
                     which run ahead on a busy or virtual machine ({})",
                    secs(outcome.cpu_time),
                    secs(limits.cpu_time),
                    time_breakdown(outcome)
                ),
            );
        }
        Some(LimitHit::CpuTime) => {
            return (
                Verdict::TLE,
                format!(
                    "CPU time over the {} limit ({})",
                    secs(limits.cpu_time),
                    time_breakdown(outcome)
                ),
            )
        }
        Some(LimitHit::WallTime) => {
            // The backstop counts the time not spent waiting for a CPU: running, sleeping or
            // blocked. A run stopped there that mostly ran (its CPU limit at the backstop, as
            // for a must-TLE jury submission at a raised limit) is not said to have slept.
            let not_running = outcome
                .wall_time
                .saturating_sub(outcome.cpu_time)
                .saturating_sub(outcome.cpu_wait.unwrap_or_default());
            let what = if outcome.cpu_time > not_running {
                "running"
            } else {
                "not running (sleeping or blocked)"
            };
            return (
                Verdict::TLE,
                format!(
                    "{what} for over the {} wall-time backstop ({})",
                    secs(limits.wall_time),
                    time_breakdown(outcome)
                ),
            );
        }
        Some(LimitHit::Disk) => {
            return (
                Verdict::OLE,
                format!(
                    "files written filled the {} disk quota (the output limit)",
                    human_bytes(limits.output_bytes.max(1 << 20))
                ),
            )
        }
        Some(LimitHit::Overloaded) => {
            let share = outcome.cpu_time.as_secs_f64() / outcome.wall_time.as_secs_f64().max(1e-9);
            return (
                Verdict::JE,
                format!(
                    "machine overloaded: the program got {:.0}% of a CPU ({})",
                    (share * 100.0).min(100.0),
                    time_breakdown(outcome)
                ),
            );
        }
        Some(LimitHit::Stopped) => {
            // Only stopped where another program's verdict already decides (see
            // `grade::run`); reaching here is the harness's mistake, not the program's.
            return (
                Verdict::JE,
                format!("stopped by the harness ({})", time_breakdown(outcome)),
            );
        }
        Some(LimitHit::Memory) => {
            return (
                Verdict::MLE,
                format!("memory over the {} MiB limit", limits.memory_bytes >> 20),
            )
        }
        Some(LimitHit::Processes) => {
            return (
                Verdict::RE,
                format!(
                    "stopped at its limit of {}: {} refused",
                    plural(u64::from(limits.processes), "process/thread"),
                    plural(outcome.forks_refused.max(1), "fork")
                ),
            );
        }
        Some(LimitHit::Output) => {
            return (
                Verdict::OLE,
                format!("output over the {} limit", human_bytes(limits.output_bytes)),
            )
        }
        None => {}
    }
    if over_cpu {
        return (
            Verdict::TLE,
            format!(
                "CPU time {} over the {} limit ({})",
                secs(outcome.cpu_time),
                secs(limits.cpu_time),
                time_breakdown(outcome)
            ),
        );
    }
    if over_mem {
        return (
            Verdict::MLE,
            format!(
                "peak memory {} MiB over the {} MiB limit",
                outcome.peak_memory_kib >> 10,
                limits.memory_bytes >> 20
            ),
        );
    }
    if outcome.termination != Termination::Exited(0) {
        let stderr = String::from_utf8_lossy(&outcome.stderr);
        if let Some(marker) = out_of_memory.iter().find(|m| stderr.contains(m.as_str())) {
            return (
                Verdict::MLE,
                format!(
                    "the runtime ran out of the {} MiB memory limit ({marker})",
                    limits.memory_bytes >> 20
                ),
            );
        }
    }
    match outcome.termination {
        Termination::Signaled(sig) => (
            Verdict::RE,
            format!(
                "killed by {}{}",
                signal_name(sig),
                stderr_tail(&outcome.stderr)
            ),
        ),
        Termination::Exited(code) if code != 0 => (
            Verdict::RE,
            format!("exit code {code}{}", stderr_tail(&outcome.stderr)),
        ),
        Termination::Exited(_) => match check(&outcome.stdout) {
            Judgement::Accepted => (Verdict::AC, String::new()),
            Judgement::Rejected(reason) => (Verdict::WA, reason),
            Judgement::JudgeError(reason) => (Verdict::JE, format!("checker: {reason}")),
        },
    }
}

/// Where the wall time of a run went: `wall 3.20 s: CPU 1.01 s, waiting for a CPU 2.10 s,
/// not running 0.09 s` (the waiting figure only when it was measured).
fn time_breakdown(o: &RunOutcome) -> String {
    let s = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    match o.cpu_wait {
        Some(wait) => format!(
            "wall {}: CPU {}, waiting for a CPU {}, not running {}",
            s(o.wall_time),
            s(o.cpu_time),
            s(wait),
            s(o.wall_time.saturating_sub(o.cpu_time).saturating_sub(wait))
        ),
        None => format!("wall {}, CPU {}", s(o.wall_time), s(o.cpu_time)),
    }
}

/// ` (last line of stderr)`, at most 120 characters, or empty: a crash's own explanation
/// (`ValueError: ...`, `thread 'main' panicked at ...`) is the most useful hint for a grader.
fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    // Skip stack-frame lines (Java `at ...`) and Rust's backtrace hint: the line before them
    // says what went wrong.
    let noise = |l: &str| {
        l.is_empty()
            || l.starts_with("at ")
            || (l.starts_with("...") && l.ends_with("more"))
            || l.starts_with("note: run with `RUST_BACKTRACE")
    };
    let Some(line) = text.lines().map(str::trim).rfind(|l| !noise(l)) else {
        return String::new();
    };
    let mut line: String = without_entry_folders(line)
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if line.chars().count() > 120 {
        line = line.chars().take(117).collect::<String>() + "...";
    }
    format!(" ({line})")
}

/// `line` with each path into a compile-cache entry shortened to the part inside the entry
/// (`/home/u/.cache/judge/v1/<64 hex digits>/solution.sh: line 4` is `solution.sh: line 4`):
/// the program's own file name is what a reader needs, and the cache's place is the machine's.
fn without_entry_folders(line: &str) -> String {
    const KEY_DIGITS: usize = 64;
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('/') {
        let (before, path) = rest.split_at(at);
        let token_start = before
            .rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '(')
            .map_or(0, |i| i + 1);
        let end = path
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
            .unwrap_or(path.len());
        let (token, after) = path.split_at(end);
        let inside = token.split('/').collect::<Vec<_>>();
        match inside.iter().rposition(|part| {
            part.len() == KEY_DIGITS && part.bytes().all(|b| b.is_ascii_hexdigit())
        }) {
            Some(key) if key + 1 < inside.len() && before[token_start..].is_empty() => {
                out.push_str(before);
                out.push_str(&inside[key + 1..].join("/"));
            }
            _ => {
                out.push_str(before);
                out.push_str(token);
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `8 MiB`, `64 KiB`, `100 bytes`.
fn human_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        crate::text::count(n, "byte")
    }
}

/// `SIGSEGV`-style name of a signal number (`signal 77` for unknown ones).
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_message_names_the_program_by_its_name_in_its_cache_entry() {
        let key = "ab12".repeat(16);
        let line = format!("/home/u/.cache/judge/v1/{key}/solution.sh: line 4: `if'");
        assert_eq!(without_entry_folders(&line), "solution.sh: line 4: `if'");
        let quoted = format!("File \"/c/v1/{key}/dir/a.py\", line 2, in <module>");
        assert_eq!(
            without_entry_folders(&quoted),
            "File \"dir/a.py\", line 2, in <module>"
        );
        // Other paths, relative ones and a short hex folder are kept as they are.
        for kept in [
            "/usr/bin/x: not found",
            "a/b/c",
            "/tmp/abc123/x.sh: y",
            "no path",
        ] {
            assert_eq!(without_entry_folders(kept), kept);
        }
        assert_eq!(
            stderr_tail(format!("{}/{key}/s.sh: line 9: oops\n", "/x".repeat(60)).as_bytes()),
            " (s.sh: line 9: oops)"
        );
    }

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(2),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            stderr_bytes: 4096,
            processes: 1,
        }
    }

    fn outcome(termination: Termination, limit_hit: Option<LimitHit>) -> RunOutcome {
        RunOutcome {
            termination,
            limit_hit,
            cpu_time: Duration::from_millis(10),
            wall_time: Duration::from_millis(12),
            cpu_wait: None,
            peak_memory_kib: 1024,
            forks_refused: 0,
            settled: false,
            stdout: b"42\n".to_vec(),
            stderr: Vec::new(),
        }
    }

    #[test]
    fn limits_win_over_exit_status() {
        let killed = Termination::Signaled(libc::SIGKILL);
        let cases = [
            (LimitHit::CpuTime, Verdict::TLE),
            (LimitHit::WallTime, Verdict::TLE),
            (LimitHit::Memory, Verdict::MLE),
            (LimitHit::Output, Verdict::OLE),
            (LimitHit::Disk, Verdict::OLE),
            (LimitHit::Overloaded, Verdict::JE),
        ];
        for (hit, want) in cases {
            let (v, msg) = decide(&outcome(killed, Some(hit)), &limits(), &[], |_| {
                panic!("checker must not run")
            });
            assert_eq!(v, want, "{hit:?}: {msg}");
        }
    }

    #[test]
    fn the_kernels_cpu_backstop_is_a_tle_that_says_so_never_a_crash() {
        // The kernel's tick count ran ahead of judge's: SIGXCPU under the limit.
        let mut o = outcome(Termination::Signaled(libc::SIGXCPU), None);
        o.cpu_time = Duration::from_millis(420);
        o.wall_time = Duration::from_millis(3100);
        for hit in [None, Some(LimitHit::CpuTime)] {
            o.limit_hit = hit;
            let (v, msg) = decide(&o, &limits(), &[], |_| panic!("checker must not run"));
            assert_eq!(v, Verdict::TLE, "{msg}");
            assert!(
                msg.starts_with(
                    "stopped by the kernel's CPU-time backstop (SIGXCPU) at 0.42 s of CPU time \
                     by judge's count, under the 1.00 s limit"
                ),
                "{msg}"
            );
        }
        // Over the limit by judge's count too: the plain message.
        o.cpu_time = Duration::from_millis(1010);
        let (v, msg) = decide(&o, &limits(), &[], |_| panic!("checker must not run"));
        assert_eq!(v, Verdict::TLE);
        assert!(msg.starts_with("CPU time over the 1.00 s limit"), "{msg}");
    }

    #[test]
    fn time_limit_messages_say_where_the_time_went() {
        let killed = Termination::Signaled(libc::SIGKILL);
        let mut o = outcome(killed, Some(LimitHit::WallTime));
        o.cpu_time = Duration::from_millis(160);
        o.wall_time = Duration::from_millis(2450);
        o.cpu_wait = Some(Duration::from_millis(250));
        let (v, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(v, Verdict::TLE);
        assert_eq!(
            m,
            "not running (sleeping or blocked) for over the 2.00 s wall-time backstop \
             (wall 2.45 s: CPU 0.16 s, waiting for a CPU 0.25 s, not running 2.04 s)"
        );
        // Stopped by the backstop while running (a CPU limit at the backstop).
        o.cpu_time = Duration::from_millis(2010);
        o.wall_time = Duration::from_millis(2030);
        o.cpu_wait = Some(Duration::from_millis(10));
        let (v, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(v, Verdict::TLE);
        assert_eq!(
            m,
            "running for over the 2.00 s wall-time backstop \
             (wall 2.03 s: CPU 2.01 s, waiting for a CPU 0.01 s, not running 0.01 s)"
        );
        o.wall_time = Duration::from_millis(2450);
        o.limit_hit = Some(LimitHit::CpuTime);
        o.cpu_time = Duration::from_millis(1010);
        o.cpu_wait = None;
        let (_, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(
            m,
            "CPU time over the 1.00 s limit (wall 2.45 s, CPU 1.01 s)"
        );
    }

    #[test]
    fn an_overloaded_machine_is_a_judge_error_not_a_tle() {
        let mut o = outcome(
            Termination::Signaled(libc::SIGKILL),
            Some(LimitHit::Overloaded),
        );
        o.cpu_time = Duration::from_millis(900);
        o.wall_time = Duration::from_millis(10_000);
        o.cpu_wait = Some(Duration::from_millis(9_050));
        let (v, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(v, Verdict::JE);
        assert!(
            m.starts_with("machine overloaded: the program got 9% of a CPU (wall 10.00 s: CPU 0.90 s, waiting for a CPU 9.05 s"),
            "{m}"
        );
    }

    #[test]
    fn a_run_stopped_at_its_process_limit_is_a_run_time_error_that_says_so() {
        let mut o = outcome(
            Termination::Signaled(libc::SIGKILL),
            Some(LimitHit::Processes),
        );
        o.forks_refused = 23;
        let mut lim = limits();
        lim.processes = 8;
        let (v, m) = decide(&o, &lim, &[], |_| Judgement::Accepted);
        assert_eq!(v, Verdict::RE);
        assert_eq!(
            m,
            "stopped at its limit of 8 processes/threads: 23 forks refused"
        );
        o.forks_refused = 1;
        lim.processes = 1;
        let (_, m) = decide(&o, &lim, &[], |_| Judgement::Accepted);
        assert_eq!(
            m,
            "stopped at its limit of 1 process/thread: 1 fork refused"
        );
        // Where nothing stopped the run, the program's own failure is the message.
        let mut o = outcome(Termination::Exited(1), None);
        o.stderr = b"fork: Resource temporarily unavailable\n".to_vec();
        let (v, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(v, Verdict::RE);
        assert_eq!(m, "exit code 1 (fork: Resource temporarily unavailable)");
    }

    #[test]
    fn measured_overruns_count_even_without_a_kill() {
        let mut o = outcome(Termination::Exited(0), None);
        o.cpu_time = Duration::from_millis(1001);
        assert_eq!(
            decide(&o, &limits(), &[], |_| Judgement::Accepted).0,
            Verdict::TLE
        );
        let mut o = outcome(Termination::Exited(0), None);
        o.peak_memory_kib = 65 * 1024;
        assert_eq!(
            decide(&o, &limits(), &[], |_| Judgement::Accepted).0,
            Verdict::MLE
        );
    }

    #[test]
    fn crashes_name_the_signal_or_code() {
        let (v, m) = decide(
            &outcome(Termination::Signaled(libc::SIGABRT), None),
            &limits(),
            &[],
            |_| Judgement::Accepted,
        );
        assert_eq!((v, m.as_str()), (Verdict::RE, "killed by SIGABRT"));
        let (v, m) = decide(
            &outcome(Termination::Exited(3), None),
            &limits(),
            &[],
            |_| Judgement::Accepted,
        );
        assert_eq!((v, m.as_str()), (Verdict::RE, "exit code 3"));
        let mut o = outcome(Termination::Exited(1), None);
        o.stderr = b"Traceback (most recent call last):\n  ...\nValueError: bad\n\n".to_vec();
        let (_, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert_eq!(m, "exit code 1 (ValueError: bad)");
        o.stderr = b"Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat Main.main(Main.java:3)\n".to_vec();
        let (_, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert!(m.ends_with("ArithmeticException: / by zero)"), "{m}");
        o.stderr = vec![b'x'; 500];
        let (_, m) = decide(&o, &limits(), &[], |_| Judgement::Accepted);
        assert!(m.ends_with("...)") && m.len() < 150, "{m}");
    }

    #[test]
    fn a_runtime_out_of_memory_message_is_an_mle() {
        let java = ["java.lang.OutOfMemoryError".to_string()];
        let mut o = outcome(Termination::Exited(1), None);
        o.stderr =
            b"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n".to_vec();
        let (v, m) = decide(&o, &limits(), &java, |_| Judgement::Accepted);
        assert_eq!(v, Verdict::MLE, "{m}");
        assert!(
            m.contains("64 MiB") && m.contains("OutOfMemoryError"),
            "{m}"
        );
        // Without the marker for this language it stays an RE; a clean exit is never an MLE.
        assert_eq!(
            decide(&o, &limits(), &[], |_| Judgement::Accepted).0,
            Verdict::RE
        );
        o.termination = Termination::Exited(0);
        assert_eq!(
            decide(&o, &limits(), &java, |_| Judgement::Accepted).0,
            Verdict::AC
        );
    }

    #[test]
    fn clean_exit_goes_to_the_checker() {
        let o = outcome(Termination::Exited(0), None);
        let (v, m) = decide(&o, &limits(), &[], |out| {
            assert_eq!(out, b"42\n");
            Judgement::Rejected("row 1 sums to 3".into())
        });
        assert_eq!((v, m.as_str()), (Verdict::WA, "row 1 sums to 3"));
        let (v, _) = decide(&o, &limits(), &[], |_| {
            Judgement::JudgeError("jury says -1".into())
        });
        assert_eq!(v, Verdict::JE);
        assert_eq!(
            decide(&o, &limits(), &[], |_| Judgement::Accepted).0,
            Verdict::AC
        );
    }

    #[test]
    fn folder_names_map_to_verdicts() {
        assert_eq!(
            Verdict::from_folder("time_limit_exceeded"),
            Some(Verdict::TLE)
        );
        assert_eq!(Verdict::from_folder("rejected"), None);
        assert_eq!(Verdict::from_code("mle"), Some(Verdict::MLE));
    }
}
