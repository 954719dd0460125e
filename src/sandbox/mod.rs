//! Running an untrusted program under limits and isolation.
//!
//! ```text
//!   RunRequest ──► Sandbox::run ──► RunOutcome (exit/signal, CPU, wall, peak memory, output, which limit fired)
//! ```
//!
//! The grading runner only sees the [`Sandbox`] trait. [`fake::ScriptedSandbox`] returns
//! scripted outcomes so reporting can be tested without running anything; the real Linux
//! implementation lives in `linux`.

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod fake;
#[cfg(target_os = "linux")]
pub mod linux;

/// How a sandboxed program reaches a folder of the host (a compiled program in the cache, a
/// jury program of a package), which decides who must be able to enter the folder's parents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostAccess {
    /// Programs run as the harness's own uid (an ordinary user: a user namespace maps it), so
    /// they reach whatever the harness reaches; the folder can be private to that uid.
    OwnUid,
    /// Programs run as other (slot) uids, but each run binds the folders it needs into its
    /// private file-system view with the harness's rights: the folder's own files must be
    /// readable by others, its parents may be closed (a 0700 home).
    Bound,
    /// Programs run as other uids and resolve the host's paths themselves: every parent of
    /// the folder must be searchable by others.
    HostPaths,
}

impl HostAccess {
    /// What runs of the sandbox get on this machine as this process's user (probed once).
    pub fn of_this_process() -> HostAccess {
        static ACCESS: std::sync::OnceLock<HostAccess> = std::sync::OnceLock::new();
        *ACCESS.get_or_init(|| {
            #[cfg(target_os = "linux")]
            {
                linux::host_access()
            }
            #[cfg(not(target_os = "linux"))]
            {
                HostAccess::HostPaths
            }
        })
    }
}

/// Resource limits for one run. Every field is always set: there is no "unlimited".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system, all processes of the run). Exceeding it is TLE.
    pub cpu_time: Duration,
    /// Wall-clock backstop for time *not spent running*: a sleeping or blocked program is
    /// stopped here (TLE). Time spent waiting for a CPU on a busy machine extends it (up to
    /// a bound, past which the run is [`LimitHit::Overloaded`]).
    pub wall_time: Duration,
    /// Memory in bytes. Exceeding it is MLE.
    pub memory_bytes: u64,
    /// Maximum bytes of stdout kept; one more byte is OLE.
    pub output_bytes: u64,
    /// Maximum bytes of stderr kept (the rest is discarded, not an error).
    pub stderr_bytes: u64,
    /// Maximum number of processes/threads alive at once.
    pub processes: u32,
}

/// Where the program's stdin comes from.
#[derive(Debug, Clone)]
pub enum Stdin {
    /// A file opened read-only by the harness and handed over as fd 0.
    File(PathBuf),
    /// Bytes written to a pipe by the harness (small inputs).
    Bytes(Vec<u8>),
    /// `/dev/null`.
    Null,
    /// The read end of a pipe the caller set up (interactive problems: another program
    /// writes the other end).
    Pipe(HandOver),
}

/// Where the program's stdout goes.
#[derive(Debug, Clone, Default)]
pub enum Stdout {
    /// Captured into [`RunOutcome::stdout`], at most `output_bytes` (one more is OLE).
    #[default]
    Capture,
    /// The write end of a pipe the caller set up (interactive problems). Nothing is captured
    /// and no output limit applies: the reader at the other end decides what is too much.
    Pipe(HandOver),
}

/// An fd handed to the sandbox for one run. `run` takes it out, so after the program has
/// started the caller holds no copy: a pipe reaches EOF as soon as the programs at its ends
/// exit. A request whose fd was taken cannot be run again.
#[derive(Debug, Clone)]
pub struct HandOver(Arc<Mutex<Option<OwnedFd>>>);

impl HandOver {
    pub fn new(fd: impl Into<OwnedFd>) -> HandOver {
        HandOver(Arc::new(Mutex::new(Some(fd.into()))))
    }

    /// The fd, if it was not taken yet.
    pub fn take(&self) -> Option<OwnedFd> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Lets the harness end a run early, from another thread, once its verdict no longer depends
/// on what the program does next (an interactive validator that rejected first). The run then
/// ends with [`LimitHit::Stopped`], within one poll interval of [`StopHandle::stop`].
#[derive(Debug, Clone, Default)]
pub struct StopHandle(Arc<std::sync::atomic::AtomicBool>);

impl StopHandle {
    pub fn new() -> StopHandle {
        StopHandle::default()
    }

    pub fn stop(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The most CPU time a run beside others takes, as a multiple of its time alone. Measured on
/// the shipped packages on 2 cores: 0.75x to 1.4x the median of 5 runs alone (see
/// `verify::submissions::needs_timing`). A run beside others that took at least this factor
/// times a limit is over that limit alone too.
pub const LOAD_CPU_FACTOR: f64 = 1.5;

/// The processes and threads a run waits on that are not its own: an interactive problem's
/// validator and the harness's threads between the two (the relay, the validator's
/// supervisor). Time they spend waiting for a CPU, or running slower because of the machine's
/// load, would otherwise count against the run's wall-clock backstop as time the program did
/// not run; a run that [`Companion::WaitsOn`] them leaves it out, as it leaves out its own
/// waits (see `linux::supervise`). Each part registers itself as it starts; until every
/// expected part has, or once one is gone, the figures are incomplete.
#[derive(Debug, Clone)]
pub struct Companions(Arc<Mutex<CompanionSet>>);

#[derive(Debug, Default)]
struct CompanionSet {
    /// How many parts (threads and runs) are to register.
    expected: usize,
    /// Thread ids (in the harness's pid namespace) of harness threads.
    threads: Vec<i32>,
    /// The process at the root of each run (its threads and descendants count).
    runs: Vec<i32>,
}

/// What [`Companions`] holds at one moment, when every expected part has registered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanionIds {
    pub threads: Vec<i32>,
    pub runs: Vec<i32>,
}

impl Companions {
    /// A set of `expected` parts, none registered yet.
    pub fn new(expected: usize) -> Companions {
        Companions(Arc::new(Mutex::new(CompanionSet {
            expected,
            ..CompanionSet::default()
        })))
    }

    fn set(&self) -> std::sync::MutexGuard<'_, CompanionSet> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers the calling thread (one of the harness's threads the run waits on).
    pub fn register_thread(&self) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: gettid has no arguments and cannot fail.
            let tid = unsafe { libc::gettid() };
            self.set().threads.push(tid);
        }
    }

    /// Registers a run by the process at its root (see [`CompanionSet::runs`]).
    pub fn register_run(&self, root: i32) {
        self.set().runs.push(root);
    }

    /// The parts registered so far, once all expected parts have.
    pub fn ids(&self) -> Option<CompanionIds> {
        let set = self.set();
        (set.threads.len() + set.runs.len() >= set.expected).then(|| CompanionIds {
            threads: set.threads.clone(),
            runs: set.runs.clone(),
        })
    }
}

/// How a run is tied to the [`Companions`] of an interactive run.
#[derive(Debug, Clone)]
pub enum Companion {
    /// The run waits on them: their waits are not its time.
    WaitsOn(Companions),
    /// The run is one of them: it registers its processes when it starts.
    Is(Companions),
}

/// One program execution.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// argv; `argv[0]` is an absolute path to the executable.
    pub argv: Vec<String>,
    /// The complete environment (nothing is inherited).
    pub env: Vec<(String, String)>,
    pub stdin: Stdin,
    pub stdout: Stdout,
    /// Directories the program may read and execute from (its binary, a runtime's install
    /// prefix). System library directories are always readable.
    pub read_only: Vec<PathBuf>,
    /// The program's working directory: `None` for a private one that ends with the run
    /// (on the run's disk quota), or a folder the caller shares with the program (read and
    /// written at the same path; created by the caller, made writable for the sandbox).
    pub work_dir: Option<PathBuf>,
    /// Files found in the private working directory (`work_dir: None`) under their own
    /// names, read-only: a package's included files, which a submission may open as
    /// `./data.txt`. Host paths of plain files; not used with a shared `work_dir`.
    pub work_files: Vec<PathBuf>,
    pub limits: Limits,
    /// Set to end the run early (see [`StopHandle`]); `None` for a run that goes to its end.
    pub stop: Option<StopHandle>,
    /// The other side of an interactive run, if this is one (see [`Companions`]).
    pub companions: Option<Companion>,
}

/// Which limit, if any, stopped the program. The first one that fired wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitHit {
    CpuTime,
    WallTime,
    Memory,
    Output,
    /// The files the program wrote filled its disk quota (the output limit).
    Disk,
    /// A fork or thread creation was refused at the run's process limit, where a pids cgroup
    /// counts the refusals (runs allowed several processes/threads): the run is stopped. Left
    /// going, a fork loop at `pids.max` ends by an OOM kill or by its time limit depending on
    /// the machine: every refused fork has charged the run kernel memory (a stack, page
    /// tables) that is freed only after an RCU grace period, later on a busy machine; and how
    /// many forks a CPU-second refuses depends on the machine's speed. (Runs allowed one
    /// process have theirs refused by the seccomp filter, which costs the kernel nothing.)
    Processes,
    /// Not a contestant limit: the machine gave the program so little CPU for so long that
    /// no verdict can be given (a judge error).
    Overloaded,
    /// Not a contestant limit: the harness ended the run through its [`StopHandle`], its
    /// verdict being already decided by another program (an interactive validator that
    /// rejected before the submission ended). What it did until then is measured as usual.
    Stopped,
}

/// How the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// Normal exit with this status code.
    Exited(i32),
    /// Killed by this signal (by itself, the kernel, or the harness enforcing a limit).
    Signaled(i32),
}

/// Everything measured about one run. A contestant failure is data here, never an `Err`.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub termination: Termination,
    /// The limit the sandbox enforced, if one fired.
    pub limit_hit: Option<LimitHit>,
    /// CPU time of the run (user + system, including descendants).
    pub cpu_time: Duration,
    pub wall_time: Duration,
    /// Time the run's processes were runnable but waiting for a CPU, when it was measured
    /// (when a limit fired or the plain wall deadline passed; `None` otherwise).
    pub cpu_wait: Option<Duration>,
    /// Forks (or thread creations) refused because the run was at its process limit, where
    /// the mechanism counts them (a pids cgroup); 0 otherwise.
    pub forks_refused: u64,
    /// A stop by the wall-clock backstop that the machine's load cannot have caused: every
    /// wait for a CPU of the run and of its [`Companions`], and the time their CPU work may
    /// have run slower under load, was measured and left out, and the program never wrote a
    /// pipe's worth to a pipe the harness drains. A run alone would be stopped too. False
    /// for any other outcome, and where the figures are not there (no scheduler statistics).
    pub settled: bool,
    /// Peak memory in KiB (which figure: docs/sandbox.md, "What a run gets").
    pub peak_memory_kib: u64,
    /// Captured stdout, at most `output_bytes`.
    pub stdout: Vec<u8>,
    /// Captured stderr, at most `stderr_bytes`.
    pub stderr: Vec<u8>,
}

/// The harness could not run the program at all (not the contestant's fault).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("sandbox setup failed: {0}")]
    Setup(String),
    #[error("could not start `{program}`: {message}")]
    Spawn { program: String, message: String },
    #[error("sandbox I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// Judge was asked to stop (SIGINT/SIGTERM, see [`crate::interrupt`]) and the run was
    /// ended; its outcome says nothing about the program.
    #[error("{0}")]
    Interrupted(#[from] crate::interrupt::Interrupted),
}

/// Runs programs in isolation under [`Limits`].
pub trait Sandbox: Send + Sync {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError>;

    /// One line for the user about mechanisms that are unavailable on this machine
    /// (e.g. "no memory cgroup: memory limit enforced from peak RSS"), or `None`.
    fn warning(&self) -> Option<String> {
        None
    }
}
