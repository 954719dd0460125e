//! A slot's long-lived processes: everything a run needs that does not change from one run
//! to the next is set up once per slot, so a run only starts its program.
//!
//! ```text
//!   harness ──clone(CLONE_VM | CLONE_NEWPID)──► init   pid 1 of the slot's pid namespace, in the
//!      │                                                slot's box (mount namespace); mounts,
//!      │                                                kill(-1) + reap on request
//!      └─clone(CLONE_VM | CLONE_FILES)────────► spawner  outside that pid namespace, its children
//!                                                 born inside it; in the box (chroot) and the
//!                                                 slot's network namespace; no_new_privs,
//!                                                 Landlock and the seccomp filter installed once
//!   per run:  spawner ──clone(CLONE_VM | CLONE_VFORK | CLONE_PARENT | CLONE_PIDFD)──► program
//! ```
//!
//! The program inherits the namespaces, the root, Landlock and the filter from the spawner;
//! `CLONE_PARENT` makes the *harness* its parent (exit signal 0, as the spawner's), so the
//! harness reaps it and reads its status without a hand-off, and the pidfd lands in the
//! harness's fd table (the spawner shares it). The program is not pid 1 (`abort()` stays
//! SIGABRT); what it leaves behind is reparented to the init, which kills and reaps it on
//! request (`kill(-1)` from pid 1 reaches every other process of the namespace, and a fork
//! that races with it fails).
//!
//! Both processes share the harness's memory (`CLONE_VM`) and use only raw system calls on
//! data prepared before they start ([`Channel`], [`InitSetup`], [`HelperSetup`]); they poll
//! a pidfd of the harness and exit when it is gone, which ends the pid namespace (the kernel
//! kills every process in it).

use std::ffi::{c_void, CString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use super::fsview::MountOp;
use super::spawn::{self, Plan};
use super::sys::{self, sc1, sc2, sc3, sc4, Stack};

mod processes;

use processes::{init_main_c, start_main_c};

const STACK: usize = 64 * 1024;
/// How long the harness waits for the init or the spawner to answer before it gives up on
/// the slot's processes (they are then replaced).
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

const CMD_OPS: u32 = 1;
const CMD_KILL_ALL: u32 = 2;

/// Requests and answers between the harness and the slot's two processes.
#[derive(Default)]
pub struct Channel {
    /// For the init: what to do ([`CMD_OPS`], [`CMD_KILL_ALL`]) and the mount steps.
    cmd: AtomicU32,
    ops: AtomicPtr<MountOp>,
    ops_len: AtomicUsize,
    /// The init's answer to [`CMD_OPS`]: index of the failed step (`u32::MAX`: none) and
    /// its errno.
    err_index: AtomicU32,
    err_errno: AtomicI32,
    /// For the spawner: the plan of the program to start, and what came of it.
    plan: AtomicPtr<Plan>,
    child_pid: AtomicI32,
    child_pidfd: AtomicI32,
    /// The spawner's own CPU time for starting it, ns (charged to the slot's cgroups when
    /// the spawner sits in them).
    spawn_cpu_ns: AtomicU64,
}

/// What the init needs, prepared before it starts.
struct InitSetup {
    /// The slot's base mount namespace (-1: stay in the harness's).
    mnt: i32,
    /// Where to mount the box's `/proc` (when `mnt >= 0`).
    proc_dir: CString,
    /// The files of that `/proc` about the init to cover ([`fsview::PID1_MASKED`]).
    masks: Vec<CString>,
    req: i32,
    reply: i32,
    harness: i32,
    /// Sorted fds the init keeps (it starts with a copy of the harness's table).
    keep: Vec<i32>,
    chan: *const Channel,
    /// Non-zero: the setup step that failed ([`spawn::Step`]) and its errno.
    err_step: AtomicU32,
    err_errno: AtomicI32,
}

/// What the spawner needs, prepared before it starts.
struct HelperSetup {
    /// The slot's pid namespace (its children are born there).
    pidns: i32,
    /// The slot's base mount namespace and the box's root in it (-1: the host's files).
    mnt: i32,
    stage: CString,
    netns: i32,
    landlock: i32,
    seccomp: Vec<libc::sock_filter>,
    seccomp_prog: libc::sock_fprog,
    go: i32,
    done: i32,
    harness: i32,
    /// `cgroup.procs` of the slot's cgroups, joined once set up (empty: the programs join).
    cgroup_procs: Vec<i32>,
    /// The uid (and gid) to take once set up (`None`: the programs switch).
    uid: Option<u32>,
    /// Its stack, and its pid and pidfd once started (a negative pid: -errno).
    stack_top: *mut u8,
    pid: AtomicI32,
    pidfd: AtomicI32,
    chan: *const Channel,
    err_step: AtomicU32,
    err_errno: AtomicI32,
}

/// A long-lived process of the slot: killed and reaped when dropped.
struct Task {
    pid: i32,
    pidfd: OwnedFd,
    /// Its stack: freed only after it has been reaped (fields drop after `Drop::drop`).
    _stack: Stack,
}

impl Drop for Task {
    fn drop(&mut self) {
        sys::pidfd_kill(self.pidfd.as_raw_fd(), libc::SIGKILL);
        let _ = sys::wait_pidfd(self.pidfd.as_raw_fd());
    }
}

/// What the slot's processes share with the harness, for the namespaces they sit in.
pub struct Config<'a> {
    /// The slot's base mount namespace and staging folder (`None`: runs see the host's files).
    pub fs: Option<(i32, CString)>,
    pub netns: i32,
    /// The Landlock ruleset every run gets (-1: none, or one per run).
    pub landlock: i32,
    /// The seccomp filter every run gets.
    pub seccomp: &'a [libc::sock_filter],
    /// A pidfd of the harness itself.
    pub harness: i32,
    /// `cgroup.procs` of the slot's cgroups for the spawner to sit in (see
    /// [`super::cgroup::SlotCgroups::spawner_may_join`]); empty: each program joins them.
    pub cgroup_procs: Vec<i32>,
    /// The slot's uid, for the spawner to run as once set up, so that its programs need not
    /// switch (`None`: each program switches, e.g. to join its cgroups first, as root).
    pub uid: Option<u32>,
}

/// The init and the spawner of one slot (see the module documentation).
pub struct SlotSpawner {
    // Declared first: dropped (killed and reaped) before the setups and the channel they read;
    // the spawner before its starter, which then returns from its vfork wait and exits.
    helper: Task,
    _starter: Task,
    init: Task,
    chan: Box<Channel>,
    _init_setup: Box<InitSetup>,
    _helper_setup: Box<HelperSetup>,
    init_req: OwnedFd,
    init_reply: OwnedFd,
    go: OwnedFd,
    done: OwnedFd,
    /// Inode of the slot's pid namespace (to find the run's processes among the harness's
    /// children).
    pidns_ino: u64,
    /// Steps the init is still executing (kept alive until it answers).
    pending: Option<Vec<MountOp>>,
    /// The init has a request it has not answered yet.
    waiting: bool,
}

// SAFETY: the raw pointers in the setups point into boxes this value owns (the channel, the
// filter), which stay at their addresses until the processes reading them are reaped; the
// harness side only touches the channel through atomics, from whichever thread holds the slot.
unsafe impl Send for SlotSpawner {}
// SAFETY: as above; `&SlotSpawner` exposes nothing that is not atomic or an fd.
unsafe impl Sync for SlotSpawner {}

fn eventfd() -> std::io::Result<OwnedFd> {
    super::eventfd()
}

fn signal(fd: i32) {
    let one: u64 = 1;
    // SAFETY: writing 8 bytes from a local to our own eventfd.
    unsafe { libc::write(fd, (&one as *const u64).cast(), 8) };
}

/// Waits until eventfd `fd` was signalled (and resets it) or `task` has ended.
fn wait_answer(fd: i32, task: i32, what: &str) -> std::io::Result<()> {
    let deadline = std::time::Instant::now() + ANSWER_WITHIN;
    loop {
        let mut fds = [
            libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: task,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::other(format!("{what} did not answer")));
        }
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: two valid pollfd entries.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(e);
        }
        if fds[0].revents != 0 {
            let mut v = 0u64;
            // SAFETY: reading the 8-byte counter of our eventfd into a local.
            let n = unsafe { libc::read(fd, (&mut v as *mut u64).cast(), 8) };
            if n == 8 {
                return Ok(());
            }
            continue;
        }
        if fds[1].revents != 0 {
            return Err(std::io::Error::other(format!("{what} ended")));
        }
    }
}

fn setup_error(what: &str, step: &AtomicU32, errno: &AtomicI32) -> Option<std::io::Error> {
    let s = step.load(Ordering::SeqCst);
    (s != 0).then(|| {
        let e = std::io::Error::from_raw_os_error(errno.load(Ordering::SeqCst));
        std::io::Error::new(
            e.kind(),
            format!("{what}: {} failed: {e}", spawn::step_name(s)),
        )
    })
}

impl SlotSpawner {
    /// Starts the slot's init and spawner and waits until both are ready.
    pub fn start(cfg: &Config) -> std::io::Result<SlotSpawner> {
        let chan = Box::new(Channel::default());
        let (init_req, init_reply, go, done) = (eventfd()?, eventfd()?, eventfd()?, eventfd()?);
        let (mnt, stage) = match &cfg.fs {
            Some((fd, stage)) => (*fd, stage.clone()),
            None => (-1, CString::default()),
        };
        let mut keep = vec![init_req.as_raw_fd(), init_reply.as_raw_fd(), cfg.harness];
        keep.sort_unstable();
        let mut proc_dir = stage.as_bytes().to_vec();
        proc_dir.extend_from_slice(b"/proc");
        let masks = super::fsview::PID1_MASKED
            .iter()
            .filter_map(|f| {
                let mut p = proc_dir.clone();
                p.push(b'/');
                p.extend_from_slice(f.as_bytes());
                CString::new(p).ok()
            })
            .collect();
        let init_setup = Box::new(InitSetup {
            mnt,
            masks,
            proc_dir: CString::new(proc_dir).unwrap_or_default(),
            req: init_req.as_raw_fd(),
            reply: init_reply.as_raw_fd(),
            harness: cfg.harness,
            keep,
            chan: &*chan,
            err_step: AtomicU32::new(0),
            err_errno: AtomicI32::new(0),
        });
        let stack = Stack::new(STACK)?;
        // SAFETY: `init_main` uses raw system calls only, on `init_setup` and `chan`, which
        // live in this value as long as the init (dropped after it); so does its stack.
        let (pid, pidfd) = unsafe {
            spawn::start_task(
                init_main_c,
                stack.top(),
                libc::CLONE_NEWPID,
                &*init_setup as *const InitSetup as *mut c_void,
            )
        }?;
        let init = Task {
            pid,
            pidfd,
            _stack: stack,
        };
        wait_answer(
            init_reply.as_raw_fd(),
            init.pidfd.as_raw_fd(),
            "the slot's init",
        )?;
        if let Some(e) = setup_error(
            "the slot's init",
            &init_setup.err_step,
            &init_setup.err_errno,
        ) {
            return Err(e);
        }
        let pidns = std::fs::File::open(format!("/proc/{}/ns/pid", init.pid))?;
        let pidns_ino = pidns.metadata()?.ino();
        let mut helper_setup = Box::new(HelperSetup {
            pidns: pidns.as_raw_fd(),
            mnt,
            stage,
            netns: cfg.netns,
            landlock: cfg.landlock,
            seccomp: cfg.seccomp.to_vec(),
            seccomp_prog: libc::sock_fprog {
                len: 0,
                filter: std::ptr::null_mut(),
            },
            go: go.as_raw_fd(),
            done: done.as_raw_fd(),
            harness: cfg.harness,
            cgroup_procs: cfg.cgroup_procs.clone(),
            uid: cfg.uid,
            stack_top: std::ptr::null_mut(),
            pid: AtomicI32::new(-libc::EINVAL),
            pidfd: AtomicI32::new(-1),
            chan: &*chan,
            err_step: AtomicU32::new(0),
            err_errno: AtomicI32::new(0),
        });
        helper_setup.seccomp_prog = libc::sock_fprog {
            len: helper_setup.seccomp.len() as u16,
            filter: helper_setup.seccomp.as_mut_ptr(),
        };
        let stack = Stack::new(STACK)?;
        helper_setup.stack_top = stack.top();
        let starter_stack = Stack::new(16 * 1024)?;
        // SAFETY: `start_main` uses raw system calls only, on `helper_setup`, which lives in
        // this value as long as the starter and the spawner (dropped after them), as do
        // their stacks.
        let (starter_pid, starter_pidfd) = unsafe {
            spawn::start_task(
                start_main_c,
                starter_stack.top(),
                libc::CLONE_FILES,
                &*helper_setup as *const HelperSetup as *mut c_void,
            )
        }?;
        let starter = Task {
            pid: starter_pid,
            pidfd: starter_pidfd,
            _stack: starter_stack,
        };
        // The starter ends early only when it could not start the spawner.
        wait_answer(
            done.as_raw_fd(),
            starter.pidfd.as_raw_fd(),
            "the slot's spawner",
        )?;
        let pid = helper_setup.pid.load(Ordering::SeqCst);
        if pid < 0 {
            return Err(std::io::Error::from_raw_os_error(-pid));
        }
        // SAFETY: CLONE_PIDFD put a fresh pidfd in our (shared) fd table; nobody else owns it.
        let pidfd = unsafe { OwnedFd::from_raw_fd(helper_setup.pidfd.load(Ordering::SeqCst)) };
        let helper = Task {
            pid,
            pidfd,
            _stack: stack,
        };
        if let Some(e) = setup_error(
            "the slot's spawner",
            &helper_setup.err_step,
            &helper_setup.err_errno,
        ) {
            return Err(e);
        }
        drop(pidns);
        Ok(SlotSpawner {
            helper,
            _starter: starter,
            init,
            chan,
            _init_setup: init_setup,
            _helper_setup: helper_setup,
            init_req,
            init_reply,
            go,
            done,
            pidns_ino,
            pending: None,
            waiting: false,
        })
    }

    /// True while the init and the spawner are both running (one `poll`).
    pub fn alive(&self) -> bool {
        let mut fds =
            [self.init.pidfd.as_raw_fd(), self.helper.pidfd.as_raw_fd()].map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            });
        // SAFETY: two valid pollfd entries, no waiting.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, 0) };
        r == 0
    }

    /// The spawner's pid (in the harness's pid namespace).
    pub fn spawner_pid(&self) -> i32 {
        self.helper.pid
    }

    /// CPU time the spawner spent starting the last program, ns.
    pub fn spawn_cpu_ns(&self) -> u64 {
        self.chan.spawn_cpu_ns.load(Ordering::SeqCst)
    }

    /// The init's pid (in the harness's pid namespace).
    pub fn init_pid(&self) -> i32 {
        self.init.pid
    }

    /// Starts the program of `plan` and returns its pid (in the harness's pid namespace)
    /// and pidfd, once it has called `execve` (or failed before: see `plan.report`).
    ///
    /// # Safety
    /// `plan` must be fully prepared and stay alive and unmodified until the program has
    /// been reaped.
    pub unsafe fn spawn(&self, plan: &Plan) -> std::io::Result<(i32, OwnedFd)> {
        self.chan
            .plan
            .store(plan as *const Plan as *mut Plan, Ordering::SeqCst);
        signal(self.go.as_raw_fd());
        wait_answer(
            self.done.as_raw_fd(),
            self.helper.pidfd.as_raw_fd(),
            "the slot's spawner",
        )?;
        let pid = self.chan.child_pid.load(Ordering::SeqCst);
        if pid < 0 {
            return Err(std::io::Error::from_raw_os_error(-pid));
        }
        let fd = self.chan.child_pidfd.load(Ordering::SeqCst);
        // SAFETY: CLONE_PIDFD put a fresh pidfd in our (shared) fd table; nobody else owns it.
        Ok((pid, unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Has the init execute `ops` (see [`super::fsview::SlotLayer`]) and waits for it.
    /// `Err((index, errno))` names the failed step (`u32::MAX`: the init did not answer).
    pub fn mount(&mut self, ops: &[MountOp]) -> Result<(), (u32, i32)> {
        self.finish_pending()?;
        self.send_ops(ops);
        self.waiting = true;
        self.finish_pending()
    }

    /// Has the init start executing `ops` without waiting for it (the next request waits).
    pub fn mount_later(&mut self, ops: Vec<MountOp>) {
        let _ = self.finish_pending();
        self.send_ops(&ops);
        self.pending = Some(ops);
        self.waiting = true;
    }

    fn send_ops(&self, ops: &[MountOp]) {
        self.chan
            .ops
            .store(ops.as_ptr() as *mut MountOp, Ordering::SeqCst);
        self.chan.ops_len.store(ops.len(), Ordering::SeqCst);
        self.chan.cmd.store(CMD_OPS, Ordering::SeqCst);
        signal(self.init_req.as_raw_fd());
    }

    /// Waits for mount steps handed over earlier, if any.
    pub fn finish_pending(&mut self) -> Result<(), (u32, i32)> {
        if !self.waiting {
            return Ok(());
        }
        let answered = wait_answer(
            self.init_reply.as_raw_fd(),
            self.init.pidfd.as_raw_fd(),
            "the slot's init",
        );
        // The init is done with the steps (or gone): they may be freed.
        self.waiting = false;
        self.pending = None;
        answered.map_err(|_| (u32::MAX, libc::EIO))?;
        match self.chan.err_index.load(Ordering::SeqCst) {
            u32::MAX => Ok(()),
            i => Err((i, self.chan.err_errno.load(Ordering::SeqCst))),
        }
    }

    /// Kills every process of the slot's pid namespace but the init and waits until the
    /// init has reaped those reparented to it. Call it after the run's program was reaped
    /// (its children are the init's by then). Processes the program started with
    /// `CLONE_PARENT` are the harness's children: they are killed too, and reaped here.
    pub fn kill_all(&mut self) -> std::io::Result<()> {
        let _ = self.finish_pending();
        self.chan.cmd.store(CMD_KILL_ALL, Ordering::SeqCst);
        signal(self.init_req.as_raw_fd());
        wait_answer(
            self.init_reply.as_raw_fd(),
            self.init.pidfd.as_raw_fd(),
            "the slot's init",
        )?;
        self.reap_strays();
        Ok(())
    }

    /// Reaps the harness's children that belong to the slot's pid namespace (killed by
    /// [`SlotSpawner::kill_all`]): a program of the run can make its siblings with
    /// `CLONE_PARENT`.
    fn reap_strays(&self) {
        let me = std::process::id() as i32;
        for pid in super::procfs::children(me) {
            if pid == self.init.pid || pid == self.helper.pid {
                continue;
            }
            let ino = std::fs::metadata(format!("/proc/{pid}/ns/pid")).map(|m| m.ino());
            if ino.ok() != Some(self.pidns_ino) {
                continue;
            }
            // SAFETY: siginfo_t is plain old data, valid when zeroed.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: reaping one of our own children (its pid is not reused before it is
            // reaped). It was killed with the rest of the namespace: this waits only until
            // its SIGKILL has been handled.
            unsafe {
                libc::waitid(
                    libc::P_PID,
                    pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::__WALL,
                )
            };
        }
    }
}
