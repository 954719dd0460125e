//! The test set of a package: hand-made files first (`data/sample`, then `data/secret`), then
//! the generated groups of `problem.toml`, in declaration order.

use std::fs;
use std::path::{Path, PathBuf};

use crate::fsutil::beneath;
use crate::package::{derive_seed, GroupDecl, Package};
use crate::problems::Problem;

/// A test and where it came from: types of the problem interface (`problems`), which the
/// checker and every later stage share.
pub use crate::problems::{Origin, TestCase};

pub mod cache;

/// Why a test set could not be built.
#[derive(Debug, thiserror::Error)]
pub enum TestSetError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not UTF-8 text")]
    NotText { path: PathBuf },
    #[error("{path}: no matching .ans file")]
    MissingAnswer { path: PathBuf },
    /// An input of a `--tests` folder breaks the problem's format (`file:line:column: ...`).
    #[error("{located} (an invalid input: nothing was run)")]
    Invalid { located: String },
    #[error("test group `{group}`: {message}")]
    Generator { group: String, message: String },
    #[error("{dir} holds no .in files")]
    Empty { dir: PathBuf },
    #[error("{what}: {source}")]
    Jury {
        what: String,
        source: crate::problems::JuryError,
    },
}

/// A test file's bytes: a regular file (never a FIFO or a device, which would block judge or
/// never end), at most [`beneath::DATA_CAP`]. A package's links were checked when its data
/// was loaded ([`crate::kattis::data`]).
fn read_bytes(path: &Path) -> Result<Vec<u8>, TestSetError> {
    beneath::read_regular(path, beneath::DATA_CAP).map_err(|e| TestSetError::Read {
        path: path.to_path_buf(),
        source: e.into(),
    })
}

fn into_text(bytes: Vec<u8>, path: &Path) -> Result<String, TestSetError> {
    String::from_utf8(bytes).map_err(|_| TestSetError::NotText {
        path: path.to_path_buf(),
    })
}

fn read_text(path: &Path) -> Result<String, TestSetError> {
    into_text(read_bytes(path)?, path)
}

/// The `.in` files of `dir`, sorted by name (numeric stems in numeric order); empty if `dir`
/// does not exist.
pub fn input_files(dir: &Path) -> Result<Vec<PathBuf>, TestSetError> {
    let mut files = files_with_extension(dir, "in")?;
    files.sort_by_key(|p| {
        let stem = stem(p);
        (stem.parse::<u64>().unwrap_or(u64::MAX), stem)
    });
    Ok(files)
}

/// The `.ans` files of `dir` without a `.in` beside them (no test reads them), sorted.
pub fn orphan_answers(dir: &Path) -> Result<Vec<PathBuf>, TestSetError> {
    let mut orphans = files_with_extension(dir, "ans")?;
    orphans.retain(|p| !p.with_extension("in").is_file());
    orphans.sort();
    Ok(orphans)
}

/// The files of `dir` named `*.<extension>`, unsorted; empty if `dir` does not exist.
fn files_with_extension(dir: &Path, extension: &str) -> Result<Vec<PathBuf>, TestSetError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(TestSetError::Read {
                path: dir.to_path_buf(),
                source,
            })
        }
    };
    Ok(entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == extension) && p.is_file())
        .collect())
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Hand-made tests of a folder: `.in` with a required `.ans` beside it. With `external` (a
/// user's `--tests` folder, not package data that `verify` checks), every input must pass
/// the validator and a missing `.ans` is the solver's answer.
fn hand_made(
    dir: &Path,
    prefix: &str,
    logic: &dyn Problem,
    external: bool,
    origin: fn(PathBuf) -> Origin,
) -> Result<Vec<TestCase>, TestSetError> {
    let answers_optional = external;
    let mut out = Vec::new();
    for path in input_files(dir)? {
        let bytes = read_bytes(&path)?;
        if external {
            let verdict = logic
                .validate(&bytes)
                .map_err(|source| TestSetError::Jury {
                    what: format!("validating {}", path.display()),
                    source,
                })?;
            if let Err(v) = verdict {
                return Err(TestSetError::Invalid {
                    located: v.at(&path.display().to_string()),
                });
            }
        }
        let input = into_text(bytes, &path)?;
        let ans_path = path.with_extension("ans");
        let answer = if ans_path.is_file() {
            read_text(&ans_path)?
        } else if answers_optional {
            logic.solve(&input).map_err(|source| TestSetError::Jury {
                what: format!("the reference answer for {}", path.display()),
                source,
            })?
        } else {
            return Err(TestSetError::MissingAnswer { path });
        };
        let name = if prefix.is_empty() {
            stem(&path)
        } else {
            format!("{prefix}-{}", stem(&path))
        };
        out.push(TestCase {
            name,
            origin: origin(path),
            input,
            answer,
        });
    }
    Ok(out)
}

/// The tests a package gives as files (`data/sample`, then `data/secret` with its groups, in
/// lexicographic order), named by their path under `data/` (`secret/group1/03`).
fn data_tests(
    cases: &[crate::kattis::data::Case],
    samples_only: bool,
) -> Result<Vec<TestCase>, TestSetError> {
    let mut out = Vec::new();
    for case in cases {
        let sample = case.name.starts_with("sample/");
        if samples_only && !sample {
            continue;
        }
        let Some(answer) = &case.answer else { continue };
        out.push(TestCase {
            name: case.name.clone(),
            origin: if sample {
                Origin::Sample(case.input.clone())
            } else {
                Origin::Secret(case.input.clone())
            },
            input: read_text(&case.input)?,
            answer: read_text(answer)?,
        });
    }
    Ok(out)
}

/// The samples of a package (`data/sample`), in order.
pub fn samples(pkg: &Package) -> Result<Vec<TestCase>, TestSetError> {
    if let Some(cases) = pkg.data_tests() {
        return data_tests(cases, true);
    }
    hand_made(
        &pkg.dir.join("data/sample"),
        "sample",
        pkg.logic.as_ref(),
        false,
        Origin::Sample,
    )
}

/// The generated tests of a package, in declaration order; answers from the reference solver.
pub fn generated(pkg: &Package) -> Result<Vec<TestCase>, TestSetError> {
    plan(pkg).into_iter().map(|t| make(pkg, t)).collect()
}

/// A generated test before its generator and the reference solver ran: its name, group
/// and seed (derived from the declaration, so planning costs nothing).
struct Planned<'a> {
    name: String,
    group: &'a GroupDecl,
    index: u32,
    seed: u64,
}

impl Planned<'_> {
    fn origin(&self) -> Origin {
        Origin::Generated {
            group: self.group.name.clone(),
            generator: self.group.generator.clone(),
            params: self.group.params.clone(),
            seed: self.seed,
            index: self.index,
        }
    }
}

/// The generated tests of `pkg`, in declaration order, not yet made.
fn plan(pkg: &Package) -> Vec<Planned<'_>> {
    let mut out = Vec::new();
    for group in &pkg.groups {
        for index in 1..=group.count {
            out.push(Planned {
                name: format!("{}-{index:02}", group.name),
                group,
                index,
                seed: derive_seed(
                    &pkg.name,
                    &group.name,
                    &group.generator,
                    &group.params,
                    index,
                ),
            });
        }
    }
    out
}

/// Runs the generator and the reference solver of a planned test.
fn make(pkg: &Package, planned: Planned) -> Result<TestCase, TestSetError> {
    let group = planned.group;
    let input = pkg
        .logic
        .generate(&group.generator, &group.params, planned.seed)
        .map_err(|e| TestSetError::Generator {
            group: group.name.clone(),
            message: e.to_string(),
        })?;
    let answer = pkg
        .logic
        .solve(&input)
        .map_err(|source| TestSetError::Jury {
            what: format!("test group `{}`: the reference answer", group.name),
            source,
        })?;
    Ok(TestCase {
        origin: planned.origin(),
        name: planned.name,
        input,
        answer,
    })
}

/// The full test set of a package in test-plan order.
pub fn full(pkg: &Package) -> Result<Vec<TestCase>, TestSetError> {
    if let Some(cases) = pkg.data_tests() {
        return data_tests(cases, false);
    }
    let mut tests = hand_made_sets(pkg)?;
    tests.extend(generated(pkg)?);
    Ok(tests)
}

/// The hand-made tests of a built-in package: `data/sample`, then `data/secret`.
fn hand_made_sets(pkg: &Package) -> Result<Vec<TestCase>, TestSetError> {
    let mut tests = samples(pkg)?;
    tests.extend(hand_made(
        &pkg.dir.join("data/secret"),
        "secret",
        pkg.logic.as_ref(),
        false,
        Origin::Secret,
    )?);
    Ok(tests)
}

/// The `.in`/`.ans` pairs of a folder given with `--tests`: every input validated first (an
/// invalid one is [`TestSetError::Invalid`]), a missing `.ans` computed by the reference
/// solver.
pub fn from_dir(dir: &Path, logic: &dyn Problem) -> Result<Vec<TestCase>, TestSetError> {
    if !dir.is_dir() {
        return Err(TestSetError::Read {
            path: dir.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such folder"),
        });
    }
    let tests = hand_made(dir, "", logic, true, Origin::External)?;
    if tests.is_empty() {
        return Err(TestSetError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    Ok(tests)
}
