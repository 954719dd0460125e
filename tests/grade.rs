//! End-to-end grading: real programs in every language, compiled and run in the real sandbox
//! through the `judge` binary. Hostile programs run only inside the sandbox's limits, and each
//! `judge` invocation has an outer `timeout`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Report;

struct Graded {
    code: i32,
    reports: Vec<Report>,
    stderr: String,
}

/// `judge grade magic-square <files> --tests <lo shu> --json`, under an outer `timeout`.
fn grade(files: &[&Path], extra: &[&str]) -> Graded {
    let tests = common::lo_shu_tests();
    let mut cmd = Command::new("timeout");
    cmd.arg("120")
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .args(files)
        .args(["--json", "--tests"])
        .arg(tests.path())
        .args(extra)
        .current_dir(common::root())
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .env("CI", "1");
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let reports = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{stderr}")))
        .collect();
    Graded {
        code: out.status.code().unwrap_or(-1),
        reports,
        stderr,
    }
}

/// Grades one fixture and returns (verdict, message of the first test or compile message).
fn verdict_of(file: &str) -> (String, String) {
    let path = common::programs().join(file);
    let g = grade(&[&path], &[]);
    assert_eq!(g.reports.len(), 1, "{file}: {}", g.stderr);
    let r = &g.reports[0];
    let expected_code = if r.verdict() == "AC" { 0 } else { 1 };
    assert_eq!(g.code, expected_code, "{file}: {}", g.stderr);
    let message = match r.tests.first() {
        Some(t) => t.message.clone(),
        None => r.compile().message.clone(),
    };
    (r.verdict().to_string(), message)
}

fn assert_verdict(file: &str, want: &str, message_has: &str) {
    let (verdict, message) = verdict_of(file);
    assert_eq!(verdict, want, "{file}: {message}");
    assert!(
        message.contains(message_has),
        "{file}: `{message}` lacks `{message_has}`"
    );
}

#[test]
fn accepted_in_every_language() {
    for f in ["ac.c", "ac.cpp", "ac.rs", "ac.py", "java_ac/Main.java"] {
        assert_verdict(f, "AC", "");
    }
}

#[test]
fn wrong_answer_in_every_language_with_the_checker_reason() {
    for f in ["wa.c", "wa.cpp", "wa.rs", "wa.py", "java_wa/Main.java"] {
        let (verdict, message) = verdict_of(f);
        assert_eq!(verdict, "WA", "{f}: {message}");
        assert!(!message.is_empty(), "{f}: WA without a reason");
    }
}

#[test]
fn compile_errors_carry_the_compiler_message() {
    for (f, needle) in [
        ("ce.c", "undefined_variable"),
        ("ce.cpp", "conversion"),
        ("ce.rs", "mismatched types"),
        ("ce.py", "SyntaxError"),
        ("java_ce/Main.java", "';' expected"),
    ] {
        let path = common::programs().join(f);
        let g = grade(&[&path], &[]);
        let r = &g.reports[0];
        assert_eq!(r.verdict(), "CE", "{f}");
        assert!(!r.compile().ok);
        assert!(
            r.compile().message.contains(needle),
            "{f}: {}",
            r.compile().message
        );
        assert!(r.tests.is_empty());
        assert_eq!(g.code, 1);
    }
}

#[test]
fn time_limit_by_cpu_loop_and_by_sleep() {
    // Whatever the load (other tests run in parallel), a CPU loop is stopped by its CPU
    // limit: time spent waiting for a CPU extends the wall-clock backstop.
    for f in ["tle_loop.c", "tle_loop.py"] {
        let (verdict, message) = verdict_of(f);
        assert_eq!(verdict, "TLE", "{f}: {message}");
        assert!(message.starts_with("CPU time"), "{f}: {message}");
    }
    let start = std::time::Instant::now();
    assert_verdict("tle_sleep.c", "TLE", "not running (sleeping or blocked)");
    // 1 s limit: the wall-clock backstop fires at 2 s; compile (cached) and start-up add little.
    assert!(start.elapsed().as_secs_f64() < 6.0, "{:?}", start.elapsed());
}

#[test]
fn memory_limit_by_allocating_a_gibibyte() {
    assert_verdict("mle.c", "MLE", "memory");
    assert_verdict("mle.cpp", "MLE", "memory");
    assert_verdict("mle.py", "MLE", "memory");
    // The JVM's heap (-Xmx = the limit) cannot hold the array: its OutOfMemoryError is an MLE.
    assert_verdict("java_mle/Main.java", "MLE", "OutOfMemoryError");
}

/// A binary over 512 MiB (a large initialised static array) is no compile error: the compile
/// file-size limit is 1 GiB (DOMjudge allows 2.5 GB, BAPCtools no limit); the run is judged
/// on its output (WA).
#[test]
fn a_large_initialised_static_array_compiles() {
    let (verdict, message) = verdict_of("static_array.c");
    assert_eq!(verdict, "WA", "{message}");
}

#[test]
fn run_time_errors_name_the_signal_or_exit_code() {
    assert_verdict("segv.c", "RE", "SIGSEGV");
    assert_verdict("abort.c", "RE", "SIGABRT");
    assert_verdict("exit3.c", "RE", "exit code 3");
    assert_verdict("exception.py", "RE", "exit code 1");
    assert_verdict("exception.cpp", "RE", "SIGABRT");
    assert_verdict("panic.rs", "RE", "exit code 101");
    assert_verdict("java_exc/Main.java", "RE", "exit code 1");
    let (verdict, message) = verdict_of("stack_overflow.c");
    assert!(
        verdict == "RE" || verdict == "MLE",
        "stack overflow: {verdict} {message}"
    );
}

#[test]
fn output_limit_by_endless_printing() {
    assert_verdict("ole.c", "OLE", "output");
    assert_verdict("ole.py", "OLE", "output");
}

#[test]
fn fork_bomb_is_contained_and_leaves_nothing_behind() {
    let _named = common::named_processes();
    let start = std::time::Instant::now();
    // A C program may have one process/thread: the seccomp filter refuses every fork before
    // the kernel does any work, so the bomb spins until its CPU limit on every path, whatever
    // the load (a refused fork that reaches the pids cgroup charges kernel memory the kernel
    // frees late: it once made this an OOM kill on a busy machine).
    let (verdict, message) = verdict_of("forkbomb.c");
    assert_eq!(verdict, "TLE", "fork bomb: {message}");
    assert!(
        message.starts_with("CPU time over the 1.00 s limit"),
        "fork bomb: {message}"
    );
    // Contained: it ends by its limits, within the overload bound (10 x 1 s) of a run and
    // its re-run, even on a busy machine.
    assert!(start.elapsed().as_secs() < 45, "{:?}", start.elapsed());
    assert_eq!(common::processes_named("judge-forkbomb"), 0);
}

#[test]
fn no_network_no_escape_no_secrets() {
    assert_verdict("connect.c", "AC", "");
    assert_verdict("write_outside.c", "AC", "");
    for p in [
        "/tmp/judge-escape-marker",
        "/work/judge-escape-marker",
        "/var/tmp/judge-escape-marker",
    ] {
        assert!(!Path::new(p).exists(), "{p} was created");
    }
    assert_verdict("read_secret.c", "AC", "");
}

#[test]
fn background_child_does_not_outlive_the_run() {
    let _named = common::named_processes();
    assert_verdict("background.c", "AC", "");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(common::processes_named("judge-orphan"), 0);
}

#[test]
fn several_submissions_one_json_object_each_and_exit_status() {
    let ac = common::programs().join("ac.c");
    let wa = common::programs().join("wa.py");
    let g = grade(&[&ac, &wa], &["--jobs", "2", "--all"]);
    assert_eq!(g.code, 1);
    let verdicts: Vec<_> = g.reports.iter().map(|r| r.verdict()).collect();
    assert_eq!(verdicts, ["AC", "WA"]);
    let r = &g.reports[0];
    assert_eq!(
        (r.problem.as_str(), r.language.as_str()),
        ("magic-square", "c")
    );
    assert!(r.submission.ends_with("ac.c"));
    assert_eq!(r.tests_total, 1);
    assert_eq!(
        (r.limits.time_ms, r.limits.wall_ms, r.limits.memory_mib),
        (1000, 2000, 64)
    );
    assert_eq!(r.limits.output_mib, 8);
    let t = &r.tests[0];
    assert_eq!(
        (t.name.as_str(), t.verdict.as_str(), t.runs),
        ("1", "AC", 1)
    );
    assert!(t.time_ms < 1000 && t.wall_ms < 2000);
    // Without cgroups (an ordinary user) a program that ends before the first sample of its
    // memory reports 0 (docs/sandbox.md); with them the peak is always measured.
    assert!(t.memory_kib > 0 || !common::is_root(), "{t:?}");
    let _ = (r.compile().time_ms, r.compile().cached);
    assert!(!r.interrupted);
}

#[test]
fn grading_twice_uses_the_compile_cache() {
    let src = tempfile::tempdir().unwrap();
    let file = src.path().join("fresh.c");
    // A unique source so the first compile is a miss.
    let stamp = format!("{:?}", std::time::SystemTime::now());
    std::fs::write(
        &file,
        format!("#include <stdio.h>\n/* {stamp} */\nint main(void) {{ printf(\"2 7 6\\n9 5 1\\n4 3 8\\n\"); return 0; }}\n"),
    )
    .unwrap();
    let first = grade(&[&file], &[]);
    let second = grade(&[&file], &[]);
    assert!(!first.reports[0].compile().cached);
    assert!(second.reports[0].compile().cached);
    assert_eq!(second.reports[0].verdict(), "AC");
}

#[test]
fn human_table_and_usage_errors() {
    let tests = common::lo_shu_tests();
    let ac = common::programs().join("ac.c");
    let run = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .arg(&ac)
        .arg("--tests")
        .arg(tests.path())
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .current_dir(common::root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("TEST") && out.contains("VERDICT"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("AC  1/1 tests passed"),
        "{out}"
    );
    assert_eq!(run.status.code(), Some(0));

    for (args, needle) in [
        (
            vec!["grade", "magic-square", "/nonexistent.c"],
            "nonexistent.c",
        ),
        (
            vec![
                "grade",
                "magic-square",
                "tests/programs/ac.c",
                "--lang",
                "cobol",
            ],
            "cobol",
        ),
        (vec!["grade", "magic-square", "Cargo.toml"], "--lang"),
    ] {
        let r = common::judge(&args);
        r.assert_code(2);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
}

#[test]
fn full_test_set_grading_of_a_reference_style_solution() {
    // The whole magic-square test set with a brute-force-free solution written in C++ by the
    // jury lives in the package; here a simple check: the sample-only run of ac.c fails on
    // the real test set (it prints a fixed square), and stops at the first failure.
    let ac = common::programs().join("ac.c");
    let run = Command::new("timeout")
        .arg("120")
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .arg(&ac)
        .arg("--json")
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .current_dir(common::root())
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&run.stdout);
    let r: Report = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(r.verdict(), "WA");
    assert!(r.tests_total >= 45);
    assert!(
        r.tests.len() < r.tests_total,
        "stops after the first failure"
    );
    assert_eq!(r.tests.last().unwrap().verdict, "WA");
}

#[test]
fn an_ordinary_user_gets_a_sandbox_too() {
    use std::os::unix::fs::PermissionsExt;
    if !common::require_root("switches to an ordinary user") {
        return;
    }
    let _named = common::named_processes();
    let tests = common::lo_shu_tests();
    // The judge and the problems where the ordinary user can read them (the checkout may be
    // in a closed home folder); and the fixtures.
    let world = common::OpenCopy::new();
    let src = tempfile::tempdir().unwrap();
    std::fs::set_permissions(src.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let files = [
        "ac.c",
        "tle_loop.c",
        "tle_sleep.c",
        "mle.c",
        "connect.c",
        "write_outside.c",
        "forkbomb.c",
        "segv.c",
    ];
    for f in files {
        std::fs::copy(common::programs().join(f), src.path().join(f)).unwrap();
    }
    let paths: Vec<PathBuf> = files.iter().map(|f| src.path().join(f)).collect();
    let tests_dir = tests.path().display().to_string();
    let mut args = vec![
        "grade",
        "magic-square",
        "--json",
        "--jobs",
        "2",
        "--tests",
        &tests_dir,
    ];
    let path_args: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    args.extend(path_args.iter().map(String::as_str));
    let out = world.as_nobody(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The sandbox says what it could not use, once.
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    let verdicts: Vec<String> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Report>(l)
                .unwrap_or_else(|e| panic!("{e}: {l}\n{stderr}"))
                .verdict()
                .to_string()
        })
        .collect();
    assert_eq!(
        verdicts,
        ["AC", "TLE", "TLE", "MLE", "AC", "AC", "TLE", "RE"],
        "{stderr}"
    );
    assert_eq!(common::processes_named("judge-forkbomb"), 0);
}

#[test]
fn a_missing_compiler_is_an_environment_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("languages.toml");
    std::fs::write(
        &table,
        "[c]\ncompile = [\"no-such-cc\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\nprocesses = 1\n",
    )
    .unwrap();
    let tests = common::lo_shu_tests();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .arg(common::programs().join("ac.c"))
        .arg("--tests")
        .arg(tests.path())
        .arg("--languages")
        .arg(&table)
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .current_dir(common::root())
        .output()
        .unwrap();
    let stderr = common::without_sandbox_warning(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("`no-such-cc`"),
        "{stderr}"
    );
}

#[test]
fn a_missing_compiler_skips_its_submission_and_grades_the_others() {
    // `judge grade P a.c b.py c.cpp` on a machine without the C compiler: one line naming
    // the submission and the package that brings its compiler; the others are still graded
    // (their rows and verdicts on stdout); exit status 2 at the end, since the grade is incomplete.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("languages.toml");
    std::fs::write(
        &table,
        "[c]\ncompile = [\"no-such-cc\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\nprocesses = 1\npackage = \"no-such-cc-package\"\n",
    )
    .unwrap();
    let tests = common::lo_shu_tests();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .arg(common::programs().join("ac.c"))
        .arg(common::programs().join("ac.py"))
        .arg(common::programs().join("ac.cpp"))
        .arg("--tests")
        .arg(tests.path())
        .arg("--languages")
        .arg(&table)
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .current_dir(common::root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = common::without_sandbox_warning(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("ac.c")
            && errors[0].contains("`no-such-cc`")
            && errors[0].contains("install the Debian package no-such-cc-package"),
        "{stderr}"
    );
    for graded in ["ac.py", "ac.cpp"] {
        let row = stdout
            .lines()
            .find(|l| l.contains(graded))
            .unwrap_or_else(|| panic!("no row for {graded}: {stdout}"));
        assert!(row.contains(" AC "), "{stdout}");
    }
    assert!(!stdout.contains("ac.c "), "{stdout}");
}

/// `judge grade magic-square <sub> --tests <tests>` under an outer `timeout`, for a test to
/// set its environment and folder.
fn grade_one(sub: &Path, tests: &Path) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.arg("120")
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square"])
        .arg(sub)
        .arg("--tests")
        .arg(tests)
        .env("CI", "1");
    cmd
}

#[test]
fn an_unwritable_or_missing_home_falls_back_to_the_var_tmp_cache() {
    let tests = common::lo_shu_tests();
    let sub = common::programs().join("ac.c");
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    // /proc: exists, but no folder can be made in it (not even by root).
    for home in ["/proc", "/nonexistent-judge-home"] {
        let out = grade_one(&sub, tests.path())
            .env_remove("JUDGE_CACHE_DIR")
            .env_remove("XDG_CACHE_HOME")
            .env("HOME", home)
            .current_dir(common::root())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "HOME={home}: {stderr}");
        assert!(!stderr.contains("error"), "HOME={home}: {stderr}");
        assert!(!Path::new(home).join(".cache").exists());
    }
    let fallback = PathBuf::from(format!("/var/tmp/judge-cache-{uid}"));
    assert!(fallback.join("v2").is_dir(), "{}", fallback.display());
}

#[test]
fn a_closed_home_holds_a_private_cache() {
    use std::os::unix::fs::PermissionsExt;
    let tests = common::lo_shu_tests();
    // A home of mode 0700 (root's) inside a folder of mode 0700: closed to the slot uids.
    let outer = tempfile::tempdir().unwrap();
    let home = outer.path().join("home");
    std::fs::create_dir(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    let out = grade_one(&common::programs().join("wa.c"), tests.path())
        .env_remove("JUDGE_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", &home)
        .current_dir(common::root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("WA"), "{stdout}\n{stderr}");
    assert!(
        !common::without_sandbox_warning(&stderr).contains("warning"),
        "{stderr}"
    );
    let cache = home.join(".cache/judge");
    assert!(cache.join("v2").is_dir(), "{stderr}");
    // Private: the slot uids may enter it (root), nobody may list it; an ordinary user's
    // programs run as that user, so it is theirs alone.
    let mode = std::fs::metadata(&cache).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, if common::is_root() { 0o711 } else { 0o700 });
}

#[test]
fn a_cache_dir_another_user_could_write_is_one_error_line_and_is_not_made() {
    use std::os::unix::fs::PermissionsExt;
    let tests = common::lo_shu_tests();
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let cache = shared.path().join("cache");
    let out = grade_one(&common::programs().join("ac.c"), tests.path())
        .env("JUDGE_CACHE_DIR", &cache)
        .current_dir(common::root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let line = common::without_sandbox_warning(&stderr);
    assert_eq!(line.lines().count(), 1, "{stderr}");
    assert!(
        line.starts_with("error: ") && line.contains("writable by others (mode 777)"),
        "{stderr}"
    );
    assert!(!cache.exists());
}

#[test]
fn a_relative_cache_dir_is_taken_from_the_current_folder() {
    use std::os::unix::fs::PermissionsExt;
    let tests = common::lo_shu_tests();
    let sub = common::programs().join("wa.c");
    // The sandbox user must reach the cache: a folder others may enter, not tempdir's 0700.
    let work = tempfile::tempdir().unwrap();
    std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = grade_one(&sub, tests.path())
        .env("JUDGE_CACHE_DIR", "my-cache")
        .current_dir(work.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("WA"), "{stdout}\n{stderr}");
    assert!(work.path().join("my-cache/v2").is_dir());
}

#[test]
fn contest_sources_compile_with_the_precompiled_bits_stdcxx_header() {
    // Two sources that include <bits/stdc++.h>, graded with the shared cache: the header is
    // precompiled from its second use on, so its entry exists now (built here or by an
    // earlier test), and g++ uses it with the built-in flags (`-H` marks it with `!`).
    let dir = tempfile::tempdir().unwrap();
    let subs: Vec<PathBuf> = ["std::cout << LO_SHU", "std::printf(\"%s\", LO_SHU)"]
        .iter()
        .enumerate()
        .map(|(i, print)| {
            let path = dir.path().join(format!("lo_shu_{i}.cpp"));
            let text = format!(
                "// A contest-style source: the include comes first.\n#include <bits/stdc++.h>\n\
                 #define LO_SHU \"2 7 6\\n9 5 1\\n4 3 8\\n\"\nint main() {{ {print}; }}\n"
            );
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let g = grade(&[&subs[0], &subs[1]], &[]);
    assert_eq!(g.code, 0, "{}", g.stderr);
    assert!(
        g.reports.iter().all(|r| r.verdict() == "AC"),
        "{}",
        g.stderr
    );
    assert!(
        !common::without_sandbox_warning(&g.stderr).contains("warning"),
        "{}",
        g.stderr
    );
    // Another test's judge may be building it right now (these compiles then went on
    // without it): wait for that build, bounded by the header build's own wall limit.
    let started = std::time::Instant::now();
    let gch = loop {
        let gch: Vec<PathBuf> = std::fs::read_dir(common::cache_dir().join("v2"))
            .unwrap()
            .map(|e| e.unwrap().path().join("bits/stdc++.h.gch"))
            .filter(|p| p.is_file())
            .collect();
        if !gch.is_empty() || started.elapsed() > std::time::Duration::from_secs(150) {
            break gch;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert_eq!(gch.len(), 1, "{gch:?}");
    let table = judge::compile::LanguageTable::load(None).unwrap();
    let template = table
        .spec(judge::compile::Language::named("cpp").unwrap())
        .compile
        .clone()
        .unwrap();
    // The standard is the first of the table's that g++ takes (g++ 12 and later: gnu++23).
    let standard = &table
        .spec(judge::compile::Language::named("cpp").unwrap())
        .standards[0];
    let args = template[1..].iter().map(|a| match a.as_str() {
        "{binary}" => dir.path().join("a.out").display().to_string(),
        "{source}" | "{files}" => subs[0].display().to_string(),
        a => a.replace("{standard}", standard),
    });
    let include = gch[0].parent().unwrap().parent().unwrap();
    let manual = Command::new(&template[0])
        .args(args)
        .arg("-H")
        .arg("-I")
        .arg(include)
        .output()
        .unwrap();
    assert!(manual.status.success());
    let trace = String::from_utf8_lossy(&manual.stderr);
    assert_eq!(
        trace.lines().next(),
        Some(format!("! {}", gch[0].display()).as_str()),
        "{trace}"
    );
}
