//! The documentation works as written: README.md and docs/*.md.
//!
//! How a guide marks its commands (the rule this file enforces):
//!
//! - A fenced ```` ```console ```` block is a terminal session that the test runs. Its lines
//!   starting with `$ ` are commands (a line ending in `\` continues on the next one, and a
//!   here-document's body belongs to its command); the other lines are the output shown, which
//!   is not compared (it holds timings) but tells the exit status a `judge` command must have:
//!   2 if the output shown has an `error:` line, else 0, or 0 or 1 for the commands that judge
//!   something (a grade of a rejected submission exits 1); a `$ echo $?` right after a
//!   command, with the status shown under it, says it exactly. Never a panic, never a
//!   timeout. The console blocks of one file run in order in one `bash` session, in a scratch
//!   folder that holds links to the repository's top-level entries (so `problems/...` resolves
//!   as in the repository root and nothing is written into the clone), with `judge` on `PATH`
//!   under an outer `timeout` and the shared test compile cache (`common::cache_dir()`).
//! - `judge` commands in `sh`, `bash` and `yaml` blocks (installing, benchmarks, cluster
//!   recipes) cannot run here; each is parsed by clap through the library. `text` blocks are
//!   output and must not hold `$ judge` commands.
//! - A block whose info string has a second word names a file (```` ```bash grade.sh ````):
//!   the scale-out recipes are taken from the docs by that name and run with a stand-in for
//!   `judge` (`slurm_recipe_...`, `kubernetes_recipe_...`, `ci_matrix_recipe_...`).
//!
//! Also: every relative link (file and `#anchor`) resolves, every repository path named in
//! code spans exists, and docs/architecture.md names every top-level module of `src/`.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;

/// Subcommands being added in other branches: until they are merged, a command naming one may
/// fail to run or to parse (reported on stderr, not a failure). Once `judge completions`,
/// `judge man` and `judge doctor` exist, empty this list.
const PENDING: &[&str] = &[];

/// Files linked from the docs that another branch adds (docs/doctor.md comes with `judge
/// doctor`). Empty this list with [`PENDING`].
const PENDING_FILES: &[&str] = &[];

/// The documentation files: each has a test below that runs its commands.
const DOC_FILES: &[&str] = &[
    "README.md",
    "docs/architecture.md",
    "docs/doctor.md",
    "docs/grading.md",
    "docs/performance.md",
    "docs/preparing.md",
    "docs/real-packages.md",
    "docs/sandbox.md",
    "docs/scale-out.md",
    "docs/verifying.md",
];

/// Subcommands whose exit status 1 is a finding (rejected, invalid, failed), not an error.
const JUDGING: &[&str] = &[
    "grade", "verify", "stress", "hunt", "check", "validate", "show", "report", "doctor",
];

/// Seconds a single `judge` command of a session may take, and a whole session.
const COMMAND_TIMEOUT: u32 = 180;
const SESSION_TIMEOUT: u32 = 900;

// ---------------------------------------------------------------------------------------------
// Markdown

/// A fenced code block.
#[derive(Debug, Clone)]
struct Block {
    /// The info string's words: the language, then an optional file name.
    info: Vec<String>,
    /// 1-based line of the opening fence.
    line: usize,
    /// The lines inside, with the fence's indentation removed.
    lines: Vec<String>,
}

impl Block {
    fn lang(&self) -> &str {
        self.info.first().map(String::as_str).unwrap_or("")
    }

    fn name(&self) -> Option<&str> {
        self.info.get(1).map(String::as_str)
    }

    fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

/// A markdown file split into its fenced blocks and the prose between them (with the prose's
/// line numbers).
struct Doc {
    path: String,
    blocks: Vec<Block>,
    prose: Vec<(usize, String)>,
}

fn read_doc(rel: &str) -> Doc {
    let text =
        fs::read_to_string(common::root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<(Block, usize, String)> = None; // block, indent, fence
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None => {
                if trimmed.starts_with("```") {
                    let ticks = trimmed.chars().take_while(|&c| c == '`').count();
                    let info = trimmed[ticks..]
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    let block = Block {
                        info,
                        line: i + 1,
                        lines: Vec::new(),
                    };
                    open = Some((block, indent, "`".repeat(ticks)));
                } else {
                    prose.push((i + 1, line.to_string()));
                }
            }
            Some((block, fence_indent, fence)) => {
                // A closing fence: only backticks, at least as many as the opening one.
                let closing = trimmed.trim_end();
                if closing.len() >= fence.len() && closing.chars().all(|c| c == '`') {
                    blocks.push(open.take().unwrap().0);
                    continue;
                }
                let cut = indent.min(*fence_indent);
                block.lines.push(line[cut..].to_string());
            }
        }
    }
    if let Some((block, _, _)) = open {
        panic!("{rel}:{}: code block never closed", block.line);
    }
    Doc {
        path: rel.to_string(),
        blocks,
        prose,
    }
}

/// The code spans of a prose line (`like this`), with double-backtick spans.
fn code_spans(line: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let fence = "`".repeat(ticks);
        let body_start = start + ticks;
        match rest[body_start..].find(&fence) {
            Some(end) => {
                spans.push(rest[body_start..body_start + end].trim().to_string());
                rest = &rest[body_start + end + ticks..];
            }
            None => break,
        }
    }
    spans
}

/// A prose line without its code spans (links inside code are not links).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let fence = "`".repeat(ticks);
        match rest[start + ticks..].find(&fence) {
            Some(end) => rest = &rest[start + ticks + end + ticks..],
            None => {
                rest = &rest[start..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    let text = heading.replace('`', "");
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file's headings, numbered as GitHub numbers repeats.
fn anchors(doc: &Doc) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in &doc.prose {
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let heading = rest.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links and images of a prose line: `[text](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(end) => {
                let target = after[..end].split_whitespace().next().unwrap_or("");
                out.push(target.to_string());
                rest = &after[end..];
            }
            None => break,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Shell words

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    /// An operator: `|`, `||`, `&&`, `;`, `&`, `(`, `)`, or a redirection (`>`, `>>`, `<`,
    /// `<<`, `2>`, `>&`, ...).
    Op(String),
}

/// Splits shell text into words and operators, expanding `$NAME` / `${NAME}` with `var`
/// (an unknown name stays as written); quotes are removed, `#` at a word's start comments
/// out the rest of the line.
fn shell_tokens(text: &str, var: &dyn Fn(&str) -> Option<String>) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut i = 0;
    let expand = |i: &mut usize, out: &mut String| {
        // At a `$`: a variable name, `${name}`, or `$?`; anything else is a literal `$`.
        let start = *i + 1;
        if chars.get(start) == Some(&'{') {
            if let Some(len) = chars[start..].iter().position(|&c| c == '}') {
                let name: String = chars[start + 1..start + len].iter().collect();
                out.push_str(&var(&name).unwrap_or_else(|| format!("${{{name}}}")));
                *i = start + len + 1;
                return;
            }
        }
        let len = chars[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
            .count();
        if len == 0 {
            out.push('$');
            *i += 1;
        } else {
            let name: String = chars[start..start + len].iter().collect();
            out.push_str(&var(&name).unwrap_or_else(|| format!("${name}")));
            *i = start + len;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if chars.get(i + 1) == Some(&'\n') => i += 2,
            '\\' => {
                if let Some(&next) = chars.get(i + 1) {
                    word.push(next);
                }
                in_word = true;
                i += 2;
            }
            '\'' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map_or(chars.len(), |p| i + 1 + p);
                word.extend(&chars[i + 1..end]);
                in_word = true;
                i = end + 1;
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '\\' if i + 1 < chars.len() => {
                            word.push(chars[i + 1]);
                            i += 2;
                        }
                        '$' => expand(&mut i, &mut word),
                        c => {
                            word.push(c);
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            '$' => {
                expand(&mut i, &mut word);
                in_word = true;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\n' => {
                if in_word {
                    tokens.push(Token::Word(std::mem::take(&mut word)));
                    in_word = false;
                }
                tokens.push(Token::Op(";".to_string()));
                i += 1;
            }
            c if c.is_whitespace() => {
                if in_word {
                    tokens.push(Token::Word(std::mem::take(&mut word)));
                    in_word = false;
                }
                i += 1;
            }
            '|' | '&' | ';' | '(' | ')' | '<' | '>' => {
                let mut op = String::new();
                // A file descriptor number written against a redirection (`2>`) is part of it.
                if in_word && (c == '<' || c == '>') && word.chars().all(|d| d.is_ascii_digit()) {
                    op.push_str(&std::mem::take(&mut word));
                    in_word = false;
                }
                if in_word {
                    tokens.push(Token::Word(std::mem::take(&mut word)));
                    in_word = false;
                }
                op.push(c);
                i += 1;
                while i < chars.len() && matches!(chars[i], '|' | '&' | '<' | '>') {
                    op.push(chars[i]);
                    i += 1;
                }
                tokens.push(Token::Op(op));
            }
            c => {
                word.push(c);
                in_word = true;
                i += 1;
            }
        }
    }
    if in_word {
        tokens.push(Token::Word(word));
    }
    tokens
}

/// The argument lists of the `judge` invocations in shell text: simple commands whose first
/// word (after `NAME=value` assignments) is `judge` or a path ending in `/judge`, without
/// their redirections.
fn judge_invocations(text: &str, var: &dyn Fn(&str) -> Option<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut command: Vec<String> = Vec::new();
    let mut skip_next = false;
    let mut finish = |command: &mut Vec<String>| {
        let words: Vec<String> = std::mem::take(command)
            .into_iter()
            .skip_while(|w| {
                w.split_once('=').is_some_and(|(k, _)| {
                    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            })
            .collect();
        if let Some((first, args)) = unwrapped(&words).split_first() {
            // A bare `judge` is a name (a YAML `name: judge`), not a command.
            if (first == "judge" || first.ends_with("/judge")) && !args.is_empty() {
                out.push(args.to_vec());
            }
        }
    };
    for token in shell_tokens(text, var) {
        match token {
            Token::Word(w) => {
                if skip_next {
                    skip_next = false;
                } else {
                    command.push(w);
                }
            }
            Token::Op(op) if op.contains('<') || op.contains('>') => {
                // A redirection: its target is the next word (a file, or the `1` of `2>&1`).
                skip_next = true;
            }
            Token::Op(_) => finish(&mut command),
        }
    }
    finish(&mut command);
    out
}

/// A command without the wrappers that run another command: `time`, `/usr/bin/time`,
/// `timeout`, `env` (with their options and arguments).
fn unwrapped(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        let (takes_value, positional): (&[&str], usize) = match w.first().map(String::as_str) {
            Some("time" | "/usr/bin/time") => (&["-f", "-o"], 0),
            Some("timeout") => (&["-s", "-k"], 1),
            Some("env") => (&["-u", "-C"], 0),
            _ => return w,
        };
        let is_env = w[0] == "env";
        w = &w[1..];
        while let Some(word) = w.first() {
            if takes_value.contains(&word.as_str()) {
                w = &w[2.min(w.len())..];
            } else if word.starts_with('-') || (is_env && word.contains('=')) {
                w = &w[1..];
            } else {
                break;
            }
        }
        w = &w[positional.min(w.len())..];
    }
}

/// The subcommand of a `judge` argument list (its first word that is not an option).
fn subcommand(args: &[String]) -> &str {
    args.iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str)
        .unwrap_or("")
}

fn is_pending(args: &[String]) -> bool {
    PENDING.contains(&subcommand(args))
}

// ---------------------------------------------------------------------------------------------
// Parse-only blocks

/// Example values of the variables the parse-only blocks use (set by Slurm, Kubernetes,
/// GitHub Actions or the recipe itself).
fn example_var(name: &str) -> Option<String> {
    let value = match name {
        "SLURM_CPUS_PER_TASK" => "4",
        "SLURM_ARRAY_TASK_ID" => "1",
        "JOB_COMPLETION_INDEX" => "0",
        "REPORTS" => "/reports",
        _ => return None,
    };
    Some(value.to_string())
}

/// Every string value in a YAML document.
fn yaml_strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| yaml_strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| yaml_strings(v, out)),
        _ => {}
    }
}

/// The languages of the blocks whose `judge` commands are parsed, not run.
const SHELL_CODE: &[&str] = &["sh", "bash", "shell", "yaml"];

/// Every `judge` command of the blocks that do not run parses (clap, through the library).
/// Returns the failures.
fn parse_only_failures(doc: &Doc) -> Vec<String> {
    let mut failures = Vec::new();
    for block in &doc.blocks {
        if block.lang() == "text" {
            // Output, not commands: a session that shows commands is a console block.
            if let Some(i) = block.lines.iter().position(|l| l.starts_with("$ judge")) {
                failures.push(format!(
                    "{}:{}: a `$ judge` command in a text block: make it a console block",
                    doc.path,
                    block.line + 1 + i
                ));
            }
        }
        if !SHELL_CODE.contains(&block.lang()) {
            continue;
        }
        let text = block.text().replace("${{ matrix.part }}", "1");
        // In YAML, the shell commands are string values (a `run:` step, a container's args).
        let scripts = if block.lang() == "yaml" {
            let value: serde_json::Value = yaml_serde::from_str(&text)
                .unwrap_or_else(|e| panic!("{}:{}: not YAML: {e}", doc.path, block.line));
            let mut strings = Vec::new();
            yaml_strings(&value, &mut strings);
            strings
        } else {
            vec![text]
        };
        let invocations = scripts
            .iter()
            .flat_map(|s| judge_invocations(s, &example_var));
        for args in invocations {
            if let Some(unknown) = args.iter().find(|a| a.contains('$')) {
                failures.push(format!(
                    "{}:{}: `judge {}`: no example value for `{unknown}` (add it to example_var)",
                    doc.path,
                    block.line,
                    args.join(" ")
                ));
                continue;
            }
            let argv = std::iter::once("judge".to_string()).chain(args.iter().cloned());
            if let Err(e) = judge::cli::Cli::try_parse_from(argv) {
                let what = format!(
                    "{}:{}: `judge {}` does not parse: {}",
                    doc.path,
                    block.line,
                    args.join(" "),
                    e.to_string().lines().next().unwrap_or("")
                );
                if is_pending(&args) {
                    eprintln!("pending (not a failure until merged): {what}");
                } else {
                    failures.push(what);
                }
            } else if is_pending(&args) {
                eprintln!("`judge {}` parses: remove it from PENDING", args.join(" "));
            }
        }
    }
    failures
}

// ---------------------------------------------------------------------------------------------
// Console sessions

/// One `$ ` command of a console block, with the output shown under it.
#[derive(Debug)]
struct ConsoleCommand {
    line: usize,
    text: String,
    shown: Vec<String>,
}

fn console_commands(doc: &Doc) -> Vec<ConsoleCommand> {
    let mut out: Vec<ConsoleCommand> = Vec::new();
    for block in doc.blocks.iter().filter(|b| b.lang() == "console") {
        let mut lines = block.lines.iter().enumerate();
        while let Some((i, line)) = lines.next() {
            let Some(first) = line.strip_prefix("$ ") else {
                match out.last_mut() {
                    Some(c) if c.line > block.line => c.shown.push(line.clone()),
                    _ => panic!(
                        "{}:{}: output before the first `$ ` command",
                        doc.path,
                        block.line + 1 + i
                    ),
                }
                continue;
            };
            let mut text = first.to_string();
            while text.ends_with('\\') {
                let (_, next) = lines.next().unwrap_or_else(|| {
                    panic!("{}:{}: `\\` at the block's end", doc.path, block.line)
                });
                text.push('\n');
                text.push_str(next);
            }
            if let Some(pos) = text.find("<<") {
                let tag = text[pos + 2..]
                    .trim_start_matches('-')
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .trim_matches(|c| c == '\'' || c == '"')
                    .to_string();
                loop {
                    let (_, body) = lines.next().unwrap_or_else(|| {
                        panic!(
                            "{}:{}: here-document `{tag}` never ends",
                            doc.path, block.line
                        )
                    });
                    text.push('\n');
                    text.push_str(body);
                    if body.trim() == tag {
                        break;
                    }
                }
            }
            out.push(ConsoleCommand {
                line: block.line + 1 + i,
                text,
                shown: Vec::new(),
            });
        }
    }
    out
}

/// The exit statuses a console command may have: see the module documentation. A `$ echo $?`
/// right after a command, with the status shown under it, says it exactly.
fn allowed_statuses(
    cmd: &ConsoleCommand,
    next: Option<&ConsoleCommand>,
    invocations: &[Vec<String>],
) -> Vec<i32> {
    if let Some(next) = next.filter(|n| n.text.trim() == "echo $?") {
        if let Some(code) = next.shown.first().and_then(|l| l.trim().parse().ok()) {
            return vec![code];
        }
    }
    let Some(args) = invocations.last() else {
        return vec![0];
    };
    if cmd.shown.iter().any(|l| l.starts_with("error:")) {
        vec![2]
    } else if JUDGING.contains(&subcommand(args)) {
        vec![0, 1]
    } else {
        vec![0]
    }
}

/// A scratch folder that looks like the repository root: a link to each of its top-level
/// entries (not `target/` and hidden ones), so the docs' relative paths resolve and what the
/// commands write stays in the scratch folder.
fn scratch_root(parent: &Path) -> PathBuf {
    let dir = parent.join("repo");
    fs::create_dir(&dir).unwrap();
    for entry in fs::read_dir(common::root()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let name_str = name.to_string_lossy();
        if name_str.starts_with('.') || name_str == "target" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), dir.join(&name)).unwrap();
    }
    dir
}

/// A script of `tests/stand-ins/`. The tests link to these and never write an executable:
/// one written by this (multithreaded) process can fail to start with ETXTBSY while another
/// test's fork still holds it open.
fn stand_in(name: &str) -> PathBuf {
    common::root().join("tests/stand-ins").join(name)
}

/// Runs a file's console commands in one bash session and returns the failures.
fn console_failures(doc: &Doc) -> Vec<String> {
    let commands = console_commands(doc);
    if commands.is_empty() {
        return Vec::new();
    }
    let tmp = tempfile::Builder::new()
        .prefix("judge-docs-")
        .tempdir()
        .unwrap();
    let work = scratch_root(tmp.path());
    let bin = tmp.path().join("bin");
    let status_dir = tmp.path().join("status");
    fs::create_dir(&bin).unwrap();
    fs::create_dir(&status_dir).unwrap();
    std::os::unix::fs::symlink(stand_in("judge-timed"), bin.join("judge")).unwrap();
    let mut script = format!("set -o pipefail\ncd '{}' || exit 99\n", work.display());
    for (i, cmd) in commands.iter().enumerate() {
        let s = status_dir.join(i.to_string());
        // The status is kept for the next command's `$?` (a `$ echo $?` in the doc).
        script.push_str(&format!(
            "{{\n{}\n}} > '{s}.out' 2> '{s}.err' < /dev/null\n\
             doc_test_status=$?; echo $doc_test_status > '{s}.rc'; (exit $doc_test_status)\n",
            cmd.text,
            s = s.display()
        ));
    }
    script.push_str("exit 0\n");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new("timeout")
        .args([SESSION_TIMEOUT.to_string().as_str(), "bash", "-c", &script])
        .env("PATH", path)
        .env("JUDGE_DOC_BIN", env!("CARGO_BIN_EXE_judge"))
        .env("JUDGE_DOC_TIMEOUT", COMMAND_TIMEOUT.to_string())
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .env("CI", "1")
        .env("NO_COLOR", "1")
        .env_remove("JUDGE_PROBLEMS_DIR")
        .output()
        .expect("spawn bash");
    let mut failures = Vec::new();
    if !out.status.success() {
        failures.push(format!(
            "{}: the session ended with {:?}: {}",
            doc.path,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    for (i, cmd) in commands.iter().enumerate() {
        let s = status_dir.join(i.to_string());
        let read = |ext: &str| fs::read_to_string(s.with_extension(ext)).unwrap_or_default();
        let rc: Option<i32> = read("rc").trim().parse().ok();
        let invocations = judge_invocations(&cmd.text, &|_| None);
        let allowed = allowed_statuses(cmd, commands.get(i + 1), &invocations);
        let stderr = read("err");
        let pending = invocations.iter().any(|a| is_pending(a));
        let problem = match rc {
            None => Some("did not run (the session stopped before it)".to_string()),
            Some(124) => Some(format!("timed out after {COMMAND_TIMEOUT} s")),
            Some(_) if stderr.contains("panicked") => Some("panicked".to_string()),
            Some(code) if !allowed.contains(&code) => {
                Some(format!("exit status {code}, expected one of {allowed:?}"))
            }
            Some(_) => None,
        };
        let Some(problem) = problem else {
            if pending {
                eprintln!(
                    "{}:{}: a pending command runs: remove it from PENDING",
                    doc.path, cmd.line
                );
            }
            continue;
        };
        let what = format!(
            "{}:{}: `{}`: {problem}\n--- stdout\n{}--- stderr\n{}",
            doc.path,
            cmd.line,
            cmd.text,
            tail(&read("out")),
            tail(&stderr)
        );
        if pending {
            eprintln!("pending (not a failure until merged): {what}");
        } else {
            failures.push(what);
        }
    }
    failures
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(15);
    lines[start..].iter().map(|l| format!("{l}\n")).collect()
}

/// Runs every command of a documentation file (see the module documentation).
fn check_commands(rel: &str) {
    let doc = read_doc(rel);
    let mut failures = parse_only_failures(&doc);
    failures.extend(console_failures(&doc));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_commands_run() {
    check_commands("README.md");
}

#[test]
fn architecture_md_commands_run() {
    check_commands("docs/architecture.md");
}

#[test]
fn doctor_md_commands_run() {
    check_commands("docs/doctor.md");
}

#[test]
fn grading_md_commands_run() {
    check_commands("docs/grading.md");
}

#[test]
fn performance_md_commands_run() {
    check_commands("docs/performance.md");
}

#[test]
fn preparing_md_commands_run() {
    check_commands("docs/preparing.md");
}

#[test]
fn real_packages_md_commands_run() {
    check_commands("docs/real-packages.md");
}

#[test]
fn sandbox_md_commands_run() {
    check_commands("docs/sandbox.md");
}

#[test]
fn scale_out_md_commands_run() {
    check_commands("docs/scale-out.md");
}

#[test]
fn verifying_md_commands_run() {
    check_commands("docs/verifying.md");
}

#[test]
fn every_documentation_file_has_a_commands_test() {
    let mut found = vec!["README.md".to_string()];
    for entry in fs::read_dir(common::root().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && !PENDING_FILES.contains(&format!("docs/{name}").as_str()) {
            found.push(format!("docs/{name}"));
        }
    }
    found.sort();
    assert_eq!(
        found, DOC_FILES,
        "add a *_commands_run test for each new file"
    );
}

// ---------------------------------------------------------------------------------------------
// Links and paths

#[test]
fn relative_links_resolve() {
    let root = common::root();
    let mut failures = Vec::new();
    for rel in DOC_FILES {
        let doc = read_doc(rel);
        let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
        for (line, text) in &doc.prose {
            for target in link_targets(text) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
                let file_rel = if file.is_empty() {
                    PathBuf::from(rel)
                } else {
                    normalize(&dir.join(file))
                };
                let file_str = file_rel.to_string_lossy().into_owned();
                if PENDING_FILES.contains(&file_str.as_str()) {
                    if root.join(&file_rel).exists() {
                        eprintln!("{file_str} exists: remove it from PENDING_FILES");
                    }
                    continue;
                }
                if !root.join(&file_rel).exists() {
                    failures.push(format!("{rel}:{line}: `{target}`: no file {file_str}"));
                    continue;
                }
                if anchor.is_empty() {
                    continue;
                }
                if !file_str.ends_with(".md") {
                    failures.push(format!(
                        "{rel}:{line}: `{target}`: an anchor into a non-markdown file"
                    ));
                    continue;
                }
                if !anchors(&read_doc(&file_str)).contains(anchor) {
                    failures.push(format!(
                        "{rel}:{line}: `{target}`: no heading #{anchor} in {file_str}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `a/../b` → `b` (the path need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The repository paths a file names: code spans of its prose, and the words of its `text`
/// blocks, that start with a top-level folder of the repository. Paths with placeholders
/// (`<name>`, `*`) are left out.
fn named_paths(doc: &Doc) -> Vec<(usize, String)> {
    const TOP: &[&str] = &[
        "src/",
        "tests/",
        "scripts/",
        "benches/",
        "templates/",
        "problems/",
        "docs/",
    ];
    let mut candidates: Vec<(usize, String)> = Vec::new();
    for (line, text) in &doc.prose {
        for span in code_spans(text) {
            candidates.push((*line, span));
        }
    }
    for block in doc.blocks.iter().filter(|b| b.lang() == "text") {
        for (i, l) in block.lines.iter().enumerate() {
            for word in l.split_whitespace() {
                candidates.push((block.line + 1 + i, word.to_string()));
            }
        }
    }
    candidates
        .into_iter()
        .filter(|(_, p)| TOP.iter().any(|t| p.starts_with(t)))
        .filter(|(_, p)| !p.contains(|c: char| "<>*{}$ ,;:…".contains(c)) && !p.contains("..."))
        .map(|(l, p)| (l, p.trim_end_matches(['.', ')']).to_string()))
        .collect()
}

#[test]
fn repository_paths_named_in_the_docs_exist() {
    let root = common::root();
    let mut failures = Vec::new();
    for rel in DOC_FILES {
        for (line, path) in named_paths(&read_doc(rel)) {
            if PENDING_FILES.contains(&path.as_str()) {
                continue;
            }
            if !root.join(&path).exists() {
                failures.push(format!("{rel}:{line}: `{path}` does not exist"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn architecture_names_every_top_level_module() {
    let doc = read_doc("docs/architecture.md");
    let named: BTreeSet<String> = named_paths(&doc).into_iter().map(|(_, p)| p).collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(common::root().join("src")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if entry.file_type().unwrap().is_dir() {
            format!("src/{name}/")
        } else {
            format!("src/{name}")
        };
        if !named.contains(&path) {
            missing.push(path);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name (as a code span) these modules: {missing:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The scale-out recipes, with a stand-in for judge

/// The block of a documentation file whose info string names `name`.
fn named_block(rel: &str, name: &str) -> Block {
    read_doc(rel)
        .blocks
        .into_iter()
        .find(|b| b.name() == Some(name))
        .unwrap_or_else(|| panic!("{rel}: no code block named {name}"))
}

/// How the stand-in for judge behaves.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stand {
    /// Writes a report and exits 0: everything accepted.
    Accepted,
    /// Writes a report and exits 1: something rejected.
    Rejected,
    /// Writes something on stdout, an `error:` line, and exits 2.
    Error,
    /// Writes a report, then dies of SIGSEGV.
    Crash,
    /// Exits 1 without writing anything (what a failed redirection looks like to the shell).
    Silent,
}

impl Stand {
    const ALL: [Stand; 5] = [
        Stand::Accepted,
        Stand::Rejected,
        Stand::Error,
        Stand::Crash,
        Stand::Silent,
    ];

    fn env(self) -> &'static str {
        match self {
            Stand::Accepted => "0",
            Stand::Rejected => "1",
            Stand::Error => "2",
            Stand::Crash => "crash",
            Stand::Silent => "silent",
        }
    }

    /// The job step must succeed exactly when judge wrote its report: exit 0 or 1.
    fn step_succeeds(self) -> bool {
        matches!(self, Stand::Accepted | Stand::Rejected)
    }
}

/// Runs `program args` in `dir` with the stand-in for judge (as `judge` on `PATH` and as
/// `./target/release/judge`) behaving as `stand`; returns whether it succeeded and the
/// stand-in's log.
fn run_with_stand_in(
    dir: &Path,
    stand: Stand,
    env: &[(String, String)],
    program: &str,
    args: &[&str],
) -> (bool, String) {
    let bin = dir.join("bin");
    let release = dir.join("target/release");
    fs::create_dir_all(&bin).unwrap();
    fs::create_dir_all(&release).unwrap();
    std::os::unix::fs::symlink(stand_in("judge"), bin.join("judge")).unwrap();
    std::os::unix::fs::symlink(stand_in("judge"), release.join("judge")).unwrap();
    let log = dir.join("judge-calls.log");
    let _ = fs::remove_file(&log);
    let out = Command::new("timeout")
        .arg("60")
        .arg(program)
        .args(args)
        .current_dir(dir)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("JUDGE_STAND", stand.env())
        .env("JUDGE_STAND_LOG", &log)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("spawn the recipe");
    assert_ne!(out.status.code(), Some(124), "the recipe timed out");
    let calls = fs::read_to_string(&log).unwrap_or_default();
    (out.status.success(), calls)
}

/// Checks that a recipe step succeeds exactly when the stand-in exits 0 or 1 with a report.
fn check_step(what: &str, run: impl Fn(&Path, Stand) -> (bool, String)) {
    for stand in Stand::ALL {
        let tmp = tempfile::tempdir().unwrap();
        let (succeeded, calls) = run(tmp.path(), stand);
        assert!(
            !calls.is_empty(),
            "{what}: judge was never called ({stand:?})"
        );
        assert_eq!(
            succeeded,
            stand.step_succeeds(),
            "{what}: with judge {stand:?}, the step {} (judge was called as: {calls})",
            if succeeded { "succeeded" } else { "failed" }
        );
    }
}

#[test]
fn slurm_recipe_completes_on_a_rejection_and_fails_on_an_error() {
    let grade = named_block("docs/scale-out.md", "grade.sh").text();
    let merge = named_block("docs/scale-out.md", "merge.sh").text();
    let submit = named_block("docs/scale-out.md", "submit.sh").text();
    // The merge waits for every grade task to succeed, and is cancelled when one cannot.
    assert!(
        submit.contains("--dependency=afterok:") && submit.contains("--kill-on-invalid-dep=yes"),
        "{submit}"
    );
    let slurm_env = |task: &str| {
        [
            ("SLURM_ARRAY_TASK_ID", task),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_CPUS_PER_TASK", "4"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .to_vec()
    };
    // Slurm runs a batch script by its #! line, in the folder it was submitted from.
    for script in [&grade, &merge] {
        assert!(script.starts_with("#!/bin/bash\n"), "{script}");
    }
    check_step("grade.sh", |dir, stand| {
        fs::write(dir.join("grade.sh"), &grade).unwrap();
        let result = run_with_stand_in(dir, stand, &slurm_env("3"), "bash", &["grade.sh"]);
        assert!(
            result.1.contains("--partition auto"),
            "grade.sh: judge called as {}",
            result.1
        );
        result
    });
    check_step("merge.sh", |dir, stand| {
        fs::create_dir_all(dir.join("reports")).unwrap();
        for k in 1..=4 {
            fs::write(dir.join(format!("reports/part-{k}.json")), "{}\n").unwrap();
        }
        fs::write(dir.join("merge.sh"), &merge).unwrap();
        let result = run_with_stand_in(dir, stand, &[], "bash", &["merge.sh"]);
        assert!(
            result.1.starts_with("report merge"),
            "merge.sh: judge called as {}",
            result.1
        );
        result
    });
}

/// A YAML block of a documentation file as JSON.
fn yaml_block(rel: &str, name: &str) -> serde_json::Value {
    yaml_serde::from_str(&named_block(rel, name).text())
        .unwrap_or_else(|e| panic!("{rel}: {name}: {e}"))
}

/// A Kubernetes Job's container, played as Kubernetes would: `command` + `args`, with the
/// container's environment, in a folder where its volume is mounted (the path of the
/// `REPORTS` variable, which must be the volume's mount path, is replaced by that folder).
fn run_k8s_container(
    job: &serde_json::Value,
    dir: &Path,
    stand: Stand,
    extra_env: &[(&str, &str)],
) -> (bool, String) {
    let container = &job["spec"]["template"]["spec"]["containers"][0];
    let argv: Vec<String> = container["command"]
        .as_array()
        .expect("command")
        .iter()
        .chain(container["args"].as_array().expect("args"))
        .map(|v| v.as_str().expect("a string").to_string())
        .collect();
    let mount = container["volumeMounts"][0]["mountPath"]
        .as_str()
        .expect("volumeMounts[0].mountPath");
    let reports = dir.join("volume");
    fs::create_dir_all(&reports).unwrap();
    let mut env: Vec<(String, String)> = Vec::new();
    for var in container["env"].as_array().expect("env") {
        let name = var["name"].as_str().unwrap().to_string();
        let value = var["value"].as_str().unwrap().to_string();
        if name == "REPORTS" {
            assert_eq!(value, mount, "REPORTS must be the volume's mount path");
            env.push((name, reports.display().to_string()));
        } else {
            env.push((name, value));
        }
    }
    env.extend(
        extra_env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    for k in 0..4 {
        fs::write(reports.join(format!("part-{k}.json")), "{}\n").unwrap();
    }
    let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    run_with_stand_in(dir, stand, &env, &argv[0], &args)
}

#[test]
fn kubernetes_recipe_completes_on_a_rejection_and_fails_on_an_error() {
    let grade = yaml_block("docs/scale-out.md", "judge-grade.yaml");
    let merge = yaml_block("docs/scale-out.md", "judge-merge.yaml");
    assert_eq!(grade["spec"]["completionMode"], "Indexed");
    check_step("judge-grade.yaml", |dir, stand| {
        let result = run_k8s_container(&grade, dir, stand, &[("JOB_COMPLETION_INDEX", "2")]);
        assert!(result.1.contains("--partition auto"), "{}", result.1);
        result
    });
    check_step("judge-merge.yaml", |dir, stand| {
        let result = run_k8s_container(&merge, dir, stand, &[]);
        assert!(result.1.starts_with("report merge"), "{}", result.1);
        result
    });
}

#[test]
fn ci_matrix_recipe_completes_on_a_rejection_and_fails_on_an_error() {
    let workflow = yaml_block("docs/scale-out.md", "grade.yml");
    let jobs = workflow["jobs"].as_object().expect("jobs");
    let mut checked = 0;
    for (job_name, job) in jobs {
        for step in job["steps"].as_array().expect("steps") {
            let Some(script) = step["run"].as_str() else {
                continue;
            };
            if !script.contains("judge") {
                continue;
            }
            // GitHub substitutes expressions before the shell sees the script, and runs it with
            // `bash -e {0}` (no `shell:` given), or `bash --noprofile --norc -eo pipefail {0}`
            // (`shell: bash`): the recipe must hold under both.
            let script = script.replace("${{ matrix.part }}", "2");
            let shells: [&[&str]; 2] = [&["-e"], &["--noprofile", "--norc", "-eo", "pipefail"]];
            for shell in shells {
                check_step(
                    &format!("{job_name} (bash {shell:?}): {script}"),
                    |dir, stand| {
                        fs::create_dir_all(dir.join("parts")).unwrap();
                        for k in 1..=4 {
                            fs::write(dir.join(format!("parts/part-{k}.json")), "{}\n").unwrap();
                        }
                        fs::write(dir.join("step.sh"), &script).unwrap();
                        let mut args = shell.to_vec();
                        args.push("step.sh");
                        run_with_stand_in(dir, stand, &[], "bash", &args)
                    },
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2, "a grade step and a merge step");
}

// ---------------------------------------------------------------------------------------------
// The parsers themselves

#[test]
fn the_command_extraction_reads_shell_as_written() {
    let none = |_: &str| None;
    assert_eq!(
        judge_invocations(
            "printf '1\\n' | judge check magic-square in - > out 2>&1",
            &none
        ),
        [["check", "magic-square", "in", "-"]]
    );
    assert_eq!(
        judge_invocations(
            "JUDGE_PROBLEMS_DIR=x judge problems # a comment\n./target/release/judge grade p \\\n  s.cpp --json",
            &none
        ),
        vec![vec!["problems"], vec!["grade", "p", "s.cpp", "--json"]]
    );
    assert_eq!(
        judge_invocations("judge grade p \"$S/a b.cpp\" || [ $? -eq 1 ]", &|n| {
            (n == "S").then(|| "dir".to_string())
        }),
        [["grade", "p", "dir/a b.cpp"]]
    );
    assert!(judge_invocations("- name: judge-grade\n#SBATCH --job-name=judge", &none).is_empty());
    assert_eq!(
        judge_invocations(
            "timeout --preserve-status -s INT 3 judge grade p s.c; /usr/bin/time -f '%e' judge man",
            &none
        ),
        [vec!["grade", "p", "s.c"], vec!["man"]]
    );
    assert_eq!(
        slug("What `judge verify` checks"),
        "what-judge-verify-checks"
    );
    assert_eq!(slug("Kattis / ICPC packages"), "kattis--icpc-packages");
    assert_eq!(
        link_targets("see [a](docs/a.md#b) and ![p](x.png \"t\") but `[c](d)`"),
        ["docs/a.md#b", "x.png"]
    );
}
