//! End-to-end tests of the problem-data commands: problems, gen, solve, check, validate.

mod common;

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
fn solve_refuses_an_invalid_input() {
    let run = judge_in(&root(), &["solve", "magic-square"], b"5\n1 2 3\n");
    run.assert_code(1);
    assert!(
        run.stderr.contains("invalid input: line 1"),
        "{}",
        run.stderr
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

    fs::write(&toml, text.replace("time-limit = 1.0", "time-limit = -1.0")).unwrap();
    let run = judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]);
    run.assert_code(2);
    assert_clean_error(&run);
    assert!(run.stderr.contains("time-limit"), "{}", run.stderr);

    fs::write(&toml, "title = 'x'\n[limits\n").unwrap();
    let run = judge(&["solve", pkg.to_str().unwrap(), sample.to_str().unwrap()]);
    run.assert_code(2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}
