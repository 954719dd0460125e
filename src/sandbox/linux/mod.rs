//! The real sandbox for Linux: [`LinuxSandbox`].
//!
//! # What a run gets
//!
//! As root with cgroups, each slot has two long-lived processes ([`spawner`]): an init (pid 1
//! of the slot's pid namespace, in the slot's box) and a spawner that sits in the slot's
//! namespaces, box, Landlock domain and seccomp filter (and, on cgroup v1, its cgroups and
//! uid); each program is its child, made with `CLONE_PARENT` so that the harness is its
//! parent, and only wires stdin/stdout/stderr, enters `work_dir` and lowers resource limits
//! before `execve` ([`slotrun`]). Elsewhere every run starts under a tiny *proxy init* in a
//! fresh pid namespace (and IPC namespace); the contestant is its only child (see [`spawn`]
//! for why), and before `execve` it also joins the slot's cgroups and network namespace,
//! switches to the slot's uid/gid, sets `no_new_privs`, applies a Landlock ruleset and
//! installs a short seccomp deny-list. Either way the child uses only raw system calls on
//! data prepared in advance, and nothing is forked from the harness (`CLONE_VM` throughout).
//!
//! Two configurations, chosen by [`LinuxSandbox::new`] from what the machine allows:
//!
//! * **root with writable cgroup v1** (memory, pids, cpuacct): per slot a cgroup triple under
//!   `/sys/fs/cgroup/<ctrl>/judge/<pid>-<instance>-slot<N>`, an empty network namespace
//!   joined with `setns`, and a dedicated uid/gid (60000 + n). Memory is limited by
//!   `memory.limit_in_bytes` (MLE = the cgroup's `oom_kill` counter rose), CPU time is
//!   `cpuacct.usage` (every process of the run, orphans included), processes by `pids.max`
//!   and `RLIMIT_NPROC`.
//! * **ordinary user** (or root without cgroups): the proxy is started in a new user
//!   namespace with new pid, network and IPC namespaces (a fresh network namespace per run
//!   costs ~1 ms). The contestant process's `/proc/<pid>/stat` and `status` are polled
//!   (1 ms after start, then every 10 ms): CPU time (its threads and reaped children) and
//!   RSS, killing on overrun. Memory is thus enforced by polling (a program can overshoot by
//!   what it touches in one interval), with `RLIMIT_DATA` = max(limit × (processes + 2),
//!   1 GiB) + 4 GiB, as a backstop only (thread stacks count as data; a refused allocation
//!   would turn an MLE into an RE, so the backstop leaves the polling room to see it). Processes are limited by
//!   `RLIMIT_NPROC`, which the kernel counts per user namespace. Known gaps of this path:
//!   CPU and memory of *descendants* are only seen once the contestant has waited for them
//!   (an orphan's CPU is not counted; the wall limit bounds it).
//!
//! Both: a private file-system view (module `fsview`; as root its fixed part is built once
//! per slot and each run starts from a copy), seccomp, Landlock (read+exec: system dirs,
//! `read_only`; everything: `work_dir`; no TCP; no signals/abstract sockets outside the run),
//! `RLIMIT_CPU` soft limit = ⌈2 × limit⌉ + 1 s as the kernel's backstop (SIGXCPU: a TLE; see
//! `run::cpu_backstop_secs`), `RLIMIT_STACK` = memory limit, `RLIMIT_FSIZE` =
//! max(memory, output) limit, `RLIMIT_CORE` = 0, `RLIMIT_NOFILE` = 512, never `RLIMIT_AS` (it
//! breaks the JVM and turns MLE into crashes).
//!
//! # Which figures a caller gets
//!
//! * `cpu_time`: root path `cpuacct.usage` of the slot cgroup (every process of the run);
//!   other path the larger of the last poll and the kernel's rusage of the proxy (the
//!   contestant plus everything it waited for).
//! * `wall_time`: from just before the first clone until the proxy is reaped.
//! * `peak_memory_kib`: root path **`memory.max_usage_in_bytes` of the slot cgroup** (all
//!   processes of the run together; includes page cache and tmpfs pages the run wrote,
//!   excludes shared library pages first charged to another cgroup — so the JVM reports
//!   ~16–20 MiB where its RSS is ~34 MiB). Other path: the largest `VmHWM`/RSS of the
//!   contestant process seen by the poll, or its `ru_maxrss` when that exceeds the harness's
//!   own peak RSS — the kernel folds the spawning address space's high-water mark into
//!   `ru_maxrss` at exec, and the contestant is spawned from the harness's address space, so
//!   a smaller `ru_maxrss` says nothing about the program. A program that ends before the
//!   first sample (1 ms) reports 0 there.
//!
//! # Caller obligations
//!
//! `argv[0]` must be an absolute path executable by an unprivileged uid (its directories
//! searchable by "others" on the root path). `work_dir` is made owned by the slot's uid.

mod cgroup;
mod detect;
mod fsview;
mod policy;
mod prefetch;
pub mod procfs;
mod run;
mod slotrun;
mod slots;
mod spawn;
mod spawner;
mod supervise;
mod sys;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::{RunOutcome, RunRequest, Sandbox, SandboxError};
pub use cgroup::BackendInfo as CgroupBackend;
use cgroup::SlotCgroups;
use detect::Mechanisms;
pub use detect::Shortfall;
use fsview::FsView;
pub(crate) use fsview::SYSTEM_DIRS;
use policy::PreparedRuleset;
use slots::{Slot, SlotPool};
use sys::Stack;

static INSTANCES: AtomicU32 = AtomicU32::new(0);

/// The Linux sandbox. Create once with [`LinuxSandbox::new`]; `run` may be called from up
/// to `slots` threads at once (more callers block until a slot is free).
pub struct LinuxSandbox {
    mech: Mechanisms,
    pool: SlotPool,
    /// Each run's own file-system view (a mount namespace), unless this host does not allow
    /// it (then runs see the host's files through Landlock rules).
    fsview: Option<FsView>,
    /// Set when building a view failed on this host: later runs use Landlock only.
    fsview_failed: AtomicBool,
    /// Why runs have no file-system view (preparing it failed, or building one for a run
    /// did), for [`LinuxSandbox::in_use`].
    fsview_why_not: std::sync::OnceLock<String>,
    /// The Landlock ruleset of runs with their own file-system view (network and scopes
    /// only), built once.
    scoped_ruleset: Option<PreparedRuleset>,
    /// The seccomp programs for runs that may have several processes/threads, and for runs
    /// limited to one (where creating another fails in the filter).
    seccomp: [Vec<libc::sock_filter>; 2],
    /// The second filter of a one-task run started by a slot's spawner (whose inherited
    /// filter is the several-task one).
    no_more_tasks: Vec<libc::sock_filter>,
    /// A pidfd of this process: the slots' long-lived processes end when it does (root path
    /// with cgroups; `None` elsewhere).
    harness_pidfd: Option<std::os::fd::OwnedFd>,
    /// Signals not at SIG_DFL in the harness when `new` ran, plus SIGPIPE (which Rust
    /// programs ignore): reset in the child. Handlers installed later are reset by `execve`
    /// anyway; only signals *ignored* after `new` would leak into the program.
    reset_signals: Vec<i32>,
    warning: Option<String>,
    /// How many times a slot's memory cgroup was emptied after a run (see `prefetch`).
    memory_emptied: AtomicU64,
}

/// A non-blocking eventfd, at an fd number above the stdio targets.
fn eventfd() -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: plain system call; the result is checked.
    let fd = sys::cvt(unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) })?;
    // SAFETY: a fresh fd nobody else owns.
    detect::high_fd(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// The empty host folder each run mounts its box on (in its own mount namespace only, so
/// every run and every judge can share it).
fn box_stage() -> PathBuf {
    // SAFETY: geteuid is a plain getter.
    let uid = unsafe { libc::geteuid() };
    if uid == 0 {
        PathBuf::from("/run/judge/box")
    } else {
        std::env::temp_dir().join(format!("judge-box-{uid}"))
    }
}

/// How runs reach host folders here: as our own uid when we are not root (the user namespace
/// maps it); as root, through the binds of each run's private view when a mount namespace can
/// be made, else by the host's paths as a slot uid.
pub(crate) fn host_access() -> crate::sandbox::HostAccess {
    use crate::sandbox::HostAccess;
    if !detect::is_root() {
        HostAccess::OwnUid
    } else if detect::mount_namespaces() {
        HostAccess::Bound
    } else {
        HostAccess::HostPaths
    }
}

fn setup_err(what: &str, e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Setup(format!("{what}: {e}"))
}

impl LinuxSandbox {
    /// Detects the available mechanisms and prepares `slots` worker slots (cgroups, network
    /// namespaces, uids, stacks). Fails with [`SandboxError::Setup`] when runs could not be
    /// contained (no pid namespace) or when preparing a slot fails.
    pub fn new(slots: usize) -> Result<LinuxSandbox, SandboxError> {
        let mech = Mechanisms::detect()?;
        let instance = INSTANCES.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        let mut slot_vec = Vec::with_capacity(slots.max(1));
        for n in 0..slots.max(1) {
            // Start at a pid-derived uid so concurrent judges rarely probe the same locks.
            let hint = pid.wrapping_mul(37).wrapping_add(instance * 64 + n as u32);
            slot_vec.push(Slot {
                uid: if mech.root {
                    Some(slots::lease_uid(hint).map_err(|e| setup_err("reserving a uid", e))?)
                } else {
                    None
                },
                cg: if mech.cgroups {
                    Some(
                        SlotCgroups::create(&format!("{pid}-{instance}-slot{n}"))
                            .map_err(|e| setup_err("creating cgroups", e))?,
                    )
                } else {
                    None
                },
                netns: if mech.root {
                    Some(detect::new_netns()?)
                } else {
                    None
                },
                spawner: None,
                layer: None,
                no_spawner: false,
                ruleset: None,
                fs_base: None,
                done: eventfd().map_err(|e| setup_err("eventfd", e))?,
                child_stack: Stack::new(64 * 1024).map_err(|e| setup_err("stack", e))?,
            });
        }
        let fsview_why_not = std::sync::OnceLock::new();
        let stage = box_stage();
        let fsview = FsView::new(&stage)
            .inspect_err(|e| {
                let _ = fsview_why_not.set(format!("preparing {}: {e}", stage.display()));
            })
            .ok();
        let scoped_ruleset = match &mech.landlock {
            Some(ll) if fsview.is_some() => {
                ll.prepare_scoped().map_err(|e| setup_err("Landlock", e))?
            }
            _ => None,
        };
        let harness_pidfd = if mech.root && mech.cgroups {
            use std::os::fd::FromRawFd;
            // SAFETY: plain system call; the result is checked.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
            // SAFETY: a fresh fd nobody else owns.
            (fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as i32) })
        } else {
            None
        };
        Ok(LinuxSandbox {
            fsview,
            harness_pidfd,
            no_more_tasks: if mech.seccomp {
                policy::no_more_tasks_program()
            } else {
                Vec::new()
            },
            fsview_failed: AtomicBool::new(false),
            fsview_why_not,
            memory_emptied: AtomicU64::new(0),
            scoped_ruleset,
            seccomp: if mech.seccomp {
                [
                    policy::seccomp_program(false),
                    policy::seccomp_program(true),
                ]
            } else {
                [Vec::new(), Vec::new()]
            },
            reset_signals: {
                let mut v = spawn::non_default_signals();
                if !v.contains(&libc::SIGPIPE) {
                    v.push(libc::SIGPIPE);
                }
                v
            },
            warning: mech.warning(),
            pool: SlotPool::new(slot_vec),
            mech,
        })
    }

    /// The same sandbox without a private file-system view: runs see the host's files
    /// through Landlock rules, as on hosts that do not allow one (for tests and benchmarks).
    pub fn without_fs_view(mut self) -> LinuxSandbox {
        self.fsview = None;
        self.scoped_ruleset = None;
        self
    }

    /// True when runs get their own file-system view.
    pub fn has_fs_view(&self) -> bool {
        self.fsview().is_some()
    }

    /// The file-system view for the next run, if runs get their own.
    fn fsview(&self) -> Option<&FsView> {
        self.fsview
            .as_ref()
            .filter(|_| !self.fsview_failed.load(Ordering::Relaxed))
    }

    /// True when runs use cgroups (root path).
    pub fn uses_cgroups(&self) -> bool {
        self.mech.cgroups
    }

    /// True when a slot of this sandbox has its long-lived processes, i.e. runs are started
    /// by a slot's spawner rather than each by a proxy of its own (root with cgroups, after a
    /// first run; for tests and benchmarks).
    pub fn uses_slot_processes(&self) -> bool {
        self.pool.any(|s| s.spawner.is_some())
    }

    /// The pids of the slots' long-lived processes: (init, spawner) per slot that has them
    /// (for tests).
    pub fn slot_process_pids(&self) -> Vec<(i32, i32)> {
        self.pool
            .collect(|s| s.spawner.as_ref().map(|p| (p.init_pid(), p.spawner_pid())))
    }

    /// How many times a slot's memory cgroup was emptied after a run of this sandbox (see
    /// `prefetch`; for tests).
    pub fn memory_emptied(&self) -> u64 {
        self.memory_emptied.load(Ordering::Relaxed)
    }

    /// The uids used by this sandbox's slots (for finding leftover processes).
    pub fn slot_uids(&self) -> Vec<u32> {
        self.pool.uids()
    }

    /// What the sandbox goes without on this machine: the parts of [`Sandbox::warning`].
    pub fn shortfalls(&self) -> Vec<Shortfall> {
        self.mech.shortfalls()
    }

    /// What this sandbox's runs use as it stands: after a run, what that run used (a
    /// file-system view that failed is known only then). For `judge doctor` and tests.
    pub fn in_use(&self) -> InUse {
        let peak = self
            .pool
            .collect(|s| s.cg.as_ref().map(SlotCgroups::peak_source));
        let (peak_memory, peak_memory_exact) = peak.first().copied().unwrap_or((
            "the largest VmHWM / RSS of the program polled every 10 ms, or its ru_maxrss",
            false,
        ));
        let fs_view = self.has_fs_view();
        InUse {
            root: self.mech.root,
            slot_uids: self.slot_uids(),
            cgroups: if self.mech.cgroups {
                cgroup::backend_info().ok()
            } else {
                None
            },
            peak_memory,
            peak_memory_exact,
            fs_view,
            fs_view_why_not: if fs_view {
                None
            } else {
                Some(
                    self.fsview_why_not
                        .get()
                        .cloned()
                        .unwrap_or_else(|| "turned off for this sandbox".to_string()),
                )
            },
            seccomp: self.mech.seccomp,
            // With a view, a run's ruleset holds only the network and scopes: none before
            // ABI 4.
            landlock_abi: self
                .mech
                .landlock
                .as_ref()
                .filter(|_| !fs_view || self.scoped_ruleset.is_some())
                .map(|l| l.version),
            landlock_files: self.mech.landlock.is_some() && !fs_view,
            slot_processes: self.uses_slot_processes(),
        }
    }
}

/// What a [`LinuxSandbox`]'s runs use (see [`LinuxSandbox::in_use`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InUse {
    /// Runs switch to the slots' own uids (the harness is root); otherwise they keep the
    /// harness's uid, as root of a user namespace of their own.
    pub root: bool,
    /// The slots' uids (root only).
    pub slot_uids: Vec<u32>,
    /// The cgroups runs use; `None`: limits and figures come from polling.
    pub cgroups: Option<CgroupBackend>,
    /// Where a run's peak memory comes from.
    pub peak_memory: &'static str,
    /// `false` when that figure can miss a peak.
    pub peak_memory_exact: bool,
    /// Runs get their own file-system view (a mount namespace).
    pub fs_view: bool,
    /// Why they do not.
    pub fs_view_why_not: Option<String>,
    pub seccomp: bool,
    /// The kernel's Landlock ABI version, when runs are restricted by Landlock (with a
    /// file-system view, from ABI 4 on: before, there is nothing left for it to restrict).
    pub landlock_abi: Option<u32>,
    /// Landlock rules limit the files runs see (runs without a file-system view); with a
    /// view, Landlock limits only the network and signals (ABI 4 and later).
    pub landlock_files: bool,
    /// Runs are started by the slot's long-lived processes (root with cgroups), not by a
    /// proxy each.
    pub slot_processes: bool,
}

impl InUse {
    /// The mechanisms, one short phrase each, in the order a run meets them.
    pub fn mechanisms(&self) -> Vec<String> {
        let mut m = Vec::new();
        if self.slot_processes {
            m.push("slot processes (init + spawner)".to_string());
        } else {
            m.push("a proxy init per run".to_string());
        }
        if self.root {
            m.push("pid namespace".to_string());
            m.push("network namespace per slot".to_string());
        } else {
            m.push("user, pid, network and IPC namespaces per run".to_string());
        }
        if self.fs_view {
            m.push("mount namespace (own file-system view)".to_string());
        }
        match &self.cgroups {
            Some(cg) => m.push(format!(
                "cgroup v{} ({})",
                cg.version,
                cg.controllers.join(", ")
            )),
            None => m.push("polling /proc (no cgroups)".to_string()),
        }
        match self.slot_uids.as_slice() {
            [] => m.push("judge's own uid as root of the user namespace".to_string()),
            uids => m.push(format!(
                "slot uid {}",
                uids.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        m.push("rlimits".to_string());
        if self.seccomp {
            m.push("seccomp".to_string());
        }
        if let Some(abi) = self.landlock_abi {
            let mut scope = Vec::new();
            if self.landlock_files {
                scope.push("files");
            }
            scope.push("network");
            if abi >= 6 {
                scope.push("signals");
            }
            m.push(format!("Landlock ABI {abi} ({})", scope.join(", ")));
        }
        m
    }
}

/// What a run loses when it has no file-system view of its own.
pub const NO_FS_VIEW: &str = "programs see the host's files, limited by Landlock";

/// What this machine offers the sandbox, each found the way [`LinuxSandbox::new`] finds it
/// (for `judge doctor`). A probe that fails is an answer, so this never fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The harness runs as root (effective uid 0).
    pub root: bool,
    /// The effective uid.
    pub uid: u32,
    /// A run can get its own user, pid, network and IPC namespaces (needed without root).
    pub user_namespaces: bool,
    pub seccomp: bool,
    /// The kernel's Landlock ABI version; `None` without Landlock.
    pub landlock_abi: Option<u32>,
    /// The cgroups runs would use, or why none.
    pub cgroups: Result<CgroupBackend, String>,
    /// Why [`LinuxSandbox::new`] must fail here (runs could not be contained), if it must.
    pub cannot_contain: Option<&'static str>,
}

impl Probe {
    /// What a sandbox made here would go without (see [`LinuxSandbox::shortfalls`]).
    pub fn shortfalls(&self) -> Vec<Shortfall> {
        detect::shortfalls(
            self.root,
            self.cgroups.as_ref().err().map(String::as_str),
            self.seccomp,
            self.landlock_abi.is_some(),
        )
    }
}

/// Probes the machine (see [`Probe`]). On a cgroup v2 host the first probe of cgroups may
/// move this process into a leaf cgroup, as the sandbox's own first probe does.
pub fn probe() -> Probe {
    let root = detect::is_root();
    let user_namespaces = detect::user_namespaces_available();
    Probe {
        root,
        // SAFETY: geteuid is a plain getter.
        uid: unsafe { libc::geteuid() },
        user_namespaces,
        seccomp: detect::seccomp_available(),
        landlock_abi: policy::Landlock::detect().map(|l| l.version),
        cgroups: cgroup::backend_info(),
        cannot_contain: (!root && !user_namespaces).then_some(detect::NO_CONTAINMENT),
    }
}

impl Sandbox for LinuxSandbox {
    fn run(&self, request: &RunRequest) -> Result<RunOutcome, SandboxError> {
        let program = request.argv.first().cloned().unwrap_or_default();
        if program.is_empty() || !program.starts_with('/') {
            return Err(SandboxError::Spawn {
                program,
                message: "argv[0] must be an absolute path".into(),
            });
        }
        if self.mech.cgroups {
            // Charged to us, not to the slot, whose memory cgroup is emptied (see prefetch).
            let read_only = request.read_only.iter().map(PathBuf::as_path);
            prefetch::prefetch(std::iter::once(Path::new(&program)).chain(read_only));
        }
        let mut slot = self.pool.acquire();
        let attempt = |slot: &mut Slot| {
            if slotrun::applies(self, slot) {
                slotrun::run_in_slot(self, slot, request, &program)
            } else {
                run::run_in_slot(self, slot, request, &program)
            }
        };
        let mut result = attempt(&mut slot);
        if let Err(run::RunError::SlotProcesses(_)) = &result {
            // Replaced: once more (a second failure is the caller's error).
            result = attempt(&mut slot);
        }
        if let Err(run::RunError::FsView(why)) = &result {
            if matches!(slot.fs_base, Some(Ok(_))) {
                // The slot's prebuilt base failed this run: build each box whole from now on
                // (with a proxy per run: the slot's processes sat in the base).
                slot.fs_base = Some(Err(why.clone()));
                slot.spawner = None;
                slot.layer = None;
                result = attempt(&mut slot);
            }
        }
        match result {
            // This host does not let us build a file-system view (e.g. user namespaces
            // without mount rights): say so once and go on with Landlock alone.
            Err(run::RunError::FsView(why)) if self.fsview().is_some() => {
                let _ = self.fsview_why_not.set(why.clone());
                if !self.fsview_failed.swap(true, Ordering::SeqCst) {
                    eprintln!("warning: no private file-system view ({why}): {NO_FS_VIEW}");
                }
                slot.spawner = None;
                slot.layer = None;
                attempt(&mut slot).map_err(Into::into)
            }
            r => r.map_err(Into::into),
        }
    }

    fn warning(&self) -> Option<String> {
        self.warning.clone()
    }
}
