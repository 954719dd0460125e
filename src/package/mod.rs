//! Problem packages: `problems/<name>/problem.toml` plus the files under `data/`.
//!
//! A package is parsed once at the edge into [`Package`]; everything downstream works with
//! its typed fields. The test plan (hand-made files first, then generated groups) is
//! expanded by the next stage, `testset`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use crate::problems::{self, GenParams, Problem};

mod kattis;
mod manifest;
mod parts;
pub mod statement;

pub use manifest::{GroupDecl, LanguageLimits, SubtaskDecl};
pub use parts::{Included, InvalidInputs, Statement, TimeRules};

/// Why a package could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("no problem `{name}`: neither `{}` nor a folder `{name}` with a problem.toml or problem.yaml exists (hint: `judge problems` lists them; {})", root.join(name).display(), HOW_TO_POINT)]
    NotFound { name: String, root: PathBuf },
    #[error("no problems folder: looked in {}; {}", looked_in(.dirs), HOW_TO_POINT)]
    NoProblemsDir { dirs: Vec<PathBuf> },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    /// A broken Kattis package: the message names the file and what to do.
    #[error("{0}")]
    Broken(String),
    #[error("{path}: no problem logic named `{name}` is built into this judge (known: {known})")]
    UnknownLogic {
        path: PathBuf,
        name: String,
        known: String,
    },
}

/// Time, memory and output limits of a problem, with optional per-language overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemLimits {
    /// CPU time per test.
    pub time: Duration,
    /// Memory per test, MiB.
    pub memory_mib: u64,
    /// Standard output per test, MiB.
    pub output_mib: u64,
    /// Processes and threads a submission may have alive at once (at least; a language
    /// that needs more gets more): 1 for judge's own problems, as olympiads run them
    /// (isolate, CMS); [`crate::kattis::SUBMISSION_PROCESSES`] for Kattis / ICPC packages.
    pub processes: u32,
    /// Overrides keyed by language id (`c`, `cpp`, `rust`, `python`, `java`).
    pub languages: BTreeMap<String, LanguageLimits>,
}

impl ProblemLimits {
    /// The time and memory limits that apply to submissions in `language` (a language id).
    pub fn for_language(&self, language: &str) -> (Duration, u64) {
        let over = self.languages.get(language);
        let time = over
            .and_then(|o| o.time_limit)
            .map(Duration::from_secs_f64)
            .unwrap_or(self.time);
        let memory = over.and_then(|o| o.memory_limit).unwrap_or(self.memory_mib);
        (time, memory)
    }
}

/// A loaded problem package.
#[derive(Clone)]
pub struct Package {
    /// Package folder name, e.g. `magic-square`.
    pub name: String,
    /// The package folder.
    pub dir: PathBuf,
    pub title: String,
    pub limits: ProblemLimits,
    /// Generated test groups in declaration order.
    pub groups: Vec<GroupDecl>,
    /// The problem's logic (validator, generators, solver, checker).
    pub logic: Arc<dyn Problem>,
    /// Non-fatal findings while parsing (unknown keys): faults of the package, which `verify`
    /// fails.
    pub warnings: Vec<String>,
    /// What judge could not check of a Kattis package, where the package itself may be fine:
    /// a jury program in a form judge does not run (checktestdata, VIVA, another language),
    /// skipped. Printed as warnings; `verify` shows them as `warn` checks, failures with
    /// `--strict`. (No input validator at all is [`Package::has_input_validator`].) Also what
    /// judge reads leniently, as problemtools does: a YAML key given twice (the last value).
    pub gaps: Vec<String>,
    /// Set for a Kattis / ICPC package (`problem.yaml`): its tests, jury programs and
    /// submission rules. `logic` is the same package. Read only by this module: the later
    /// stages ask the methods of `parts.rs`.
    kattis: Option<Arc<crate::kattis::KattisPackage>>,
    /// A scoring problem's groups and how they score (`None`: pass-fail). Read through
    /// [`Package::scoring`]; a built-in package's is settled on its test set
    /// ([`Package::settle_scoring`]).
    scoring: Option<Arc<crate::verdict::score::Scoring>>,
    /// A built-in package's `[[subtasks]]`.
    subtasks: Vec<SubtaskDecl>,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// How to make `judge` look elsewhere (the end of the errors that say where it looked).
const HOW_TO_POINT: &str =
    "set $JUDGE_PROBLEMS_DIR to the folder that holds the packages, or name a package by its path";

/// `./problems (/abs/problems), /src/judge/problems`.
fn looked_in(dirs: &[PathBuf]) -> String {
    dirs.iter()
        .map(|d| match std::path::absolute(d) {
            Ok(abs) if abs != *d => format!("{} ({})", d.display(), abs.display()),
            _ => d.display().to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The folders searched, in order, for the packages named by bare name: `$JUDGE_PROBLEMS_DIR`
/// alone when it is set; else `./problems`, then the `problems/` folder of the source tree
/// this `judge` was built from (so an installed `judge` finds the shipped problems from any
/// folder while that tree exists).
pub fn problems_dirs() -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os("JUDGE_PROBLEMS_DIR") {
        return vec![PathBuf::from(dir)];
    }
    let local = PathBuf::from("problems");
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y);
    if same(&local, &built) {
        vec![local]
    } else {
        vec![local, built]
    }
}

/// The folder that holds the packages named by bare name: the first of [`problems_dirs`]
/// that exists (the first when none does).
pub fn problems_root() -> PathBuf {
    let dirs = problems_dirs();
    dirs.iter().find(|d| d.is_dir()).unwrap_or(&dirs[0]).clone()
}

impl Package {
    /// Resolves a command-line problem argument: a folder name under [`problems_root`], or a
    /// path to a package folder.
    pub fn resolve(arg: &str) -> Result<Package, PackageError> {
        Package::resolve_with(arg, &crate::kattis::JuryConfig::default())
    }

    /// [`Package::resolve`]; a Kattis package (`problem.yaml`) runs its jury programs with
    /// `jury` (parallel slots, language table).
    pub fn resolve_with(
        arg: &str,
        jury: &crate::kattis::JuryConfig,
    ) -> Result<Package, PackageError> {
        let under_root = problems_root().join(arg);
        let plain = !arg.contains('/') && arg != "." && arg != "..";
        let candidates = if plain {
            vec![under_root, PathBuf::from(arg)]
        } else {
            vec![PathBuf::from(arg)]
        };
        for dir in &candidates {
            if dir.join("problem.toml").is_file() {
                return Package::load(dir);
            }
            if let Some((pkg, folder)) =
                crate::kattis::enclosing_package(dir).filter(|_| dir.join("problem.yaml").is_file())
            {
                return Err(PackageError::Broken(format!(
                    "{}: this problem.yaml is a tool's, not a problem's: the folder is in {folder}/ of the package {}",
                    dir.display(),
                    pkg.display()
                )));
            }
            if crate::kattis::is_package(dir) {
                return kattis::load(dir, jury);
            }
        }
        Err(PackageError::NotFound {
            name: arg.into(),
            root: problems_root(),
        })
    }

    /// Loads the package in `dir` (which must hold `problem.toml`).
    pub fn load(dir: &Path) -> Result<Package, PackageError> {
        let toml_path = dir.join("problem.toml");
        let text = fs::read_to_string(&toml_path).map_err(|source| PackageError::Read {
            path: toml_path.clone(),
            source,
        })?;
        let invalid = |message: String| PackageError::Invalid {
            path: toml_path.clone(),
            message,
        };
        let table: toml::Table = toml::from_str(&text).map_err(|e| invalid(one_line(&e)))?;
        let warnings = manifest::unknown_keys(&table)
            .into_iter()
            .map(|key| format!("{}: unknown key `{key}`", toml_path.display()))
            .collect();
        let raw = manifest::Manifest::deserialize(toml::Value::Table(table))
            .map_err(|e| invalid(one_line(&e)))?;

        let folder = dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| dir.display().to_string());
        let logic_name = raw.logic.clone().unwrap_or_else(|| folder.clone());
        let logic = problems::lookup(&logic_name).ok_or_else(|| PackageError::UnknownLogic {
            path: toml_path.clone(),
            name: logic_name.clone(),
            known: problems::all()
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        let limits = raw.limits.into_limits().map_err(invalid)?;
        manifest::check_groups(&raw.tests, logic.as_ref()).map_err(invalid)?;
        Ok(Package {
            name: folder,
            dir: dir.to_path_buf(),
            title: raw.title,
            limits,
            groups: raw.tests,
            logic,
            warnings,
            gaps: Vec::new(),
            kattis: None,
            scoring: None,
            subtasks: raw.subtasks,
        })
    }

    /// The packages under [`problems_root`], sorted by name; folders that fail to load are
    /// returned as errors in place.
    pub fn discover() -> Result<Vec<Result<Package, PackageError>>, PackageError> {
        let root = problems_root();
        if !root.is_dir() {
            return Err(PackageError::NoProblemsDir {
                dirs: problems_dirs(),
            });
        }
        let entries = fs::read_dir(&root).map_err(|source| PackageError::Read {
            path: root.clone(),
            source,
        })?;
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.join("problem.toml").is_file())
            .collect();
        dirs.sort();
        Ok(dirs.iter().map(|d| Package::load(d)).collect())
    }
}

/// Flattens a (possibly multi-line) parser message into one line.
fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|') && !l.chars().all(|c| c == '^'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A generated test's seed: a stable 64-bit FNV-1a hash of its declaration (problem, group
/// name, generator, parameters, index). Editing, adding or removing one group never changes
/// another group's tests; lowering `count` only drops the last tests.
pub fn derive_seed(
    problem: &str,
    group: &str,
    generator: &str,
    params: &GenParams,
    index: u32,
) -> u64 {
    let mut text = format!("{problem}\0{group}\0{generator}\0");
    for (k, v) in &params.0 {
        text.push_str(&format!("{k}={v}\0"));
    }
    text.push_str(&index.to_string());
    fnv1a64(text.as_bytes())
}

/// FNV-1a, 64 bit: fixed forever, so seeds never change between versions.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_pinned_and_independent() {
        let p = GenParams::default();
        // Pinned: changing this derivation would silently change every generated test.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let a = derive_seed("x", "g", "gen", &p, 1);
        let b = derive_seed("x", "g", "gen", &p, 2);
        let c = derive_seed("x", "h", "gen", &p, 1);
        assert_ne!(a, b);
        assert_ne!(a, c);
        let mut q = GenParams::default();
        q.0.insert("n".into(), 4);
        assert_ne!(a, derive_seed("x", "g", "gen", &q, 1));
        assert_eq!(a, derive_seed("x", "g", "gen", &p, 1));
    }

    #[test]
    fn per_language_limits_override() {
        let mut languages = BTreeMap::new();
        languages.insert(
            "python".to_string(),
            LanguageLimits {
                time_limit: Some(3.0),
                memory_limit: None,
            },
        );
        let limits = ProblemLimits {
            time: Duration::from_secs(1),
            memory_mib: 64,
            output_mib: 8,
            processes: 1,
            languages,
        };
        assert_eq!(limits.for_language("cpp"), (Duration::from_secs(1), 64));
        assert_eq!(limits.for_language("python"), (Duration::from_secs(3), 64));
    }
}
