//! End-to-end tests of the problem-data commands: problems, gen, solve, check, validate.

use crate::common;

use std::fs;

use common::{assert_clean_error, copy_dir, judge, judge_in, root};

const PROBLEMS: [&str; 2] = ["dodecahedron", "magic-square"];

#[test]
fn problems_lists_both_packages_with_limits() {
    let run = judge(&["problems"]);
    run.assert_code(0);
    for name in PROBLEMS {
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing from:\n{}", run.stdout));
        assert!(line.contains("1.0s") && line.contains("64 MiB"), "{line}");
    }
    let json = judge(&["problems", "--json"]);
    json.assert_code(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["problems"].as_array().unwrap().len(), 2);
    assert!(v["problems"][0]["generated_tests"].as_u64().unwrap() >= 40);
}

/// `judge` run in `dir` with `$JUDGE_PROBLEMS_DIR` set to `problems_dir` (or unset).
fn judge_elsewhere(
    dir: &std::path::Path,
    problems_dir: Option<&str>,
    args: &[&str],
) -> common::Run {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.args(args).current_dir(dir).env("CI", "1");
    match problems_dir {
        Some(p) => cmd.env("JUDGE_PROBLEMS_DIR", p),
        None => cmd.env_remove("JUDGE_PROBLEMS_DIR"),
    };
    let out = cmd.output().expect("spawn judge");
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn outside_the_repository_judge_finds_the_shipped_problems_and_says_where() {
    let elsewhere = tempfile::tempdir().unwrap();
    let run = judge_elsewhere(elsewhere.path(), None, &["problems"]);
    run.assert_code(0);
    for name in PROBLEMS {
        assert!(
            run.stdout.lines().any(|l| l.starts_with(name)),
            "{name} missing: {}",
            run.stdout
        );
    }
    let shipped = root().join("problems");
    assert_eq!(
        run.stderr,
        format!(
            "note: no ./problems here; the packages of {} ($JUDGE_PROBLEMS_DIR sets the folder)\n",
            shipped.display()
        )
    );
    // A bare problem name works from there too.
    judge_elsewhere(elsewhere.path(), None, &["gen", "magic-square", "--list"]).assert_code(0);
}

#[test]
fn without_a_problems_folder_judge_says_where_it_looked_and_how_to_point_elsewhere() {
    let elsewhere = tempfile::tempdir().unwrap();
    let missing = elsewhere.path().join("nowhere");
    let missing = missing.to_str().unwrap();
    let run = judge_elsewhere(elsewhere.path(), Some(missing), &["problems"]);
    run.assert_code(2);
    assert_eq!(
        run.stderr,
        format!(
            "error: no problems folder: looked in {missing}; set $JUDGE_PROBLEMS_DIR to the folder that holds the packages, or name a package by its path\n"
        )
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let run = judge_elsewhere(elsewhere.path(), Some(missing), &["solve", "magic-square"]);
    run.assert_code(2);
    assert_eq!(
        run.stderr,
        format!(
            "error: no problem `magic-square`: neither `{missing}/magic-square` nor a folder `magic-square` with a problem.toml or problem.yaml exists (hint: `judge problems` lists them; set $JUDGE_PROBLEMS_DIR to the folder that holds the packages, or name a package by its path)\n"
        )
    );
}

#[test]
fn gen_writes_a_valid_test_set_whose_answers_check() {
    for name in PROBLEMS {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("tests");
        let run = judge(&["gen", name, "--out", out.to_str().unwrap()]);
        run.assert_code(0);
        let mut inputs: Vec<_> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "in"))
            .collect();
        inputs.sort();
        assert!(inputs.len() >= 45, "{name}: only {} tests", inputs.len());
        let args: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        let mut v = vec!["validate", name];
        v.extend(args.iter().map(String::as_str));
        judge(&v).assert_code(0);
        // Every answer passes the checker; a second generation gives the same bytes.
        for input in inputs.iter().step_by(7) {
            let ans = input.with_extension("ans");
            let (i, a) = (input.to_str().unwrap(), ans.to_str().unwrap());
            judge(&["check", name, i, a, a]).assert_code(0);
        }
        let again = dir.path().join("again");
        judge(&["gen", name, "--out", again.to_str().unwrap()]).assert_code(0);
        for input in &inputs {
            let twin = again.join(input.file_name().unwrap());
            assert_eq!(fs::read(input).unwrap(), fs::read(twin).unwrap());
        }
    }
}

#[test]
fn gen_replaces_the_folder_so_no_stale_test_survives() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tests");
    let out_arg = out.to_str().unwrap();
    judge(&["gen", "magic-square", "--out", out_arg]).assert_code(0);
    let count = fs::read_dir(&out).unwrap().count();
    fs::write(out.join("zz-stale.in"), "3\n1 1 1 1 1 1 1 1 1\n").unwrap();
    let run = judge(&["gen", "magic-square", "--out", out_arg]);
    run.assert_code(0);
    assert!(!out.join("zz-stale.in").exists());
    assert_eq!(fs::read_dir(&out).unwrap().count(), count);
    // Nothing but the folder itself next to it.
    let beside: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(beside.len(), 1);

    // A folder holding anything but tests is never replaced.
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let run = judge(&["gen", "magic-square", "--out", out_arg]);
    run.assert_code(2);
    assert_clean_error(&run);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {out_arg} holds `notes.txt`, which is not a test file; refusing to replace the folder"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
}

#[test]
fn counted_nouns_agree_with_their_count() {
    // A package with a single generated test and no hand-made ones.
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("magic-square");
    copy_dir(&root().join("problems/magic-square"), &pkg);
    fs::remove_dir_all(pkg.join("data/sample")).unwrap();
    fs::remove_dir_all(pkg.join("data/secret")).unwrap();
    fs::write(
        pkg.join("problem.toml"),
        "title = 'One'\n[limits]\ntime-limit = 1.0\nmemory-limit = 64\n\
         [[tests]]\nname = 'only'\ngenerator = 'random'\ncount = 1\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = judge(&["gen", pkg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(run.stderr, format!("wrote 1 test to {}\n", out.display()));
    let run = judge(&["verify", pkg.to_str().unwrap(), "--no-submissions"]);
    assert!(
        run.stdout
            .contains("ok    validator: the 1 test input is valid"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("accepts the jury and reference answers of the 1 test"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("verify: 1 problem: "), "{}", run.stdout);
}

#[test]
fn gen_prints_one_input_per_generator_and_seed() {
    for name in PROBLEMS {
        let list = judge(&["gen", name, "--list"]);
        list.assert_code(0);
        let generators: Vec<String> = list
            .stdout
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim().split([':', ' ']).next().unwrap().to_string())
            .collect();
        assert!(generators.len() >= 5, "{name}: {generators:?}");
        for g in &generators {
            let a = judge(&["gen", name, "--generator", g, "--seed", "7"]);
            a.assert_code(0);
            let b = judge(&["gen", name, "--generator", g, "--seed", "7"]);
            assert_eq!(a.stdout, b.stdout);
            judge_in(&root(), &["validate", name, "-"], a.stdout.as_bytes());
            let solved = judge_in(&root(), &["solve", name], a.stdout.as_bytes());
            solved.assert_code(0);
        }
    }
    let bad = judge(&["gen", "magic-square", "--generator", "nope", "--seed", "1"]);
    bad.assert_code(2);
    assert_clean_error(&bad);
    assert!(
        bad.stderr.contains("unknown generator `nope`"),
        "{}",
        bad.stderr
    );
}

#[test]
fn validator_rejects_every_invalid_input_with_a_position() {
    for name in PROBLEMS {
        let dir = root()
            .join("problems")
            .join(name)
            .join("data/invalid_input");
        let files: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(files.len() >= 10, "{name}: {} invalid inputs", files.len());
        for f in files {
            let run = judge(&["validate", name, f.to_str().unwrap()]);
            run.assert_code(1);
            let line = run.stdout.trim();
            // path:line:column: message
            let rest = line
                .strip_prefix(&format!("{}:", f.display()))
                .unwrap_or_else(|| panic!("{line}"));
            let mut parts = rest.splitn(3, ':');
            assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
            assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
            assert!(!parts.next().unwrap().trim().is_empty(), "{line}");
        }
    }
}

#[test]
fn solve_reproduces_the_sample_answers() {
    for name in PROBLEMS {
        let sample = root().join("problems").join(name).join("data/sample/1.in");
        let run = judge(&["solve", name, sample.to_str().unwrap()]);
        run.assert_code(0);
        let ans = fs::read_to_string(sample.with_extension("ans")).unwrap();
        assert_eq!(run.stdout, ans);
    }
}

#[test]
fn solve_and_check_refuse_an_invalid_input_alike_with_file_line_column() {
    let run = judge_in(&root(), &["solve", "magic-square"], b"5\n1 2 3\n");
    run.assert_code(2);
    assert_eq!(
        run.stderr,
        "error: <stdin>:1:1: N must be 3 or 4, found 5 (invalid input)\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.in");
    fs::write(&bad, "3\n1 2 3 4 5 6 7 8 9\n\n").unwrap();
    let bad = bad.to_str().unwrap();
    let validate = judge(&["validate", "magic-square", bad]);
    validate.assert_code(1);
    let located = validate.stdout.trim().to_string();
    assert!(located.starts_with(&format!("{bad}:3:1: ")), "{located}");
    let solve = judge(&["solve", "magic-square", bad]);
    solve.assert_code(2);
    assert_eq!(solve.stderr, format!("error: {located} (invalid input)\n"));
    let check = judge(&["check", "magic-square", bad, bad]);
    check.assert_code(2);
    assert_eq!(check.stderr, format!("error: {located} (invalid input)\n"));
}

#[test]
fn grade_tests_validates_every_input_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("tests");
    fs::create_dir(&tests).unwrap();
    // A valid input without an answer (the solver computes it) and an invalid one.
    fs::write(tests.join("1.in"), "3\n4 9 2 3 5 7 8 1 6\n").unwrap();
    fs::write(tests.join("2.in"), "3\n4 9 2 3 5 7 8 1\n").unwrap();
    let cache = dir.path().join("cache");
    let sub = root().join("tests/programs/ac.c");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["grade", "magic-square", sub.to_str().unwrap(), "--tests"])
        .arg(&tests)
        .env("JUDGE_CACHE_DIR", &cache)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let bad = tests.join("2.in");
    assert_eq!(
        stderr,
        format!(
            "error: {}:2:16: expected 9 integers on line 2, found 8 (an invalid input: nothing was run)\n",
            bad.display()
        )
    );
    assert!(out.stdout.is_empty());
    assert!(!cache.exists(), "nothing was compiled");
}

#[test]
fn checkers_name_what_they_found_instead_of_numbers() {
    let sample = |p: &str| {
        root()
            .join("problems")
            .join(p)
            .join("data/sample/1.in")
            .display()
            .to_string()
    };
    let cases = [
        (
            "magic-square",
            "no solution\n",
            "WA: expected 9 numbers, found \"no\" at line 1\n",
        ),
        (
            "magic-square",
            "2 7 6\n9 5 1\n",
            "WA: expected 9 numbers, found 6\n",
        ),
        (
            "dodecahedron",
            "impossible\n",
            "WA: expected 24 numbers or -1, found \"impossible\" at line 1\n",
        ),
    ];
    for (problem, output, said) in cases {
        let run = judge_in(
            &root(),
            &["check", problem, &sample(problem), "-"],
            output.as_bytes(),
        );
        run.assert_code(1);
        assert_eq!(run.stdout, said);
    }
}

#[test]
fn every_positional_argument_has_help() {
    for sub in [
        "gen", "solve", "check", "validate", "grade", "stress", "verify",
    ] {
        let run = judge(&[sub, "--help"]);
        run.assert_code(0);
        let arguments = run
            .stdout
            .split("Arguments:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{sub}: {}", run.stdout));
        for line in arguments.lines().take_while(|l| !l.is_empty()) {
            let (name, help) = line.trim().split_once("  ").unwrap_or((line, ""));
            assert!(!help.trim().is_empty(), "`judge {sub} {name}` has no help");
        }
    }
    let stress = judge(&["stress", "--help"]);
    assert!(
        stress.stdout.contains("<SUBMISSION>  Source file"),
        "{}",
        stress.stdout
    );
}

#[test]
fn check_rejects_garbage_without_panicking() {
    let sample = root().join("problems/magic-square/data/sample/1.in");
    let s = sample.to_str().unwrap();
    let outputs: [&[u8]; 5] = [
        b"",
        b"1 2 3\n",
        b"\xff\xfe\x00garbage",
        b"99999999999999999999999999 1 1 1 1 1 1 1 1\n",
        b"-1\n",
    ];
    for out in outputs {
        let run = judge_in(&root(), &["check", "magic-square", s, "-"], out);
        run.assert_code(1);
        assert!(run.stdout.starts_with("WA: "), "{}", run.stdout);
        assert!(!run.stderr.contains("panicked"));
    }
    let d = root().join("problems/dodecahedron/data/sample/1.in");
    let run = judge_in(
        &root(),
        &["check", "dodecahedron", d.to_str().unwrap(), "-"],
        b"1 2\n",
    );
    run.assert_code(1);
}

#[test]
fn usage_and_environment_errors_exit_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["solve", "no-such-problem"],
        &["validate", "magic-square", "/nonexistent/file.in"],
        &[
            "check",
            "magic-square",
            "/nonexistent.in",
            "/nonexistent.out",
        ],
    ];
    for args in cases {
        let run = judge(args);
        run.assert_code(2);
        assert_clean_error(&run);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    let run = judge(&["frobnicate"]);
    run.assert_code(2);
    let run = judge(&["gen", "magic-square"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--out"), "{}", run.stderr);
}

#[test]
fn problem_named_by_path_and_broken_manifests() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("magic-square");
    copy_dir(&root().join("problems/magic-square"), &pkg);
    let sample = pkg.join("data/sample/1.in");
    judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]).assert_code(0);

    let toml = pkg.join("problem.toml");
    let text = fs::read_to_string(&toml).unwrap();
    fs::write(&toml, format!("colour = 'red'\n{text}")).unwrap();
    let run = judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("unknown key `colour`"),
        "{}",
        run.stderr
    );

    // Limits that make no sense are errors naming the file and the key, not "TLE on every
    // test".
    for (from, to, key) in [
        (
            "time-limit = 1.0",
            "time-limit = -1.0",
            "limits.time-limit = -1",
        ),
        (
            "time-limit = 1.0",
            "time-limit = 1e-9",
            "limits.time-limit = 0.000000001",
        ),
        (
            "time-limit = 1.0",
            "time-limit = nan",
            "limits.time-limit = NaN",
        ),
        (
            "time-limit = 1.0",
            "time-limit = inf",
            "limits.time-limit = inf",
        ),
        (
            "memory-limit = 64",
            "memory-limit = 0",
            "limits.memory-limit = 0",
        ),
        (
            "memory-limit = 64",
            "memory-limit = 99999999",
            "limits.memory-limit = 99999999",
        ),
    ] {
        assert!(text.contains(from));
        fs::write(&toml, text.replace(from, to)).unwrap();
        let run = judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]);
        run.assert_code(2);
        assert_clean_error(&run);
        let want = format!("error: {}: {key} makes no sense", toml.display());
        assert!(run.stderr.starts_with(&want), "{}", run.stderr);
    }

    fs::write(&toml, "title = 'x'\n[limits\n").unwrap();
    let run = judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]);
    run.assert_code(2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}
