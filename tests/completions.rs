//! `judge completions SHELL`: each script is valid in its shell and completes judge's commands;
//! a shell judge does not know is a usage error.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{judge, the_error_line};

/// The script of `shell`, written to a file in `dir`.
fn script(shell: &str, dir: &Path) -> std::path::PathBuf {
    let run = judge(&["completions", shell]);
    run.assert_code(0);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let path = dir.join(format!("judge.{shell}"));
    std::fs::write(&path, &run.stdout).unwrap();
    path
}

/// `shell args...` under an outer `timeout`; (exit status, stdout, stderr).
fn sh(shell: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new("timeout")
        .arg("60")
        .arg(shell)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn installed(shell: &str) -> bool {
    Command::new(shell)
        .args(["-c", "exit 0"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What bash's completion function offers for the words of `line` (the last one is being
/// completed), as the `complete -F` machinery would call it at the end of the line.
fn bash_completes(script: &Path, line: &str) -> Vec<String> {
    let program = r#"
source "$1" || exit 9
read -r -a COMP_WORDS <<< "$2"
case "$2" in *' ') COMP_WORDS+=("") ;; esac
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
# `complete -p judge` names the function bash calls: the script must have registered it.
fn=$(complete -p judge | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || exit 8
prev=""
[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
"$fn" judge "${COMP_WORDS[COMP_CWORD]}" "$prev"
printf '%s\n' "${COMPREPLY[@]}"
"#;
    let (code, out, err) = sh(
        "bash",
        &[
            "--norc",
            "-c",
            program,
            "bash",
            script.to_str().unwrap(),
            line,
        ],
    );
    assert_eq!(code, 0, "bash completion of `{line}`: {err}");
    out.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_bash_script_parses_and_completes_commands_options_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = script("bash", dir.path());
    let (code, _, err) = sh("bash", &["-n", path.to_str().unwrap()]);
    assert_eq!(code, 0, "bash -n: {err}");

    assert_eq!(bash_completes(&path, "judge gr"), ["grade"]);
    let all = bash_completes(&path, "judge ");
    for name in common::judge_commands() {
        assert!(all.contains(&name), "`judge <TAB>` lacks {name}: {all:?}");
    }
    assert_eq!(bash_completes(&path, "judge completions z"), ["zsh"]);
    let grade = bash_completes(&path, "judge grade magic-square a.c --j");
    assert!(grade.contains(&"--json".to_string()), "{grade:?}");
    assert!(grade.contains(&"--jobs".to_string()), "{grade:?}");
    assert_eq!(
        bash_completes(&path, "judge new x --format-version 2023"),
        ["2023-07-draft"]
    );
    assert_eq!(
        bash_completes(&path, "judge export x --out y --format 20"),
        ["2023-07", "2025-09"]
    );
}

#[test]
fn the_zsh_script_parses_and_defines_the_completion_of_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = script("zsh", dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("#compdef judge\n"), "{}", &text[..80]);
    for name in common::judge_commands() {
        assert!(
            text.contains(&format!("'{name}:")),
            "the zsh script lacks the command {name}"
        );
    }
    if !common::require(installed("zsh"), "zsh is needed to check the zsh script") {
        return;
    }
    let file = path.to_str().unwrap();
    let (code, _, err) = sh("zsh", &["-n", file]);
    assert_eq!(code, 0, "zsh -n: {err}");
    // Loaded as compinit loads a file of $fpath: it registers itself for `judge`.
    let (code, out, err) = sh(
        "zsh",
        &[
            "-f",
            "-c",
            "autoload -U compinit && compinit -u -D && source \"$1\" && print -r -- ${_comps[judge]}",
            "zsh",
            file,
        ],
    );
    assert_eq!((code, out.trim()), (0, "_judge"), "{err}");
}

#[test]
fn the_fish_script_parses_and_completes_commands() {
    let dir = tempfile::tempdir().unwrap();
    let path = script("fish", dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    for name in common::judge_commands() {
        assert!(
            text.contains(&format!("-a \"{name}\"")),
            "the fish script lacks the command {name}"
        );
    }
    if !common::require(installed("fish"), "fish is needed to check the fish script") {
        return;
    }
    let file = path.to_str().unwrap();
    let (code, _, err) = sh("fish", &["--no-execute", file]);
    assert_eq!(code, 0, "fish --no-execute: {err}");
    let (code, out, err) = sh(
        "fish",
        &[
            "--no-config",
            "-c",
            "source $argv[1]; complete -C 'judge gr'",
            file,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let offered: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(offered, ["grade"], "{out}");
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let run = judge(&["completions", "tcsh"]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let line = the_error_line(&run);
    assert!(line.contains("'tcsh'"), "{line}");
    assert!(run.stderr.contains("bash, zsh, fish"), "{}", run.stderr);

    let run = judge(&["completions"]);
    run.assert_code(2);
    the_error_line(&run);
}
