//! `judge doctor`: its `--json` contract (strict structs: an unknown or missing field fails),
//! and that what it says is what the sandbox and a grade then do, as root (cgroup v1 here),
//! as an ordinary user (the polling fallback) and with a compiler missing.
//!
//! `doctor::backend_is_the_one_the_sandbox_uses` also runs in the cgroup-v2 VM
//! (`scripts/cgroup-v2-vm`), where `JUDGE_EXPECT_CGROUP` names the backend doctor must find.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use judge::sandbox::linux::LinuxSandbox;
use judge::sandbox::{Limits, RunRequest, Sandbox, Stdin, Stdout, Termination};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doctor {
    status: String,
    exit_code: i32,
    warning: Option<String>,
    checks: Vec<Check>,
    sandbox: SandboxFacts,
    cache: Folder,
    work_dir: Folder,
    languages: Vec<LanguageFacts>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Check {
    id: String,
    status: String,
    summary: String,
    impact: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SandboxFacts {
    kernel: Option<String>,
    root: bool,
    uid: u32,
    user_namespaces: bool,
    cgroups: CgroupFacts,
    seccomp: bool,
    landlock_abi: Option<u32>,
    run_uids: Vec<u32>,
    fs_view: bool,
    fs_view_why_not: Option<String>,
    setup_error: Option<String>,
    trial_run: Option<TrialRun>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CgroupFacts {
    backend: String,
    controllers: Vec<String>,
    dirs: Vec<String>,
    cpu_time: String,
    peak_memory: String,
    peak_memory_exact: bool,
    why_not: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrialRun {
    argv: Vec<String>,
    exit_code: Option<i32>,
    signal: Option<i32>,
    limit_hit: Option<String>,
    cpu_ms: f64,
    wall_ms: f64,
    peak_memory_kib: u64,
    mechanisms: Vec<String>,
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Folder {
    dir: Option<String>,
    error: Option<String>,
    sandbox_reached: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageFacts {
    id: String,
    package: Option<String>,
    tools: Vec<Tool>,
    standard: Option<String>,
    differs: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tool {
    role: String,
    program: String,
    path: Option<String>,
    version: Option<String>,
}

impl Doctor {
    fn check(&self, id: &str) -> &Check {
        self.checks
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no check `{id}` in {:#?}", self.checks))
    }

    fn language(&self, id: &str) -> &LanguageFacts {
        self.languages
            .iter()
            .find(|l| l.id == id)
            .unwrap_or_else(|| panic!("no language `{id}`"))
    }
}

/// What one `judge doctor --json` printed.
struct Outcome {
    code: i32,
    report: Doctor,
    stderr: String,
}

/// Runs `cmd` (a `judge doctor --json`) and parses its report strictly; checks what holds
/// for every report: the exit status is the report's, `status` is the worst check's, a check
/// has an impact exactly when it is not ok, and an error is one `error:` line.
fn doctor_json(cmd: &mut Command) -> Outcome {
    let out = cmd.output().expect("spawn judge doctor");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report: Doctor = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"));
    let code = out.status.code().unwrap_or(-1);
    assert_eq!(code, report.exit_code, "{stdout}\n{stderr}");
    let statuses: Vec<&str> = report.checks.iter().map(|c| c.status.as_str()).collect();
    let worst = if statuses.contains(&"error") {
        "error"
    } else if statuses.iter().any(|s| *s == "degraded" || *s == "missing") {
        "degraded"
    } else {
        "ok"
    };
    assert_eq!(report.status, worst, "{stdout}");
    assert_eq!(
        code,
        match worst {
            "ok" => 0,
            "degraded" => 1,
            _ => 2,
        }
    );
    for c in &report.checks {
        assert!(
            ["ok", "degraded", "missing", "error"].contains(&c.status.as_str()),
            "{c:?}"
        );
        assert_eq!(c.impact.is_some(), c.status != "ok", "{c:?}");
        assert!(!c.summary.is_empty() && !c.summary.contains('\n'), "{c:?}");
    }
    if code == 2 {
        assert!(common::the_error_line(&common::Run {
            code,
            stdout: stdout.to_string(),
            stderr: stderr.clone(),
        })
        .starts_with("error: grading cannot work here: "));
    } else {
        // Nothing but the sandbox's own note when a run found it cannot have a view.
        for line in stderr.lines() {
            assert!(
                line.starts_with("warning: no private file-system view") && !report.sandbox.fs_view,
                "{stderr}"
            );
        }
    }
    let ids: Vec<&str> = report.checks.iter().map(|c| c.id.as_str()).collect();
    // Then one line per language of languages.toml, in its order.
    let mut want: Vec<String> = [
        "user-namespaces",
        "sandbox-user",
        "cgroups",
        "seccomp",
        "landlock",
        "fs-view",
        "trial-run",
        "cache",
        "work-dir",
    ]
    .map(String::from)
    .to_vec();
    want.extend(judge::compile::Language::all().map(|l| format!("language:{}", l.id())));
    assert_eq!(ids, want);
    assert_eq!(
        &ids[9..14],
        [
            "language:c",
            "language:cpp",
            "language:rust",
            "language:python",
            "language:java"
        ]
    );
    Outcome {
        code,
        report,
        stderr,
    }
}

/// `judge doctor --json` under an outer `timeout` (180 s; up to 600 s in the emulated
/// cgroup-v2 VM, where it took over 180 s on a busy host), with the shared compile cache.
fn doctor_cmd() -> Command {
    let mut cmd = Command::new("timeout");
    cmd.arg(format!("{:.0}", (180.0 * common::time_scale()).min(600.0)))
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(["doctor", "--json"])
        .env("JUDGE_CACHE_DIR", cache_dir())
        .env("CI", "1")
        .current_dir(common::root());
    cmd
}

/// The compile cache of this run: the VM script's when it sets one, else the shared one.
fn cache_dir() -> PathBuf {
    std::env::var_os("JUDGE_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(common::cache_dir)
}

/// `judge grade magic-square ac.c` on the Lo Shu test, with `extra` arguments, as a grade
/// after doctor would run.
fn grade_ac(extra: &[&str]) -> common::Run {
    let tests = common::lo_shu_tests();
    let ac = common::programs().join("ac.c").display().to_string();
    let dir = tests.path().display().to_string();
    let mut args = vec!["grade", "magic-square", &ac, "--tests", &dir];
    args.extend_from_slice(extra);
    common::judge_timed(120, &args)
}

/// Mode 0755 for `dir` and 0644 (0755 if executable) for the files in it.
fn open_to_all(dir: &Path) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let exec = std::fs::metadata(&p).unwrap().permissions().mode() & 0o100 != 0;
        let mode = if exec { 0o755 } else { 0o644 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// True on a host whose cgroups are v1 only (this machine kind), unless the VM script says
/// which backend to expect.
fn cgroup_v1_host() -> bool {
    std::env::var_os("JUDGE_EXPECT_CGROUP").is_none()
        && Path::new("/sys/fs/cgroup/memory/cgroup.procs").exists()
        && !Path::new("/sys/fs/cgroup/cgroup.controllers").exists()
}

fn run_true(sandbox: &LinuxSandbox) -> Termination {
    let outcome = sandbox
        .run(&RunRequest {
            stop: None,
            companions: None,
            argv: vec!["/bin/true".into()],
            env: Vec::new(),
            stdin: Stdin::Null,
            stdout: Stdout::Capture,
            read_only: Vec::new(),
            work_dir: None,
            work_files: Vec::new(),
            limits: Limits {
                cpu_time: std::time::Duration::from_secs(2),
                wall_time: std::time::Duration::from_secs(30),
                memory_bytes: 64 << 20,
                output_bytes: 1 << 20,
                stderr_bytes: 4096,
                processes: 1,
            },
        })
        .expect("run /bin/true");
    outcome.termination
}

#[test]
fn as_root_on_cgroup_v1_it_finds_every_mechanism_and_exits_0() {
    if !common::require_root("the root path on cgroup v1") || !cgroup_v1_host() {
        return;
    }
    let Outcome { code, report, .. } = doctor_json(&mut doctor_cmd());
    assert_eq!(code, 0, "{report:#?}");
    assert_eq!(report.status, "ok");
    assert!(report.checks.iter().all(|c| c.status == "ok"));
    assert_eq!(report.warning, None);
    let s = &report.sandbox;
    assert!(s.root && s.uid == 0 && s.seccomp && s.fs_view, "{s:#?}");
    assert!(s.kernel.is_some() && s.setup_error.is_none() && s.fs_view_why_not.is_none());
    let cg = &s.cgroups;
    assert_eq!(cg.backend, "v1");
    assert_eq!(cg.controllers, ["memory", "pids", "cpuacct"]);
    assert_eq!(
        cg.dirs,
        [
            "/sys/fs/cgroup/memory/judge",
            "/sys/fs/cgroup/pids/judge",
            "/sys/fs/cgroup/cpuacct/judge"
        ]
    );
    assert!(cg.cpu_time.contains("cpuacct.usage"), "{cg:?}");
    assert!(
        cg.peak_memory.contains("memory.max_usage_in_bytes"),
        "{cg:?}"
    );
    assert!(cg.peak_memory_exact && cg.why_not.is_none());
    assert!(report
        .check("cgroups")
        .summary
        .starts_with("v1: memory, pids, cpuacct"));
    // One slot: one uid of the slot range.
    assert_eq!(s.run_uids.len(), 1, "{s:?}");
    assert!((60000..65000).contains(&s.run_uids[0]), "{s:?}");
    let t = s.trial_run.as_ref().expect("a trial run");
    assert_eq!(
        (t.exit_code, t.signal, &t.limit_hit, &t.error),
        (Some(0), None, &None, &None)
    );
    assert!(
        t.argv[0].starts_with(&cache_dir().display().to_string()),
        "{t:?}"
    );
    assert!(t.wall_ms > 0.0 && t.cpu_ms >= 0.0, "{t:?}");
    // The slot's memory cgroup saw the program.
    assert!(t.peak_memory_kib > 0, "{t:?}");
    let abi = s.landlock_abi.expect("Landlock here");
    assert!(report
        .check("landlock")
        .summary
        .starts_with(&format!("ABI {abi}: ")));
    for used in [
        "slot processes (init + spawner)",
        "mount namespace (own file-system view)",
        "cgroup v1 (memory, pids, cpuacct)",
        "seccomp",
    ] {
        assert!(t.mechanisms.iter().any(|m| m == used), "{used}: {t:?}");
    }
    assert!(t
        .mechanisms
        .contains(&format!("slot uid {}", s.run_uids[0])));
    assert_eq!(
        report.cache.dir.as_deref(),
        Some(&*cache_dir().display().to_string())
    );
    assert_eq!(report.cache.sandbox_reached, Some(true));
    assert_eq!(report.work_dir.sandbox_reached, Some(true));
    assert!(report.cache.error.is_none() && report.work_dir.error.is_none());
    let packages: Vec<(&str, Option<&str>)> = report
        .languages
        .iter()
        .map(|l| (l.id.as_str(), l.package.as_deref()))
        .collect();
    assert_eq!(
        packages,
        [
            ("c", Some("gcc")),
            ("cpp", Some("g++")),
            ("rust", Some("rustc")),
            ("python", Some("pypy3")),
            ("java", Some("default-jdk-headless")),
            ("kotlin", Some("kotlin")),
            ("csharp", Some("mono-mcs")),
            ("go", Some("golang-go")),
            ("haskell", Some("ghc")),
            ("javascript", Some("nodejs")),
            ("pypy3", Some("pypy3")),
            ("cpython", Some("python3")),
            ("pascal", Some("fpc")),
            ("ocaml", Some("ocaml-nox")),
            ("ruby", Some("ruby")),
            ("php", Some("php-cli")),
            ("scala", Some("scala")),
            ("lisp", Some("sbcl")),
            ("prolog", Some("swi-prolog")),
            ("bash", Some("bash")),
        ]
    );
    for l in &report.languages {
        assert!(!l.tools.is_empty(), "{l:?}");
        for tool in &l.tools {
            assert!(tool.path.is_some() && tool.version.is_some(), "{l:?}");
        }
    }
    let python = &report.language("python").tools;
    assert_eq!(python.len(), 1);
    assert_eq!(
        (python[0].role.as_str(), python[0].program.as_str()),
        ("compile and run", "/usr/bin/pypy3")
    );
    assert!(python[0]
        .version
        .as_deref()
        .unwrap()
        .starts_with("Python 3"));
    // Each language as ICPC contests run it: Python 3 as PyPy3, C++ at gnu++23, a Kotlin of
    // 1.9 or later; said where it is not.
    for l in &report.languages {
        assert_eq!(l.differs, None, "{l:?}");
    }
    assert_eq!(report.language("cpp").standard.as_deref(), Some("gnu++23"));
    assert!(report
        .check("language:cpp")
        .summary
        .ends_with("-std=gnu++23"));

    // What a grade then does: no warning, the sandbox uses cgroups and a view of its own.
    let sandbox = LinuxSandbox::new(1).expect("sandbox");
    assert_eq!(sandbox.warning(), None);
    assert!(sandbox.uses_cgroups());
    assert_eq!(run_true(&sandbox), Termination::Exited(0));
    assert!(sandbox.has_fs_view());
    let graded = grade_ac(&[]);
    graded.assert_code(0);
    assert!(!graded.stderr.contains("warning:"), "{}", graded.stderr);
}

#[test]
fn as_an_ordinary_user_it_reports_the_polling_fallback_a_grade_warns_of() {
    if !common::require_root("switches to an ordinary user") {
        return;
    }
    // The judge binary, the problems, the submission and the tests where uid 65534 may read
    // them (the checkout may be in a closed home folder).
    let world = common::OpenCopy::new();
    let src = tempfile::tempdir().unwrap();
    std::fs::copy(common::programs().join("ac.c"), src.path().join("ac.c")).unwrap();
    open_to_all(src.path());
    let tests = common::lo_shu_tests();
    let as_nobody = |args: &[&str]| world.as_nobody(args);
    let Outcome { code, report, .. } = doctor_json(&mut as_nobody(&["doctor", "--json"]));
    // Degraded (not root, no cgroups; rustc is not on the reset PATH): exit status 1.
    assert_eq!(code, 1, "{report:#?}");
    let s = &report.sandbox;
    assert!(!s.root && s.uid == 65534 && s.user_namespaces, "{s:#?}");
    assert_eq!(s.run_uids, [65534]);
    assert_eq!(s.cgroups.backend, "none");
    assert!(s.cgroups.controllers.is_empty() && s.cgroups.dirs.is_empty());
    assert!(!s.cgroups.peak_memory_exact);
    let why = s.cgroups.why_not.as_deref().expect("why no cgroups");
    let cgroups = report.check("cgroups");
    assert_eq!(cgroups.status, "degraded");
    let impact = cgroups.impact.as_deref().unwrap();
    assert!(
        impact.contains("polling") && impact.contains(why),
        "{impact}"
    );
    assert_eq!(report.check("sandbox-user").status, "degraded");
    assert!(report
        .check("sandbox-user")
        .impact
        .as_deref()
        .unwrap()
        .starts_with("not root"));
    let t = s.trial_run.as_ref().expect("a trial run");
    assert_eq!(t.exit_code, Some(0), "{t:?}");
    assert!(
        t.mechanisms
            .iter()
            .any(|m| m == "polling /proc (no cgroups)"),
        "{t:?}"
    );
    assert!(
        t.mechanisms
            .iter()
            .any(|m| m.starts_with("user, pid, network")),
        "{t:?}"
    );
    assert_eq!(report.cache.sandbox_reached, Some(true));
    assert_eq!(report.work_dir.sandbox_reached, Some(true));
    assert!(report.check("language:c").status == "ok");
    let warning = report.warning.as_deref().expect("a warning");
    assert!(
        warning.contains(impact) && !warning.contains('\n'),
        "{warning}"
    );

    // A grade as the same user prints the same warning, once, and grades with it.
    let out = as_nobody(&["grade", "magic-square", "--tests"])
        .arg(tests.path())
        .arg(src.path().join("ac.c"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings, [format!("warning: {warning}")], "{stderr}");
    // Its file-system view is the one doctor reported: no second warning saying it failed.
    assert!(s.fs_view, "{s:?}");
}

#[test]
fn a_missing_compiler_is_reported_missing_with_its_package() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("languages.toml");
    std::fs::write(
        &table,
        "[c]\npackage = \"gcc\"\ncompile = [\"no-such-cc\", \"-o\", \"{binary}\", \"{source}\"]\n\
         run = [\"{binary}\"]\n\n\
         [python]\nrun = [\"/no/such/python3\", \"{source}\"]\n",
    )
    .unwrap();
    let Outcome { code, report, .. } = doctor_json(doctor_cmd().arg("--languages").arg(&table));
    assert!(code >= 1, "{report:#?}");
    let c = report.check("language:c");
    assert_eq!(c.status, "missing");
    assert_eq!(c.summary, "compiler `no-such-cc` not found in PATH");
    let impact = c.impact.as_deref().unwrap();
    assert!(
        impact.ends_with("install the Debian package gcc"),
        "{impact}"
    );
    let facts = report.language("c");
    assert_eq!(facts.package.as_deref(), Some("gcc"));
    assert_eq!(facts.tools.len(), 1);
    let tool = &facts.tools[0];
    assert_eq!(
        (tool.role.as_str(), tool.program.as_str()),
        ("compile", "no-such-cc")
    );
    assert!(tool.path.is_none() && tool.version.is_none());
    // A replaced entry without `package`: no package to name.
    let py = report.check("language:python");
    assert_eq!(py.status, "missing");
    assert_eq!(py.summary, "interpreter `/no/such/python3` not found");
    assert!(
        py.impact.as_deref().unwrap().contains("names no package"),
        "{py:?}"
    );
    assert_eq!(report.language("python").package, None);
    // Languages the file does not replace keep the built-in entry and its package.
    assert_eq!(report.language("cpp").package.as_deref(), Some("g++"));

    // A grade of a C submission with that table stops with an error naming the compiler.
    let graded = grade_ac(&["--languages", &table.display().to_string()]);
    graded.assert_code(2);
    assert!(common::the_error_line(&graded).contains("`no-such-cc`"));
}

#[test]
fn an_invalid_language_table_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("languages.toml");
    std::fs::write(&table, "[c]\nrun = [\"{binary}\"]\npackages = \"gcc\"\n").unwrap();
    let run = common::judge(&["doctor", "--languages", &table.display().to_string()]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let line = common::the_error_line(&run);
    assert!(
        line.contains("packages") && line.contains("languages.toml"),
        "{line}"
    );
}

#[test]
fn backend_is_the_one_the_sandbox_uses() {
    // The sandbox first: in a delegated cgroup v2 subtree it moves this process into a leaf
    // of its own, and the judge started next shares that leaf (see scripts/cgroup-v2-vm).
    let sandbox = LinuxSandbox::new(1).expect("sandbox");
    assert_eq!(run_true(&sandbox), Termination::Exited(0));
    let Outcome { report, stderr, .. } = doctor_json(&mut doctor_cmd());
    let s = &report.sandbox;
    let in_use = sandbox.in_use();
    let backend = in_use.cgroups.as_ref().map_or("none".to_string(), |b| {
        match (b.version, b.delegated) {
            (1, _) => "v1",
            (_, false) => "v2",
            (_, true) => "v2-delegated",
        }
        .to_string()
    });
    assert_eq!(s.cgroups.backend, backend, "{s:#?}\n{stderr}");
    assert_eq!(sandbox.uses_cgroups(), s.cgroups.backend != "none");
    assert_eq!(sandbox.warning(), report.warning);
    assert_eq!(sandbox.has_fs_view(), s.fs_view);
    assert_eq!(in_use.seccomp, s.seccomp);
    assert_eq!(in_use.peak_memory, s.cgroups.peak_memory);
    let t = s.trial_run.as_ref().expect("a trial run");
    assert_eq!(t.error, None, "{t:?}");
    // Two sandboxes lease different slot uids; everything else they use is the same.
    let without_uid = |m: &[String]| -> Vec<String> {
        m.iter()
            .map(|m| match m.strip_prefix("slot uid ") {
                Some(_) => "slot uid".to_string(),
                None => m.clone(),
            })
            .collect()
    };
    assert_eq!(
        without_uid(&t.mechanisms),
        without_uid(&in_use.mechanisms())
    );
    match std::env::var("JUDGE_EXPECT_CGROUP").as_deref() {
        Ok(want) => assert_eq!(s.cgroups.backend, want, "{s:#?}"),
        Err(_) if cgroup_v1_host() && common::is_root() => assert_eq!(s.cgroups.backend, "v1"),
        Err(_) => {}
    }
}

#[test]
fn the_table_says_the_same_in_words_and_colours_only_a_terminal() {
    let json = doctor_json(&mut doctor_cmd()).report;
    let table = |tty: bool, no_color: bool| -> (i32, String) {
        let judge = env!("CARGO_BIN_EXE_judge");
        let mut cmd = if tty {
            // `script` gives the command a terminal.
            let mut c = Command::new("script");
            c.args(["-qec", &format!("{judge} doctor"), "/dev/null"]);
            c
        } else {
            let mut c = Command::new(judge);
            c.arg("doctor");
            c
        };
        cmd.env("JUDGE_CACHE_DIR", cache_dir())
            .env_remove("NO_COLOR")
            .env("TERM", "xterm")
            .current_dir(common::root());
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let out = cmd.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
        )
    };
    let (code, piped) = table(false, false);
    assert_eq!(code, json.exit_code, "{piped}");
    assert!(!piped.contains('\x1b'), "{piped}");
    let lines: Vec<&str> = piped.lines().collect();
    assert!(
        lines[0].starts_with("judge doctor: what a grade gets here"),
        "{piped}"
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["CHECK", "STATUS", "FOUND"]
    );
    for c in &json.checks {
        let row = lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(c.id.as_str()))
            .unwrap_or_else(|| panic!("no row for {}: {piped}", c.id));
        assert_eq!(
            row.split_whitespace().nth(1),
            Some(c.status.as_str()),
            "{row}"
        );
        if let Some(impact) = &c.impact {
            assert!(piped.contains(&format!("-> {impact}")), "{piped}");
        }
    }
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("Grading here: ")
            && last.ends_with(&format!("(exit status {})", json.exit_code)),
        "{last}"
    );
    if let Some(w) = &json.warning {
        assert!(piped.contains(&format!("  warning: {w}\n")), "{piped}");
    }
    if !common::require(
        Path::new("/usr/bin/script").exists(),
        "needs script(1) for a terminal",
    ) {
        return;
    }
    let (_, coloured) = table(true, false);
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    let (_, no_color) = table(true, true);
    assert!(!no_color.contains('\x1b'), "{no_color:?}");
    assert_eq!(no_color.lines().count(), piped.lines().count());
}

#[test]
fn doctor_takes_no_positional_arguments() {
    let run = common::judge(&["doctor", "magic-square"]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
}
