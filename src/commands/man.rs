//! `judge man [COMMAND...]`: the roff man page of judge, judge(1), or of one command
//! (`judge man grade`: judge-grade(1); `judge man report merge`: judge-report-merge(1)), on
//! standard output; `judge man --out DIR` writes them all as DIR/judge.1, DIR/judge-grade.1, ...
//!
//! The pages are made from the clap definitions (clap_mangen), with the sections clap does not
//! know added: exit status, environment (judge(1)), see also.

use std::io::Write;

use anyhow::{bail, Context, Result};
use clap::CommandFactory;
use clap_mangen::roff::{bold, italic, roman, Roff};
use clap_mangen::Man;

use super::Status;
use crate::cli::{Cli, ManArgs};
use crate::fsutil::write_atomic;

pub fn run(args: ManArgs) -> Result<Status> {
    let root = documented();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
        for (file, text) in all_pages(&root) {
            let path = dir.join(file);
            write_atomic(&path, text.as_bytes())?;
            eprintln!("wrote {}", path.display());
        }
        return Ok(Status::Success);
    }
    let mut cmd = &root;
    let mut parents = Vec::new();
    for word in &args.command {
        let Some(sub) = visible(cmd).find(|s| s.get_name() == word) else {
            let names: Vec<&str> = visible(cmd).map(|s| s.get_name()).collect();
            let of = bin_name(cmd);
            bail!(
                "`{of} {word}` is not a command; the commands of `{of}`: {}",
                names.join(", ")
            );
        };
        parents.push(cmd);
        cmd = sub;
    }
    std::io::stdout()
        .lock()
        .write_all(page(cmd, &parents).as_bytes())?;
    Ok(Status::Success)
}

/// The command tree the pages describe: built (so every command knows its full name), without
/// clap's `help` command (`judge help` has no page; `--help` is listed as an option), and with
/// each synopsis the usage line of `--help`.
fn documented() -> clap::Command {
    fn adapt(cmd: clap::Command) -> clap::Command {
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        let cmd = cmd
            .disable_help_subcommand(true)
            .subcommand_help_heading("COMMANDS")
            .subcommand_value_name("COMMAND");
        names
            .into_iter()
            .fold(cmd, |cmd, name| cmd.mut_subcommand(name, adapt))
    }
    fn usage(cmd: &mut clap::Command) {
        let line = cmd.render_usage().to_string();
        let line = line.strip_prefix("Usage: ").unwrap_or(&line).to_string();
        *cmd = std::mem::take(cmd).override_usage(line);
        for sub in cmd.get_subcommands_mut() {
            usage(sub);
        }
    }
    let mut cmd = adapt(Cli::command()).long_about(DESCRIPTION);
    cmd.build();
    usage(&mut cmd);
    cmd
}

/// The DESCRIPTION of judge(1) (the others say what `--help` says).
const DESCRIPTION: &str = "\
judge grades submissions to programming problems as an online judge does: it compiles them, \
runs them on a problem's tests in a sandbox within its time and memory limits, and checks \
their outputs. It also writes and validates test data, verifies whole problem packages, \
searches for inputs that break a submission, and writes Kattis / ICPC packages.

A problem is named by its folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or by the \
path of a package folder.

Each command has a page of its own, listed under COMMANDS.";

/// The commands of `cmd` that have pages (hidden ones have none).
fn visible(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands().filter(|s| !s.is_hide_set())
}

/// `judge report merge` for the command judge-report-merge.
fn bin_name(cmd: &clap::Command) -> &str {
    cmd.get_bin_name().unwrap_or_else(|| cmd.get_name())
}

/// `judge-report-merge` for the command `judge report merge`: its page's name.
fn page_name(cmd: &clap::Command) -> &str {
    cmd.get_display_name().unwrap_or_else(|| cmd.get_name())
}

/// Every page, as (file name, text): judge.1 first, then each command's, depth first.
fn all_pages(root: &clap::Command) -> Vec<(String, String)> {
    fn walk<'a>(
        cmd: &'a clap::Command,
        parents: &mut Vec<&'a clap::Command>,
        out: &mut Vec<(String, String)>,
    ) {
        out.push((format!("{}.1", page_name(cmd)), page(cmd, parents)));
        parents.push(cmd);
        for sub in visible(cmd) {
            walk(sub, parents, out);
        }
        parents.pop();
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &mut out);
    out
}

/// The man page of `cmd` (a command of the tree from [`documented`]; `parents` leads from the
/// root to it), as roff source.
fn page(cmd: &clap::Command, parents: &[&clap::Command]) -> String {
    let man = Man::new(cmd.clone())
        .title(page_name(cmd).to_uppercase())
        .date(env!("JUDGE_COMMIT_DATE"))
        .source(format!("judge {}", env!("CARGO_PKG_VERSION")))
        .manual("User Commands");
    let is_root = parents.is_empty();
    // Each part written alone starts with the same preamble; the page has it once.
    let preamble = Roff::new().render();
    let mut text = preamble.clone();
    let mut add = |part: &dyn Fn(&mut dyn Write) -> std::io::Result<()>| {
        let mut buf = Vec::new();
        part(&mut buf).expect("writing to memory");
        let part = String::from_utf8(buf).expect("roff from UTF-8 text");
        text.push_str(part.strip_prefix(preamble.as_str()).unwrap_or(&part));
    };
    add(&|w| man.render_title(w));
    add(&|w| man.render_name_section(w));
    add(&|w| man.render_synopsis_section(w));
    add(&|w| man.render_description_section(w));
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        add(&|w| man.render_options_section(w));
    }
    if visible(cmd).next().is_some() {
        add(&|w| man.render_subcommands_section(w));
    }
    add(&|w| exit_status().to_writer(w));
    if is_root {
        add(&|w| environment().to_writer(w));
        add(&|w| man.render_version_section(w));
    }
    add(&|w| see_also(cmd, parents).to_writer(w));
    ascii(&text)
}

/// The EXIT STATUS section (every command follows it).
fn exit_status() -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in [
        ("0", "Success: accepted, valid, verified."),
        (
            "1",
            "The verdict is negative: a submission not accepted, an input invalid, an output rejected, a problem that fails verification.",
        ),
        (
            "2",
            "A usage or environment error (a wrong option, a missing file, a broken package, a compiler that is not installed); one line starting with error: on standard error says which.",
        ),
        (
            "130, 143",
            "Stopped by SIGINT or SIGTERM (128 + the signal number), after printing the results so far.",
        ),
    ] {
        r.control("TP", []);
        r.text([bold(code)]);
        r.text([roman(meaning)]);
    }
    r
}

/// The ENVIRONMENT section of judge(1).
fn environment() -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["ENVIRONMENT"]);
    let vars: &[(&str, &str)] = &[
        (
            "JUDGE_PROBLEMS_DIR",
            "The folder of the problem packages named by their name on the command line. Without it: ./problems, then the problems folder of the source tree judge was built from.",
        ),
        (
            "JUDGE_CACHE_DIR",
            "The folder of the cache of compiled submissions. Without it: $XDG_CACHE_HOME/judge, else ~/.cache/judge.",
        ),
        (
            "SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP",
            "The part of the work that --partition auto runs in a Slurm job array.",
        ),
        (
            "JOB_COMPLETION_INDEX, JUDGE_PARTITION_COUNT",
            "The part (0-based) and the part count that --partition auto runs in a Kubernetes Indexed Job (--partition-count overrides the count).",
        ),
        (
            "NO_COLOR",
            "Set and not empty: no colour anywhere (https://no-color.org).",
        ),
        (
            "CLICOLOR_FORCE",
            "Set, not empty and not 0: colour even when the output is not a terminal (unless NO_COLOR is set). CLICOLOR=0 turns colour off.",
        ),
        (
            "TERM",
            "dumb: no colour and no progress bars. Otherwise colour goes only to a terminal, and progress bars only to a terminal on standard error.",
        ),
        ("CI", "Set: no progress bars."),
    ];
    for (name, meaning) in vars {
        r.control("TP", []);
        r.text([bold(*name)]);
        r.text([roman(*meaning)]);
    }
    r
}

/// The SEE ALSO section: the pages around this one.
fn see_also(cmd: &clap::Command, parents: &[&clap::Command]) -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["SEE ALSO"]);
    let mut pages: Vec<String> = parents
        .iter()
        .map(|p| format!("{}(1)", page_name(p)))
        .collect();
    pages.extend(visible(cmd).map(|s| format!("{}(1)", page_name(s))));
    if !pages.is_empty() {
        r.text([roman(format!("{}.", pages.join(", ")))]);
        r.control("PP", []);
    }
    r.text([
        bold("judge man "),
        italic("COMMAND"),
        roman(" prints the page of one command without installing the pages; "),
        bold("judge man --out "),
        italic("DIR"),
        roman(" writes them all. "),
        bold(format!("{} --help", bin_name(cmd))),
        roman(" gives the options in brief."),
    ]);
    r
}

/// `text` with every character outside ASCII written as a groff escape (`\[u00D7]`), so the
/// page reads the same through any troff and any locale.
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_becomes_groff_escapes() {
        assert_eq!(ascii("a \u{d7} b \u{2014}"), "a \\[u00D7] b \\[u2014]");
        assert_eq!(ascii("plain \\- text"), "plain \\- text");
    }

    #[test]
    fn every_command_has_a_page_and_the_root_lists_it() {
        let root = documented();
        let pages = all_pages(&root);
        assert_eq!(pages[0].0, "judge.1");
        for sub in visible(&root) {
            let name = format!("judge-{}", sub.get_name());
            assert!(
                pages.iter().any(|(file, _)| *file == format!("{name}.1")),
                "no page {name}.1"
            );
            assert!(
                pages[0]
                    .1
                    .contains(&format!("{}(1)", name.replace('-', "\\-"))),
                "judge(1) does not list {name}"
            );
        }
        assert!(pages.iter().any(|(f, _)| f == "judge-report-merge.1"));
        assert!(!pages.iter().any(|(f, _)| f.contains("help")));
        for (file, text) in &pages {
            assert!(text.is_ascii(), "{file}");
            assert_eq!(
                text.matches(".ie \\n(.g").count(),
                1,
                "{file}: one preamble"
            );
        }
    }
}
