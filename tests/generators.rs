//! Test data made from `generators/generators.yaml` (BAPCtools' format) on the fixture
//! `tests/packages/gensum`, which commits no data: every kind of rule (`generators:`
//! dictionary, numbered lists, `count`, `{seed}`/`{seed:N}`, `{name}`, `copy`, a bare
//! `path.in`, inline `in`/`ans`/`yaml`, `type: directory`, `include`, `test_group.yaml`,
//! C++, Python and folder generators, a generator writing its own `.ans`, invalid inputs).
//!
//! `judge gen` makes the same bytes every time, changes nothing the second time, leaves
//! `data/` untouched when a generator fails, is interrupted or makes an invalid input;
//! `--check` names differences and files no rule makes; `verify` and `grade` of the package
//! make the data into the cache and never write into the package.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_clean_error, copy_dir, judge_in, require, root, the_error_line, Run};

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A copy of the fixture in a fresh folder, or `None` (a skip) without python3 and g++.
fn fixture() -> Option<(tempfile::TempDir, PathBuf)> {
    if !require(have("python3") && have("g++"), "python3 and g++") {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("gensum");
    copy_dir(&root().join("tests/packages/gensum"), &pkg);
    Some((tmp, pkg))
}

fn judge(args: &[&str]) -> Run {
    judge_in(&root(), args, b"")
}

fn gen(pkg: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["gen", pkg.to_str().unwrap()];
    args.extend(extra);
    judge(&args)
}

/// Every file below `dir`, by path relative to it, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        for e in read {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn text(files: &BTreeMap<String, Vec<u8>>, name: &str) -> String {
    String::from_utf8(
        files
            .get(name)
            .unwrap_or_else(|| panic!("no {name}"))
            .clone(),
    )
    .unwrap()
}

/// No temporary folder of a `gen` is left in the package.
fn assert_no_scratch(pkg: &Path) {
    for e in std::fs::read_dir(pkg).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains("judge-tmp"), "left behind: {name}");
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

#[test]
fn gen_makes_every_kind_of_rule() {
    let Some((_tmp, pkg)) = fixture() else { return };
    let run = gen(&pkg, &[]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("wrote 15 test cases to"),
        "{}",
        run.stderr
    );
    let files = snapshot(&pkg.join("data"));
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    let expected = [
        "invalid_input/big.in",
        "invalid_input/too-many.in",
        "sample/1.ans",
        "sample/1.in",
        "secret/01-random.ans",
        "secret/01-random.in",
        "secret/02-counted-1.ans",
        "secret/02-counted-1.in",
        "secret/03-counted-2.ans",
        "secret/03-counted-2.in",
        "secret/04-counted-3.ans",
        "secret/04-counted-3.in",
        "secret/05-seeded.ans",
        "secret/05-seeded.in",
        "secret/05-seeded.yaml",
        "secret/06-max.ans",
        "secret/06-max.in",
        "secret/07-min.ans",
        "secret/07-min.in",
        "secret/08-both.ans",
        "secret/08-both.in",
        "secret/09-repeat.ans",
        "secret/09-repeat.in",
        "secret/1-small/06-max.ans",
        "secret/1-small/06-max.in",
        "secret/1-small/inline.ans",
        "secret/1-small/inline.in",
        "secret/1-small/inline.yaml",
        "secret/1-small/test_group.yaml",
        "secret/1-small/tiny.ans",
        "secret/1-small/tiny.in",
        "secret/10-folder.ans",
        "secret/10-folder.in",
        "secret/test_group.yaml",
    ];
    assert_eq!(names, expected);
    // Inline files get their final newline; the solution makes the answers.
    assert_eq!(text(&files, "sample/1.in"), "3\n1 2 3\n");
    assert_eq!(text(&files, "sample/1.ans"), "6\n");
    // {seed} is BAPCtools' seed: python3 -c 'import hashlib; print(int(hashlib.sha512(
    // b"fixtureseed.py {seed}").hexdigest(), 16) % 2**31)' (random_salt + command).
    assert_eq!(
        text(&files, "secret/05-seeded.yaml"),
        "description: seed 2126905632\n"
    );
    assert_eq!(text(&files, "secret/05-seeded.in"), "1\n632\n");
    // A generator that writes testcase.in and testcase.ans: no solution runs.
    assert_eq!(text(&files, "secret/08-both.ans"), "42\n");
    // `copy` and the bare `manual/min.in` copy the manual files (and their .ans).
    assert_eq!(text(&files, "secret/06-max.ans"), "3000\n");
    assert_eq!(text(&files, "secret/07-min.ans"), "-1000\n");
    assert_eq!(text(&files, "secret/09-repeat.in"), "4\n7 7 7 7\n");
    assert_eq!(text(&files, "secret/10-folder.in"), "1\n-5\n");
    assert!(text(&files, "secret/02-counted-1.in").starts_with("1\n"));
    assert!(text(&files, "secret/04-counted-3.in").starts_with("3\n"));
    assert_eq!(
        files["secret/1-small/06-max.in"], files["secret/06-max.in"],
        "include copies the case"
    );
    assert_eq!(
        text(&files, "secret/test_group.yaml"),
        "output_validator_args: [space_change_sensitive]\n"
    );
    assert_eq!(
        text(&files, "secret/1-small/inline.yaml"),
        "description: one number\n"
    );
    assert_no_scratch(&pkg);
    // --out writes the same data elsewhere.
    let out = pkg.parent().unwrap().join("out");
    gen(&pkg, &["--out", out.to_str().unwrap()]).assert_code(0);
    assert_eq!(snapshot(&out), files);
}

#[test]
fn without_a_solution_answers_come_from_the_first_accepted_submission() {
    let Some((_tmp, pkg)) = fixture() else { return };
    edit(
        &pkg.join("generators/generators.yaml"),
        "solution: /submissions/accepted/sum.py\n",
        "",
    );
    let run = gen(&pkg, &[]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "names no solution for some cases: their answers come from submissions/accepted/sum.py"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join("data/secret/09-repeat.ans")).unwrap(),
        "28\n"
    );
}

#[test]
fn gen_is_deterministic_and_a_second_run_changes_nothing() {
    let Some((_a, one)) = fixture() else { return };
    let Some((_b, two)) = fixture() else { return };
    gen(&one, &[]).assert_code(0);
    gen(&two, &[]).assert_code(0);
    let first = snapshot(&one.join("data"));
    assert_eq!(first, snapshot(&two.join("data")), "two runs, two bytes");
    let stamp = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let before = stamp(&one.join("data/secret/01-random.in"));
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let data_inode = inode(&one.join("data"));
    let run = gen(&one, &[]);
    run.assert_code(0);
    assert!(run.stderr.contains("is up to date"), "{}", run.stderr);
    assert_eq!(snapshot(&one.join("data")), first);
    assert_eq!(stamp(&one.join("data/secret/01-random.in")), before);
    assert_eq!(
        inode(&one.join("data")),
        data_inode,
        "data/ was not replaced"
    );
    gen(&one, &["--check"]).assert_code(0);
}

#[test]
fn a_failing_generator_leaves_data_untouched() {
    let Some((_tmp, pkg)) = fixture() else { return };
    gen(&pkg, &[]).assert_code(0);
    let before = snapshot(&pkg.join("data"));
    std::fs::write(
        pkg.join("generators/both.py"),
        "import sys\nprint('boom: no output for you', file=sys.stderr)\nsys.exit(3)\n",
    )
    .unwrap();
    let run = gen(&pkg, &[]);
    run.assert_code(2);
    assert_clean_error(&run);
    let line = the_error_line(&run);
    assert!(
        line.contains("data.secret.08-both")
            && line.contains("both.py")
            && line.contains("exit code 3")
            && line.contains("boom: no output for you"),
        "{line}"
    );
    assert_eq!(snapshot(&pkg.join("data")), before);
    assert_no_scratch(&pkg);
}

#[test]
fn an_invalid_generated_input_is_rejected_naming_the_case() {
    let Some((_tmp, pkg)) = fixture() else { return };
    edit(
        &pkg.join("generators/generators.yaml"),
        "repeat.cpp 4 7",
        "repeat.cpp 4 2000",
    );
    let run = gen(&pkg, &[]);
    run.assert_code(2);
    let line = the_error_line(&run);
    assert!(
        line.contains("data.secret.09-repeat: the generated input is invalid")
            && line.contains("input_validators/validate.py (exit 43)")
            && line.contains("outside [-1000, 1000]"),
        "{line}"
    );
    assert!(!pkg.join("data").exists(), "nothing is written");
    // An input in invalid_input that the validators accept is an error too.
    edit(
        &pkg.join("generators/generators.yaml"),
        "repeat.cpp 4 2000",
        "repeat.cpp 4 7",
    );
    edit(
        &pkg.join("generators/generators.yaml"),
        "big: repeat.cpp 1 1001",
        "big: repeat.cpp 1 1000",
    );
    let line = the_error_line(&gen(&pkg, &[])).to_string();
    assert!(
        line.contains("data.invalid_input.big: the input validators accept this input"),
        "{line}"
    );
}

/// gen validates what it makes with a checktestdata validator too: gensum's Python validator
/// replaced by the same format in checktestdata (without `--small`, an argument checktestdata
/// does not take).
#[test]
fn gen_validates_generated_inputs_with_a_checktestdata_validator() {
    let Some((_tmp, pkg)) = fixture() else { return };
    std::fs::remove_file(pkg.join("input_validators/validate.py")).unwrap();
    std::fs::write(
        pkg.join("input_validators/format.ctd"),
        "INT(1, 100, n) NEWLINE REP(n, SPACE) INT(-1000, 1000) END NEWLINE\n",
    )
    .unwrap();
    edit(
        &pkg.join("generators/generators.yaml"),
        "input_validator_args: [--small]",
        "input_validator_args: []",
    );
    gen(&pkg, &[]).assert_code(0);
    edit(
        &pkg.join("generators/generators.yaml"),
        "repeat.cpp 4 7",
        "repeat.cpp 4 2000",
    );
    std::fs::remove_dir_all(pkg.join("data")).unwrap();
    let run = gen(&pkg, &[]);
    run.assert_code(2);
    let line = the_error_line(&run);
    assert!(
        line.contains("data.secret.09-repeat: the generated input is invalid")
            && line.contains("invalid: line 2, column 1: rejected by input_validators/format.ctd")
            && line.contains("integer 2000 is out of range [-1000, 1000]"),
        "{line}"
    );
}

/// gen checks every answer it makes with the package's answer validators (BAPCtools does, in
/// `bt generate`): the answer on standard input, the input file as the first argument. An
/// answer a validator rejects stops gen, naming the case, the validator and its message, and
/// nothing is written; `invalid_answer` cases are made, and verify checks they are rejected.
#[test]
fn gen_validates_made_answers_with_the_answer_validators() {
    let Some((_tmp, pkg)) = fixture() else { return };
    std::fs::create_dir_all(pkg.join("answer_validators")).unwrap();
    std::fs::write(
        pkg.join("answer_validators/bounded.py"),
        "import re, sys\n\
         n = int(open(sys.argv[1]).read().split()[0])\n\
         answer = sys.stdin.read()\n\
         if not re.fullmatch(r'-?[0-9]+\\n?', answer):\n\
         \x20   sys.exit('not one integer: ' + repr(answer[:20]))\n\
         if abs(int(answer)) > 1000 * n:\n\
         \x20   sys.exit(f'{answer.strip()} is over 1000 n')\n\
         sys.exit(42)\n",
    )
    .unwrap();
    let yaml = pkg.join("generators/generators.yaml");
    edit(
        &yaml,
        "  invalid_input:\n",
        "  invalid_answer:\n    data:\n      spaced:\n        in: \"1\\n5\"\n        ans: \" 5\"\n  invalid_input:\n",
    );
    gen(&pkg, &[]).assert_code(0);
    assert_eq!(
        std::fs::read_to_string(pkg.join("data/invalid_answer/spaced.ans")).unwrap(),
        " 5\n"
    );
    let run = judge(&["verify", "--no-submissions", pkg.to_str().unwrap()]);
    run.assert_code(0);
    for line in [
        "ok    answer validator: all 14 test answers are valid (1 answer validator)",
        "ok    invalid answers: the 1 answer in data/invalid_answer is rejected",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    std::fs::remove_dir_all(pkg.join("data")).unwrap();
    edit(&yaml, "ans: \"6\"", "ans: \" 6\"");
    let run = gen(&pkg, &[]);
    run.assert_code(2);
    let line = the_error_line(&run);
    assert!(
        line.contains("data.sample.1: the answer is invalid: rejected by answer_validators/bounded.py (exit 1): not one integer: ' 6\\n'"),
        "{line}"
    );
    assert!(!pkg.join("data").exists(), "nothing is written");
}

#[test]
fn check_names_differences_missing_and_unmentioned_files() {
    let Some((_tmp, pkg)) = fixture() else { return };
    gen(&pkg, &[]).assert_code(0);
    let data = pkg.join("data");
    std::fs::write(data.join("secret/01-random.in"), "1\n1\n").unwrap();
    std::fs::remove_file(data.join("sample/1.ans")).unwrap();
    std::fs::write(data.join("secret/stray.in"), "1\n1\n").unwrap();
    let run = gen(&pkg, &["--check"]);
    run.assert_code(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let at = |f: &str| data.join(f).display().to_string();
    assert_eq!(
        lines,
        [
            format!("differs          {}", at("secret/01-random.in")),
            format!("missing          {}", at("sample/1.ans")),
            format!("made by no rule  {}", at("secret/stray.in")),
        ],
        "{}",
        run.stderr
    );
    // Writing would lose the stray file: refused, data/ untouched.
    let before = snapshot(&data);
    let run = gen(&pkg, &[]);
    run.assert_code(2);
    assert!(
        the_error_line(&run).contains("secret/stray.in"),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot(&data), before);
    std::fs::remove_file(data.join("secret/stray.in")).unwrap();
    gen(&pkg, &[]).assert_code(0);
    gen(&pkg, &["--check"]).assert_code(0);
}

#[test]
fn unknown_keys_and_unsupported_parts_are_one_warning_line_each() {
    let Some((_tmp, pkg)) = fixture() else { return };
    edit(
        &pkg.join("generators/generators.yaml"),
        "      - seeded:\n          generate: seed.py {seed}\n",
        "      - seeded:\n          generate: seed.py {seed}\n          colour: red\n          match: '^1$'\n",
    );
    std::fs::create_dir_all(pkg.join("input_visualizer")).unwrap();
    let run = gen(&pkg, &[]);
    run.assert_code(0);
    let warnings: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 3, "{}", run.stderr);
    assert!(warnings[0].ends_with("data.secret.seeded: unknown key `colour`"));
    assert!(warnings[1].contains("`match:` patterns are not checked"));
    assert!(warnings[2].contains("visualizers"));
}

#[test]
fn verify_and_grade_make_the_data_without_writing_the_package() {
    let Some((_tmp, pkg)) = fixture() else { return };
    let dir = pkg.to_str().unwrap();
    let run = judge(&["verify", "--no-submissions", dir]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("ok    validator: all 14 test inputs are valid"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("ok    invalid inputs: all 2 files in data/invalid_input are rejected"),
        "{}",
        run.stdout
    );
    assert!(!pkg.join("data").exists(), "verify wrote into the package");
    let sub = pkg.join("submissions/accepted/sum.py");
    let run = judge(&["grade", dir, sub.to_str().unwrap()]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("AC  14/14 tests passed"),
        "{}",
        run.stdout
    );
    let sub = pkg.join("submissions/wrong_answer/first.py");
    judge(&["grade", dir, sub.to_str().unwrap()]).assert_code(1);
    assert!(!pkg.join("data").exists(), "grade wrote into the package");
    // Committed data that differs from what the generators make: a warning that says so.
    gen(&pkg, &[]).assert_code(0);
    std::fs::write(pkg.join("data/secret/01-random.ans"), "0\n").unwrap();
    let run = judge(&["verify", "--no-submissions", dir]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("warn  package:")
            && run.stdout.contains("committed data differs")
            && run.stdout.contains("secret/01-random.ans"),
        "{}",
        run.stdout
    );
    // Data that cannot be made: the committed data/ is used, and verify says so.
    std::fs::write(pkg.join("generators/both.py"), "import sys\nsys.exit(1)\n").unwrap();
    let run = judge(&["verify", "--no-submissions", dir]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("warn  package:")
            && run
                .stdout
                .contains("cannot be made from generators/generators.yaml")
            && run.stdout.contains("the tests are the committed data/"),
        "{}",
        run.stdout
    );
}

/// `gensum-<key>` entries in a cache's `generated-data/`.
fn made_entries(cache: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cache.join("generated-data"))
        .map(|read| {
            read.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("gensum-"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_grade_keeps_its_made_data_while_another_version_of_the_package_is_made() {
    let Some((_a, pkg)) = fixture() else { return };
    let Some((_b, other)) = fixture() else { return };
    // The same package folder name, another generators.yaml: data under another key, whose
    // making removes the entries of older versions that nobody uses.
    let yaml = other.join("generators/generators.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, format!("{text}# another version\n")).unwrap();
    let cache = tempfile::tempdir_in(root().join("target")).unwrap();
    // 14 tests of 1 s one after the other (under a 3 s limit): the other version is made
    // meanwhile.
    edit(
        &pkg.join("problem.yaml"),
        "time_limit: 1.0",
        "time_limit: 3.0",
    );
    let slow = pkg.join("submissions/accepted/slow.py");
    std::fs::write(
        &slow,
        "import time\ntime.sleep(1)\ninput()\nprint(sum(map(int, input().split())))\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new("timeout")
            .arg("300")
            .arg(env!("CARGO_BIN_EXE_judge"))
            .args(args)
            .env("JUDGE_CACHE_DIR", cache.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut grading = run(&[
        "grade",
        "--jobs",
        "1",
        pkg.to_str().unwrap(),
        slow.to_str().unwrap(),
    ]);
    let start = Instant::now();
    while made_entries(cache.path()).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(120), "no data made");
        std::thread::sleep(Duration::from_millis(50));
    }
    let ours = made_entries(cache.path());
    let making = run(&["verify", "--no-submissions", other.to_str().unwrap()])
        .wait_with_output()
        .unwrap();
    assert_eq!(
        making.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&making.stderr)
    );
    assert!(
        grading.try_wait().unwrap().is_none(),
        "the grade ended before the other version was made: the test proves nothing"
    );
    let now = made_entries(cache.path());
    assert!(
        now.contains(&ours[0]) && now.len() == 2,
        "the entry in use was removed: {now:?}"
    );
    let graded = grading.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&graded.stdout);
    assert!(
        graded.status.code() == Some(0) && stdout.contains("AC  14/14 tests passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&graded.stderr)
    );
    // A third version: the two that nobody uses any more go.
    std::fs::write(&yaml, format!("{text}# a third version\n")).unwrap();
    let third = run(&["verify", "--no-submissions", other.to_str().unwrap()])
        .wait_with_output()
        .unwrap();
    assert_eq!(third.status.code(), Some(0));
    assert_eq!(made_entries(cache.path()).len(), 1, "older versions kept");
    let left: Vec<String> = std::fs::read_dir(cache.path().join("generated-data"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn ctrl_c_during_gen_leaves_data_untouched() {
    let Some((_tmp, pkg)) = fixture() else { return };
    gen(&pkg, &[]).assert_code(0);
    let before = snapshot(&pkg.join("data"));
    // A slow generator; a changed command, so the new data would differ.
    std::fs::write(
        pkg.join("generators/both.py"),
        "import time\ntime.sleep(60)\n",
    )
    .unwrap();
    edit(
        &pkg.join("generators/generators.yaml"),
        "repeat.cpp 4 7",
        "repeat.cpp 4 8",
    );
    let child = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["gen", pkg.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it reach the slow generator.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(200));
        let busy = std::fs::read_dir(&pkg).unwrap().any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .contains("judge-tmp")
        });
        if busy && start.elapsed() > Duration::from_secs(2) {
            break;
        }
    }
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert!(
        start.elapsed() < Duration::from_secs(45),
        "stopping took too long"
    );
    assert_eq!(snapshot(&pkg.join("data")), before);
    assert_no_scratch(&pkg);
}

/// A generator given as a folder runs from a folder of its own name, as BAPCtools runs it:
/// in `tests/packages/selfname`, `b` is a link to the folder `a`, and its `gen.py` prints the
/// name of the folder it runs from (`argv[0]`) and its own file name (`__file__`). BAPCtools'
/// test problem `identity` seeds its generators `y`, `n`, `t`, `f` (links to one folder) with
/// that name. Before, every folder program ran as `<cache entry>/solution.py`: `a` and `b`
/// shared one entry and printed the same line.
#[test]
fn a_folder_generator_runs_from_a_folder_of_its_own_name() {
    if !require(have("python3"), "python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("selfname");
    copy_dir(&root().join("tests/packages/selfname"), &pkg);
    assert!(pkg.join("generators/b").is_symlink());
    let run = gen(&pkg, &[]);
    run.assert_code(0);
    let data = snapshot(&pkg.join("data"));
    assert_eq!(text(&data, "secret/from_a.in"), "a gen.py\n");
    assert_eq!(text(&data, "secret/from_b.in"), "b gen.py\n");
}
