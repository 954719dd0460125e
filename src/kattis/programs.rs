//! Jury programs of a package (input validators, the output validator): finding them, building
//! them with the same language table and compile cache as submissions, and running them in
//! the sandbox under limits of their own.
//!
//! A program is a file (language from its extension) or a folder: with `build`/`run` scripts,
//! or with one main source file plus helpers (headers, modules) placed beside it. A program
//! whose source calls testlib's `registerValidation` / `registerTestlibCmd` speaks testlib's
//! protocol (exit 0 = ok), unless its folder holds a DOMjudge-style testlib.h that maps the
//! exit codes to 42/43.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::compile::{
    self, script, Cache, CompileLimits, CompileOutcome, Language, LanguageTable, Submission,
};
use crate::fsutil::is_tool_litter;
use crate::problems::JuryError;
use crate::sandbox::{Limits, RunOutcome, RunRequest, Sandbox, Stdin, Stdout};

/// How a jury program is given.
#[derive(Debug, Clone)]
pub enum Form {
    /// One source file.
    File(Language),
    /// A folder with one main source; every other file is placed beside it.
    Folder { main: PathBuf, language: Language },
    /// A folder with `build` and/or `run` scripts.
    Script,
    /// A checktestdata program (this `.ctd` file), interpreted in-process.
    Checktestdata(PathBuf),
}

/// A jury program found in the package.
#[derive(Debug)]
pub struct Program {
    /// The program's name (file stem or folder name): `input_validator_args` maps use it.
    pub name: String,
    /// The file or folder.
    pub path: PathBuf,
    /// The path relative to the package, for messages (`input_validators/validate.py`).
    pub display: String,
    pub form: Form,
    /// Speaks testlib's protocol rather than the package format's.
    pub testlib: bool,
    /// `{{name}}` in its sources is replaced by the package's constant of that name before it
    /// is built (validators, output validators, generators; not submissions, as in BAPCtools).
    pub substitute: bool,
    /// The package whose `include/<language>/` files are built with it, as with a
    /// submission: set for generators.yaml's `solution:` programs (see [`Program::as_solution`]).
    pub included_from: Option<PathBuf>,
    built: OnceLock<Result<Built, JuryError>>,
}

impl Program {
    /// The program built as a submission of the package in `pkg` is: with the package's
    /// included files (generators.yaml's `solution:`, which is often a jury submission).
    pub fn as_solution(mut self, pkg: &Path) -> Program {
        self.included_from = Some(pkg.to_path_buf());
        self
    }
}

/// A built program: how to start it.
#[derive(Debug, Clone)]
pub struct Built {
    /// argv for a given memory limit is `argv_for(memory)`; placeholders already expanded.
    argv: Vec<String>,
    /// Java needs the heap size in its argv.
    compiled: Option<compile::Compiled>,
    pub env: Vec<(String, String)>,
    pub read_only: Vec<PathBuf>,
    pub processes: u32,
    /// The parsed program of a checktestdata validator (which is not started as a process).
    pub script: Option<std::sync::Arc<super::checktestdata::Script>>,
}

impl Built {
    /// The compile-cache entry the program runs from (named by its sources, compiler and
    /// flags); `None` for one run from the package folder itself.
    pub(crate) fn entry(&self) -> Option<String> {
        let dir = self.compiled.as_ref()?.entry_dir.as_ref()?;
        Some(dir.file_name()?.to_string_lossy().into_owned())
    }

    fn argv(&self, memory_bytes: u64) -> Vec<String> {
        match &self.compiled {
            Some(c) => c.run_argv(memory_bytes).unwrap_or_default(),
            None => self.argv.clone(),
        }
    }
}

/// What the jury side needs to build and run programs: the language table and compile cache
/// (shared with submissions) and a sandbox of its own (created on first use).
pub struct JuryRunner {
    slots: usize,
    table: LanguageTable,
    cache: Cache,
    compile_limits: CompileLimits,
    sandbox: Mutex<Option<std::sync::Arc<dyn Sandbox>>>,
    /// `problem.yaml`'s `constants:` (`name` and `name.variant`), for `{{name}}` in sources.
    constants: BTreeMap<String, String>,
    /// What the validators said before (see [`super::validated`]).
    pub(crate) validations: super::validated::Validations,
}

impl JuryRunner {
    pub fn new(slots: usize, table: LanguageTable, cache: Cache) -> JuryRunner {
        JuryRunner {
            slots: slots.max(1),
            table,
            validations: super::validated::Validations::new(&cache),
            cache,
            compile_limits: CompileLimits::default(),
            sandbox: Mutex::new(None),
            constants: BTreeMap::new(),
        }
    }

    /// The runner with the package's constants, substituted into jury program sources.
    pub fn with_constants(mut self, constants: BTreeMap<String, String>) -> JuryRunner {
        self.constants = constants;
        self
    }

    /// `problem.yaml`'s constants, as substituted into jury program sources.
    pub fn constants(&self) -> &BTreeMap<String, String> {
        &self.constants
    }

    /// A runner with a given sandbox (tests use a scripted one).
    pub fn with_sandbox(
        sandbox: std::sync::Arc<dyn Sandbox>,
        table: LanguageTable,
        cache: Cache,
    ) -> JuryRunner {
        let r = JuryRunner::new(1, table, cache);
        *r.sandbox.lock().unwrap_or_else(|e| e.into_inner()) = Some(sandbox);
        r
    }

    pub(crate) fn sandbox(&self) -> Result<std::sync::Arc<dyn Sandbox>, JuryError> {
        let mut slot = self.sandbox.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = slot.as_ref() {
            return Ok(s.clone());
        }
        #[cfg(target_os = "linux")]
        {
            let s: std::sync::Arc<dyn Sandbox> = std::sync::Arc::new(
                crate::sandbox::linux::LinuxSandbox::new(self.slots).map_err(|e| {
                    JuryError(format!("cannot set up the sandbox for jury programs: {e}"))
                })?,
            );
            *slot = Some(s.clone());
            Ok(s)
        }
        #[cfg(not(target_os = "linux"))]
        Err(JuryError("jury programs need the Linux sandbox".into()))
    }

    /// Builds every one of `programs` at once (compilers take seconds each on a cold cache);
    /// the first failure in their order.
    pub fn build_all(&self, programs: &[&Program]) -> Result<(), JuryError> {
        std::thread::scope(|s| {
            let builds: Vec<_> = programs
                .iter()
                .map(|p| s.spawn(|| self.build(p).map(|_| ())))
                .collect();
            builds.into_iter().try_for_each(|b| {
                b.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        })
    }

    /// Builds `program` once (later calls return the same result).
    pub fn build(&self, program: &Program) -> Result<Built, JuryError> {
        program
            .built
            .get_or_init(|| self.build_now(program))
            .clone()
    }

    fn build_now(&self, program: &Program) -> Result<Built, JuryError> {
        // With `{{constants}}` in its sources: built from a substituted copy.
        let substituted = match program.substitute && !self.constants.is_empty() {
            true => with_constants(program, &self.constants)?,
            false => None,
        };
        let program = substituted.as_ref().map_or(program, |(_, p)| p);
        if let Form::Checktestdata(file) = &program.form {
            let script = super::checktestdata::load(file, &program.display, &self.constants)?;
            return Ok(Built {
                argv: Vec::new(),
                compiled: None,
                env: Vec::new(),
                read_only: Vec::new(),
                processes: 1,
                script: Some(std::sync::Arc::new(script)),
            });
        }
        let failed = |message: &str| {
            let first: Vec<&str> = message.lines().take(3).collect();
            JuryError(format!(
                "{} does not build: {}",
                program.display,
                first.join(" / ")
            ))
        };
        let harness =
            |e: compile::CompileError| JuryError(format!("cannot build {}: {e}", program.display));
        let compiled = match &program.form {
            Form::Script => {
                let b = script::build(&program.path, &self.compile_limits, &self.cache)
                    .map_err(harness)?;
                if let CompileOutcome::Failed { message } = &b.outcome {
                    return Err(failed(message));
                }
                return Ok(Built {
                    argv: vec![b.run.display().to_string()],
                    compiled: None,
                    env: vec![
                        ("LANG".into(), "C.UTF-8".into()),
                        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
                    ],
                    read_only: vec![b.entry_dir],
                    processes: 16,
                    script: None,
                });
            }
            Form::File(language) => {
                let sub = Submission {
                    path: program.path.clone(),
                    language: *language,
                    entry: None,
                };
                self.compile(program, &sub).map_err(harness)?
            }
            Form::Checktestdata(_) => unreachable!("checktestdata programs are returned above"),
            Form::Folder { main, language } => {
                // Its other files beside it, and laid out under the folder's name (see
                // `compile::compile_with_files`).
                let sub = Submission {
                    path: program.path.clone(),
                    language: *language,
                    entry: Some(main.clone()),
                };
                self.compile(program, &sub).map_err(harness)?
            }
        };
        if let CompileOutcome::Failed { message } = &compiled.outcome {
            return Err(failed(message));
        }
        Ok(Built {
            argv: Vec::new(),
            env: compiled.env.clone(),
            read_only: compiled.read_only.clone(),
            processes: compiled.processes.max(1),
            compiled: Some(compiled),
            script: None,
        })
    }

    /// Compiles `sub`, the source of `program`, with the package's included files if it
    /// takes them.
    fn compile(
        &self,
        program: &Program,
        sub: &Submission,
    ) -> Result<compile::Compiled, compile::CompileError> {
        let included =
            match &program.included_from {
                Some(pkg) => super::include::files_for(pkg, sub.language, &self.constants)
                    .map_err(|e| compile::CompileError::Io {
                        context: "reading the package's included files".into(),
                        source: std::io::Error::other(e),
                    })?,
                None => compile::Included::default(),
            };
        compile::compile_with_files(
            sub,
            &included,
            &self.table,
            &self.compile_limits,
            &self.cache,
            compile::PchPolicy::Lazy,
        )
    }

    /// Runs `program` with `args` under `limits` in `work_dir` (fresh, writable), with the
    /// extra read-only paths `read_only`. The outcome is data; `Err` when it could not run.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        program: &Program,
        args: &[String],
        stdin: Stdin,
        stdout: Stdout,
        work_dir: &Path,
        read_only: &[PathBuf],
        limits: &Limits,
    ) -> Result<RunOutcome, JuryError> {
        let built = self.build(program)?;
        if built.script.is_some() {
            return Err(JuryError(format!(
                "{}: a checktestdata program checks inputs only; it is not run as a process",
                program.display
            )));
        }
        let sandbox = self.sandbox()?;
        let request = self.request(&built, args, stdin, stdout, work_dir, read_only, limits);
        sandbox
            .run(&request)
            .map_err(|e| JuryError(format!("cannot run {}: {e}", program.display)))
    }

    /// The sandbox request that runs `built`.
    #[allow(clippy::too_many_arguments)]
    pub fn request(
        &self,
        built: &Built,
        args: &[String],
        stdin: Stdin,
        stdout: Stdout,
        work_dir: &Path,
        read_only: &[PathBuf],
        limits: &Limits,
    ) -> RunRequest {
        let mut argv = built.argv(limits.memory_bytes);
        argv.extend(args.iter().cloned());
        let mut ro = built.read_only.clone();
        ro.extend(read_only.iter().cloned());
        let mut limits = limits.clone();
        limits.processes = limits.processes.max(built.processes);
        RunRequest {
            argv,
            env: built.env.clone(),
            stdin,
            stdout,
            read_only: ro,
            work_dir: Some(work_dir.to_path_buf()),
            work_files: Vec::new(),
            limits,
            stop: None,
            companions: None,
        }
    }
}

/// The language of a file by the package format's extensions, if the compile table has it.
fn language_of(path: &Path) -> Option<Language> {
    Language::from_path(path)
}

/// Files a program may not be given in: VIVA, and checktestdata unless `ctd` (input
/// validators and answer validators only).
fn unsupported_kind(path: &Path, ctd: bool) -> Option<&'static str> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("ctd") if !ctd => Some("checktestdata"),
        Some("viva") => Some("VIVA"),
        _ => None,
    }
}

/// The checktestdata program `path` is: a `.ctd` file, or a folder whose only program file is
/// one.
fn checktestdata_file(path: &Path) -> Option<PathBuf> {
    let is_ctd = |p: &Path| p.is_file() && p.extension().is_some_and(|e| e == "ctd");
    if path.is_file() {
        return is_ctd(path).then(|| path.to_path_buf());
    }
    let files: Vec<PathBuf> = fs::read_dir(path)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && !p.file_name().is_some_and(is_tool_litter))
        .collect();
    let mut ctd = files.iter().filter(|p| is_ctd(p));
    let (Some(one), None) = (ctd.next(), ctd.next()) else {
        return None;
    };
    let other_program = files.iter().any(|p| language_of(p).is_some());
    (!other_program).then(|| one.clone())
}

/// Finds the input (or answer) validators in `folder`: [`find`], with checktestdata programs.
pub fn find_input_validators(
    pkg_dir: &Path,
    folder: &Path,
) -> Result<(Vec<Program>, Vec<String>), String> {
    find_in(pkg_dir, folder, true)
}

/// Finds the programs in `folder` (each file or subfolder is one program), sorted by name.
/// Returns the programs and warnings for entries that are skipped.
pub fn find(pkg_dir: &Path, folder: &Path) -> Result<(Vec<Program>, Vec<String>), String> {
    find_in(pkg_dir, folder, false)
}

fn find_in(
    pkg_dir: &Path,
    folder: &Path,
    ctd: bool,
) -> Result<(Vec<Program>, Vec<String>), String> {
    let mut programs = Vec::new();
    let mut warnings = Vec::new();
    let Ok(read) = fs::read_dir(folder) else {
        return Ok((programs, warnings));
    };
    let mut entries: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.file_name().is_some_and(is_tool_litter) {
            continue;
        }
        let display = path
            .strip_prefix(pkg_dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        if let Some(kind) = unsupported_kind(&path, ctd) {
            warnings.push(format!(
                "{display}: {kind} validators are not supported; skipped"
            ));
            continue;
        }
        if let Some(file) = checktestdata_file(&path).filter(|_| ctd) {
            programs.push(Program {
                name: path
                    .file_stem()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path: path.clone(),
                display,
                form: Form::Checktestdata(file),
                testlib: false,
                substitute: true,
                included_from: None,
                built: OnceLock::new(),
            });
            continue;
        }
        // Its sources are compiled and copied into runs: a link out of the package would
        // hand a host file to a compiler's message, a jury program or a contestant.
        crate::fsutil::beneath::check_tree(pkg_dir, &path, "the package")?;
        match program(&path, &display)? {
            Some(p) => programs.push(p),
            None => warnings.push(format!(
                "{display}: not a program in a language judge compiles ({}); skipped",
                Language::id_list()
            )),
        }
    }
    Ok((programs, warnings))
}

/// The program at `path` (a file or a folder); `None` if it is in no known language.
pub fn program(path: &Path, display: &str) -> Result<Option<Program>, String> {
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let make = |form: Form, testlib: bool| Program {
        name: name.clone(),
        path: path.to_path_buf(),
        display: display.to_string(),
        form,
        testlib,
        substitute: true,
        included_from: None,
        built: OnceLock::new(),
    };
    if path.is_file() {
        let Some(language) = language_of(path) else {
            return Ok(None);
        };
        let source = fs::read_to_string(path).unwrap_or_default();
        return Ok(Some(make(
            Form::File(language),
            uses_testlib(&source, None),
        )));
    }
    if path.join("build").is_file() || path.join("run").is_file() {
        return Ok(Some(make(Form::Script, false)));
    }
    let mut sources: Vec<(PathBuf, Language)> = fs::read_dir(path)
        .map_err(|e| format!("cannot read {display}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter_map(|p| language_of(&p).map(|l| (p, l)))
        .collect();
    sources.sort();
    if sources.is_empty() {
        return Ok(None);
    }
    let language = sources[0].1;
    if sources.iter().any(|(_, l)| *l != language) {
        return Err(format!(
            "{display}: sources in more than one language; a program is written in one"
        ));
    }
    let named = |file: &str| {
        sources
            .iter()
            .find(|(p, _)| p.file_name().is_some_and(|n| n == file))
    };
    let main = match language.id() {
        "python" => named("__main__.py").or(if sources.len() == 1 {
            sources.first()
        } else {
            None
        }),
        "rust" => named("main.rs").or(if sources.len() == 1 {
            sources.first()
        } else {
            None
        }),
        "java" => sources
            .iter()
            .find(|(p, _)| fs::read_to_string(p).is_ok_and(|s| s.contains("static void main")))
            .or(sources.first()),
        "c" | "cpp" => {
            if sources.len() == 1 {
                sources.first()
            } else {
                return Err(format!(
                    "{display}: {} C/C++ sources; only a folder with one source file (plus headers) is supported",
                    sources.len()
                ));
            }
        }
        // problemtools' rule: the one source, else the one named main.*, else the first by
        // name (a Prolog program `different.pl` that consults its `kattio.pl`).
        _ => sources
            .iter()
            .find(|(p, _)| {
                p.file_stem()
                    .is_some_and(|s| s.eq_ignore_ascii_case("main"))
            })
            .or(sources.first()),
    };
    let Some((main, _)) = main.cloned() else {
        return Err(format!(
            "{display}: cannot tell which file is the program's entry point"
        ));
    };
    let source = fs::read_to_string(&main).unwrap_or_default();
    let testlib = uses_testlib(&source, Some(path));
    Ok(Some(make(Form::Folder { main, language }, testlib)))
}

/// The program in folder `path` whose entry point is `main` (a file in it), as the
/// `generators:` dictionary of `generators.yaml` gives one; `None` if `main` is in no known
/// language.
pub fn folder_program(path: &Path, display: &str, main: &Path) -> Option<Program> {
    let language = language_of(main)?;
    Some(Program {
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: path.to_path_buf(),
        display: display.to_string(),
        form: Form::Folder {
            main: main.to_path_buf(),
            language,
        },
        testlib: false,
        substitute: true,
        included_from: None,
        built: OnceLock::new(),
    })
}

/// `program` with `{{name}}` in its sources replaced by `constants[name]`, copied into a
/// temporary folder (kept alive by the returned guard while it is built); `None` when no
/// source names a constant. Scripted programs (`build`/`run`) are left as they are.
fn with_constants(
    program: &Program,
    constants: &BTreeMap<String, String>,
) -> Result<Option<(tempfile::TempDir, Program)>, JuryError> {
    let io = |e: std::io::Error| JuryError(format!("cannot read {}: {e}", program.display));
    let files: Vec<PathBuf> = match &program.form {
        Form::File(_) => vec![program.path.clone()],
        Form::Folder { .. } => {
            let mut files: Vec<PathBuf> = fs::read_dir(&program.path)
                .map_err(io)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            files
        }
        Form::Script | Form::Checktestdata(_) => return Ok(None),
    };
    let mut changed = false;
    let mut contents = Vec::new();
    for f in files {
        let bytes = fs::read(&f).map_err(io)?;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => {
                let new = substitute_constants(&text, constants);
                changed |= new != text;
                new.into_bytes()
            }
            Err(e) => e.into_bytes(),
        };
        contents.push((f, bytes));
    }
    if !changed {
        return Ok(None);
    }
    let dir = tempfile::tempdir().map_err(|e| {
        JuryError(format!(
            "cannot make a folder to build {}: {e}",
            program.display
        ))
    })?;
    let write = |path: &Path, bytes: &[u8]| {
        fs::write(path, bytes)
            .map_err(|e| JuryError(format!("cannot write {}: {e}", path.display())))
    };
    let base = dir
        .path()
        .join(program.path.file_name().unwrap_or_default());
    let form = match &program.form {
        Form::File(language) => {
            write(&base, &contents[0].1)?;
            Form::File(*language)
        }
        Form::Folder { main, language } => {
            fs::create_dir(&base).map_err(|e| {
                JuryError(format!(
                    "cannot make a folder to build {}: {e}",
                    program.display
                ))
            })?;
            for (f, bytes) in &contents {
                write(&base.join(f.file_name().unwrap_or_default()), bytes)?;
            }
            Form::Folder {
                main: base.join(main.file_name().unwrap_or_default()),
                language: *language,
            }
        }
        Form::Script | Form::Checktestdata(_) => {
            unreachable!("scripted and checktestdata programs are returned above")
        }
    };
    let copy = Program {
        name: program.name.clone(),
        path: base,
        display: program.display.clone(),
        form,
        testlib: program.testlib,
        substitute: false,
        included_from: program.included_from.clone(),
        built: OnceLock::new(),
    };
    Ok(Some((dir, copy)))
}

/// `{{name}}` (and `{{name.variant}}`) replaced by the constant of that name (`problem.yaml`
/// `constants:`); names no constant has are left as they are.
pub fn substitute_constants(text: &str, constants: &BTreeMap<String, String>) -> String {
    if !text.contains("{{") {
        return text.to_string();
    }
    let mut out = text.to_string();
    for (name, value) in constants {
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

/// True if `source` is a testlib program with testlib's own exit codes.
fn uses_testlib(source: &str, folder: Option<&Path>) -> bool {
    let calls = source.contains("registerValidation") || source.contains("registerTestlibCmd");
    if !calls {
        return false;
    }
    // A DOMjudge-style patched testlib.h maps OK/WA to 42/43: the package protocol.
    let patched = folder
        .and_then(|f| fs::read_to_string(f.join("testlib.h")).ok())
        .is_some_and(|h| {
            let flat: String = h.split_whitespace().collect::<Vec<_>>().join(" ");
            flat.contains("define OK_EXIT_CODE 42")
        });
    !patched
}

/// A fresh folder the sandbox user can read: mode 0755.
pub fn open_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(path)?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
}

/// Writes a file the sandbox user can read: mode 0644.
pub fn open_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::write(path, bytes)?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o644))
}

#[cfg(test)]
mod tests {

    #[test]
    fn constants_replace_known_names_and_variants_only() {
        let c: std::collections::BTreeMap<String, String> = [("N", "5"), ("N.tex", "5")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(
            super::substitute_constants("a({{N}}, {{N.tex}}, {{M}}, {N})", &c),
            "a(5, 5, {{M}}, {N})"
        );
    }

    use super::*;

    #[test]
    fn finds_files_folders_and_scripts() {
        let d = tempfile::tempdir().unwrap();
        let v = d.path().join("input_validators");
        fs::create_dir_all(v.join("dir")).unwrap();
        fs::create_dir_all(v.join("scripted")).unwrap();
        fs::write(v.join("validate.py"), "import sys\nsys.exit(42)\n").unwrap();
        fs::write(v.join("format.ctd"), "INT(1,5)\n").unwrap();
        fs::write(v.join("notes.txt"), "hi\n").unwrap();
        fs::write(
            v.join("dir/validator.cpp"),
            "#include \"validator.h\"\nint main(){}\n",
        )
        .unwrap();
        fs::write(v.join("dir/validator.h"), "\n").unwrap();
        fs::write(v.join("scripted/build"), "#!/bin/sh\n").unwrap();
        // What running the validators by hand leaves behind is not a program.
        fs::create_dir_all(v.join("__pycache__")).unwrap();
        fs::write(v.join("__pycache__/validate.cpython-311.pyc"), "\0").unwrap();
        fs::write(v.join("validate.py~"), "").unwrap();
        fs::write(v.join(".validate.py.swp"), "").unwrap();
        let (programs, warnings) = find(d.path(), &v).unwrap();
        let names: Vec<_> = programs.iter().map(|p| p.display.as_str()).collect();
        assert_eq!(
            names,
            [
                "input_validators/dir",
                "input_validators/scripted",
                "input_validators/validate.py"
            ]
        );
        assert!(matches!(
            programs[0].form,
            Form::Folder { language, .. } if language.id() == "cpp"
        ));
        assert!(matches!(programs[1].form, Form::Script));
        assert_eq!(programs[2].name, "validate");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("checktestdata"));
    }

    #[test]
    fn input_validators_include_checktestdata_files_and_folders_but_not_viva() {
        let d = tempfile::tempdir().unwrap();
        let v = d.path().join("input_validators");
        fs::create_dir_all(v.join("folder")).unwrap();
        fs::write(v.join("format.ctd"), "INT(1,5)\n").unwrap();
        fs::write(v.join("folder/check.ctd"), "INT(1,5)\n").unwrap();
        fs::write(v.join("folder/README"), "notes\n").unwrap();
        fs::write(v.join("grammar.viva"), "\n").unwrap();
        let (programs, warnings) = find_input_validators(d.path(), &v).unwrap();
        let forms: Vec<(&str, Option<&Path>)> = programs
            .iter()
            .map(|p| {
                let file = match &p.form {
                    Form::Checktestdata(f) => Some(f.strip_prefix(&v).unwrap()),
                    _ => None,
                };
                (p.display.as_str(), file)
            })
            .collect();
        assert_eq!(
            forms,
            [
                (
                    "input_validators/folder",
                    Some(Path::new("folder/check.ctd"))
                ),
                ("input_validators/format.ctd", Some(Path::new("format.ctd"))),
            ]
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("VIVA validators are not supported"));
    }

    #[test]
    fn testlib_is_detected_from_the_source() {
        assert!(uses_testlib(
            "int main(int c, char** v) { registerTestlibCmd(c, v); }",
            None
        ));
        assert!(!uses_testlib("int main() { return 42; }", None));
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join("testlib.h"), "#define  OK_EXIT_CODE  42\n").unwrap();
        assert!(!uses_testlib("registerTestlibCmd(c, v);", Some(d.path())));
    }
}
