//! Test data made from `generators/generators.yaml`, as BAPCtools documents and implements
//! it (`doc/generators.md`, `doc/generators.yaml`, `bapctools/generate.py`): the same case
//! names, the same `{seed}` values, so the same bytes as `bt generate`.
//!
//! ```text
//!   generators.yaml ─► model (typed, unknown keys warned) ─► plan (cases: path, command, seed)
//!          ─► run (build once; generator, validators, solution in the sandbox; parallel)
//!          ─► write (judge gen: data/ swapped in atomically) | cache (verify, grade)
//!          ─► check (data/ against what the generators make)
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

pub mod check;
pub mod model;
pub mod plan;
mod run;
pub mod seed;
pub mod write;

use super::{config, programs, Config, JuryConfig, JuryRunner, Program};
use crate::compile::{Cache, LanguageTable};
use crate::fsutil::beneath;

/// The file, relative to a package.
pub const FILE: &str = "generators/generators.yaml";

/// True if the package in `pkg` makes its data from `generators/generators.yaml`.
pub fn has_generators(pkg: &Path) -> bool {
    pkg.join(FILE).is_file()
}

/// A package's generators, read and planned.
pub struct Generators {
    pub config: Config,
    pub model: model::Generators,
    pub plan: plan::Plan,
    /// Unknown keys and the like: faults of the package.
    pub warnings: Vec<String>,
}

impl Generators {
    /// Reads `problem.yaml` and `generators/generators.yaml` of `pkg` and plans the cases.
    pub fn read(pkg: &Path) -> Result<Generators> {
        let yaml_path = pkg.join("problem.yaml");
        let package_file = |rel: &str| {
            beneath::read_text_beneath(pkg, Path::new(rel), beneath::SMALL_CAP, "the package")
                .with_context(|| format!("cannot read {}", pkg.join(rel).display()))
        };
        let text = package_file("problem.yaml")?;
        let config =
            config_for_generating(&text).map_err(|e| anyhow!("{}: {e}", yaml_path.display()))?;
        let constants = constants(&text);
        let path = pkg.join(FILE);
        let text = package_file(FILE)?;
        let at = |e: String| anyhow!("{}: {e}", path.display());
        let (model, mut warnings) = model::parse(&text).map_err(at)?;
        let plan = plan::expand(&model, &constants).map_err(at)?;
        warnings.extend(plan.warnings.iter().cloned());
        let warnings = warnings
            .into_iter()
            .map(|w| format!("{}: {w}", path.display()))
            .collect();
        Ok(Generators {
            config,
            model,
            plan,
            warnings,
        })
    }

    /// What judge does not do here, one line each (visualizers, `match:`, interactions).
    pub fn unsupported(&self, pkg: &Path) -> Vec<String> {
        let mut lines: Vec<String> = self
            .model
            .unsupported
            .iter()
            .map(|u| format!("{}: {u}", pkg.join(FILE).display()))
            .collect();
        if !lines.iter().any(|l| l.contains("visualizer"))
            && ["input_visualizer", "output_visualizer"]
                .iter()
                .any(|d| pkg.join(d).is_dir())
        {
            lines.push(format!(
                "{}: visualizers (input_visualizer/, output_visualizer/) are not run; no pictures are made",
                pkg.display()
            ));
        }
        if self.config.interactive {
            lines.push(format!(
                "{}: .interaction files of interactive and multi-pass samples are not made",
                pkg.join(FILE).display()
            ));
        }
        lines
    }
}

/// The config of `problem.yaml` that making data needs (validation limits; whether answers
/// are empty). Interactive and multi-pass problems get empty answers.
fn config_for_generating(text: &str) -> Result<Config, String> {
    let mut value = super::yaml::parse_value(text)?;
    let mut no_answers = false;
    if let yaml_serde::Value::Mapping(m) = &mut value {
        for key in ["type", "validation"] {
            if let Some(v) = m.remove(key) {
                let words = yaml_serde::to_string(&v).unwrap_or_default();
                no_answers |= words.contains("interactive") || words.contains("multi-pass");
            }
        }
    }
    let text = yaml_serde::to_string(&value).map_err(|e| e.to_string())?;
    let (mut config, _) = config::parse(&text)?;
    config.interactive = no_answers;
    Ok(config)
}

/// `problem.yaml`'s `constants:` as text, for `{{name}}` in commands and program sources.
pub(crate) fn constants(problem_yaml: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(yaml_serde::Value::Mapping(top)) = super::yaml::parse_value(problem_yaml) else {
        return out;
    };
    let Some(yaml_serde::Value::Mapping(c)) = top.get("constants") else {
        return out;
    };
    let text = |v: &yaml_serde::Value| match v {
        yaml_serde::Value::String(s) => Some(s.clone()),
        yaml_serde::Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    for (k, v) in c {
        let Some(k) = k.as_str() else { continue };
        match v {
            yaml_serde::Value::Mapping(m) => {
                for (sub, value) in m {
                    let (Some(sub), Some(value)) = (sub.as_str(), text(value)) else {
                        continue;
                    };
                    if sub == "value" {
                        out.insert(k.to_string(), value.clone());
                    }
                    out.insert(format!("{k}.{sub}"), value);
                }
            }
            v => {
                if let Some(value) = text(v) {
                    out.insert(k.to_string(), value);
                }
            }
        }
    }
    out
}

/// What making the data did.
#[derive(Debug)]
pub struct Made {
    pub cases: usize,
    pub includes: usize,
    /// The solution used where generators.yaml names none.
    pub default_solution: Option<String>,
    pub took: Duration,
}

/// Makes the data of `pkg` into the fresh folder `out`: the folders and their group files,
/// then every case, on `jury.slots` parallel workers.
pub fn make(pkg: &Path, g: &Generators, out: &Path, jury: &JuryConfig) -> Result<Made> {
    let start = Instant::now();
    let table = LanguageTable::load(jury.languages.as_deref())
        .map_err(|e| anyhow!("cannot load the language table: {e}"))?;
    let cache = Cache::for_this_user().map_err(|e| anyhow!(e))?;
    let problem_yaml = std::fs::read_to_string(pkg.join("problem.yaml")).unwrap_or_default();
    let runner = JuryRunner::new(jury.slots, table, cache).with_constants(constants(&problem_yaml));
    let validators = input_validators(pkg)?;
    let (answer_validators, _) =
        programs::find_input_validators(pkg, &pkg.join("answer_validators"))
            .map_err(|e| anyhow!(e))?;
    for dir in &g.plan.dirs {
        let path = out.join(&dir.path);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        if let Some((name, value)) = &dir.group_yaml {
            run::write_file(&path.join(name), model::yaml_text(value).as_bytes())?;
        }
    }
    let r = run::Runner::new(
        pkg,
        &g.config,
        &runner,
        &validators,
        &answer_validators,
        &g.plan,
        &g.model.programs,
    )?;
    r.make_all(&g.plan, out, jury.slots)?;
    Ok(Made {
        cases: g.plan.cases.len(),
        includes: g.plan.includes.len(),
        default_solution: r.default_solution().map(str::to_string),
        took: start.elapsed(),
    })
}

fn input_validators(pkg: &Path) -> Result<Vec<Program>> {
    let mut found = Vec::new();
    for folder in ["input_validators", "input_format_validators"] {
        let (programs, _) =
            programs::find_input_validators(pkg, &pkg.join(folder)).map_err(|e| anyhow!(e))?;
        found.extend(programs);
    }
    Ok(found)
}

/// Where a Kattis package's test data comes from, for `verify` and `grade`.
#[derive(Debug)]
pub struct DataSource {
    /// The folder whose `data/` holds the data: the package, or the cache entry.
    pub root: PathBuf,
    /// The data folder: `root/data`.
    pub dir: PathBuf,
    /// Faults of generators.yaml (unknown keys).
    pub warnings: Vec<String>,
    /// What is said but is no fault: what judge does not do, committed data that differs.
    pub notes: Vec<String>,
    /// Made data's hold on its cache entry: keep it as long as the tests are read, so that
    /// another judge does not remove the entry meanwhile.
    pub lock: Option<write::EntryLock>,
}

/// The data folder of the package in `pkg`: its `data/`, or, when it has
/// `generators/generators.yaml`, the data made from it, kept in the compile cache under a key
/// of everything it depends on (generators/, problem.yaml, the input and answer validators, the
/// solutions, the language table): made once, then reused; the package folder is never
/// written. When the data cannot be made, a committed `data/` is used with a note; without
/// one, the error is one line.
pub fn data_source(pkg: &Path, jury: &JuryConfig) -> Result<DataSource, String> {
    if !has_generators(pkg) {
        return Ok(DataSource {
            root: pkg.to_path_buf(),
            dir: pkg.join("data"),
            warnings: Vec::new(),
            notes: Vec::new(),
            lock: None,
        });
    }
    match cached(pkg, jury) {
        Ok(source) => Ok(source),
        Err(e) if crate::interrupt::in_chain(&e).is_some() => Err(format!("{e:#}")),
        // Committed data to fall back on: used, and said.
        Err(e) if pkg.join("data/secret").is_dir() => Ok(DataSource {
            root: pkg.to_path_buf(),
            dir: pkg.join("data"),
            warnings: Vec::new(),
            notes: vec![format!(
                "the test data cannot be made from {FILE} ({}); the tests are the committed data/",
                format!("{e:#}").replace('\n', " ")
            )],
            lock: None,
        }),
        Err(e) => Err(format!("{e:#}").replace('\n', " ")),
    }
}

fn cached(pkg: &Path, jury: &JuryConfig) -> Result<DataSource> {
    let g = Generators::read(pkg)?;
    let mut solutions: Vec<String> = g
        .plan
        .cases
        .iter()
        .filter_map(|c| c.solution.clone())
        .collect();
    solutions.push("submissions/accepted".into());
    let languages = match &jury.languages {
        Some(p) => std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?,
        None => Vec::new(),
    };
    let key = write::key(
        pkg,
        &[
            "generators",
            "input_validators",
            "input_format_validators",
            "answer_validators",
        ],
        &[&["problem.yaml".to_string()][..], &solutions].concat(),
        &[&languages],
    )?;
    let cache = Cache::for_this_user().map_err(|e| anyhow!(e))?;
    let name = pkg
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "package".into());
    let entry = write::cache_entry(cache.dir(), &name, &key);
    let mut notes = g.unsupported(pkg);
    let mut made = None;
    let mut makes = 0;
    let lock = loop {
        if let Some(lock) = write::use_entry(&entry)? {
            break lock;
        }
        // Between its rename and its lock a new entry can be taken for an old version's by
        // another judge making one: made again, but not forever.
        if makes == 3 {
            bail!(
                "the test data made in {} was removed by another judge, three times",
                entry.display()
            );
        }
        makes += 1;
        // Made beside the entry, then renamed into place unless another judge was quicker
        // (its data is the same): a reader never sees a half-made entry.
        let scratch = write::scratch_for(&entry)?;
        let out = scratch.path().join("data");
        programs::open_dir(&out)?;
        let m = make(pkg, &g, &out, jury)
            .with_context(|| format!("making the test data from {}", pkg.join(FILE).display()))?;
        match crate::fsutil::rename_no_replace(scratch.path(), &entry) {
            Ok(()) => scratch.keep(),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot move the data to {}", entry.display()))
            }
        }
        made = Some(m);
    };
    if let Some(m) = made {
        write::prune(cache.dir(), &name, &entry);
        eprintln!(
            "note: made the test data of {} from {FILE}: {} in {:.1} s (cached in {})",
            pkg.display(),
            crate::text::count(m.cases, "test case"),
            m.took.as_secs_f64(),
            entry.display()
        );
    }
    let committed = pkg.join("data");
    if committed.is_dir() {
        let diff = check::diff(&entry.join("data"), &committed, false)?;
        if !diff.differ.is_empty() || !diff.unmentioned.is_empty() {
            notes.push(format!(
                "{}: the committed data differs from what {FILE} makes ({}); the tests are the made ones (`judge gen` rewrites data/, `judge gen --check` lists every difference)",
                committed.display(),
                diff.summary(false)
            ));
        }
    }
    Ok(DataSource {
        dir: entry.join("data"),
        root: entry,
        warnings: g.warnings,
        notes,
        lock: Some(lock),
    })
}
