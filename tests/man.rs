//! `judge man`: judge(1) and a page per command, in roff that groff and man render without a
//! warning; unknown commands are usage errors.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{judge, the_error_line};

/// (exit status, stdout, stderr) of `program args...` under an outer `timeout`.
fn run(program: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new("timeout")
        .arg("60")
        .arg(program)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The page rendered as text by `groff -man -Tutf8` with every warning on, and by `man -l`
/// (man-db, which runs preconv and groff as for an installed page); both must be silent on
/// stderr. Returns man's text. `None` when groff or man is missing (outside CI).
fn render(page: &Path) -> Option<String> {
    let tools = installed("groff") && installed("man");
    if !common::require(
        tools,
        "groff and man (groff-base, man-db) render the man pages",
    ) {
        return None;
    }
    let file = page.to_str().unwrap();
    let (code, _, err) = run("groff", &["-man", "-Tutf8", "-ww", "-z", file], &[]);
    assert_eq!((code, err.as_str()), (0, ""), "groff on {file}");
    let (code, out, err) = run(
        "man",
        &["--warnings=all", "-l", file],
        &[("MANWIDTH", "100"), ("LC_ALL", "C.UTF-8")],
    );
    assert_eq!((code, err.as_str()), (0, ""), "man -l {file}");
    // Without a terminal man prints plain text, but overstrike bold may remain.
    let mut text = String::new();
    for c in out.chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    Some(text)
}

#[test]
fn judge_1_renders_cleanly_and_names_every_command_and_the_exit_statuses() {
    let out = judge(&["man"]);
    out.assert_code(0);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    assert!(out.stdout.contains(".TH JUDGE 1 "), "{}", out.stdout);
    assert!(out.stdout.is_ascii());
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("judge.1");
    std::fs::write(&page, &out.stdout).unwrap();
    let Some(text) = render(&page) else { return };
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "COMMANDS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "SEE ALSO",
    ] {
        assert!(
            text.lines().any(|l| l == section),
            "no {section} section:\n{text}"
        );
    }
    for name in common::judge_commands() {
        assert!(
            text.contains(&format!("judge-{name}(1)")),
            "judge(1) does not name {name}:\n{text}"
        );
    }
    assert!(text.contains("NO_COLOR"), "{text}");
    assert!(text.contains("JUDGE_PROBLEMS_DIR"), "{text}");
}

#[test]
fn every_command_has_a_page_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("man1");
    let out = judge(&["man", "--out", out_dir.to_str().unwrap()]);
    out.assert_code(0);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = common::judge_commands()
        .iter()
        .map(|c| format!("judge-{c}.1"))
        .chain(["judge.1".to_string(), "judge-report-merge.1".to_string()])
        .collect();
    want.sort();
    assert_eq!(files, want);

    for name in common::judge_commands() {
        // The page `judge man NAME` prints is the one --out wrote.
        let printed = judge(&["man", &name]);
        printed.assert_code(0);
        let file = out_dir.join(format!("judge-{name}.1"));
        assert_eq!(printed.stdout, std::fs::read_to_string(&file).unwrap());
        let Some(text) = render(&file) else { return };
        let title = format!("JUDGE-{}(1)", name.to_uppercase());
        assert!(text.starts_with(&title), "{text}");
        assert!(
            text.contains(&format!("judge {name}")),
            "no synopsis `judge {name}`:\n{text}"
        );
        assert!(text.contains("EXIT STATUS"), "{text}");
        assert!(text.contains("judge(1)"), "no SEE ALSO judge(1):\n{text}");
    }
    let merge = judge(&["man", "report", "merge"]);
    merge.assert_code(0);
    assert!(merge.stdout.contains(".TH JUDGE-REPORT-MERGE 1 "));
    assert!(merge.stdout.contains("judge report merge"));
}

#[test]
fn installed_pages_are_found_by_man() {
    let dir = tempfile::tempdir().unwrap();
    let out = judge(&["man", "--out", dir.path().join("man1").to_str().unwrap()]);
    out.assert_code(0);
    if !common::require(installed("man"), "man (man-db) finds the pages") {
        return;
    }
    let manpath = dir.path().to_str().unwrap();
    let (code, path, err) = run("man", &["-w", "judge-grade"], &[("MANPATH", manpath)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        Path::new(path.trim()),
        dir.path().join("man1/judge-grade.1")
    );
}

#[test]
fn an_unknown_command_has_no_page() {
    let out = judge(&["man", "frobnicate"]);
    out.assert_code(2);
    assert!(out.stdout.is_empty());
    let line = the_error_line(&out);
    assert!(
        line.contains("`judge frobnicate` is not a command"),
        "{line}"
    );
    assert!(line.contains("grade"), "{line}");

    let out = judge(&["man", "report", "frobnicate"]);
    out.assert_code(2);
    let line = the_error_line(&out);
    assert!(
        line.ends_with("the commands of `judge report`: merge"),
        "{line}"
    );

    // `help` is clap's, not a command with a page.
    judge(&["man", "help"]).assert_code(2);
    let out = judge(&["man", "grade", "--out", "x"]);
    out.assert_code(2);
    the_error_line(&out);
}
