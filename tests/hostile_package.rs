//! A hostile-package battery: small packages made to reach the host, hang judge or hide a
//! test, each built in a temporary folder beside a "host" file of known content that lies
//! outside the package. Every case must end with a clear error or warning naming the file
//! and the rule, the documented exit status, the host file's content nowhere (package,
//! `data/`, output, `--json`), no temporary folder left, and nothing hung (an outer
//! `timeout`). See docs/sandbox.md, "What a package is trusted with".

use crate::common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{require, Run};

/// What the host file holds: must never appear in anything judge writes.
const SECRET: &str = "HOST-SECRET-6c1f93e2";

/// A small 2025-09 package (sum of two numbers, a Python accepted submission) in a fresh
/// folder, beside a host file and a private temporary folder for judge's runs.
struct Hostile {
    _tmp: tempfile::TempDir,
    pkg: PathBuf,
    host: PathBuf,
    /// `TMPDIR` of judge's runs: must be empty again after each.
    scratch: PathBuf,
}

fn have_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

impl Hostile {
    fn new() -> Option<Hostile> {
        use std::os::unix::fs::PermissionsExt;
        if !require(have_python(), "python3") {
            return None;
        }
        let tmp = tempfile::tempdir().unwrap();
        let open = std::fs::Permissions::from_mode;
        std::fs::set_permissions(tmp.path(), open(0o755)).unwrap();
        let host = tmp.path().join("host-secret.txt");
        write(&host, &format!("{SECRET}\n"));
        std::fs::set_permissions(&host, open(0o644)).unwrap();
        let scratch = tmp.path().join("scratch");
        std::fs::create_dir(&scratch).unwrap();
        std::fs::set_permissions(&scratch, open(0o1777)).unwrap();
        let pkg = tmp.path().join("hostile");
        write(
            &pkg.join("problem.yaml"),
            "problem_format_version: 2025-09\nname: Hostile\n\
             uuid: 3b0e8f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b\nlimits:\n  time_limit: 2.0\n",
        );
        write(&pkg.join("statement/problem.en.md"), "Add two numbers.\n");
        for (name, input, answer) in [("sample/1", "1 2\n", "3\n"), ("secret/1", "3 4\n", "7\n")] {
            write(&pkg.join(format!("data/{name}.in")), input);
            write(&pkg.join(format!("data/{name}.ans")), answer);
        }
        write(
            &pkg.join("submissions/accepted/sum.py"),
            "print(sum(map(int, input().split())))\n",
        );
        write(
            &pkg.join("input_validators/validate.py"),
            "import sys\nsys.stdin.read()\nsys.exit(42)\n",
        );
        Some(Hostile {
            _tmp: tmp,
            pkg,
            host,
            scratch,
        })
    }

    fn path(&self, rel: &str) -> String {
        self.pkg.join(rel).display().to_string()
    }

    /// `judge ARGS...` under an outer timeout, with the package's runs in
    /// [`Hostile::scratch`]; `{pkg}` in an argument is the package's path.
    fn judge(&self, args: &[&str]) -> Run {
        let pkg = self.pkg.display().to_string();
        let args: Vec<String> = args.iter().map(|a| a.replace("{pkg}", &pkg)).collect();
        let out = Command::new("timeout")
            .args(["-s", "KILL", "120"])
            .arg(env!("CARGO_BIN_EXE_judge"))
            .args(&args)
            .env("JUDGE_CACHE_DIR", common::cache_dir())
            .env("TMPDIR", &self.scratch)
            .env("CI", "1")
            .current_dir(common::root())
            .output()
            .expect("spawn timeout judge");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        assert_ne!(run.code, -1, "killed by the outer timeout: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        self.assert_nothing_leaked(&run);
        run
    }

    /// The host's content is in no output and no file of the package, and no temporary
    /// folder is left (in the package or in judge's `TMPDIR`).
    fn assert_nothing_leaked(&self, run: &Run) {
        assert!(!run.stdout.contains(SECRET), "leaked: {}", run.stdout);
        assert!(!run.stderr.contains(SECRET), "leaked: {}", run.stderr);
        let mut stack = vec![self.pkg.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                assert!(!name.contains("judge-tmp"), "left behind: {name}");
                let kind = entry.file_type().unwrap();
                if kind.is_dir() {
                    stack.push(entry.path());
                } else if kind.is_file() {
                    let bytes = std::fs::read(entry.path()).unwrap();
                    assert!(
                        !String::from_utf8_lossy(&bytes).contains(SECRET),
                        "host content in {}",
                        entry.path().display()
                    );
                }
            }
        }
        // As an ordinary user, runs mount their box on an empty folder `judge-box-<uid>` of
        // TMPDIR that every run shares and judge keeps (src/sandbox/linux/mod.rs, box_stage):
        // it must stay empty.
        let left: Vec<_> = std::fs::read_dir(&self.scratch)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| {
                let stage = e.file_name().to_string_lossy().starts_with("judge-box-");
                !(stage && std::fs::read_dir(e.path()).is_ok_and(|mut d| d.next().is_none()))
            })
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    }

    /// A Python output validator whose body is `body` (with `feedback` the feedback folder).
    fn output_validator(&self, body: &str) {
        write(
            &self.pkg.join("output_validator/validate.py"),
            &format!("import os, sys\nfeedback = sys.argv[3]\nsys.stdin.read()\n{body}\n"),
        );
    }

    fn generators(&self, yaml: &str) {
        std::fs::remove_dir_all(self.pkg.join("data")).unwrap();
        write(&self.pkg.join("generators/generators.yaml"), yaml);
    }
}

/// The one `error:` line of a run that exits 2, which must hold every one of `parts`.
fn assert_error(run: &Run, parts: &[&str]) {
    run.assert_code(2);
    let line = common::the_error_line(run);
    for part in parts {
        assert!(line.contains(part), "`{part}` not in: {line}");
    }
}

#[test]
fn a_generator_leaving_testcase_in_as_a_link_to_a_host_file_is_refused() {
    let Some(h) = Hostile::new() else { return };
    write(
        &h.pkg.join("generators/leak.py"),
        &format!(
            "import os\nos.symlink({:?}, 'testcase.in')\nos.symlink({:?}, 'testcase.ans')\n",
            h.host.display().to_string(),
            h.host.display().to_string()
        ),
    );
    h.generators("data:\n  sample:\n    data:\n      '1': leak.py\n  secret:\n    data:\n      '1': leak.py\n");
    let run = h.judge(&["gen", "{pkg}"]);
    assert_error(
        &run,
        &[
            "leak.py",
            "testcase.in: a link that leads outside its work folder",
        ],
    );
    assert!(!h.pkg.join("data").exists());
}

#[test]
fn a_generator_whose_output_never_ends_is_stopped_at_its_limit() {
    let Some(h) = Hostile::new() else { return };
    // On standard output, and as a file it keeps writing (testcase.ans) in its work folder.
    write(
        &h.pkg.join("generators/flood.py"),
        "import sys\nif sys.argv[1:] == ['file']:\n    f = open('testcase.ans', 'w')\n\
         \x20   f.write('4\\n')\n    f.flush()\n    out = f\nelse:\n    out = sys.stdout\n\
         while True:\n    out.write('1 ' * 65536)\n",
    );
    for (arg, says) in [("out", "wrote more than"), ("file", "File too large")] {
        h.generators(&format!(
            "data:\n  sample:\n    data:\n      '1': flood.py {arg}\n  secret:\n    data:\n      '1': flood.py {arg}\n"
        ));
        let start = std::time::Instant::now();
        let run = h.judge(&["gen", "{pkg}"]);
        assert_error(&run, &["flood.py", says]);
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
        assert!(!h.pkg.join("data").exists());
        std::fs::create_dir_all(h.pkg.join("data")).unwrap();
    }
}

#[test]
fn copy_through_a_link_out_of_the_package_is_refused() {
    let Some(h) = Hostile::new() else { return };
    std::fs::create_dir_all(h.pkg.join("generators/manual")).unwrap();
    symlink(&h.host, h.pkg.join("generators/manual/x.in")).unwrap();
    write(&h.pkg.join("generators/manual/x.ans"), "1\n");
    h.generators("data:\n  sample:\n    data:\n      '1':\n        copy: manual/x\n  secret:\n    data:\n      '1':\n        copy: manual/x\n");
    let run = h.judge(&["gen", "{pkg}"]);
    assert_error(
        &run,
        &[
            "`copy: generators/manual/x`",
            "generators/manual/x.in: a link that leads outside the package",
        ],
    );
    assert!(!h.pkg.join("data").exists());
}

/// `judge grade --json` of the accepted submission: every test a judge error whose message
/// holds `part`; exit status 1.
fn assert_grade_je(h: &Hostile, part: &str) {
    let sub = h.path("submissions/accepted/sum.py");
    let run = h.judge(&["grade", "{pkg}", &sub, "--json"]);
    run.assert_code(1);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "JE", "{}", run.stdout);
    let message = r["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains(part), "`{part}` not in: {message}");
}

#[test]
fn an_output_validator_making_judgemessage_a_link_or_a_fifo_is_a_judge_error() {
    let Some(h) = Hostile::new() else { return };
    let host = h.host.display().to_string();
    let cases = [
        (
            format!("os.symlink({host:?}, os.path.join(feedback, 'judgemessage.txt'))"),
            "judgemessage.txt: a link that leads outside its feedback folder",
        ),
        (
            "os.symlink('/dev/zero', os.path.join(feedback, 'judgemessage.txt'))".into(),
            "judgemessage.txt: a link that leads outside its feedback folder",
        ),
        (
            "os.mkfifo(os.path.join(feedback, 'judgemessage.txt'))".into(),
            "judgemessage.txt: not a regular file (a FIFO)",
        ),
        (
            "os.mkdir(os.path.join(feedback, 'judgemessage.txt'))".into(),
            "judgemessage.txt: not a regular file (a folder)",
        ),
    ];
    for (make, part) in cases {
        h.output_validator(&format!("{make}\nsys.exit(43)"));
        assert_grade_je(&h, part);
    }
    // score.txt of a scoring problem's validator, read under the same rule.
    h.output_validator(&format!(
        "os.symlink({host:?}, os.path.join(feedback, 'score.txt'))\nsys.exit(42)"
    ));
    let yaml = h.pkg.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    write(&yaml, &format!("{text}type: scoring\n"));
    assert_grade_je(
        &h,
        "score.txt: a link that leads outside its feedback folder",
    );
}

#[test]
fn an_include_file_linking_out_of_the_package_is_never_added() {
    let Some(h) = Hostile::new() else { return };
    std::fs::create_dir_all(h.pkg.join("include/python3")).unwrap();
    symlink(&h.host, h.pkg.join("include/python3/notes.txt")).unwrap();
    let sub = h.path("submissions/accepted/sum.py");
    let run = h.judge(&["grade", "{pkg}", &sub]);
    assert_error(
        &run,
        &["include/python3/notes.txt: a link that leads outside the package"],
    );
}

/// `judge verify --json` of the package: its report as JSON.
fn verify_json(h: &Hostile, extra: &[&str]) -> (Run, serde_json::Value) {
    let mut args = vec!["verify", "--json", "{pkg}"];
    args.extend(extra);
    let run = h.judge(&args);
    let report = serde_json::from_str(run.stdout.trim()).unwrap_or(serde_json::Value::Null);
    (run, report)
}

/// The tests `grade` runs the accepted submission on (it must pass them all), by name.
fn graded_tests(h: &Hostile) -> Vec<String> {
    let sub = h.path("submissions/accepted/sum.py");
    let run = h.judge(&["grade", "{pkg}", &sub, "--json"]);
    run.assert_code(0);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn data_links_that_stay_inside_the_package_keep_working() {
    let Some(h) = Hostile::new() else { return };
    std::fs::create_dir_all(h.pkg.join("data/secret/group2")).unwrap();
    symlink("../1.in", h.pkg.join("data/secret/group2/1.in")).unwrap();
    symlink("../1.ans", h.pkg.join("data/secret/group2/1.ans")).unwrap();
    symlink("group2", h.pkg.join("data/secret/group3")).unwrap();
    let (run, report) = verify_json(&h, &[]);
    run.assert_code(0);
    assert_eq!(report["ok"], true, "{}", run.stdout);
    // Every linked test is graded.
    assert_eq!(
        graded_tests(&h),
        ["sample/1", "secret/1", "secret/group2/1", "secret/group3/1"]
    );
}

#[test]
fn data_entries_leading_out_or_not_regular_are_one_clear_error() {
    let Some(h) = Hostile::new() else { return };
    let secret = h.pkg.join("data/secret");
    // A link to a folder outside holding a test.
    let outside = h.host.parent().unwrap().join("outside");
    write(&outside.join("x.in"), &format!("{SECRET}\n"));
    write(&outside.join("x.ans"), &format!("{SECRET}\n"));
    symlink(&outside, secret.join("group")).unwrap();
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(
        &run,
        &["data/secret/group: a link that leads outside the package"],
    );
    std::fs::remove_file(secret.join("group")).unwrap();
    // An input that is a link to a host file, or to /dev/zero.
    for target in [h.host.as_path(), Path::new("/dev/zero")] {
        symlink(target, secret.join("2.in")).unwrap();
        write(&secret.join("2.ans"), "0\n");
        let run = h.judge(&["verify", "{pkg}"]);
        assert_error(
            &run,
            &["data/secret/2.in: a link that leads outside the package"],
        );
        std::fs::remove_file(secret.join("2.in")).unwrap();
    }
    // A FIFO and a socket named as tests: never opened for reading, never waited on.
    let fifo = std::ffi::CString::new(secret.join("2.in").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(&run, &["data/secret/2.in: not a regular file (a FIFO)"]);
    std::fs::remove_file(secret.join("2.in")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(secret.join("2.in")).unwrap();
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(&run, &["data/secret/2.in: not a regular file (a socket)"]);
}

#[test]
fn tests_with_names_the_format_does_not_allow_are_named_in_a_warning() {
    use std::os::unix::ffi::OsStrExt;
    let Some(h) = Hostile::new() else { return };
    let secret = h.pkg.join("data/secret");
    // Each with a wrong answer: were it graded, the accepted submission would fail.
    let names: [&[u8]; 5] = [b"a b", b"-dash", b"\xff", "é".as_bytes(), b"bell\x07"];
    for name in names {
        for (ext, text) in [(".in", "1 1\n"), (".ans", "5\n")] {
            let file = [name, ext.as_bytes()].concat();
            std::fs::write(secret.join(std::ffi::OsStr::from_bytes(&file)), text).unwrap();
        }
    }
    let (run, report) = verify_json(&h, &[]);
    run.assert_code(0);
    // One warning per file (a note of the package: verify's status stays 0).
    let checks = report["problems"][0]["checks"].as_array().unwrap();
    let mut message = String::new();
    for c in checks
        .iter()
        .filter(|c| c["name"] == "package" && c["status"] != "ok")
    {
        assert_eq!(c["status"], "warn", "{c}");
        message += c["message"].as_str().unwrap();
        message += "\n";
    }
    for shown in [
        "\"data/secret/a b.in\": not graded",
        "data/secret/-dash.in: not graded",
        "\"data/secret/\\xFF.in\": not graded",
        "data/secret/é.ans: not graded",
        "\"data/secret/bell\\u{7}.in\": not graded",
    ] {
        assert!(message.contains(shown), "`{shown}` not in: {message}");
    }
    // --strict: the warnings fail verify.
    let (run, _) = verify_json(&h, &["--strict"]);
    run.assert_code(1);
}

#[test]
fn tests_named_as_other_systems_cannot_keep_them_are_graded_and_named_in_a_warning() {
    let Some(h) = Hostile::new() else { return };
    let secret = h.pkg.join("data/secret");
    // A Windows device name, and two names that differ only in case: each a right test.
    for name in ["con", "Big", "big"] {
        write(&secret.join(format!("{name}.in")), "2 2\n");
        write(&secret.join(format!("{name}.ans")), "4\n");
    }
    let (run, report) = verify_json(&h, &[]);
    run.assert_code(0);
    let checks = report["problems"][0]["checks"].as_array().unwrap();
    let warned: Vec<&str> = checks
        .iter()
        .filter(|c| c["name"] == "package" && c["status"] == "warn")
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    let all = warned.join("\n");
    for shown in [
        "data/secret/con.ans: a name Windows reserves for a device (CON)",
        "data/secret/con.in: a name Windows reserves for a device (CON)",
        "data/secret/Big.ans, data/secret/big.ans: names that differ only in case",
        "data/secret/Big.in, data/secret/big.in: names that differ only in case",
    ] {
        assert!(all.contains(shown), "`{shown}` not in: {all}");
    }
    // They are graded all the same, and fail verify under --strict.
    assert_eq!(
        graded_tests(&h),
        [
            "sample/1",
            "secret/1",
            "secret/Big",
            "secret/big",
            "secret/con"
        ]
    );
    let (run, _) = verify_json(&h, &["--strict"]);
    run.assert_code(1);
}

/// DOMjudge's time limit files and `submissions.yaml` are package files like any other: a
/// link out of the package is refused before anything is read (before, `.timelimit` linking
/// to a host file showed its first 40 characters in the error), and a FIFO is never waited on.
#[test]
fn time_limit_files_and_submissions_yaml_are_read_under_the_package_rule() {
    let Some(h) = Hostile::new() else { return };
    let yaml = h.pkg.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    // No time limit in problem.yaml, so that DOMjudge's files are read.
    std::fs::write(&yaml, text.replace("limits:\n  time_limit: 2.0\n", "")).unwrap();
    for file in [".timelimit", "domjudge-problem.ini"] {
        symlink(&h.host, h.pkg.join(file)).unwrap();
        let run = h.judge(&["verify", "{pkg}"]);
        assert_error(&run, &[file, "a link that leads outside the package"]);
        std::fs::remove_file(h.pkg.join(file)).unwrap();
    }
    std::fs::write(&yaml, text).unwrap();
    let rules = h.pkg.join("submissions/submissions.yaml");
    let fifo = std::ffi::CString::new(rules.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(
        &run,
        &[
            "submissions/submissions.yaml",
            "not a regular file (a FIFO)",
        ],
    );
}

#[test]
fn a_statement_linking_out_of_the_package_fails_its_check() {
    let Some(h) = Hostile::new() else { return };
    std::fs::remove_file(h.pkg.join("statement/problem.en.md")).unwrap();
    symlink(&h.host, h.pkg.join("statement/problem.en.md")).unwrap();
    let (run, report) = verify_json(&h, &[]);
    run.assert_code(1);
    let check = report["problems"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "statement")
        .unwrap()
        .clone();
    assert_eq!(check["status"], "fail", "{check}");
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("statement/problem.en.md: a link that leads outside the package"),
        "{check}"
    );
}

/// A jury program's source (a validator file, a file in a submission's folder) that is a link
/// to a host file: its source would be compiled and copied into runs, so loading the package
/// is one error naming the file and the rule, and nothing of the host file is shown (before,
/// the host file was compiled as the program: a compiler's message quoted it).
#[test]
fn a_program_source_linking_out_of_the_package_is_one_clear_error() {
    let Some(h) = Hostile::new() else { return };
    symlink(&h.host, h.pkg.join("input_validators/leak.py")).unwrap();
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(
        &run,
        &["input_validators/leak.py: a link that leads outside the package"],
    );

    let Some(h) = Hostile::new() else { return };
    std::fs::create_dir_all(h.pkg.join("submissions/wrong_answer/folder")).unwrap();
    symlink(
        &h.host,
        h.pkg.join("submissions/wrong_answer/folder/main.py"),
    )
    .unwrap();
    let run = h.judge(&["verify", "{pkg}"]);
    assert_error(
        &run,
        &["submissions/wrong_answer/folder/main.py: a link that leads outside the package"],
    );
}

/// Entries of `data/` itself that judge does not read (a folder of tests beside `secret/`, a
/// test directly in `data/`, the output validator folders of 2025-09) are each named in a
/// warning, an error under `--strict`: a wrong answer there was passed over without a word.
#[test]
fn entries_of_data_that_judge_does_not_read_are_named_in_a_warning() {
    let Some(h) = Hostile::new() else { return };
    for rel in ["data/extra/1", "data/2"] {
        write(&h.pkg.join(format!("{rel}.in")), "1 1\n");
        write(&h.pkg.join(format!("{rel}.ans")), "5\n");
    }
    write(&h.pkg.join("data/valid_output/1.out"), "5\n");
    let (run, report) = verify_json(&h, &[]);
    run.assert_code(0);
    let checks = report["problems"][0]["checks"].as_array().unwrap();
    let message: String = checks
        .iter()
        .filter(|c| c["name"] == "package" && c["status"] == "warn")
        .map(|c| format!("{}\n", c["message"].as_str().unwrap()))
        .collect();
    for shown in [
        "data/2.ans: not graded: tests are read from data/sample and data/secret only",
        "data/2.in: not graded: tests are read from data/sample and data/secret only",
        "data/extra: not graded: tests are read from data/sample and data/secret only",
        "data/valid_output: not graded: judge does not check the output validator against this folder yet",
    ] {
        assert!(message.contains(shown), "`{shown}` not in: {message}");
    }
    let (run, _) = verify_json(&h, &["--strict"]);
    run.assert_code(1);
}

/// Compilers run the submission's compile-time code and read the files it includes, so they
/// run in the sandbox: an `#include` of a host file finds nothing, and Lisp code run at
/// compile time cannot write beside the package.
#[test]
fn compile_time_code_of_a_submission_reaches_nothing_of_the_host() {
    let Some(h) = Hostile::new() else { return };
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !require(have("gcc") && have("sbcl"), "gcc and sbcl") {
        return;
    }
    let include = h.pkg.join("include.c");
    write(
        &include,
        &format!(
            "#include \"{}\"\nint main(void) {{ return 0; }}\n",
            h.host.display()
        ),
    );
    let run = h.judge(&["grade", "{pkg}", &include.display().to_string(), "--json"]);
    run.assert_code(1);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "CE", "{}", run.stdout);
    let message = r["compile"]["message"].as_str().unwrap();
    assert!(message.contains("No such file or directory"), "{message}");

    let planted = h.pkg.join("planted-at-compile-time");
    let lisp = h.pkg.join("sum.lisp");
    write(
        &lisp,
        &format!(
            "(eval-when (:compile-toplevel)\n  (ignore-errors (with-open-file (s {:?} \
             :direction :output :if-exists :supersede) (write-line \"x\" s))))\n\
             (format t \"~a~%\" (+ (read) (read)))\n",
            planted.display().to_string()
        ),
    );
    let run = h.judge(&["grade", "{pkg}", &lisp.display().to_string(), "--json"]);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "AC", "{}\n{}", run.stdout, run.stderr);
    run.assert_code(0);
    assert!(
        !planted.exists(),
        "compile-time code wrote {}",
        planted.display()
    );
}
