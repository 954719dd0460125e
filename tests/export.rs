//! `judge export`: each `--format` writes its version's layout; the exported Kattis package of
//! every format passes `judge verify` with every jury submission getting its folder's verdict;
//! the exported validator and checker programs judge exactly like the built-in ones; the zip
//! holds the same package at its root; bad arguments are one line and exit 2. (The tools that
//! read each format run in `scripts/problemtools-verify`: problemtools, BAPCtools.)

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::verify_report::VerifyReport;
use common::{assert_clean_error, judge, judge_timed, Run};
use judge::problems::{lookup, Judgement};

const PROBLEMS: [(&str, &str); 2] = [
    ("magic-square", "magicsquare"),
    ("dodecahedron", "dodecahedron"),
];

/// The `--format` values; the first is the default.
const FORMATS: [&str; 3] = ["legacy", "2023-07", "2025-09"];

/// Exported folders the package format gives a meaning (the others are left out).
const FOLDERS: [&str; 4] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];

fn export(problem: &str, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["export", problem, "--out", out.to_str().unwrap()];
    args.extend(extra);
    judge(&args)
}

/// Every file under `dir` (relative path → bytes).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Which of the exported package's jury submissions a test verifies.
#[derive(Clone, Copy, PartialEq)]
enum Submissions {
    /// None (`--no-submissions`): the static checks only.
    None,
    /// Every one: each accepted submission on every test (`.ci/run` runs these tests).
    All,
    /// All but the accepted Java and Python submissions, whose JVM and interpreter starts on
    /// every test are most of the CPU time of verifying the package: every folder is still
    /// judged, and C, C++, Rust and Python (and Java, in magic-square's `wrong_answer/`).
    NotTheSlowAccepted,
}

/// The exported package of `problem` in `format` passes `judge verify`, its validator
/// rejecting every invalid input (2025-09) and every selected jury submission of an exported
/// folder getting its folder's verdict (legacy: the verdict of the first failing test;
/// 2023-07-draft, which judge reads as 2025-09, and 2025-09: the rules of
/// `submissions/submissions.yaml`).
fn the_exported_package_verifies(problem: &str, short: &str, format: &str, which: Submissions) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join(short);
    export(problem, &out, &["--format", format]).assert_code(0);
    let source = common::root()
        .join("problems")
        .join(problem)
        .join("submissions");
    let mut want: Vec<String> = Vec::new();
    for folder in FOLDERS {
        for entry in std::fs::read_dir(source.join(folder)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let slow = folder == "accepted" && (name.ends_with(".java") || name.ends_with(".py"));
            if which == Submissions::All || (which == Submissions::NotTheSlowAccepted && !slow) {
                want.push(format!("submissions/{folder}/{name}"));
            }
        }
    }
    want.sort();
    let languages: std::collections::BTreeSet<&str> =
        want.iter().filter_map(|p| p.rsplit('.').next()).collect();
    assert!(
        which == Submissions::None || languages.len() >= 4,
        "{problem}: {languages:?}"
    );
    // One job: an overloaded machine makes judge refuse to time.
    let mut args = vec!["verify", "--json", "--jobs", "1", out.to_str().unwrap()];
    match which {
        Submissions::All => {}
        Submissions::None => args.push("--no-submissions"),
        Submissions::NotTheSlowAccepted => {
            for w in &want {
                args.extend(["--submissions", w.as_str()]);
            }
        }
    }
    let run = judge_timed(1800, &args);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(report.problems.len(), 1);
    let p = &report.problems[0];
    for c in &p.checks {
        assert_ne!(c.status, "fail", "{}: {}: {}", p.problem, c.name, c.message);
    }
    // The exported validator rejected every invalid input of the package (2025-09; the
    // other formats have none).
    let invalid = p.checks.iter().find(|c| c.name == "invalid inputs");
    let rejected = invalid.is_some_and(|c| c.status == "ok" && c.message.starts_with("all "));
    assert_eq!(rejected, format == "2025-09", "{problem}: {:?}", p.checks);
    assert!(
        invalid.is_some_and(|c| c.status == "ok"),
        "{problem}: {:?}",
        p.checks
    );
    // A partial verify says so.
    let partial = p.checks.iter().any(|c| {
        c.name == "submissions" && c.status == "warn" && c.message.contains("(--submissions)")
    });
    assert_eq!(
        partial,
        which == Submissions::NotTheSlowAccepted,
        "{problem}: {:?}",
        p.checks
    );
    if which == Submissions::None {
        assert!(p.submissions.is_empty(), "{problem}");
        assert!(report.ok && !report.interrupted, "{}", run.stdout);
        run.assert_code(0);
        return;
    }
    // Every selected jury submission was judged, with its folder's verdict.
    let mut got: Vec<String> = p.submissions.iter().map(|s| s.path.clone()).collect();
    got.sort();
    assert_eq!(got, want, "{problem}");
    for s in &p.submissions {
        assert_eq!(s.expected, s.actual, "{problem}: {}", s.path);
    }
    assert!(report.ok && !report.interrupted, "{}", run.stdout);
    run.assert_code(0);
}

// One test per problem (and format), so that they run side by side. The default format with
// the submissions but the slow accepted ones; the others' static checks.
#[test]
fn the_exported_magic_square_verifies_with_every_submission_but_the_slow_accepted_ones() {
    let (problem, short) = PROBLEMS[0];
    the_exported_package_verifies(problem, short, FORMATS[0], Submissions::NotTheSlowAccepted);
}

#[test]
fn the_exported_dodecahedron_verifies_with_every_submission_but_the_slow_accepted_ones() {
    let (problem, short) = PROBLEMS[1];
    the_exported_package_verifies(problem, short, FORMATS[0], Submissions::NotTheSlowAccepted);
}

#[test]
fn the_exported_packages_of_every_format_pass_the_static_checks() {
    for format in FORMATS {
        for (problem, short) in PROBLEMS {
            the_exported_package_verifies(problem, short, format, Submissions::None);
        }
    }
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_magic_square_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[0];
    the_exported_package_verifies(problem, short, "legacy", Submissions::All);
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_dodecahedron_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[1];
    the_exported_package_verifies(problem, short, "legacy", Submissions::All);
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_magic_square_2023_07_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[0];
    the_exported_package_verifies(problem, short, "2023-07", Submissions::All);
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_dodecahedron_2023_07_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[1];
    the_exported_package_verifies(problem, short, "2023-07", Submissions::All);
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_magic_square_2025_09_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[0];
    the_exported_package_verifies(problem, short, "2025-09", Submissions::All);
}

#[test]
#[ignore = "every jury submission on every test, 20-30 s of CPU time each: `.ci/run` runs it"]
fn the_exported_dodecahedron_2025_09_verifies_with_every_submission_getting_its_folders_verdict() {
    let (problem, short) = PROBLEMS[1];
    the_exported_package_verifies(problem, short, "2025-09", Submissions::All);
}

/// Builds the program folder `dir` (its `build` script) in a copy and returns the `run` path.
fn build(dir: &Path, into: &Path) -> PathBuf {
    common::copy_dir(dir, into);
    let out = Command::new("timeout")
        .args(["300", "sh", "./build"])
        .current_dir(into)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    into.join("run")
}

/// Runs a built jury program under an outer timeout; returns (exit status, stdout).
fn run_program(run: &Path, args: &[&Path], stdin: &[u8]) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new("timeout")
        .arg("60")
        .arg(run)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The exported validator and checker of `problem` judge exactly like its built-in logic (the
/// same programs in every format; 2025-09 has the invalid inputs, and the checker at
/// `output_validator/` itself).
fn the_exported_validator_and_checker_judge_like_the_built_in_ones(problem: &str, short: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join(short);
    export(problem, &pkg, &["--format", "2025-09"]).assert_code(0);
    // Two compilers side by side.
    let (validator, checker) = std::thread::scope(|s| {
        let v = s.spawn(|| {
            build(
                &pkg.join("input_validators/validator"),
                &tmp.path().join("v"),
            )
        });
        let c = build(&pkg.join("output_validator"), &tmp.path().join("c"));
        (v.join().unwrap(), c)
    });
    let logic = lookup(problem).unwrap();

    // Inputs: the invalid ones, the samples and the first secret tests.
    let mut inputs: Vec<PathBuf> = Vec::new();
    for group in ["invalid_input", "sample", "secret"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(pkg.join("data").join(group))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "in"))
            .collect();
        found.sort();
        inputs.extend(found.into_iter().take(12));
    }
    for input in &inputs {
        let bytes = std::fs::read(input).unwrap();
        let (code, stdout) = run_program(&validator, &[], &bytes);
        match logic.validate(&bytes).unwrap() {
            Ok(()) => assert_eq!(code, 42, "{}: {stdout}", input.display()),
            Err(v) => {
                assert_eq!(code, 43, "{}", input.display());
                assert_eq!(stdout.trim_end(), v.to_string(), "{}", input.display());
            }
        }
    }

    // Outputs: the answer, the checker's own wrong answers, garbage, nothing.
    let feedback = tmp.path().join("feedback");
    let mut judged = 0;
    for input in inputs
        .iter()
        .filter(|p| !p.starts_with(pkg.join("data/invalid_input")))
    {
        let answer_path = input.with_extension("ans");
        let text = std::fs::read_to_string(input).unwrap();
        let answer = std::fs::read_to_string(&answer_path).unwrap();
        let mut outputs: Vec<String> = vec![answer.clone(), "no\n".into(), String::new()];
        outputs.extend(logic.mutate_answer(&text, &answer).into_iter().map(|m| m.1));
        for output in outputs {
            let _ = std::fs::remove_dir_all(&feedback);
            std::fs::create_dir_all(&feedback).unwrap();
            let (code, _) = run_program(
                &checker,
                &[input, &answer_path, &feedback],
                output.as_bytes(),
            );
            let message = std::fs::read_to_string(feedback.join("judgemessage.txt"));
            match logic.check(&text, &answer, output.as_bytes()) {
                Judgement::Accepted => assert_eq!(code, 42, "{output:?}"),
                Judgement::Rejected(why) => {
                    assert_eq!(code, 43, "{output:?}");
                    assert_eq!(message.unwrap().trim_end(), why, "{output:?}");
                }
                Judgement::JudgeError(why) => {
                    assert_eq!(code, 1, "{output:?}");
                    assert!(message.unwrap().contains(&why), "{output:?}");
                }
            }
            judged += 1;
        }
    }
    assert!(judged > 20, "{problem}: only {judged} outputs judged");
}

#[test]
fn the_exported_magic_square_validator_and_checker_judge_like_the_built_in_ones() {
    let (problem, short) = PROBLEMS[0];
    the_exported_validator_and_checker_judge_like_the_built_in_ones(problem, short);
}

#[test]
fn the_exported_dodecahedron_validator_and_checker_judge_like_the_built_in_ones() {
    let (problem, short) = PROBLEMS[1];
    the_exported_validator_and_checker_judge_like_the_built_in_ones(problem, short);
}

/// What tools leave in a package's submissions (byte code, editor swap files, backups) is not
/// exported as a submission, nor reported as a folder the format does not know.
#[test]
fn tool_litter_in_the_submissions_is_not_exported() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("magic-square");
    common::copy_dir(&common::root().join("problems/magic-square"), &pkg);
    let subs = pkg.join("submissions");
    for litter in [
        "__pycache__/forced.cpython-311.pyc",
        "accepted/__pycache__/forced.cpython-311.pyc",
        "accepted/.DS_Store",
        "wrong_answer/.rows_only.py.swp",
        "wrong_answer/rows_only.py~",
    ] {
        std::fs::create_dir_all(subs.join(litter).parent().unwrap()).unwrap();
        std::fs::write(subs.join(litter), "litter").unwrap();
    }
    let out = tmp.path().join("out");
    let run = export(pkg.to_str().unwrap(), &out, &[]);
    run.assert_code(0);
    assert!(!run.stderr.contains("__pycache__"), "{}", run.stderr);
    let exported: Vec<String> = files(&out)
        .into_keys()
        .filter(|f| f.starts_with("submissions/"))
        .collect();
    let clean = |f: &&String| !f.contains("__pycache__") && !f.contains("/.") && !f.ends_with('~');
    assert!(exported.iter().all(|f| clean(&f)), "{exported:?}");
    assert!(exported.contains(&"submissions/wrong_answer/rows_only.py".to_string()));
}

#[test]
fn the_zip_holds_the_package_at_its_root() {
    let python = Path::new("/usr/bin/python3");
    if !common::require(
        python.is_file(),
        "/usr/bin/python3 is needed to read the zip",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("magicsquare");
    let zip = tmp.path().join("magicsquare.zip");
    export("magic-square", &dir, &[]).assert_code(0);
    export("magic-square", &zip, &["--zip"]).assert_code(0);
    // Read by an independent zip reader: names, Unix modes and contents.
    let script = "import json, sys, zipfile\n\
                  z = zipfile.ZipFile(sys.argv[1])\n\
                  assert z.testzip() is None\n\
                  print(json.dumps({i.filename: [i.external_attr >> 16, z.read(i).hex()] for i in z.infolist()}))\n";
    let out = Command::new(python)
        .args(["-c", script, zip.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: BTreeMap<String, (u32, String)> = serde_json::from_slice(&out.stdout).unwrap();
    let folder = files(&dir);
    let names: Vec<&String> = listed.keys().collect();
    assert_eq!(names, folder.keys().collect::<Vec<_>>());
    for (name, bytes) in &folder {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(listed[name].1, hex, "{name}");
    }
    for must in [
        "problem.yaml",
        "data/sample/1.in",
        "data/sample/1.ans",
        "problem_statement/problem.en.tex",
        ".timelimit",
        "input_validators/validator/build",
        "input_validators/validator/main.rs",
        "output_validators/checker/checker.rs",
        "submissions/accepted/forced.cpp",
        "submissions/wrong_answer/only_n3.c",
    ] {
        assert!(listed.contains_key(must), "{must} missing: {names:?}");
    }
    assert_eq!(listed["input_validators/validator/build"].0, 0o100755);
    assert_eq!(listed["problem.yaml"].0, 0o100644);
    assert!(names.iter().any(|n| n.starts_with("data/secret/")));
    assert!(!names.iter().any(|n| n.contains("compile_error")));
    let yaml = String::from_utf8(folder["problem.yaml"].clone()).unwrap();
    for line in [
        "problem_format_version: legacy",
        "name: \"Magic Square\"",
        "validation: custom",
        "  memory: 64",
    ] {
        assert!(yaml.lines().any(|l| l == line), "{line:?} not in\n{yaml}");
    }
}

fn assert_one_error(run: &Run, needle: &str) {
    run.assert_code(2);
    assert_clean_error(run);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(needle),
        "{needle:?} not in {}",
        run.stderr
    );
}

#[test]
fn bad_arguments_are_one_line_and_exit_2_and_nothing_is_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("pkg");
    assert_one_error(
        &export("no-such-problem", &out, &[]),
        "no problem `no-such-problem`",
    );
    assert!(!out.exists());

    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    assert_one_error(&export("magic-square", &out, &[]), "pass --force");
    assert_eq!(
        std::fs::read_to_string(out.join("keep.txt")).unwrap(),
        "mine"
    );
    assert_one_error(&export("magic-square", &out, &["--zip"]), "is a folder");

    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert_one_error(&export("magic-square", &file, &[]), "is not a folder");
    assert_one_error(&export("magic-square", &file, &["--zip"]), "pass --force");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");

    let kattis = common::root().join("tests/packages/mean");
    let run = export(kattis.to_str().unwrap(), &tmp.path().join("k"), &[]);
    assert_one_error(&run, "is a Kattis package already");

    let run = judge(&["export", "magic-square"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--out"), "{}", run.stderr);

    // --force replaces the folder as a whole.
    export("magic-square", &out, &["--force"]).assert_code(0);
    assert!(!out.join("keep.txt").exists());
    assert!(out.join("problem.yaml").is_file());
}

/// Each `--format` writes its version's layout, as the tools that read it want it (the source
/// of each row: `src/export/format.rs`); no `--format` is `legacy`.
#[test]
fn each_format_writes_its_versions_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let default = tmp.path().join("default");
    let run = export("magic-square", &default, &[]);
    run.assert_code(0);
    assert!(run.stderr.contains("(format legacy)"), "{}", run.stderr);
    for format in FORMATS {
        let out = tmp.path().join(format);
        let run = export("magic-square", &out, &["--format", format]);
        run.assert_code(0);
        assert!(
            run.stderr.contains(&format!("(format {format})")),
            "{}",
            run.stderr
        );
        let tree = files(&out);
        let has = |f: &str| tree.contains_key(f);
        let text = |f: &str| String::from_utf8(tree[f].clone()).unwrap();
        let yaml = text("problem.yaml");
        let lines: Vec<&str> = yaml.lines().collect();
        let version = match format {
            "2023-07" => "2023-07-draft",
            v => v,
        };
        let legacy = format == "legacy";
        let v2025 = format == "2025-09";
        for line in [
            format!("problem_format_version: {version}"),
            "name: \"Magic Square\"".into(),
            "type: pass-fail".into(),
            "limits:".into(),
            "  memory: 64".into(),
        ] {
            assert!(
                lines.contains(&line.as_str()),
                "{format}: {line:?} not in\n{yaml}"
            );
        }
        assert!(lines.iter().any(|l| l.starts_with("uuid: ")), "{format}");
        // Legacy names the custom validator with `validation`, and has no time-limit key.
        assert_eq!(
            lines.contains(&"validation: custom"),
            legacy,
            "{format}\n{yaml}"
        );
        assert_eq!(
            lines.contains(&"  time_limit: 1.0"),
            !legacy,
            "{format}\n{yaml}"
        );
        // `.timelimit`: legacy's time limit, DOMjudge 9.0's for 2023-07; BAPCtools calls it
        // deprecated in 2025-09.
        assert_eq!(has(".timelimit"), !v2025, "{format}");
        if !v2025 {
            assert_eq!(text(".timelimit"), "1.0\n", "{format}");
        }
        // The statement: LaTeX in problem_statement/ (legacy) or statement/ (2025-09),
        // Markdown in statement/ (2023-07, which problemtools renders with pandoc).
        let statement = match format {
            "legacy" => "problem_statement/problem.en.tex",
            "2023-07" => "statement/problem.en.md",
            _ => "statement/problem.en.tex",
        };
        let statements: Vec<&String> = tree
            .keys()
            .filter(|f| f.starts_with("statement/") || f.starts_with("problem_statement/"))
            .collect();
        assert_eq!(statements, [statement], "{format}");
        let body = text(statement);
        if statement.ends_with(".tex") {
            assert!(body.contains("\\problemname{Magic Square}\n"), "{body}");
            assert!(body.contains("\\section*{Input}\n"), "{body}");
            assert!(body.contains("$3 \\le N \\le 4$"), "{body}");
            assert!(!body.contains("## "), "{body}");
        } else {
            assert!(body.contains("## Input\n"), "{body}");
        }
        assert!(
            !body.contains("Sample input 1"),
            "{format}: printed samples"
        );
        // The output validator: output_validators/<name>/ (legacy), output_validator/<name>/
        // (2023-07-draft, as problemtools reads it), output_validator/ itself (2025-09).
        let checker = match format {
            "legacy" => "output_validators/checker/",
            "2023-07" => "output_validator/checker/",
            _ => "output_validator/",
        };
        for name in ["build", "main.rs", "checker.rs", "jury.rs"] {
            assert!(
                has(&format!("{checker}{name}")),
                "{format}: {checker}{name}"
            );
        }
        let validators: Vec<&String> = tree
            .keys()
            .filter(|f| f.starts_with("output_validator"))
            .filter(|f| !f.starts_with(checker) || f[checker.len()..].contains('/'))
            .collect();
        assert!(validators.is_empty(), "{format}: {validators:?}");
        assert!(has("input_validators/validator/build"), "{format}");
        // data/invalid_input/ in 2025-09 only (problemtools refuses the folder in 2023-07-draft;
        // legacy has none); the note says what was left out.
        let invalid = tree
            .keys()
            .filter(|f| f.starts_with("data/invalid_input/"))
            .count();
        assert_eq!(invalid > 0, v2025, "{format}");
        assert!(has("data/invalid_input/crlf.in") == v2025, "{format}");
        assert_eq!(
            run.stderr.contains("invalid inputs left out"),
            !v2025,
            "{format}: {}",
            run.stderr
        );
        // 2025-09 rules keep judge's meaning of the rejected folders (the first failure), in
        // every version (problemtools and DOMjudge ignore the file and mean the same).
        let rules = text("submissions/submissions.yaml");
        assert!(
            rules.contains("wrong_answer:\n  permitted: [AC, WA, TLE, RTE]\n  required: [WA]\n"),
            "{format}: {rules}"
        );
        for f in [
            "problem.html",
            "data/sample/1.in",
            "data/sample/1.ans",
            "submissions/accepted/forced.cpp",
            "submissions/wrong_answer/only_n3.c",
        ] {
            assert!(has(f), "{format}: {f}");
        }
        // A test identical to an earlier one is a link to it (BAPCtools warns about identical
        // inputs otherwise); the bytes are the same.
        let link = out.join("data/secret/38-binary-n4-02.in");
        assert_eq!(
            std::fs::read_link(&link).unwrap(),
            Path::new("37-binary-n4-01.in"),
            "{format}"
        );
        assert_eq!(
            tree["data/secret/38-binary-n4-02.in"],
            tree["data/secret/37-binary-n4-01.in"]
        );
        if legacy {
            assert_eq!(files(&default), tree, "no --format is legacy");
        }
    }
}

#[test]
fn an_unknown_format_is_one_error_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("pkg");
    for bad in ["2024", "2023", "Legacy", ""] {
        let run = export("magic-square", &out, &["--format", bad]);
        run.assert_code(2);
        let line = common::the_error_line(&run);
        assert!(line.contains("--format"), "{line}");
        if !bad.is_empty() {
            assert!(line.contains(&format!("invalid value '{bad}'")), "{line}");
        }
        assert!(
            run.stderr.contains("legacy, 2023-07, 2025-09"),
            "{}",
            run.stderr
        );
        assert!(!out.exists());
    }
}

/// A built-in problem with `[[subtasks]]` exports as a scoring package: each secret test in its
/// subtask's folder, the group files of the format (legacy `testdata.yaml`, 2025-09
/// `test_group.yaml`), and `judge verify` of the legacy export gives the accepted submissions
/// the full score. (problemtools' verdict on it: `scripts/problemtools-verify`.)
#[test]
fn a_problem_with_subtasks_exports_as_a_scoring_package() {
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("src/magic-square");
    common::copy_dir(&common::root().join("problems/magic-square"), &source);
    let toml = source.join("problem.toml");
    std::fs::write(
        &toml,
        std::fs::read_to_string(&toml).unwrap() + common::MAGIC_SQUARE_SUBTASKS,
    )
    .unwrap();
    let source = source.display().to_string();
    for format in FORMATS {
        let out = tmp.path().join(format);
        export(&source, &out, &["--format", format]).assert_code(0);
        let tree = files(&out);
        let yaml = String::from_utf8_lossy(&tree["problem.yaml"]).to_string();
        assert!(yaml.contains("type: scoring"), "{format}: {yaml}");
        let in_group = |g: &str| {
            tree.keys()
                .filter(|k| k.starts_with(&format!("data/secret/{g}/")) && k.ends_with(".in"))
                .count()
        };
        assert!(in_group("n3") > 0 && in_group("n4") > 0, "{format}");
        assert!(
            !tree.keys().any(|k| k.starts_with("data/secret/")
                && k.matches('/').count() == 2
                && k.ends_with(".in")),
            "{format}: a secret test outside the subtasks"
        );
        let group_file = |g: &str| {
            let name = if format == "2025-09" {
                "test_group.yaml"
            } else {
                "testdata.yaml"
            };
            String::from_utf8_lossy(&tree[&format!("data/secret/{g}/{name}")]).to_string()
        };
        if format == "2025-09" {
            assert_eq!(group_file("n3"), "max_score: 30\nscore_aggregation: min\n");
        } else {
            assert!(
                group_file("n4").contains("accept_score: 70\nrange: 0 70\n"),
                "{}",
                group_file("n4")
            );
        }
    }
    let legacy = tmp.path().join("legacy").display().to_string();
    let run = judge_timed(
        900,
        &[
            "verify",
            "--submissions",
            "accepted/forced.cpp",
            "--submissions",
            "wrong_answer/int32_diagonals.cpp",
            &legacy,
        ],
    );
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("submissions/accepted/forced.cpp: AC on 74 tests, score 100/100"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("submissions/wrong_answer/int32_diagonals.cpp: WA by the package's rules, score 30/100 (WA expected)"), "{}", run.stdout);
}
