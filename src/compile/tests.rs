//! Compiling real programs with the real toolchains. A language whose compiler is missing is
//! skipped with a printed note, except under CI (`CI` set), where that fails the test.

use super::language::lang;
use super::toolchain::{minimal_cover, resolve_program};
use super::*;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::SystemTime;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cache: Cache,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let cache = Cache::new(root.join("cache"));
    Fixture {
        _dir: dir,
        root,
        cache,
    }
}

/// A fixture whose compiles run outside the sandbox: its stand-in compilers log their
/// calls beside themselves, which a compiler in the sandbox cannot write.
fn host_fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let mut cache = Cache::new(root.join("cache"));
    cache.on_host = true;
    Fixture {
        _dir: dir,
        root,
        cache,
    }
}

impl Fixture {
    fn submit(&self, name: &str, text: &str) -> Submission {
        let path = self.root.join(name);
        fs::write(&path, text).unwrap();
        Submission::from_path(path, None).unwrap()
    }

    fn compile(&self, sub: &Submission) -> Compiled {
        self.compile_with(
            sub,
            &LanguageTable::load(None).unwrap(),
            &CompileLimits::default(),
        )
    }

    fn compile_with(
        &self,
        sub: &Submission,
        table: &LanguageTable,
        limits: &CompileLimits,
    ) -> Compiled {
        compile(sub, table, limits, &self.cache).unwrap()
    }
}

/// Whether the toolchain for `lang` is installed; prints a note if not.
fn available(lang: Language) -> bool {
    let table = LanguageTable::load(None).unwrap();
    let spec = table.spec(lang);
    let compiler_ok = spec
        .compile
        .as_ref()
        .is_none_or(|c| resolve_program(&c[0]).is_some());
    let runtime_ok = resolve_interpreter(lang, spec).is_ok();
    if !(compiler_ok && runtime_ok) {
        assert!(
            std::env::var_os("CI").is_none(),
            "{lang}: its compiler or runtime is not installed (required under CI)"
        );
        eprintln!("note: skipping {lang} checks: its compiler or runtime is not installed");
    }
    compiler_ok && runtime_ok
}

/// Runs a trusted test program (our own source) under an outer `timeout`.
fn run_trusted(argv: &[String], stdin: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("timeout")
        .arg("20")
        .args(argv)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{argv:?} failed: {:?}", out.status);
    String::from_utf8(out.stdout).unwrap()
}

fn failure(c: &Compiled) -> &str {
    match &c.outcome {
        CompileOutcome::Failed { message } => message,
        CompileOutcome::Ok => panic!("expected a compile error"),
    }
}

fn test_limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(2),
        wall_time: Duration::from_secs(4),
        memory_bytes: 256 * MIB,
        output_bytes: 1 << 20,
        stderr_bytes: 1 << 16,
        processes: 1,
    }
}

const SUM_C: &str = "#include <stdio.h>\n#include <math.h>\nint main(void){long a,b; if(scanf(\"%ld %ld\",&a,&b)!=2) return 1; printf(\"%ld %.0f\\n\", a+b, sqrt(16.0)); return 0;}\n";
const SUM_CPP: &str = "#include <iostream>\n#include <vector>\nint main(){long a,b; std::cin>>a>>b; std::vector<long> v{a,b}; std::cout<<v[0]+v[1]<<\" cpp\\n\";}\n";
const SUM_RS: &str = "use std::io::Read;\nfn main(){let mut s=String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let t: i64 = s.split_whitespace().map(|x| x.parse::<i64>().unwrap()).sum(); println!(\"{t} rust\");}\n";

#[test]
fn native_languages_compile_and_run() {
    let f = fixture();
    for (lang, name, src, want) in [
        (lang("c"), "a.c", SUM_C, "5 4\n"),
        (lang("cpp"), "a.cpp", SUM_CPP, "5 cpp\n"),
        (lang("rust"), "a.rs", SUM_RS, "5 rust\n"),
    ] {
        if !available(lang) {
            continue;
        }
        let c = f.compile(&f.submit(name, src));
        assert_eq!(c.outcome, CompileOutcome::Ok, "{lang}");
        assert!(!c.cached);
        let entry = c.entry_dir.clone().unwrap();
        let req = c
            .run_request(&test_limits(), Stdin::Null, Some(f.root.clone()))
            .unwrap();
        assert_eq!(req.argv, vec![entry.join("solution").display().to_string()]);
        assert_eq!(req.read_only, vec![entry.clone()]);
        let mode = fs::metadata(&req.argv[0]).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o755,
            "{lang} binary must be runnable by the sandbox uid"
        );
        assert_eq!(
            fs::metadata(&entry).unwrap().permissions().mode() & 0o777,
            0o755
        );
        assert_eq!(run_trusted(&req.argv, "2 3\n"), want, "{lang}");
    }
}

#[test]
fn python_is_syntax_checked_and_run_from_the_cache() {
    if !available(lang("python")) {
        return;
    }
    let f = fixture();
    let c = f.compile(&f.submit(
        "s.py",
        "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n",
    ));
    assert_eq!(c.outcome, CompileOutcome::Ok);
    let entry = c.entry_dir.clone().unwrap();
    let argv = c.run_argv(256 * MIB).unwrap();
    // PyPy3 where it is installed, else CPython.
    let pypy = Path::new("/usr/bin/pypy3").exists();
    assert_eq!(
        argv[0],
        if pypy {
            "/usr/bin/pypy3"
        } else {
            "/usr/bin/python3"
        }
    );
    let runtime = fs::canonicalize(&argv[0]).unwrap();
    let runtime = runtime.file_name().unwrap().to_string_lossy().into_owned();
    let script = entry.join("solution.py");
    assert_eq!(argv.last().unwrap(), &script.display().to_string());
    assert_eq!(
        fs::metadata(&script).unwrap().permissions().mode() & 0o777,
        0o644
    );
    assert_eq!(c.read_only[0], entry);
    assert!(
        c.read_only
            .iter()
            .any(|d| d.starts_with("/usr/lib") && d.to_string_lossy().contains(&runtime)),
        "{:?}",
        c.read_only
    );
    assert!(c.env.iter().any(|(k, v)| k == "PYTHONHASHSEED" && v == "0"));
    assert_eq!(run_trusted(&argv, "2 3 4"), "9\n");

    let bad = f.compile(&f.submit("bad.py", "def f(:\n    pass\n"));
    let msg = failure(&bad);
    assert!(msg.contains("SyntaxError"), "{msg}");
    assert!(bad.run_argv(MIB).is_none());
}

#[test]
fn java_compiles_with_detected_class_and_runs() {
    if !available(lang("java")) {
        return;
    }
    let f = fixture();
    let src = "import java.util.*;\n// public class Wrong {}\npublic class Adder {\n  public static void main(String[] args) {\n    Scanner s = new Scanner(System.in); long t = 0;\n    while (s.hasNextLong()) t += s.nextLong();\n    System.out.println(t + \" java\");\n  }\n}\n";
    let c = f.compile(&f.submit("whatever.java", src));
    assert_eq!(c.outcome, CompileOutcome::Ok, "{:?}", c.outcome);
    let entry = c.entry_dir.clone().unwrap();
    assert!(entry.join("Adder.class").is_file());
    assert_eq!(
        fs::metadata(entry.join("Adder.class"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o644
    );
    let req = c
        .run_request(&test_limits(), Stdin::Null, Some(f.root.clone()))
        .unwrap();
    assert!(req.argv.contains(&"-Xmx256m".to_string()), "{:?}", req.argv);
    assert_eq!(req.argv.last().unwrap(), "Adder");
    assert!(req.limits.processes >= 64);
    // The JDK home, and (on Debian) the /etc directory jvm.cfg links into.
    let java_home = fs::canonicalize("/usr/bin/java").unwrap();
    let java_home = java_home.parent().unwrap().parent().unwrap();
    assert!(
        req.read_only.iter().any(|d| java_home.starts_with(d)),
        "{:?}",
        req.read_only
    );
    if let Ok(cfg) = fs::canonicalize(java_home.join("lib/jvm.cfg")) {
        assert!(
            req.read_only.iter().any(|d| cfg.starts_with(d)),
            "{:?}",
            req.read_only
        );
    }
    assert_eq!(run_trusted(&req.argv, "40 2"), "42 java\n");
}

#[test]
fn compile_errors_are_data_with_the_compiler_message() {
    let f = fixture();
    let cases = [
        (
            lang("c"),
            "ce.c",
            "int main(void) { return undefined_name; }\n",
            "undefined_name",
        ),
        (
            lang("cpp"),
            "ce.cpp",
            "int main() { std::vector<int> v; }\n",
            "vector",
        ),
        (
            lang("rust"),
            "ce.rs",
            "fn main() { let x: u32 = \"s\"; }\n",
            "mismatched types",
        ),
        (
            lang("java"),
            "Main.java",
            "public class Main { void f() { int x = \"s\"; } }\n",
            "incompatible types",
        ),
    ];
    for (lang, name, src, needle) in cases {
        if !available(lang) {
            continue;
        }
        let c = f.compile(&f.submit(name, src));
        let msg = failure(&c);
        assert!(msg.contains(needle), "{lang}: {msg}");
        // Paths are shown relative to the build directory.
        assert!(
            !msg.contains(&f.root.display().to_string()),
            "{lang}: {msg}"
        );
        assert!(c.entry_dir.is_some(), "compile errors are cached");
        assert!(c
            .run_request(&test_limits(), Stdin::Null, Some(f.root.clone()))
            .is_none());
    }
}

#[test]
fn long_compiler_output_is_trimmed() {
    if !available(lang("c")) {
        return;
    }
    let f = fixture();
    let body: String = (0..200)
        .map(|i| format!("int f{i}(void) {{ return missing{i}; }}\n"))
        .collect();
    let c = f.compile(&f.submit("many.c", &body));
    let msg = failure(&c);
    assert!(msg.lines().count() <= MESSAGE_LINES + 1, "{msg}");
    assert!(msg.len() <= MESSAGE_BYTES + 100);
    let last = msg.lines().last().unwrap();
    assert!(
        last.starts_with("... (") && last.ends_with(" more lines)"),
        "{last}"
    );
    assert!(msg.contains("missing0"));
}

#[test]
fn trim_message_rules() {
    assert_eq!(trim_message("a\nb\n", 40, 4096), "a\nb");
    assert_eq!(
        trim_message("1\n2\n3\n4\n", 2, 4096),
        "1\n2\n... (2 more lines)"
    );
    assert_eq!(
        trim_message("aaaa\nbbbb\ncccc", 40, 10),
        "aaaa\nbbbb\n... (1 more line)"
    );
    let long = "é".repeat(100);
    let t = trim_message(&long, 40, 11);
    assert!(t.starts_with("ééééé ..."), "{t}");
    assert_eq!(trim_message("", 40, 4096), "");
}

#[test]
fn second_compile_is_a_cache_hit() {
    if !available(lang("c")) {
        return;
    }
    let f = fixture();
    let sub = f.submit("a.c", SUM_C);
    let first = f.compile(&sub);
    assert!(!first.cached);
    let binary = first.entry_dir.clone().unwrap().join("solution");
    let mtime = |p: &Path| -> SystemTime { fs::metadata(p).unwrap().modified().unwrap() };
    let before = mtime(&binary);
    std::thread::sleep(Duration::from_millis(20));

    let second = f.compile(&sub);
    assert!(second.cached);
    assert_eq!(second.outcome, CompileOutcome::Ok);
    assert_eq!(second.entry_dir, first.entry_dir);
    assert_eq!(second.compile_time, first.compile_time);
    assert_eq!(mtime(&binary), before, "cache hit must not recompile");
    assert_eq!(second.run_argv(MIB), first.run_argv(MIB));

    // Same content at another path: same entry. Different content: different entry.
    let copy = f.compile(&f.submit("copy.c", SUM_C));
    assert!(copy.cached);
    let other = f.compile(&f.submit("b.c", &SUM_C.replace("a+b", "a-b")));
    assert!(!other.cached);
    assert_ne!(other.entry_dir, first.entry_dir);
    // Same source as another language is another entry.
    let as_cpp = f.compile(&Submission::from_path(f.root.join("a.c"), Some(lang("cpp"))).unwrap());
    assert!(!as_cpp.cached);
    assert_ne!(as_cpp.entry_dir, first.entry_dir);
}

#[test]
fn the_same_submission_compiled_at_once_is_compiled_once() {
    // Four compiles of one source at the same time (as judges running side by side, or the
    // threads of one): one runs the compiler, the others wait for its entry.
    if !available(lang("cpp")) {
        return;
    }
    let f = fixture();
    let sub = f.submit(
        "a.cpp",
        "#include <iostream>\nint main() { std::cout << 1; }\n",
    );
    let compiled: Vec<Compiled> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| f.compile(&sub))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(compiled.iter().filter(|c| !c.cached).count(), 1);
    assert!(compiled.iter().all(|c| c.outcome == CompileOutcome::Ok));
    assert!(compiled
        .iter()
        .all(|c| c.entry_dir == compiled[0].entry_dir));
}

#[test]
fn compile_errors_are_cached() {
    if !available(lang("c")) {
        return;
    }
    let f = fixture();
    let sub = f.submit("ce.c", "int main( {\n");
    let first = f.compile(&sub);
    let second = f.compile(&sub);
    assert!(!first.cached && second.cached);
    assert_eq!(first.outcome, second.outcome);
}

/// A binary over the file-size limit is a compile error (the linker is killed, the driver
/// reports it), which is cached; under a larger limit the same source compiles (the limits are
/// part of the key), and its 32 MiB of zero data are holes in the entry.
#[test]
fn a_compile_error_from_the_file_size_limit_is_not_kept_when_the_limit_grows() {
    if !available(lang("c")) {
        return;
    }
    let f = fixture();
    let sub = f.submit(
        "big.c",
        "char a[32 << 20] = {1};\nint main(void) { return a[5]; }\n",
    );
    let table = LanguageTable::load(None).unwrap();
    let small = CompileLimits {
        binary_bytes: 8 * MIB,
        ..CompileLimits::default()
    };
    let first = f.compile_with(&sub, &table, &small);
    assert!(!first.is_ok(), "{:?}", first.outcome);
    assert!(f.compile_with(&sub, &table, &small).cached);
    let big = f.compile_with(&sub, &table, &CompileLimits::default());
    assert!(big.is_ok() && !big.cached, "{:?}", big.outcome);
    let binary = big.entry_dir.as_ref().unwrap().join("solution");
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(&binary).unwrap();
    assert!(meta.len() > 32 * MIB);
    assert!(
        meta.blocks() * 512 < 8 * MIB,
        "{} bytes on disk",
        meta.blocks() * 512
    );
}

#[test]
fn corrupt_entry_is_rebuilt() {
    if !available(lang("c")) {
        return;
    }
    let f = fixture();
    let sub = f.submit("a.c", SUM_C);
    let entry = f.compile(&sub).entry_dir.unwrap();
    fs::write(entry.join(cache::META_FILE), "{garbage").unwrap();
    let again = f.compile(&sub);
    assert!(!again.cached);
    assert_eq!(again.outcome, CompileOutcome::Ok);
    assert!(f.compile(&sub).cached);
    // A success whose binary vanished is rebuilt too.
    fs::remove_file(entry.join("solution")).unwrap();
    let again = f.compile(&sub);
    assert!(!again.cached);
    assert!(entry.join("solution").is_file());
}

fn table_file(f: &Fixture, body: &str) -> LanguageTable {
    let path = f.root.join("langs.toml");
    fs::write(&path, body).unwrap();
    LanguageTable::load(Some(&path)).unwrap()
}

#[test]
fn missing_compiler_is_a_harness_error_naming_it() {
    let f = fixture();
    let table = table_file(
        &f,
        "[c]\ncompile = [\"no-such-compiler-xyz\", \"{source}\"]\nrun = [\"{binary}\"]\n",
    );
    let sub = f.submit("a.c", SUM_C);
    let err = compile(&sub, &table, &CompileLimits::default(), &f.cache).unwrap_err();
    assert!(matches!(err, CompileError::CompilerMissing { .. }));
    assert_eq!(
        err.to_string(),
        "compiler `no-such-compiler-xyz` not found in PATH (needed for c submissions)"
    );

    let table = table_file(
        &f,
        "[python]\nrun = [\"/nonexistent/python9\", \"{source}\"]\n",
    );
    let sub = f.submit("a.py", "print(1)\n");
    let err = compile(&sub, &table, &CompileLimits::default(), &f.cache).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/python9"), "{err}");
}

/// `n` shell loops that keep the CPUs busy until dropped (as tests/common/busy.rs).
struct Busy(Vec<std::process::Child>);

impl Busy {
    fn start(n: usize) -> Busy {
        Busy(
            (0..n)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .expect("busy loop")
                })
                .collect(),
        )
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A language table whose C "compiler" is a shell script that burns `ticks` hundredths of a
/// second of its own CPU time (forever if `None`), then copies the source as the binary.
fn burning_compiler(f: &Fixture, ticks: Option<u32>) -> LanguageTable {
    let limit = ticks.map_or("-1".to_string(), |t| t.to_string());
    // Given inline (`sh -c`): the compiler runs in the sandbox, which has no test folder.
    let script = format!(
        "src=$1; dst=$2; i=0; while :; do i=$((i + 1)); if [ $((i % 500)) -eq 0 ] && [ {limit} -ge 0 ]; then read -r stat < /proc/$$/stat; set -- ${{stat#*) }}; [ $((${{12}} + ${{13}})) -ge {limit} ] && break; fi; done; cp \"$src\" \"$dst\""
    );
    table_file(
        f,
        &format!(
            "[c]\ncompile = [\"/bin/sh\", \"-c\", '{script}', \"sh\", \"{{source}}\", \"{{binary}}\"]\nrun = [\"{{binary}}\"]\n"
        ),
    )
}

#[test]
fn a_compiler_that_waits_for_a_cpu_past_the_limit_is_not_a_compile_error() {
    // 0.2 s of CPU time under a 1 s limit, beside enough busy loops that it takes longer
    // than 1 s of wall time: the limit counts the compiler's CPU time, not the machine's load.
    let f = fixture();
    let table = burning_compiler(&f, Some(20));
    let limits = CompileLimits {
        cpu_time: Duration::from_secs(1),
        ..CompileLimits::default()
    };
    let sub = f.submit("loaded.c", SUM_C);
    let _busy = Busy::start(8);
    let start = std::time::Instant::now();
    let c = f.compile_with(&sub, &table, &limits);
    let wall = start.elapsed();
    assert_eq!(c.outcome, CompileOutcome::Ok, "{:?}", c.outcome);
    assert!(
        wall > limits.cpu_time,
        "not loaded enough to test: {wall:?}"
    );
}

#[test]
fn a_compiler_past_its_cpu_limit_gives_ce_and_is_not_cached() {
    let f = fixture();
    let table = burning_compiler(&f, None);
    let limits = CompileLimits {
        cpu_time: Duration::from_millis(500),
        ..CompileLimits::default()
    };
    let sub = f.submit("slow.c", SUM_C);
    let c = f.compile_with(&sub, &table, &limits);
    assert_eq!(failure(&c), "compilation exceeded 0.5 s of CPU time");
    assert!(c.entry_dir.is_none());
    assert!(!f.compile_with(&sub, &table, &limits).cached);
}

#[test]
fn a_compiler_that_does_not_run_ends_at_the_backstop_as_a_harness_error() {
    let f = fixture();
    let table = table_file(
        &f,
        "[c]\ncompile = [\"sleep\", \"30\"]\nrun = [\"{binary}\"]\n",
    );
    let limits = CompileLimits {
        cpu_time: Duration::from_millis(300),
        ..CompileLimits::default()
    };
    let sub = f.submit("hung.c", SUM_C);
    let start = std::time::Instant::now();
    let err = compile(&sub, &table, &limits, &f.cache).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(8));
    assert!(matches!(err, CompileError::Stalled(_)), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("(the compile limit is 0.3 s of CPU time): the machine is too busy, or the compiler hung"),
        "{text}"
    );
}

#[test]
fn successful_compiler_without_binary_is_a_harness_error() {
    let f = fixture();
    let table = table_file(&f, "[c]\ncompile = [\"true\"]\nrun = [\"{binary}\"]\n");
    let sub = f.submit("a.c", SUM_C);
    let err = compile(&sub, &table, &CompileLimits::default(), &f.cache).unwrap_err();
    assert!(matches!(err, CompileError::MissingArtifact { .. }), "{err}");
}

#[test]
fn oversized_source_is_a_compile_error() {
    let f = fixture();
    let sub = f.submit("big.py", &"#".repeat(5000));
    let limits = CompileLimits {
        source_bytes: 4096,
        ..CompileLimits::default()
    };
    let table = table_file(&f, "[python]\nrun = [\"/bin/cat\", \"{source}\"]\n");
    let c = f.compile_with(&sub, &table, &limits);
    assert!(failure(&c).contains("4 KiB"), "{:?}", c.outcome);
}

#[test]
fn unwritable_cache_is_reported() {
    let f = fixture();
    let blocker = f.root.join("file");
    fs::write(&blocker, "").unwrap();
    let cache = Cache::new(blocker.join("cache"));
    let table = table_file(&f, "[python]\nrun = [\"/bin/cat\", \"{source}\"]\n");
    let sub = f.submit("a.py", "print(1)\n");
    let err = compile(&sub, &table, &CompileLimits::default(), &cache).unwrap_err();
    assert!(matches!(err, CompileError::CacheUnwritable { .. }), "{err}");
    assert!(err.to_string().contains("file/cache"), "{err}");
}

#[test]
fn run_request_raises_processes_and_keeps_other_limits() {
    let f = fixture();
    let table = table_file(
        &f,
        "[python]\nrun = [\"/bin/cat\", \"-m{memory_mib}\", \"{source}\", \"{dir}\"]\nprocesses = 8\nenv = { A = \"1\" }\n",
    );
    let c = f.compile_with(&f.submit("a.py", "x"), &table, &CompileLimits::default());
    let entry = c.entry_dir.clone().unwrap();
    let mut limits = test_limits();
    limits.memory_bytes = 64 * MIB + 5;
    let req = c
        .run_request(&limits, Stdin::Null, Some(f.root.clone()))
        .unwrap();
    assert_eq!(
        req.argv,
        vec![
            "/bin/cat".to_string(),
            "-m64".to_string(),
            entry.join("solution.py").display().to_string(),
            entry.display().to_string(),
        ]
    );
    assert_eq!(req.limits.processes, 8);
    assert_eq!(req.limits.memory_bytes, limits.memory_bytes);
    assert_eq!(req.env, vec![("A".to_string(), "1".to_string())]);
    limits.processes = 100;
    let req = c
        .run_request(&limits, Stdin::Null, Some(f.root.clone()))
        .unwrap();
    assert_eq!(req.limits.processes, 100);
}

#[test]
fn default_cache_dir_follows_env_precedence() {
    // Only inspects the current environment (tests run in parallel; no set_var).
    if let Some(dir) = std::env::var_os("JUDGE_CACHE_DIR").filter(|v| !v.is_empty()) {
        assert_eq!(Cache::default_dir(), Some(PathBuf::from(dir)));
    } else if let Some(dir) = Cache::default_dir() {
        assert!(dir.ends_with("judge"), "{}", dir.display());
    }
}

#[test]
fn minimal_cover_drops_nested_dirs() {
    let dirs = ["/a/b", "/a", "/c/d", "/a/b/c", "/c/d"]
        .map(PathBuf::from)
        .to_vec();
    assert_eq!(
        minimal_cover(dirs),
        ["/a", "/c/d"].map(PathBuf::from).to_vec()
    );
}

// Precompiled headers (`precompiled_headers`, see `pch`).

/// The precompiled-header entries in `cache`: (entry folder, its record).
fn pch_entries(cache: &Cache) -> Vec<(PathBuf, serde_json::Value)> {
    let Ok(read) = fs::read_dir(cache.dir().join("v2")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in read {
        let dir = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(dir.join(cache::META_FILE)) else {
            continue;
        };
        let meta: serde_json::Value = serde_json::from_str(&text).unwrap();
        if meta.get("header").is_some() {
            found.push((dir, meta));
        }
    }
    found
}

/// A compiler for the tests: a shell script that runs g++, after appending a line to
/// `<script>.log` and running `on_header` when it is asked to build a precompiled header, and
/// after appending its arguments to `<script>.args` otherwise.
fn scripted_compiler(f: &Fixture, name: &str, on_header: &str) -> PathBuf {
    let script = f.root.join(name);
    fs::write(
        &script,
        format!(
            "#!/bin/sh\ncase \" $* \" in\n*\" c++-header \"*) echo build >> \"$0.log\"; {on_header} ;;\n*) echo \"$*\" >> \"$0.args\" ;;\nesac\nexec g++ \"$@\"\n"
        ),
    )
    .unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// A C++ table compiling with `compiler` and precompiling `header`.
fn pch_table(f: &Fixture, compiler: &Path, header: &str) -> LanguageTable {
    table_file(
        f,
        &format!(
            "[cpp]\ncompile = [\"{}\", \"-O2\", \"-o\", \"{{binary}}\", \"{{source}}\"]\nrun = [\"{{binary}}\"]\nprecompiled_headers = [\"{header}\"]\n",
            compiler.display()
        ),
    )
}

/// Marks `header` of `table`'s C++ entry as needed before in `f`'s cache, so that the next
/// compile that mentions it builds it (it is built from its second use on).
fn needed_before(f: &Fixture, table: &LanguageTable, header: &str) {
    let spec = table.spec(lang("cpp"));
    let compiler = resolve_program(&spec.compile.as_ref().unwrap()[0]).unwrap();
    pch::mark_needed(lang("cpp"), spec, &compiler, header, &f.cache);
}

fn lines(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

const CSTDIO_SUM: &str = "#include <cstdio>\nint main(){long a,b; if(scanf(\"%ld %ld\",&a,&b)!=2) return 1; printf(\"%ld\\n\", a+b);}\n";

#[test]
fn a_batch_builds_the_header_first_and_each_of_its_sources_waits_for_it() {
    if !available(lang("cpp")) {
        return;
    }
    let f = host_fixture();
    // The build takes a second, so the batch's other compiles start while it runs.
    let script = scripted_compiler(&f, "slow", "sleep 1");
    let table = pch_table(&f, &script, "cstdio");
    let limits = CompileLimits::default();
    let variant = |k: usize| CSTDIO_SUM.replace("a+b", &format!("a+b+{k}"));
    let subs = vec![
        f.submit("plain.cpp", "int main() { return 0; }\n"),
        f.submit("a.cpp", &variant(1)),
        f.submit("b.cpp", &variant(2)),
        f.submit("c.cpp", &variant(3)),
    ];
    let plan = batch_order(&subs, &table);
    assert_eq!(
        plan,
        [
            (1, PchPolicy::Eager),
            (0, PchPolicy::Lazy),
            (2, PchPolicy::Eager),
            (3, PchPolicy::Eager),
        ]
    );
    // As `Grader::compile_many` runs a batch: three threads taking the next in the plan.
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(&(i, pch)) = plan.get(k) else {
                    break;
                };
                let c = compile_with_files(
                    &subs[i],
                    &Included::default(),
                    &table,
                    &limits,
                    &f.cache,
                    pch,
                )
                .unwrap();
                assert_eq!(c.outcome, CompileOutcome::Ok);
            });
        }
    });
    assert_eq!(lines(&script.with_extension("log")), 1, "built once");
    // Every source that mentions the header was compiled with it, whichever of them built
    // it: the others waited for that build (without the wait, the one that starts while it
    // runs compiles without it).
    let args = fs::read_to_string(script.with_extension("args")).unwrap();
    let with = args.lines().filter(|l| l.contains(" -I ")).count();
    assert_eq!((args.lines().count(), with), (4, 3), "{args}");

    // One source that needs it is no reason to build it in a batch.
    let g = fixture();
    let subs = vec![
        g.submit("plain.cpp", "int main() {}\n"),
        g.submit("a.cpp", CSTDIO_SUM),
    ];
    assert_eq!(
        batch_order(&subs, &table),
        [(0, PchPolicy::Lazy), (1, PchPolicy::Lazy)]
    );
}

#[test]
fn a_header_is_precompiled_once_and_used() {
    // <cstdio> stands for <bits/stdc++.h> (the same mechanism at a tenth of the build cost;
    // tests/grade.rs checks the built-in table's <bits/stdc++.h> with the built-in flags).
    if !available(lang("cpp")) {
        return;
    }
    let builtin = LanguageTable::load(None).unwrap();
    assert_eq!(
        builtin.spec(lang("cpp")).precompiled_headers,
        ["bits/stdc++.h"]
    );
    let f = fixture();
    let flags = "\"-O2\", \"-std=gnu++17\", \"-pipe\", \"-o\", \"{binary}\", \"{source}\"";
    let table = table_file(
        &f,
        &format!("[cpp]\ncompile = [\"g++\", {flags}]\nrun = [\"{{binary}}\"]\nprecompiled_headers = [\"cstdio\"]\n"),
    );
    needed_before(&f, &table, "cstdio");
    let limits = CompileLimits::default();
    let sub = f.submit("a.cpp", CSTDIO_SUM);
    let first = f.compile_with(&sub, &table, &limits);
    assert_eq!(first.outcome, CompileOutcome::Ok);
    assert_eq!(run_trusted(&first.run_argv(MIB).unwrap(), "2 3\n"), "5\n");
    let pch = pch_entries(&f.cache);
    assert_eq!(pch.len(), 1, "{pch:?}");
    let (pch_dir, meta) = &pch[0];
    assert_eq!(meta["outcome"]["result"], "ok");
    assert!(
        meta["inputs"].as_array().unwrap().len() > 3,
        "the files it was built from are recorded"
    );
    let gch = pch_dir.join("cstdio.gch");
    let mtime = |p: &Path| -> SystemTime { fs::metadata(p).unwrap().modified().unwrap() };
    let built_at = mtime(&gch);

    // Another submission uses the same entry; nothing is rebuilt.
    let second = f.compile_with(
        &f.submit("b.cpp", &CSTDIO_SUM.replace("a+b", "a+2*b")),
        &table,
        &limits,
    );
    assert!(!second.cached);
    assert_eq!(run_trusted(&second.run_argv(MIB).unwrap(), "2 3\n"), "8\n");
    assert_eq!(pch_entries(&f.cache).len(), 1);
    assert_eq!(mtime(&gch), built_at, "the precompiled header was rebuilt");

    // The same source compiled without precompiled headers (another cache: the submission's
    // key does not depend on them) gives the same program, byte for byte.
    let plain = fixture();
    let plain_table = table_file(
        &plain,
        &format!("[cpp]\ncompile = [\"g++\", {flags}]\nrun = [\"{{binary}}\"]\n"),
    );
    let key = |t: &LanguageTable| {
        cache_key(
            lang("cpp"),
            t.spec(lang("cpp")),
            CSTDIO_SUM.as_bytes(),
            &[],
            None,
            None,
            &CompileLimits::default(),
        )
    };
    assert_eq!(
        key(&table),
        key(&plain_table),
        "precompiled_headers must not be part of a submission's key"
    );
    let without = plain.compile_with(&sub, &plain_table, &limits);
    assert!(pch_entries(&plain.cache).is_empty());
    let binary = |c: &Compiled| fs::read(c.entry_dir.as_ref().unwrap().join("solution")).unwrap();
    assert!(
        binary(&first) == binary(&without),
        "the program differs with the precompiled header"
    );
}

/// GCC takes the precompiled header to be in the entry's folder: a second `#include` of it
/// (libstdc++'s `<bits/extc++.h>` includes `<bits/stdc++.h>` again) opens it there, which
/// must find the real header (a real olympiad submission, po2024/skol/pianot, got a CE). Like
/// `<bits/stdc++.h>`, `<cassert>` has no include guard, so it is opened again.
#[test]
fn a_precompiled_header_included_again_is_found() {
    if !available(lang("cpp")) {
        return;
    }
    let f = fixture();
    let table = table_file(
        &f,
        "[cpp]\ncompile = [\"g++\", \"-O2\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\nprecompiled_headers = [\"cassert\"]\n",
    );
    needed_before(&f, &table, "cassert");
    let again = "#include <cassert>\n#include <cassert>\nint main() { assert(1); }\n";
    let c = f.compile_with(
        &f.submit("again.cpp", again),
        &table,
        &CompileLimits::default(),
    );
    assert_eq!(c.outcome, CompileOutcome::Ok, "{:?}", c.outcome);
    assert_eq!(pch_entries(&f.cache).len(), 1, "built with the header");
}

#[test]
fn the_compiler_is_given_the_precompiled_header() {
    // With -H in the template, g++ lists what it reads: a compile error shows it.
    if !available(lang("cpp")) {
        return;
    }
    let f = fixture();
    let table = table_file(
        &f,
        "[cpp]\ncompile = [\"g++\", \"-H\", \"-O2\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\nprecompiled_headers = [\"cstdio\"]\n",
    );
    needed_before(&f, &table, "cstdio");
    let c = f.compile_with(
        &f.submit(
            "ce.cpp",
            "#include <cstdio>\nint main() { return undefined_name; }\n",
        ),
        &table,
        &CompileLimits::default(),
    );
    let msg = failure(&c);
    let pch = pch_entries(&f.cache);
    assert_eq!(pch.len(), 1);
    let gch = pch[0].0.join("cstdio.gch");
    assert!(
        msg.lines().next() == Some(format!("! {}", gch.display()).as_str()),
        "{msg}"
    );
    assert!(msg.contains("undefined_name"), "{msg}");
}

#[test]
fn a_source_without_the_header_builds_no_precompiled_header() {
    if !available(lang("cpp")) {
        return;
    }
    let f = fixture();
    let c = f.compile(&f.submit("a.cpp", SUM_CPP));
    assert_eq!(c.outcome, CompileOutcome::Ok);
    assert!(pch_entries(&f.cache).is_empty());
    assert_eq!(fs::read_dir(f.cache.dir().join("v2")).unwrap().count(), 1);
    // Nor does a compile error, or a cache hit.
    f.compile(&f.submit("ce.cpp", "int main() { std::vector<int> v; }\n"));
    assert!(f.compile(&f.submit("a2.cpp", SUM_CPP)).cached);
    assert!(pch_entries(&f.cache).is_empty());
}

#[test]
fn a_failing_precompiled_header_build_does_not_fail_the_compile() {
    if !available(lang("cpp")) {
        return;
    }
    let f = host_fixture();
    let check = |table: &LanguageTable, limits: &CompileLimits, name: &str, text: &str| {
        let c = f.compile_with(&f.submit(name, text), table, limits);
        assert_eq!(c.outcome, CompileOutcome::Ok, "{name}");
        assert_eq!(run_trusted(&c.run_argv(MIB).unwrap(), "2 3\n"), "5\n");
    };
    let limits = CompileLimits::default();

    // A header g++ cannot find (the source only mentions it in a comment): g++ fails, the
    // failure is cached, the source compiles without it.
    let table = table_file(
        &f,
        "[cpp]\ncompile = [\"g++\", \"-O2\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\nprecompiled_headers = [\"no-such-header.h\"]\n",
    );
    needed_before(&f, &table, "no-such-header.h");
    let text = format!("// not no-such-header.h\n{CSTDIO_SUM}");
    check(&table, &limits, "missing.cpp", &text);
    let pch = pch_entries(&f.cache);
    assert_eq!(pch.len(), 1);
    assert_eq!(pch[0].1["outcome"]["result"], "failed");
    let spec = table.spec(lang("cpp"));
    let gxx = resolve_program("g++").unwrap();
    match pch::ensure(
        lang("cpp"),
        spec,
        &gxx,
        "no-such-header.h",
        &limits,
        &f.cache,
        pch::PchPolicy::Lazy,
    ) {
        Ok(pch::Pch::Unavailable(why)) => {
            assert!(why.contains("no-such-header.h"), "{why}");
            assert!(!why.contains('\n'), "{why}");
        }
        other => panic!("{other:?}"),
    }

    // A compiler that fails on headers only: cached too, so not run again.
    let script = scripted_compiler(&f, "fails", "echo boom >&2; exit 1");
    let table = pch_table(&f, &script, "cstdio");
    needed_before(&f, &table, "cstdio");
    check(&table, &limits, "a.cpp", CSTDIO_SUM);
    check(
        &table,
        &limits,
        "b.cpp",
        &CSTDIO_SUM.replace("a,b;", "a,b ;"),
    );
    assert_eq!(lines(&script.with_extension("log")), 1);
    let spec = table.spec(lang("cpp"));
    let lazy = pch::PchPolicy::Lazy;
    match pch::ensure(
        lang("cpp"),
        spec,
        &script,
        "cstdio",
        &limits,
        &f.cache,
        lazy,
    ) {
        Ok(pch::Pch::Unavailable(why)) => assert!(why.contains("boom"), "{why}"),
        other => panic!("{other:?}"),
    }
    let args = fs::read_to_string(script.with_extension("args")).unwrap();
    assert!(!args.contains(" -I "), "{args}");

    // Killed, or over the time limit: nothing cached, and not tried again by this process.
    for (name, action) in [("killed", "kill -9 $$"), ("slow", "sleep 20")] {
        let script = scripted_compiler(&f, name, action);
        let table = pch_table(&f, &script, "cstdio");
        needed_before(&f, &table, "cstdio");
        let limits = CompileLimits {
            // The sleeping one ends at the wall-clock backstop, 10 times this.
            header_cpu_time: Duration::from_millis(300),
            ..CompileLimits::default()
        };
        let entries = pch_entries(&f.cache).len();
        check(&table, &limits, &format!("{name}1.cpp"), CSTDIO_SUM);
        check(
            &table,
            &limits,
            &format!("{name}2.cpp"),
            &CSTDIO_SUM.replace("a,b;", "a, b;"),
        );
        assert_eq!(lines(&script.with_extension("log")), 1, "{name}");
        assert_eq!(pch_entries(&f.cache).len(), entries, "{name}");
    }
    let tmp: Vec<_> = fs::read_dir(f.cache.dir().join("tmp")).unwrap().collect();
    assert!(tmp.is_empty(), "build folders left: {tmp:?}");
}

#[test]
fn compiles_at_once_build_the_precompiled_header_once() {
    if !available(lang("cpp")) {
        return;
    }
    let f = host_fixture();
    // The build takes a second longer, so that the others arrive while it runs.
    let script = scripted_compiler(&f, "gxx", "sleep 1");
    let table = pch_table(&f, &script, "cstdio");
    needed_before(&f, &table, "cstdio");
    let subs: Vec<Submission> = (0..4)
        .map(|i| {
            f.submit(
                &format!("s{i}.cpp"),
                &CSTDIO_SUM.replace("a+b", &format!("a+b+{i}")),
            )
        })
        .collect();
    let compiled: Vec<Compiled> = std::thread::scope(|s| {
        let handles: Vec<_> = subs
            .iter()
            .map(|sub| s.spawn(|| f.compile_with(sub, &table, &CompileLimits::default())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(lines(&script.with_extension("log")), 1);
    let pch = pch_entries(&f.cache);
    assert_eq!(pch.len(), 1);
    for (i, c) in compiled.iter().enumerate() {
        assert!(!c.cached);
        assert_eq!(
            run_trusted(&c.run_argv(MIB).unwrap(), "2 3\n"),
            format!("{}\n", 5 + i)
        );
    }
    // The compile that built it used it; the others, finding the build going on, compiled
    // without it instead of waiting (or with it, if they came after it).
    let args = fs::read_to_string(script.with_extension("args")).unwrap();
    let include = format!(" -I {}", pch[0].0.display());
    assert_eq!(args.lines().count(), 4, "{args}");
    assert!(args.lines().any(|l| l.ends_with(&include)), "{args}");
}

#[test]
fn a_header_is_precompiled_from_its_second_use_on() {
    // The build costs as much as several compiles it speeds up: the first source that needs it
    // compiles without it (and leaves a mark), the second builds it and compiles with it.
    if !available(lang("cpp")) {
        return;
    }
    let f = host_fixture();
    let script = scripted_compiler(&f, "gxx", "true");
    let table = pch_table(&f, &script, "cstdio");
    let compile = |name: &str, text: &str| {
        let c = f.compile_with(&f.submit(name, text), &table, &CompileLimits::default());
        assert_eq!(c.outcome, CompileOutcome::Ok, "{name}");
        assert_eq!(run_trusted(&c.run_argv(MIB).unwrap(), "2 3\n"), "5\n");
    };
    compile("first.cpp", CSTDIO_SUM);
    assert_eq!(
        lines(&script.with_extension("log")),
        0,
        "built at the first use"
    );
    assert!(pch_entries(&f.cache).is_empty());
    compile("second.cpp", &CSTDIO_SUM.replace("a,b;", "a, b;"));
    assert_eq!(lines(&script.with_extension("log")), 1);
    let pch = pch_entries(&f.cache);
    assert_eq!(pch.len(), 1);
    let args = fs::read_to_string(script.with_extension("args")).unwrap();
    let include = format!(" -I {}", pch[0].0.display());
    let with: Vec<bool> = args.lines().map(|l| l.ends_with(&include)).collect();
    assert_eq!(with, [false, true], "{args}");
}

/// A program given as a folder is laid out under a folder of its own name in its entry (a
/// link's name, not its target's), its entry point keeping its file name, its other files
/// beside it; so it sees its own path as BAPCtools runs it. A compiled one's binary is there
/// too, built with its headers found beside its source.
#[test]
fn a_folder_program_runs_from_a_folder_of_its_own_name() {
    let f = fixture();
    let y = f.root.join("y");
    fs::create_dir(&y).unwrap();
    fs::write(
        y.join("y.py"),
        "import pathlib, sys\nimport zz\nme = pathlib.Path(sys.argv[0])\nprint(me.parent.name, me.name, zz.X)\n",
    )
    .unwrap();
    // Not the entry point: `y.py` is the first by name.
    fs::write(y.join("zz.py"), "X = 1\n").unwrap();
    std::os::unix::fs::symlink(&y, f.root.join("n")).unwrap();
    let of = |name: &str| Submission::from_path(f.root.join(name), None).unwrap();
    let (from_y, from_n) = (f.compile(&of("y")), f.compile(&of("n")));
    assert_ne!(from_y.entry_dir, from_n.entry_dir);
    for (c, name) in [(&from_y, "y"), (&from_n, "n")] {
        let argv = c.run_argv(MIB).unwrap();
        let entry = c.entry_dir.as_ref().unwrap();
        assert_eq!(
            argv.last().unwrap(),
            &entry.join(name).join("y.py").display().to_string()
        );
        assert!(c.read_only.contains(entry));
        if available(lang("python")) {
            assert_eq!(run_trusted(&argv, ""), format!("{name} y.py 1\n"));
        }
    }
    // The same folder again: the same entry, from the cache.
    let again = f.compile(&of("n"));
    assert!(again.cached);
    assert_eq!(again.entry_dir, from_n.entry_dir);

    if !available(lang("c")) {
        return;
    }
    let c = f.root.join("cprog");
    fs::create_dir(&c).unwrap();
    fs::write(
        c.join("main.c"),
        "#include <stdio.h>\n#include \"k.h\"\nint main(void){printf(\"%d\\n\", K);return 0;}\n",
    )
    .unwrap();
    fs::write(c.join("k.h"), "#define K 42\n").unwrap();
    let compiled = f.compile(&of("cprog"));
    assert!(compiled.is_ok(), "{:?}", compiled.outcome);
    let entry = compiled.entry_dir.clone().unwrap();
    assert_eq!(
        compiled.run_argv(MIB).unwrap(),
        [entry.join("cprog/solution").display().to_string()]
    );
    assert_eq!(run_trusted(&compiled.run_argv(MIB).unwrap(), ""), "42\n");
}
