//! Shared helpers for the end-to-end tests: run the real `judge` binary and capture everything.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

pub mod busy;
pub mod verify_report;

pub use busy::BusyLoops;

/// What a `judge` invocation produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit status\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// The repository root (tests run with it as the working directory, so `problems/` resolves).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `judge args...` in the repository root with `stdin` and returns the result.
pub fn judge_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .current_dir(dir)
        .env_remove("JUDGE_PROBLEMS_DIR")
        .env("CI", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn judge");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait judge");
    let _ = writer.join();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn judge(args: &[&str]) -> Run {
    judge_in(&root(), args, b"")
}

/// The commands `judge --help` lists (clap's `help` aside): what completions and man pages
/// must cover.
pub fn judge_commands() -> Vec<String> {
    let run = judge(&["--help"]);
    run.assert_code(0);
    let list = run
        .stdout
        .split("Commands:\n")
        .nth(1)
        .expect("a command list in --help")
        .split("\n\n")
        .next()
        .unwrap();
    let names: Vec<String> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    names
}

/// No panic message or backtrace, and errors are one line starting with `error:`.
pub fn assert_clean_error(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.stderr.contains("RUST_BACKTRACE"), "{}", run.stderr);
    let errors: Vec<_> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("error"))
        .collect();
    assert!(!errors.is_empty(), "no error line in: {}", run.stderr);
}

/// [`assert_clean_error`], and exactly one error line, which is returned.
pub fn the_error_line(run: &Run) -> &str {
    assert_clean_error(run);
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("error"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    errors[0]
}

/// Copies a package folder recursively (for tests that break a copy).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            // A link stays a link (a fixture's generator folder linked to another).
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The small programs the tests grade (`tests/programs/`).
pub fn programs() -> PathBuf {
    root().join("tests/programs")
}

/// A folder with one magic-square test (the Lo Shu numbers) that every fixture answers,
/// readable by every user (tests that run the judge as an ordinary user grade on it too).
pub fn lo_shu_tests() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for (name, text) in [
        ("1.in", "3\n4 9 2 3 5 7 8 1 6\n"),
        ("1.ans", "2 7 6\n9 5 1\n4 3 8\n"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    dir
}

/// A copy of the `judge` binary and the problems folder in a temporary folder every user may
/// read, for tests that run the judge as another (ordinary) user: the checkout itself may be
/// in a home folder closed to others.
pub struct OpenCopy {
    dir: tempfile::TempDir,
    /// The compile cache of uid 65534 for [`OpenCopy::as_nobody`]: owned by it, private.
    nobody_cache: tempfile::TempDir,
}

impl OpenCopy {
    pub fn new() -> OpenCopy {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_judge"), dir.path().join("bin/judge")).unwrap();
        copy_dir(&root().join("problems"), &dir.path().join("problems"));
        let mut stack = vec![dir.path().to_path_buf()];
        while let Some(p) = stack.pop() {
            if p.is_dir() {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
                stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else if p != dir.path().join("bin/judge") {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
            }
        }
        let nobody_cache = tempfile::tempdir().unwrap();
        std::os::unix::fs::chown(nobody_cache.path(), Some(NOBODY), Some(NOBODY)).unwrap();
        OpenCopy { dir, nobody_cache }
    }

    /// The folder: run the judge from here (its `problems/` is the copy).
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The copied `judge` binary.
    pub fn judge(&self) -> PathBuf {
        self.dir.path().join("bin/judge")
    }

    /// `judge args...` as uid 65534 (nobody: an ordinary user) with a reset environment and a
    /// compile cache of its own, in this folder, under an outer `timeout` of 180 s.
    pub fn as_nobody(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("setpriv");
        cmd.arg(format!("--reuid={NOBODY}"))
            .arg(format!("--regid={NOBODY}"))
            .args(["--clear-groups", "--reset-env", "env"])
            .arg(format!(
                "JUDGE_CACHE_DIR={}",
                self.nobody_cache.path().display()
            ))
            .args(["timeout", "180"])
            .arg(self.judge())
            .args(args)
            .current_dir(self.path());
        cmd
    }
}

/// The uid and gid of `nobody`, the ordinary user the tests switch to.
pub const NOBODY: u32 = 65534;

/// The problem's first accepted C++ jury solution (by file name).
pub fn accepted_cpp(problem: &str) -> PathBuf {
    let dir = root()
        .join("problems")
        .join(problem)
        .join("submissions/accepted");
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .min()
        .unwrap_or_else(|| panic!("no accepted .cpp in {}", dir.display()))
}

/// `JUDGE_TEST_TIME_SCALE` (set in the cgroup-v2 VM, see `scripts/cgroup-v2-vm`, where
/// emulation is 10-20x slower): what time limits, tolerances and outer timeouts are
/// multiplied by; 1 elsewhere.
pub fn time_scale() -> f64 {
    std::env::var("JUDGE_TEST_TIME_SCALE")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 1.0)
        .unwrap_or(1.0)
}

/// The compile cache shared by the end-to-end tests (under target/, readable by the sandbox's
/// uids), so each fixture compiles once per `cargo test`.
pub fn cache_dir() -> PathBuf {
    let dir = root().join("target/test-judge-cache");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `judge args...` in the repository root with the shared compile cache, under an outer
/// `timeout` of `seconds` (these runs grade real, sometimes hostile, programs).
pub fn judge_timed(seconds: u32, args: &[&str]) -> Run {
    let out = Command::new("timeout")
        .arg(seconds.to_string())
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env("JUDGE_CACHE_DIR", cache_dir())
        .env("CI", "1")
        .current_dir(root())
        .output()
        .expect("spawn timeout judge");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The `--json` contract, strictly: unknown or missing fields fail the test.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub problem: String,
    pub submission: String,
    pub language: String,
    /// What it ran with (`PyPy 7.3.11`, `g++ 12.2.0, gnu++23`).
    pub runtime: Option<String>,
    pub verdict: Option<String>,
    pub compile: Option<Compile>,
    pub tests: Vec<TestRow>,
    pub tests_total: usize,
    pub limits: Limits,
    pub interrupted: bool,
    /// Only for a scoring problem.
    #[serde(default)]
    pub score: Option<Score>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    pub score: f64,
    pub max: Option<f64>,
    pub verdict: String,
    pub groups: Vec<GroupScore>,
    pub tests: Vec<TestPoints>,
    #[serde(default)]
    pub error: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupScore {
    pub group: String,
    pub score: f64,
    pub max: Option<f64>,
    pub aggregation: String,
    pub verdict: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestPoints {
    pub test: String,
    pub score: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compile {
    pub ok: bool,
    pub message: String,
    pub time_ms: u64,
    pub cached: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestRow {
    pub name: String,
    pub verdict: String,
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    pub message: String,
    pub runs: u32,
    /// Only when a scoring problem's output validator gave the test a score.
    #[serde(default)]
    pub validator_score: Option<ValidatorScoreRow>,
}

/// `{"score": 12}` (score.txt) or `{"multiplier": 0.5}` (score_multiplier.txt).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ValidatorScoreRow {
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub multiplier: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_mib: u64,
    pub output_mib: u64,
}

impl Report {
    /// The verdict of a report that was not interrupted (always set then).
    pub fn verdict(&self) -> &str {
        assert!(!self.interrupted, "interrupted report: {self:?}");
        self.verdict
            .as_deref()
            .expect("a complete report has a verdict")
    }

    /// The compile section of a report that got past compiling.
    pub fn compile(&self) -> &Compile {
        self.compile.as_ref().expect("compile section")
    }
}

/// Whether a test's precondition (`met`) holds. When it does not, the test is skipped with a
/// note on stderr, except under CI (`CI` set), where a missing compiler, tool or privilege
/// means the suite is not testing what it claims: that is a failure naming `what`.
pub fn require(met: bool, what: &str) -> bool {
    if !met {
        assert!(
            std::env::var_os("CI").is_none(),
            "{what}: required under CI (unset CI to skip this test)"
        );
        eprintln!("skipped: {what}");
    }
    met
}

/// Whether this test process is root. A test of the sandbox's root path (slot uids, cgroups,
/// switching to another user) needs it: run as an ordinary user, the suite tests that user's
/// path instead, so such a test is skipped with a note, under CI too (`.ci/run` runs the
/// suite as root as well, where none of them may skip: `scripts/new-user-test`).
pub fn require_root(what: &str) -> bool {
    let root = is_root();
    if !root {
        eprintln!("skipped (not root): {what}");
    }
    root
}

/// `stderr` without the sandbox's one warning line (what it cannot use on this machine,
/// e.g. as an ordinary user: "warning: not root: ...; no cgroups (...)"), for tests that
/// check that nothing else was said.
pub fn without_sandbox_warning(stderr: &str) -> String {
    const MECHANISMS: [&str; 4] = [
        "not root:",
        "no cgroups (",
        "no seccomp filter",
        "no Landlock",
    ];
    stderr
        .lines()
        .filter(|l| {
            !(l.starts_with("warning: ")
                && MECHANISMS
                    .iter()
                    .any(|m| l["warning: ".len()..].starts_with(m)))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Processes whose name (comm) is `name`, anywhere on the machine.
pub fn processes_named(name: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim() == name))
        .count()
}

/// Held by each test that runs a program naming its processes (`tests/programs/forkbomb.c`:
/// `judge-forkbomb`, `background.c`: `judge-orphan`) and counts them with
/// [`processes_named`]: the tests share one process, and one test's count must not see
/// another's live processes. (A test that failed while holding it does not stop the others.)
pub fn named_processes() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether this process runs as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The Java installation the `java` on `PATH` belongs to (`<home>/bin/java`, symlinks
/// resolved: `/usr/bin/java` -> `/usr/lib/jvm/<version>-<arch>/bin/java` on Debian).
pub fn java_home() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let java = std::env::split_paths(&path)
        .map(|d| d.join("java"))
        .find(|p| p.is_file())?;
    let real = std::fs::canonicalize(java).ok()?;
    let home = real.parent()?.parent()?.to_path_buf();
    home.join("bin/javac").is_file().then_some(home)
}

/// magic-square's test set as two subtasks by `n` (`[[subtasks]]` lines for its problem.toml):
/// n = 3 worth 30, n = 4 worth 70. `scripts/problemtools-verify` declares the same.
pub const MAGIC_SQUARE_SUBTASKS: &str = "\n[[subtasks]]\nname = \"n3\"\npoints = 30\nwhere = { n = 3 }\n\n[[subtasks]]\nname = \"n4\"\npoints = 70\nwhere = { n = 4 }\n";
