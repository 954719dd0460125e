//! Running the plan: the generators and solutions are built with the compile table and cache
//! (as validators are), each case is made in a folder of its own by its generator in the
//! sandbox under limits, its files copied or given inline are added, its input is checked by
//! the package's input validators, then the solution writes its answer, checked by the answer
//! validators. Cases run on parallel workers; the first failure stops the others and is one
//! line naming the case, the program and the reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};

use super::model::FileSpec;
use super::plan::{Command, Plan, Planned};
use crate::fsutil::beneath;
use crate::kattis::problem::{last_line, limit_text};
use crate::kattis::programs::{self, open_dir, open_file, Program};
use crate::kattis::validate::{validate_answer, validate_input};
use crate::kattis::{Config, JuryRunner};
use crate::sandbox::{Limits, Stdin, Stdout, Termination};
use crate::verdict::signal_name;

/// Folders whose inputs must be valid (the others: `invalid_input` must be rejected;
/// `testing_tool_test` is not checked).
const NO_ANSWER: [&str; 5] = [
    "invalid_input",
    "invalid_answer",
    "invalid_output",
    "valid_output",
    "testing_tool_test",
];

/// What making the data needs: the package, its parsed config, the programs and the runner.
pub struct Runner<'a> {
    pub pkg: &'a Path,
    pub config: &'a Config,
    pub jury: &'a JuryRunner,
    pub validators: &'a [Program],
    /// `answer_validators/`: every answer made must pass them.
    pub answer_validators: &'a [Program],
    /// Generator programs by the name commands use.
    generators: BTreeMap<String, Program>,
    /// Solutions by path relative to the package.
    solutions: BTreeMap<String, Program>,
    default_solution: Option<String>,
    /// Whether a case took its answer from the default solution.
    used_default: AtomicBool,
    /// Holds the folders of `generators:` dictionary programs while they are built.
    _scratch: tempfile::TempDir,
}

/// Limits of generators and solutions: 60 s of CPU (or the validation time if larger), the
/// validation memory, 1 GiB of output.
fn run_limits(config: &Config) -> Limits {
    let cpu = Duration::from_secs(config.limits.validation_time.max(60));
    Limits {
        cpu_time: cpu,
        wall_time: cpu * 2,
        memory_bytes: config.limits.validation_memory << 20,
        output_bytes: 1 << 30,
        stderr_bytes: 64 << 10,
        processes: crate::kattis::problem::JURY_PROCESSES,
    }
}

impl<'a> Runner<'a> {
    /// Finds and builds every program the plan names (all at once; the first failure in
    /// plan order is the error).
    pub fn new(
        pkg: &'a Path,
        config: &'a Config,
        jury: &'a JuryRunner,
        validators: &'a [Program],
        answer_validators: &'a [Program],
        plan: &Plan,
        dictionary: &BTreeMap<String, Vec<String>>,
    ) -> Result<Runner<'a>> {
        let scratch = tempfile::Builder::new()
            .prefix("judge-generators-")
            .tempdir()
            .context("cannot create a temporary folder")?;
        let mut generators = BTreeMap::new();
        let mut solutions = BTreeMap::new();
        let mut needs_default = false;
        for case in &plan.cases {
            if let Some(c) = &case.command {
                if !generators.contains_key(&c.program) {
                    let p = find_generator(pkg, &c.program, dictionary, scratch.path())
                        .map_err(|e| anyhow!("{}: {e}", case.rule))?;
                    generators.insert(c.program.clone(), p);
                }
            }
            match &case.solution {
                Some(s) if !solutions.contains_key(s) => {
                    // Built as a submission is: with the package's include/ files.
                    let p = find_program(pkg, s)
                        .map_err(|e| anyhow!("{}: solution: {e}", case.rule))?
                        .as_solution(pkg);
                    solutions.insert(s.clone(), p);
                }
                None if case.default_solution && !NO_ANSWER.contains(&case.root()) => {
                    needs_default = true
                }
                _ => {}
            }
        }
        let mut default_solution = None;
        if needs_default {
            if let Some(s) = first_accepted(pkg) {
                if !solutions.contains_key(&s) {
                    solutions.insert(
                        s.clone(),
                        find_program(pkg, &s)
                            .map_err(|e| anyhow!("{e}"))?
                            .as_solution(pkg),
                    );
                }
                default_solution = Some(s);
            }
        }
        let runner = Runner {
            pkg,
            config,
            jury,
            validators,
            answer_validators,
            generators,
            solutions,
            default_solution,
            used_default: AtomicBool::new(false),
            _scratch: scratch,
        };
        runner.build_all()?;
        Ok(runner)
    }

    /// The solution used where generators.yaml names none (the first accepted submission),
    /// if a case used it.
    pub fn default_solution(&self) -> Option<&str> {
        self.default_solution
            .as_deref()
            .filter(|_| self.used_default.load(Ordering::Relaxed))
    }

    fn build_all(&self) -> Result<()> {
        let programs: Vec<&Program> = self
            .generators
            .values()
            .chain(self.solutions.values())
            .chain(self.validators)
            .chain(self.answer_validators)
            .collect();
        self.jury
            .build_all(&programs)
            .map_err(|e| anyhow!("{}", e.0))
    }

    /// Makes every case of `plan` into the data folder `out` (whose folders and group files
    /// are written), on `workers` threads.
    pub fn make_all(&self, plan: &Plan, out: &Path, workers: usize) -> Result<()> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let first_error: Mutex<Option<(usize, anyhow::Error)>> = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..workers.clamp(1, plan.cases.len().max(1)) {
                s.spawn(|| loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = plan.cases.get(i) else {
                        return;
                    };
                    let result = crate::interrupt::check()
                        .map_err(anyhow::Error::from)
                        .and_then(|()| self.make(case, out));
                    if let Err(e) = result {
                        stop.store(true, Ordering::Relaxed);
                        let mut first = first_error.lock().unwrap_or_else(|e| e.into_inner());
                        // The failure earliest in plan order, so the message does not depend
                        // on timing.
                        if first.as_ref().is_none_or(|(j, _)| i < *j) {
                            *first = Some((i, e));
                        }
                        return;
                    }
                });
            }
        });
        if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        crate::interrupt::check()?;
        for (dir, case) in &plan.includes {
            self.include(out, dir, case)?;
        }
        Ok(())
    }

    /// Makes one case: its files in a work folder, checked, then written under `out`.
    fn make(&self, case: &Planned, out: &Path) -> Result<()> {
        let work = tempfile::Builder::new()
            .prefix("judge-gen-case-")
            .tempdir()
            .context("cannot create a temporary folder")?;
        open_dir(work.path())?;
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        if let Some(command) = &case.command {
            self.generate(case, command, work.path(), &mut files)?;
        }
        if let Some(base) = &case.copy {
            let mut copied = false;
            for ext in super::model::EXTENSIONS {
                // The file resolved must stay inside the package (not only its name).
                let rel = PathBuf::from(format!("{base}.{ext}"));
                let read =
                    beneath::read_if_present(self.pkg, &rel, beneath::DATA_CAP, "the package");
                match read {
                    Ok(Some(bytes)) => {
                        files.insert(ext.to_string(), bytes);
                        copied = true;
                    }
                    Ok(None) => {}
                    Err(e) => bail!("{}: `copy: {base}`: {e}", case.rule),
                }
            }
            if !copied {
                bail!(
                    "{}: `copy: {base}`: no file {base}.in (or .ans, ...) in the package",
                    case.rule
                );
            }
        }
        for (ext, spec) in &case.files {
            if let FileSpec::Text(text) = spec {
                files.insert(ext.clone(), text.clone().into_bytes());
            }
        }
        self.links(case, &mut files, "in")?;
        let sample_without_in = case.root() == "sample"
            && files.contains_key("in.statement")
            && files.contains_key("in.download");
        if !files.contains_key("in") && !sample_without_in {
            bail!(
                "{}: no .in was made (a test case needs `generate`, `copy` or `in`)",
                case.rule
            );
        }
        // The case's own .yaml may hold validator arguments: write it first.
        let target = out.join(&case.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if let Some(y) = files.get("yaml") {
            write_file(&out.join(format!("{}.yaml", case.path)), y)?;
        }
        if let Some(input) = files.get("in") {
            self.check_input(out, &case.path, &case.rule, case.root(), input)?;
            if !files.contains_key("ans") && !NO_ANSWER.contains(&case.root()) {
                let ans = self.answer(case, work.path(), input)?;
                files.insert("ans".into(), ans);
            }
        }
        self.links(case, &mut files, "ans")?;
        if let (Some(input), Some(answer)) = (files.get("in"), files.get("ans")) {
            self.check_answer(out, case, input, answer)?;
        }
        for (ext, bytes) in &files {
            write_file(&out.join(format!("{}.{ext}", case.path)), bytes)?;
        }
        Ok(())
    }

    /// Adds the `{link: <ext>}` files of `case` whose target kind is `kind` (`in`, `ans`).
    fn links(
        &self,
        case: &Planned,
        files: &mut BTreeMap<String, Vec<u8>>,
        kind: &str,
    ) -> Result<()> {
        for (ext, spec) in &case.files {
            let FileSpec::Link(target) = spec else {
                continue;
            };
            if ext.split('.').next() != Some(kind) {
                continue;
            }
            let bytes = files.get(target).cloned().ok_or_else(|| {
                anyhow!(
                    "{}: `{ext}: {{link: {target}}}`, but no .{target} was made",
                    case.rule
                )
            })?;
            files.insert(ext.clone(), bytes);
        }
        Ok(())
    }

    /// Runs the generator of `case` in `work` (retrying with the next seeds as `retries`
    /// allows) and collects what it wrote: `testcase.<ext>` files, else its stdout as `.in`.
    fn generate(
        &self,
        case: &Planned,
        command: &Command,
        work: &Path,
        files: &mut BTreeMap<String, Vec<u8>>,
    ) -> Result<()> {
        let program = &self.generators[&command.program];
        let limits = run_limits(self.config);
        let mut last = String::new();
        for retry in 0..case.retries.max(1) {
            // A failed try leaves nothing behind for the next.
            clear_dir(work)?;
            let seed = (command.seed + retry) % (1 << 31);
            let outcome = self
                .jury
                .run(
                    program,
                    &command.args_with_seed(seed),
                    Stdin::Null,
                    Stdout::Capture,
                    work,
                    &[],
                    &limits,
                )
                .map_err(|e| anyhow!("{}: generator `{}`: {}", case.rule, command.text, e.0))?;
            if let Some(hit) = outcome.limit_hit {
                bail!(
                    "{}: generator `{}` {}",
                    case.rule,
                    command.text,
                    limit_text(hit, &limits)
                );
            }
            match outcome.termination {
                Termination::Exited(0) => {
                    for ext in super::model::EXTENSIONS {
                        // What the generator left: regular files of its work folder only.
                        let rel = PathBuf::from(format!("testcase.{ext}"));
                        match beneath::read_if_present(work, &rel, beneath::DATA_CAP, WORK) {
                            Ok(Some(bytes)) => {
                                files.insert(ext.to_string(), bytes);
                            }
                            Ok(None) => {}
                            Err(e) => bail!("{}: generator `{}` left {e}", case.rule, command.text),
                        }
                    }
                    if !files.contains_key("in") {
                        files.insert("in".into(), outcome.stdout);
                    }
                    return Ok(());
                }
                t => last = failure(t, &outcome.stderr),
            }
        }
        let tries = if case.retries > 1 {
            format!(" ({} tries)", case.retries)
        } else {
            String::new()
        };
        bail!(
            "{}: generator `{}` failed{tries}: {last}",
            case.rule,
            command.text
        )
    }

    /// Checks a case's input with the input validators and the arguments of its folder:
    /// it must be valid, or rejected in `invalid_input`.
    fn check_input(
        &self,
        out: &Path,
        path: &str,
        rule: &str,
        root: &str,
        input: &[u8],
    ) -> Result<()> {
        if root == "testing_tool_test" {
            return Ok(());
        }
        let args = crate::kattis::data::args_of(out, path).map_err(|e| anyhow!("{rule}: {e}"))?;
        let limits = crate::kattis::KattisPackage::limits_for_validation(self.config);
        let verdict = validate_input(self.jury, self.validators, &limits, input, &args)
            .map_err(|e| anyhow!("{rule}: {}", e.0))?;
        match (root, verdict) {
            ("invalid_input", Ok(())) if !self.validators.is_empty() => {
                bail!("{rule}: the input validators accept this input, but it is in invalid_input")
            }
            ("invalid_input", _) => Ok(()),
            (_, Err(v)) => {
                let at = v.position.map_or(String::new(), |p| {
                    format!("line {}, column {}: ", p.line, p.column)
                });
                bail!("{rule}: the generated input is invalid: {at}{}", v.message)
            }
            (_, Ok(())) => Ok(()),
        }
    }

    /// Checks a case's answer with the answer validators and the arguments of its folder: it
    /// must be valid, except in `invalid_input` and `testing_tool_test` (not checked) and
    /// `invalid_answer` (whose answer `judge verify` checks is rejected, by the answer
    /// validators or the output validator).
    fn check_answer(&self, out: &Path, case: &Planned, input: &[u8], answer: &[u8]) -> Result<()> {
        let skip = ["invalid_input", "invalid_answer", "testing_tool_test"];
        if self.answer_validators.is_empty() || skip.contains(&case.root()) {
            return Ok(());
        }
        let rule = &case.rule;
        let args =
            crate::kattis::data::args_of(out, &case.path).map_err(|e| anyhow!("{rule}: {e}"))?;
        let limits = crate::kattis::KattisPackage::limits_for_validation(self.config);
        let verdict = validate_answer(
            self.jury,
            self.answer_validators,
            &limits,
            input,
            answer,
            &args,
        )
        .map_err(|e| anyhow!("{rule}: {}", e.0))?;
        match verdict {
            Ok(()) => Ok(()),
            Err(v) => bail!("{rule}: the answer is invalid: {v}"),
        }
    }

    /// The answer of `case`: empty for interactive and multi-pass problems, else the
    /// solution's output on the input.
    fn answer(&self, case: &Planned, work: &Path, input: &[u8]) -> Result<Vec<u8>> {
        if self.config.interactive {
            return Ok(Vec::new());
        }
        let solution = match (&case.solution, case.default_solution) {
            (Some(s), _) => s.as_str(),
            (None, true) => self.default_solution_for_a_case().ok_or_else(|| {
                anyhow!(
                    "{}: no .ans was made and there is no solution: give `solution: /submissions/accepted/...` in generators.yaml",
                    case.rule
                )
            })?,
            (None, false) => bail!(
                "{}: no .ans was made and `solution:` is empty here",
                case.rule
            ),
        };
        let program = &self.solutions[solution];
        clear_dir(work)?;
        let in_path = work.join("testcase.in");
        open_file(&in_path, input)?;
        let limits = run_limits(self.config);
        let outcome = self
            .jury
            .run(
                program,
                &[],
                Stdin::File(in_path),
                Stdout::Capture,
                work,
                &[],
                &limits,
            )
            .map_err(|e| anyhow!("{}: solution: {}", case.rule, e.0))?;
        if let Some(hit) = outcome.limit_hit {
            bail!(
                "{}: solution {} {}",
                case.rule,
                program.display,
                limit_text(hit, &limits)
            );
        }
        match outcome.termination {
            Termination::Exited(0) => Ok(outcome.stdout),
            t => bail!(
                "{}: solution {} failed: {}",
                case.rule,
                program.display,
                failure(t, &outcome.stderr)
            ),
        }
    }

    fn default_solution_for_a_case(&self) -> Option<&str> {
        self.used_default.store(true, Ordering::Relaxed);
        self.default_solution.as_deref()
    }

    /// Copies the files of `case` into the folder `dir` (`include:`), checking the input
    /// with that folder's arguments.
    fn include(&self, out: &Path, dir: &str, case: &str) -> Result<()> {
        let name = case.rsplit('/').next().unwrap_or(case);
        let target = format!("{dir}/{name}");
        let rule = format!("data.{} (included from {case})", target.replace('/', "."));
        for ext in super::model::EXTENSIONS {
            let from = out.join(format!("{case}.{ext}"));
            if from.is_file() {
                let bytes = std::fs::read(&from)?;
                if ext == "in" {
                    self.check_input(
                        out,
                        &target,
                        &rule,
                        dir.split('/').next().unwrap_or(dir),
                        &bytes,
                    )?;
                }
                write_file(&out.join(format!("{target}.{ext}")), &bytes)?;
            }
        }
        Ok(())
    }
}

/// What a generator's work folder is called in a message.
const WORK: &str = "its work folder";

/// Writes a data file, readable by everyone (as files a user creates).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    open_file(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn clear_dir(dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            std::fs::remove_dir_all(&path)?;
        } else {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// The generator a command names: an entry of the `generators:` dictionary (its files
/// copied into a folder of their own, the first the entry point), else a file or folder of
/// `generators/`.
fn find_generator(
    pkg: &Path,
    name: &str,
    dictionary: &BTreeMap<String, Vec<String>>,
    scratch: &Path,
) -> Result<Program, String> {
    if let Some(files) = dictionary.get(name) {
        let dir = scratch.join(name);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let mut main = None;
        for f in files {
            let file_name = Path::new(f).file_name().unwrap_or_default();
            let to = dir.join(file_name);
            // Under the package's rule: a link leading out of it is an error, never copied.
            let rel = Path::new("generators").join(f);
            let from = beneath::open_beneath(pkg, &rel, "the package")
                .map_err(|e| format!("generators.{name}: {e}"))?;
            copy_file(from, &to)
                .map_err(|e| format!("generators.{name}: cannot copy generators/{f}: {e}"))?;
            main.get_or_insert(to);
        }
        let main = main.ok_or_else(|| format!("generators.{name} lists no file"))?;
        return programs::folder_program(&dir, &format!("generators.{name}"), &main).ok_or_else(
            || {
                format!(
                    "generators.{name}: {} is in no language judge compiles ({})",
                    files[0],
                    crate::compile::Language::id_list()
                )
            },
        );
    }
    find_program(pkg, &format!("generators/{name}"))
}

/// Copies the open file `from` to `to` with its permissions, at most
/// [`beneath::DATA_CAP`] bytes.
fn copy_file(from: std::fs::File, to: &Path) -> std::io::Result<()> {
    use std::io::Read;
    let perms = from.metadata()?.permissions();
    let mut out = std::fs::File::create(to)?;
    std::io::copy(&mut from.take(beneath::DATA_CAP), &mut out)?;
    out.set_permissions(perms)
}

/// The program at `rel` (relative to the package): a file or a folder.
fn find_program(pkg: &Path, rel: &str) -> Result<Program, String> {
    let path = pkg.join(rel);
    if !path.exists() {
        return Err(format!("{rel}: no such file or folder"));
    }
    let scripted = path.join("build").is_file() || path.join("run").is_file();
    if path.is_dir() && !scripted {
        // BAPCtools' entry point of a folder: the file whose name starts with `main`, else
        // the first by name.
        let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
            .map_err(|e| format!("cannot read {rel}: {e}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && crate::compile::Language::from_path(p).is_some())
            .collect();
        files.sort();
        let main = files
            .iter()
            .find(|f| {
                f.file_name()
                    .is_some_and(|n| n.to_string_lossy().to_lowercase().starts_with("main"))
            })
            .or(files.first());
        if let Some(main) = main {
            if let Some(p) = programs::folder_program(&path, rel, main) {
                return Ok(p);
            }
        }
    }
    programs::program(&path, rel)?.ok_or_else(|| {
        format!(
            "{rel}: not a program in a language judge compiles ({})",
            crate::compile::Language::id_list()
        )
    })
}

/// The first accepted submission judge can build, by name (BAPCtools picks one at random
/// and writes it into generators.yaml; judge picks the same one every time).
fn first_accepted(pkg: &Path) -> Option<String> {
    let dir = pkg.join("submissions/accepted");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    entries.into_iter().find_map(|p| {
        let rel = p.strip_prefix(pkg).ok()?.display().to_string();
        programs::program(&p, &rel).ok().flatten().map(|_| rel)
    })
}

/// How a jury program that did not succeed ended: `exit code 3: boom`, `killed by SIGSEGV`.
fn failure(t: Termination, stderr: &[u8]) -> String {
    let how = match t {
        Termination::Exited(c) => format!("exit code {c}"),
        Termination::Signaled(s) => signal_name(s),
    };
    let why = last_line(stderr)
        .map(|l| format!(": {l}"))
        .unwrap_or_default();
    format!("{how}{why}")
}
