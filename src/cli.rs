//! The command line: clap definitions only. Parsing into domain types happens here; the work
//! happens in `commands`, which calls this module (never the other way round).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::compile::Language;

/// Online-judge grading harness: generate tests, grade submissions in a sandbox, verify problems.
///
/// Exit status: 0 success/accepted, 1 rejected/invalid/not accepted, 2 usage or environment error.
#[derive(Debug, Parser)]
#[command(name = "judge", version = env!("JUDGE_VERSION"), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the problem packages with their titles and limits.
    Problems(ProblemsArgs),
    /// Check what this machine gives the sandbox and the compilers: what a grade will be like here.
    Doctor(DoctorArgs),
    /// Write a problem's full test set to a folder, or print one generated input.
    Gen(GenArgs),
    /// Print the reference solver's answer for an input.
    Solve(SolveArgs),
    /// Check a contestant output against an input (and the jury answer).
    Check(CheckArgs),
    /// Validate input files against the problem's constraints (byte-strict).
    Validate(ValidateArgs),
    /// Draw an input, or an output on its input: in the terminal, or as an SVG file.
    Show(ShowArgs),
    /// Compile submissions and grade them on the problem's tests in the sandbox.
    Grade(GradeArgs),
    /// Run a submission on random tests until it fails, then shrink and save the counterexample.
    Stress(StressArgs),
    /// Search for valid inputs that make a submission fail or run long (hill climbing over small changes).
    Hunt(HuntArgs),
    /// Verify problem packages: data, validator, generators, checker, jury submissions, timing.
    Verify(VerifyArgs),
    /// Write a new Kattis / ICPC problem package: a worked example that `judge verify` passes.
    New(NewArgs),
    /// Work with JSON reports: merge the partial reports of `--partition K/N` runs.
    #[command(subcommand)]
    Report(ReportCommand),
    /// Write a built-in problem as a Kattis / ICPC package (problemtools, DOMjudge): folder or zip.
    Export(ExportArgs),
    /// Print the shell completion script for judge (bash, zsh or fish).
    Completions(CompletionsArgs),
    /// Print the man page of judge, or of one command (`judge man grade`), or write them all.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct ProblemsArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Language table overriding the built-in one (see languages.toml), as for `grade`.
    #[arg(long, value_name = "FILE")]
    pub languages: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Write every test as DIR/<name>.in and DIR/<name>.ans (created if missing).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["generator", "seed", "list"])]
    pub out: Option<PathBuf>,
    /// Print one input from this generator (needs --seed).
    #[arg(long, value_name = "NAME", requires = "seed")]
    pub generator: Option<String>,
    /// Seed for --generator.
    #[arg(long, value_name = "S", requires = "generator")]
    pub seed: Option<u64>,
    /// Generator parameter for --generator, e.g. `--param n=4` (repeatable).
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_param, requires = "generator")]
    pub param: Vec<(String, i64)>,
    /// List the generators and the test plan.
    #[arg(long)]
    pub list: bool,
    /// Kattis package with generators/generators.yaml: report where data/ differs from what
    /// the generators make, and files no rule makes, instead of writing it (exit 1 if so).
    #[arg(long, conflicts_with_all = ["out", "generator", "seed", "list"])]
    pub check: bool,
}

fn parse_param(s: &str) -> Result<(String, i64), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, found `{s}`"))?;
    let v = v
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("parameter `{k}`: `{v}` is not an integer"))?;
    Ok((k.trim().to_string(), v))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1e6 => Ok(v),
        _ => Err(format!(
            "expected a positive number of seconds, found `{s}`"
        )),
    }
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Input file; standard input when omitted or `-`.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The test input (`-` for standard input).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The contestant's output (`-` for standard input).
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,
    /// The jury answer; computed by the reference solver when omitted.
    #[arg(value_name = "ANSWER")]
    pub answer: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Input files to validate.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The input file (`-` for standard input).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// A contestant output to draw on the input (`-` for standard input).
    #[arg(value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
    /// Write the picture as a standalone SVG file instead (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Options shared by the commands that compile and run submissions.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Parallel runs [default: number of cores]. Near-limit results are re-run alone.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Language table overriding the built-in one (see languages.toml).
    #[arg(long, value_name = "FILE")]
    pub languages: Option<PathBuf>,
}

impl RunArgs {
    /// `--jobs`, or the number of cores available to this process.
    pub fn jobs(&self) -> usize {
        self.jobs.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    }
}

/// Sharing the work across machines (see `crate::partition`).
#[derive(Debug, Args)]
pub struct PartitionArgs {
    /// Run part K of N only (1-based, e.g. `2/4`), or `auto` (from a Slurm array or a Kubernetes
    /// Indexed Job); the --json reports of the parts join with `judge report merge`.
    #[arg(long, value_name = "K/N|auto")]
    pub partition: Option<crate::partition::PartitionSpec>,
    /// The part count for `--partition auto` in a Kubernetes Indexed Job [default:
    /// $JUDGE_PARTITION_COUNT].
    #[arg(long, value_name = "N", requires = "partition")]
    pub partition_count: Option<u32>,
}

impl PartitionArgs {
    /// The part this process runs, the environment read for `auto`.
    pub fn resolve(
        &self,
    ) -> Result<Option<crate::partition::Partition>, crate::partition::PartitionError> {
        crate::partition::resolve(self.partition, self.partition_count, &|name| {
            std::env::var(name).ok()
        })
    }
}

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Join the partial --json reports of `--partition K/N` runs into the report one run gives.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The partial reports (the --json output of every part, in any order).
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,
    /// Print the merged report as JSON (as one run's --json) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report of the merged grade report.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Source files, or folders of sources, to grade (language from the extension unless --lang
    /// is given).
    #[arg(value_name = "SUBMISSION", required = true)]
    pub submissions: Vec<PathBuf>,
    /// Language of the submissions: an id of languages.toml (c, cpp, rust, python, java, kotlin,
    /// csharp, go, haskell, javascript, pypy3, cpython, pascal, ocaml, ruby, php, scala, lisp, prolog, bash).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<Language>,
    /// Grade on the .in/.ans pairs in DIR instead of the problem's test set.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// Run every test instead of stopping after the first failure.
    #[arg(long)]
    pub all: bool,
    /// Print one JSON object per submission (one per line) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report (verdict matrix, first failures with pictures).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub partition: PartitionArgs,
}

#[derive(Debug, Args)]
pub struct StressArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Source file to stress (language from the extension unless --lang is given).
    #[arg(value_name = "SUBMISSION")]
    pub submission: PathBuf,
    /// Stop after this many seconds [default: 10].
    #[arg(long, value_name = "N", conflicts_with = "count", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// Stop after this many tests.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Base seed (printed; the same seed gives the same tests) [default: random].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Only this generator [default: every generator setup of the test plan, round-robin].
    #[arg(long, value_name = "NAME")]
    pub generator: Option<String>,
    /// Language of the submission: an id of languages.toml (c, cpp, rust, python, java, kotlin,
    /// csharp, go, haskell, javascript, pypy3, cpython, pascal, ocaml, ruby, php, scala, lisp, prolog, bash).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<Language>,
    /// Time spent shrinking the counterexample at most.
    #[arg(long, value_name = "N", default_value = "20", value_parser = parse_seconds)]
    pub shrink_seconds: f64,
    /// Folder for the counterexample [default: ./stress-<problem>-<seed>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON object (the run, the failure, the shrunk counterexample) instead of lines.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub partition: PartitionArgs,
}

#[derive(Debug, Args)]
pub struct HuntArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The submission to hunt inputs for (scored by its CPU time in the sandbox).
    #[arg(
        value_name = "SUBMISSION",
        required_unless_present_any = ["solver", "family"],
        conflicts_with_all = ["solver", "family"]
    )]
    pub submission: Option<PathBuf>,
    /// Hunt a built-in solver of the problem instead, scored by its search nodes (exact).
    /// Names: `reference`, `plain`, (magic-square) `unmerged`, (dodecahedron) `restarts` (random
    /// restarts of a capped search: placements until 8 restarts succeed), and the family of ordinary
    /// contestant searches: `fixed`, `fixed-sym`, `fixed-skip`, `fixed-sym-skip`, `mcf`,
    /// `mcf-sym`, `mcf-skip`, `mcf-sym-skip` (faces or cells in a fixed order or most
    /// constrained first; with symmetry breaking; skipping identical tiles or repeated values).
    /// With --family: only this member.
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// Report on the family of ordinary searches: per solver, the hardest input of the test
    /// set, of a random sample of the generators and of a hunt (--seconds or --count each).
    #[arg(long)]
    pub family: bool,
    /// With --solver: hunt only inputs of this kind (the others score 0 nodes).
    #[arg(
        long,
        value_name = "KIND",
        requires = "solver",
        conflicts_with = "family"
    )]
    pub kind: Option<InputKind>,
    /// With --family: random inputs in the sample [default: 1000].
    #[arg(long, value_name = "N", requires = "family")]
    pub sample: Option<u64>,
    /// Node cap for --solver and --family; reaching it counts as TLE [default: 10000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub cap: Option<u64>,
    /// Stop after this many seconds [default: 30; with --family, each hunt].
    #[arg(long, value_name = "N", conflicts_with = "count", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// With --solver or --family: stop after this many seconds of judge's own CPU time
    /// instead (each hunt), so that a busy machine does not shorten the search.
    #[arg(long, value_name = "N", conflicts_with_all = ["count", "seconds"], value_parser = parse_seconds)]
    pub cpu_seconds: Option<f64>,
    /// Stop after this many runs.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Base seed (printed; the same seed and --jobs give the same hunt) [default: from the clock].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Start from this generator only [default: every generator setup of the test plan].
    #[arg(long, value_name = "NAME", conflicts_with = "from")]
    pub generator: Option<String>,
    /// Start from these input files instead of generated ones (repeatable).
    #[arg(long, value_name = "FILE")]
    pub from: Vec<PathBuf>,
    /// Language of the submission: an id of languages.toml (c, cpp, rust, python, java, kotlin,
    /// csharp, go, haskell, javascript, pypy3, cpython, pascal, ocaml, ruby, php, scala, lisp, prolog, bash).
    #[arg(long, value_name = "LANG", conflicts_with = "solver")]
    pub lang: Option<Language>,
    /// Save the worst input as DIR/NAME.in with the reference answer as DIR/NAME.ans.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// File name (without extension) for --out [default: hunt-<seed>].
    #[arg(long, value_name = "NAME", requires = "out", value_parser = parse_test_name)]
    pub name: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Which inputs a `--solver` hunt keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputKind {
    Solvable,
    Unsolvable,
}

fn parse_test_name(s: &str) -> Result<String, String> {
    let ok = !s.is_empty()
        && !s.starts_with('.')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{s}` is not a test name (letters, digits, `-`, `_`, `.`; not starting with `.`)"
        ))
    }
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Problems to verify: folder names under ./problems (or $JUDGE_PROBLEMS_DIR), or paths.
    #[arg(value_name = "PROBLEM", required = true)]
    pub problems: Vec<String>,
    /// Print the time limit the jury submissions support (slowest AC x 2, below fastest TLE / 1.5).
    #[arg(long)]
    pub suggest_time_limit: bool,
    /// Skip the jury submissions (static checks only; no compiler needed).
    #[arg(long)]
    pub no_submissions: bool,
    /// Verify only the jury submissions whose path contains PATTERN (e.g. `wrong_answer/`,
    /// `accepted/fast.cpp`); repeat for more. The others are left out, with a warning.
    #[arg(long = "submissions", value_name = "PATTERN", conflicts_with = "no_submissions",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub submissions: Vec<String>,
    /// Run each randomised jury submission (one whose source says `@RANDOMISED@`) N times,
    /// each a process of its own; every run must get what it must [default: 20].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub random_runs: Option<u32>,
    /// Fail on warnings too, as problemtools' --werror: what judge could not check (no input
    /// validator, a validator judge does not run, no accepted submission, samples only) and
    /// every other warning (a fragile margin, a submission not checked) then fail the verify.
    #[arg(long)]
    pub strict: bool,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report (checks, verdict matrix, timing chart).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Run every jury submission on every test again, instead of taking the runs an earlier
    /// verify made of the same program, test, limits and jury side from the cache; and every
    /// validator on every file again, instead of what it said of the same file before.
    #[arg(long)]
    pub fresh: bool,
    /// Run every jury submission on every test (the full verdict matrix). Without it each runs
    /// until what it must get is decided: a legacy package's rejected submission until its
    /// first failure, which problemtools reads its folder at (with it, the folder's rule is
    /// checked on every test).
    #[arg(long)]
    pub all_tests: bool,
    /// Inject a fault into the problem logic to show that verify catches it (for tests).
    #[arg(long, value_name = "FAULT", hide = true)]
    pub inject_fault: Option<crate::verify::Fault>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub partition: PartitionArgs,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// Short name of the problem and of its folder: lowercase letters and digits, starting
    /// with a letter.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Create the package folder in PARENT [default: the current folder].
    #[arg(long, value_name = "PARENT")]
    pub dir: Option<PathBuf>,
    /// `problem_format_version` of the package.
    #[arg(long, value_name = "VERSION", value_enum, default_value_t = FormatVersion::V2025_09)]
    pub format_version: FormatVersion,
}

/// The `problem_format_version` a new package is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatVersion {
    /// The current version (judge, BAPCtools).
    #[value(name = "2025-09")]
    V2025_09,
    /// The draft problemtools reads (it does not read 2025-09); no data/invalid_input/.
    #[value(name = "2023-07-draft")]
    V2023_07Draft,
}

impl FormatVersion {
    /// The value of `problem_format_version`.
    pub fn as_str(self) -> &'static str {
        match self {
            FormatVersion::V2025_09 => "2025-09",
            FormatVersion::V2023_07Draft => "2023-07-draft",
        }
    }
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Problem: a folder name under ./problems (or $JUDGE_PROBLEMS_DIR), or a path to a package.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// Where to write the package: a folder (created, or replaced with --force), or with --zip
    /// a zip file whose entries sit at its root (DOMjudge's import layout).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write one zip file at --out instead of a folder.
    #[arg(long)]
    pub zip: bool,
    /// The package format version to write, each as the tools that read it read it.
    #[arg(long, value_name = "VERSION", value_enum, default_value_t)]
    pub format: crate::export::Format,
    /// Replace a non-empty folder or an existing file at --out (refused otherwise).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete judge's commands and options in.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// A shell `judge completions` writes a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print instead of judge(1): `grade` for judge-grade(1),
    /// `report merge` for judge-report-merge(1).
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Write every page instead (judge.1, judge-grade.1, ...) into DIR (created if missing),
    /// e.g. ~/.local/share/man/man1.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub out: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_positional_argument_has_a_help_line() {
        for sub in Cli::command().get_subcommands() {
            for arg in sub.get_arguments().filter(|a| a.is_positional()) {
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(
                    !help.trim().is_empty(),
                    "`judge {} <{}>` has no help",
                    sub.get_name(),
                    arg.get_id()
                );
            }
        }
    }

    #[test]
    fn argument_table() {
        let ok: &[&[&str]] = &[
            &["judge", "problems"],
            &["judge", "gen", "dodecahedron", "--out", "d"],
            &[
                "judge",
                "gen",
                "x",
                "--generator",
                "g",
                "--seed",
                "3",
                "--param",
                "n=4",
            ],
            &["judge", "solve", "x"],
            &["judge", "check", "x", "in", "out"],
            &["judge", "validate", "x", "a", "b"],
            &["judge", "show", "x", "in"],
            &["judge", "show", "x", "in", "out", "--svg", "a.svg"],
            &[
                "judge",
                "new",
                "x",
                "--dir",
                "d",
                "--format-version",
                "2023-07-draft",
            ],
            &["judge", "grade", "x", "a.c", "--partition", "2/3"],
            &["judge", "grade", "x", "a.c", "--partition", "auto"],
            &[
                "judge",
                "stress",
                "x",
                "a.c",
                "--count",
                "9",
                "--partition",
                "auto",
                "--partition-count",
                "3",
            ],
            &["judge", "report", "merge", "a.json", "b.json", "--json"],
            &["judge", "completions", "zsh"],
            &["judge", "man"],
            &["judge", "man", "report", "merge"],
            &["judge", "man", "--out", "d"],
        ];
        for line in ok {
            assert!(Cli::try_parse_from(*line).is_ok(), "{line:?}");
        }
        let bad: &[&[&str]] = &[
            &["judge", "gen", "x", "--generator", "g"],
            &["judge", "gen", "x", "--seed", "1"],
            &["judge", "gen", "x", "--generator", "g", "--seed", "-1"],
            &[
                "judge",
                "gen",
                "x",
                "--out",
                "d",
                "--generator",
                "g",
                "--seed",
                "1",
            ],
            &[
                "judge",
                "gen",
                "x",
                "--generator",
                "g",
                "--seed",
                "1",
                "--param",
                "n",
            ],
            &["judge", "validate", "x"],
            &["judge", "check", "x", "in"],
            &["judge", "show", "x"],
            &["judge", "show", "x", "in", "out", "extra"],
            &["judge", "show", "x", "in", "--svg"],
            &["judge", "new"],
            &["judge", "new", "x", "--format-version", "legacy"],
            &["judge", "grade", "x", "a.c", "--partition", "0/3"],
            &["judge", "grade", "x", "a.c", "--partition", "4/3"],
            &["judge", "grade", "x", "a.c", "--partition", "1/0"],
            &["judge", "grade", "x", "a.c", "--partition-count", "3"],
            &["judge", "report", "merge"],
            &["judge", "completions"],
            &["judge", "completions", "tcsh"],
            &["judge", "man", "grade", "--out", "d"],
        ];
        for line in bad {
            assert!(Cli::try_parse_from(*line).is_err(), "{line:?}");
        }
    }
}
