//! Colour and progress bars follow the terminal and the environment (see src/terminal.rs):
//! nothing but text goes into a pipe, NO_COLOR turns colour off on a terminal, progress bars
//! are drawn only on a terminal outside CI.
//!
//! The terminal is a pseudo-terminal from util-linux's `script`; standard output and standard
//! error both go to it, so the checks look at both.

use crate::common;

use std::process::Command;

use common::{cache_dir, root};

/// A folder with one magic-square test (the Lo Shu square) that ac.c passes and wa.c fails.
fn lo_shu_tests() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("1.in"), "3\n4 9 2 3 5 7 8 1 6\n").unwrap();
    std::fs::write(dir.path().join("1.ans"), "2 7 6\n9 5 1\n4 3 8\n").unwrap();
    dir
}

fn program(name: &str) -> String {
    root()
        .join("tests/programs")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// `judge args...` in the repository root with `env` on top of a colour-neutral environment:
/// no CI, no colour variables, `TERM=xterm-256color` (so only the terminal or `env` decides).
/// Under a pseudo-terminal when `tty`, else with standard output and error piped. Returns
/// (exit status, everything written to stdout and stderr).
fn judge(args: &[&str], env: &[(&str, &str)], tty: bool) -> (i32, String) {
    let bin = env!("CARGO_BIN_EXE_judge");
    let mut cmd = Command::new("timeout");
    cmd.arg("120");
    if tty {
        let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
        let line: Vec<String> = std::iter::once(bin)
            .chain(args.iter().copied())
            .map(quote)
            .collect();
        // -q: no "Script started" lines; -e: judge's exit status; -c: the command.
        cmd.args(["script", "-qec", &line.join(" "), "/dev/null"]);
    } else {
        cmd.arg(bin).args(args);
    }
    for var in [
        "CI",
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "JUDGE_PROBLEMS_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("TERM", "xterm-256color")
        .env("JUDGE_CACHE_DIR", cache_dir())
        .envs(env.iter().copied())
        .current_dir(root());
    let out = cmd.output().expect("spawn timeout");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    assert!(!text.contains("panicked"), "{text}");
    (out.status.code().unwrap_or(-1), text)
}

/// Whether `text` holds an ANSI colour or style code (SGR: ESC [ digits;... m).
fn has_colour(text: &str) -> bool {
    text.match_indices("\x1b[").any(|(i, _)| {
        let rest = &text[i + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(rest.len());
        rest[end..].starts_with('m')
    })
}

/// Whether `text` holds any ANSI escape code (colour, cursor movement, line erasing).
fn has_escape(text: &str) -> bool {
    text.contains("\x1b[")
}

fn have_script() -> bool {
    let ok = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    common::require(ok, "script (util-linux) gives the tests a terminal")
}

/// The invocations checked: grading (one submission, several, a failing one), a picture that
/// is coloured on a terminal, help and a usage error (coloured by clap on a terminal).
fn invocations(tests: &str) -> Vec<(Vec<String>, i32)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            s(&["grade", "magic-square", &program("ac.c"), "--tests", tests]),
            0,
        ),
        (
            s(&[
                "grade",
                "magic-square",
                &program("ac.c"),
                &program("wa.c"),
                "--tests",
                tests,
                "--all",
            ]),
            1,
        ),
        (
            s(&[
                "show",
                "magic-square",
                "problems/magic-square/data/sample/1.in",
            ]),
            0,
        ),
        (s(&["--help"]), 0),
        (s(&["grade", "magic-square"]), 2),
    ]
}

#[test]
fn piped_output_has_no_escape_codes_with_or_without_no_color() {
    let tests = lo_shu_tests();
    let tests = tests.path().to_str().unwrap();
    for (args, code) in invocations(tests) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for env in [&[][..], &[("NO_COLOR", "1")][..]] {
            let (got, text) = judge(&args, env, false);
            assert_eq!(got, code, "{args:?} {env:?}: {text}");
            assert!(!has_escape(&text), "{args:?} {env:?}: {text:?}");
        }
    }
}

#[test]
fn on_a_terminal_colour_appears_unless_no_color_is_set() {
    if !have_script() {
        return;
    }
    let show = [
        "show",
        "magic-square",
        "problems/magic-square/data/sample/1.in",
    ];
    let (code, text) = judge(&show, &[], true);
    assert_eq!(code, 0, "{text}");
    assert!(has_colour(&text), "{text:?}");
    assert!(text.contains("valid input"), "{text:?}");
    for no_color in [[("NO_COLOR", "1")], [("NO_COLOR", "true")]] {
        let (code, text) = judge(&show, &no_color, true);
        assert_eq!(code, 0, "{text}");
        assert!(!has_escape(&text), "{no_color:?}: {text:?}");
        assert!(text.contains("valid input"), "{text:?}");
    }
    // An empty NO_COLOR is no NO_COLOR (no-color.org).
    assert!(has_colour(&judge(&show, &[("NO_COLOR", "")], true).1));
    // TERM=dumb: no colour either.
    assert!(!has_escape(&judge(&show, &[("TERM", "dumb")], true).1));

    // clap's help and usage errors follow the same variables.
    for args in [&["--help"][..], &["grade", "magic-square"][..]] {
        assert!(has_colour(&judge(args, &[], true).1), "{args:?}");
        let (_, text) = judge(args, &[("NO_COLOR", "1")], true);
        assert!(!has_escape(&text), "{args:?}: {text:?}");
    }
}

#[test]
fn clicolor_force_colours_a_pipe_unless_no_color_is_set() {
    let show = [
        "show",
        "magic-square",
        "problems/magic-square/data/sample/1.in",
    ];
    let (code, text) = judge(&show, &[("CLICOLOR_FORCE", "1")], false);
    assert_eq!(code, 0, "{text}");
    assert!(has_colour(&text), "{text:?}");
    let both = [("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")];
    assert!(!has_escape(&judge(&show, &both, false).1));
    assert!(!has_escape(
        &judge(&show, &[("CLICOLOR_FORCE", "0")], false).1
    ));
}

#[test]
fn grading_on_a_terminal_draws_progress_without_colour_outside_ci() {
    if !have_script() {
        return;
    }
    let tests = lo_shu_tests();
    let (ac, wa) = (program("ac.c"), program("wa.c"));
    let args = [
        "grade",
        "magic-square",
        &ac,
        &wa,
        "--all",
        "--tests",
        tests.path().to_str().unwrap(),
    ];
    // The bar is redrawn in place and erased when a submission is done (ESC [ 2K).
    let (code, text) = judge(&args, &[], true);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("\x1b[2K"), "no progress bar: {text:?}");
    assert!(text.contains("WA"), "{text:?}");
    // grade has no colour to turn off: NO_COLOR leaves its text alone.
    for env in [&[][..], &[("NO_COLOR", "1")][..]] {
        let (_, text) = judge(&args, env, true);
        assert!(!has_colour(&text), "{env:?}: {text:?}");
    }
    // No bar in CI logs or on a dumb terminal: plain text only.
    for env in [[("CI", "true")], [("TERM", "dumb")]] {
        let (code, text) = judge(&args, &env, true);
        assert_eq!(code, 1, "{text}");
        assert!(!has_escape(&text), "{env:?}: {text:?}");
    }
}
