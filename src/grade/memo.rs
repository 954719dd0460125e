//! Remembered runs: the results of `verify`'s runs kept between verifies, so that a jury's
//! daily loop (change a test or a submission, verify again) runs again only what changed.
//!
//! A run's result is a function of what ran (the compiled program: its compile-cache entry is
//! named by the content of the source, the compiler and its flags), what it ran on (the test's
//! name, input and answer), how it was judged (the package's jury side: every file of the
//! package but its tests' `.in`/`.ans` and the jury submissions) and where (this judge
//! executable, the sandbox's mechanisms, the user), and its limits. All of it goes into the
//! key; a change to any of it runs the test again.
//!
//! Only results that do not depend on the moment are kept: a run well under the limit (below
//! the plan's re-run threshold: accepted, or a wrong answer, crash or output limit, which the
//! same program gives again), and a TLE (a final one: under load it was confirmed alone
//! first). A run near the limit and a judge error are always run again. An accepted run keeps
//! what the output validator said of its score (a scoring problem's score is made from it). (Failures were once
//! run again as cheap, a plan stopping at its first one; but a 2023-07 `wrong_answer`
//! submission must be run on every test.) A timing (the median of repeated
//! runs alone) is kept with its samples. Programs started from a file outside the compile
//! cache (not named by content) are never remembered. A randomised submission's runs are
//! samples (it seeds itself): each is kept as a run of its own, its index and test order in
//! the key, so that an unchanged package shows the same samples again. A failure keeps the
//! start of its output when it is text (the HTML report draws it).
//!
//! Layout: `<cache>/runs/<plan key>.json`, one file per program, limits and jury side, mapping
//! test keys to results; written whole to a temporary file and renamed, so an interrupted or
//! concurrent judge never leaves half of one (two judges writing one file: the last one wins,
//! which costs only time). Nothing here is ever an error: a memo that cannot be read or written
//! only costs time.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{OutputHead, Program, TestResult};
use crate::compile::cache::KeyHasher;
use crate::problems::TestCase;
use crate::sandbox::Limits;
use crate::verdict::Verdict;

/// Bump when the file format or the key derivation changes.
const LAYOUT: &str = "judge-runs-v1";

/// The remembered runs of this judge (one per `verify` command).
#[derive(Debug)]
pub struct RunMemo {
    dir: PathBuf,
    /// The compile cache's folder: programs in it are named by content.
    programs: PathBuf,
    /// False with `--fresh`: every test runs again (and what it gives is remembered).
    recall: bool,
    /// This judge executable, the sandbox and the user.
    host: String,
    /// Per package folder: the key of its jury side.
    packages: Mutex<HashMap<PathBuf, Option<String>>>,
    /// Per plan key: the file, read once.
    files: Mutex<HashMap<String, MemoFile>>,
    recalled: AtomicUsize,
    made: AtomicUsize,
}

/// One file: the remembered results and timings of one plan.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemoFile {
    key: String,
    results: BTreeMap<String, TestResult>,
    /// Timings (`<test key>x<runs>`), in the form their owner gives them.
    timings: BTreeMap<String, serde_json::Value>,
    /// The start of a failed run's output (as [`TestResult::output`] keeps it) and the whole
    /// output's length, by test key, for the HTML report's picture; text outputs only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    outputs: BTreeMap<String, (String, usize)>,
}

/// What a plan needs to recall and remember its runs: the memo, its key, and the keys of its
/// tests (in plan order; [`RunMemo::test_keys`], made once per test set).
#[derive(Debug, Clone, Copy)]
pub struct PlanMemo<'m> {
    memo: &'m RunMemo,
    key: &'m str,
    tests: &'m [String],
}

impl RunMemo {
    /// The memo in `cache_dir/runs`; `None` when judge cannot tell which executable it is.
    /// `host` names the sandbox's mechanisms (its warning line, if any).
    pub fn new(cache_dir: &Path, recall: bool, host: &str) -> Option<RunMemo> {
        // SAFETY: getuid has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        let mut h = KeyHasher::new();
        h.field(LAYOUT)
            .this_executable()?
            .field(uid.to_le_bytes())
            .field(host);
        Some(RunMemo {
            dir: cache_dir.join("runs"),
            programs: cache_dir.to_path_buf(),
            recall,
            host: h.finish(),
            packages: Mutex::new(HashMap::new()),
            files: Mutex::new(HashMap::new()),
            recalled: AtomicUsize::new(0),
            made: AtomicUsize::new(0),
        })
    }

    /// Runs taken from the memo, and runs made, so far.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.recalled.load(Ordering::Relaxed),
            self.made.load(Ordering::Relaxed),
        )
    }

    /// The key of the runs of `program` under `limits` in package `dir` (`extra`: how the
    /// plan reads its results), or `None` when they are not remembered.
    pub fn plan_key(
        &self,
        dir: &Path,
        program: &Program,
        limits: &Limits,
        extra: &str,
    ) -> Option<String> {
        // A program started from the package's own files (not a compile-cache entry, which
        // is named by content) could change under the same key.
        let dir = std::path::absolute(dir).ok()?;
        let in_package = program
            .argv
            .iter()
            .chain(program.env.iter().map(|(_, v)| v))
            .map(Path::new)
            .chain(program.read_only.iter().map(PathBuf::as_path))
            .filter(|p| p.is_absolute())
            .any(|p| p.starts_with(&dir) && !p.starts_with(&self.programs));
        if in_package {
            return None;
        }
        let package = self.package_key(&dir)?;
        let mut h = KeyHasher::new();
        h.field(&self.host)
            .field(package)
            .field(format!("{program:?}"))
            .field(format!("{limits:?}"))
            .field(extra);
        Some(h.finish())
    }

    /// The keys of `tests` (name, input and answer), in order: made once per test set, for
    /// every plan that runs on it.
    pub fn test_keys(&self, tests: &[TestCase]) -> Vec<String> {
        tests.iter().map(test_key).collect()
    }

    /// The plan's handle on the memo (`key` from [`RunMemo::plan_key`], `tests` from
    /// [`RunMemo::test_keys`] of the plan's tests).
    pub fn plan<'m>(&'m self, key: &'m str, tests: &'m [String]) -> PlanMemo<'m> {
        PlanMemo {
            memo: self,
            key,
            tests,
        }
    }

    fn package_key(&self, dir: &Path) -> Option<String> {
        let mut known = self.packages.lock().unwrap_or_else(|e| e.into_inner());
        known
            .entry(dir.to_path_buf())
            .or_insert_with(|| jury_side_key(dir))
            .clone()
    }

    fn with_file<T>(&self, key: &str, f: impl FnOnce(&mut MemoFile) -> T) -> T {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(file) = files.get_mut(key) {
            return f(file);
        }
        let file = files.entry(key.to_string()).or_insert_with(|| {
            let path = self.dir.join(format!("{key}.json"));
            fs::read(path)
                .ok()
                .and_then(|b| serde_json::from_slice::<MemoFile>(&b).ok())
                .filter(|m| m.key == key && self.recall)
                .unwrap_or_else(|| MemoFile {
                    key: key.to_string(),
                    ..MemoFile::default()
                })
        });
        f(file)
    }

    fn store(&self, key: &str) {
        let Some(file) = self.with_file(key, |f| serde_json::to_vec(f).ok()) else {
            return;
        };
        if fs::create_dir_all(&self.dir).is_ok() {
            let _ = crate::fsutil::write_atomic(&self.dir.join(format!("{key}.json")), &file);
        }
    }
}

impl PlanMemo<'_> {
    /// The remembered result of the plan's test `i`, if any.
    pub fn recall(&self, i: usize) -> Option<TestResult> {
        let t = &self.tests[i];
        let r = self.memo.with_file(self.key, |f| {
            let mut r = f.results.get(t).cloned()?;
            r.output = f.outputs.get(t).map(|(text, len)| OutputHead {
                bytes: text.clone().into_bytes(),
                len: *len,
            });
            Some(r)
        })?;
        self.memo.recalled.fetch_add(1, Ordering::Relaxed);
        Some(r)
    }

    /// Remembers the final results of the plan's tests (by index) that do not depend on the
    /// moment (see the module documentation). A test whose result is already remembered was
    /// recalled (the pool asks the memo before it runs one), so it is not a run made now.
    pub fn remember<'t>(
        &self,
        results: impl IntoIterator<Item = (usize, &'t TestResult)>,
        suspect_from: Duration,
    ) {
        let mut changed = false;
        self.memo.with_file(self.key, |f| {
            for (i, r) in results {
                let t = &self.tests[i];
                if f.results.contains_key(t) {
                    continue;
                }
                self.memo.made.fetch_add(1, Ordering::Relaxed);
                if steady(r, suspect_from) {
                    let mut r = r.clone();
                    if let Some(o) = r.output.take() {
                        if let Ok(text) = String::from_utf8(o.bytes) {
                            f.outputs.insert(t.clone(), (text, o.len));
                        }
                    }
                    r.shared = false;
                    f.results.insert(t.clone(), r);
                    changed = true;
                }
            }
        });
        if changed {
            self.memo.store(self.key);
        }
    }

    /// The remembered timing of `runs` runs alone on the plan's test `i`.
    pub fn recall_timing<T: DeserializeOwned>(&self, i: usize, runs: u32) -> Option<T> {
        let t = format!("{}x{runs}", self.tests[i]);
        let value = self
            .memo
            .with_file(self.key, |f| f.timings.get(&t).cloned())?;
        let timing = serde_json::from_value(value).ok()?;
        self.memo
            .recalled
            .fetch_add(runs as usize, Ordering::Relaxed);
        Some(timing)
    }

    /// Remembers a timing of `runs` runs alone on the plan's test `i` (`made`: the runs it
    /// took).
    pub fn remember_timing<T: Serialize>(&self, i: usize, runs: u32, made: u32, timing: &T) {
        self.memo.made.fetch_add(made as usize, Ordering::Relaxed);
        let Ok(value) = serde_json::to_value(timing) else {
            return;
        };
        let t = format!("{}x{runs}", self.tests[i]);
        self.memo
            .with_file(self.key, |f| f.timings.insert(t, value));
        self.memo.store(self.key);
    }
}

/// Whether a result does not depend on the moment, so it may be remembered: a TLE (a final
/// one: under load it was confirmed alone first), or any other verdict but a judge error under
/// the plan's re-run threshold `suspect_from` (no load makes it a TLE: an accepted run, or a
/// wrong answer, crash or output-limit run, which runs the same again).
fn steady(r: &TestResult, suspect_from: Duration) -> bool {
    match r.verdict {
        Verdict::TLE => true,
        Verdict::JE => false,
        _ => Duration::from_millis(r.time_ms) < suspect_from,
    }
}

/// A test's key: its name, input and answer.
fn test_key(test: &TestCase) -> String {
    let mut h = KeyHasher::new();
    h.field(&test.name)
        .field(wide_hash(test.input.as_bytes()))
        .field(wide_hash(test.answer.as_bytes()));
    h.finish()
}

/// The BLAKE3 hash of a possibly large text, to key it by a fixed-size field.
fn wide_hash(bytes: &[u8]) -> [u8; 32] {
    *blake3::hash(bytes).as_bytes()
}

/// The key of a package's jury side: every file under `dir` (path and content) but the jury
/// submissions, version control, and the tests' `.in` / `.ans` files (keyed per test).
/// `None` when the folder cannot be read whole.
fn jury_side_key(dir: &Path) -> Option<String> {
    let mut files = Vec::new();
    walk(dir, Path::new(""), &mut files).ok()?;
    files.sort();
    let mut h = KeyHasher::new();
    for rel in files {
        let bytes = fs::read(dir.join(&rel)).ok()?;
        h.field(rel.to_string_lossy().as_bytes())
            .field(wide_hash(&bytes));
    }
    Some(h.finish())
}

fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(root.join(rel))? {
        let entry = entry?;
        let name = entry.file_name();
        let path = rel.join(&name);
        let top = rel.as_os_str().is_empty();
        if top && (name == "submissions" || name == ".git") {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &path, out)?;
        } else if kind.is_file() {
            let test_file = path.starts_with("data")
                && matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("in" | "ans")
                );
            if !test_file {
                out.push(path);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(verdict: Verdict, time_ms: u64) -> TestResult {
        TestResult::sample("t", verdict, time_ms)
    }

    #[test]
    fn runs_well_under_the_limit_and_tles_are_remembered_judge_errors_never() {
        let from = Duration::from_millis(800);
        for v in [Verdict::AC, Verdict::WA, Verdict::RE, Verdict::OLE] {
            assert!(steady(&result(v, 100), from), "{v:?} well under the limit");
            assert!(!steady(&result(v, 900), from), "{v:?} near the limit");
        }
        assert!(steady(&result(Verdict::TLE, 1000), from));
        assert!(!steady(&result(Verdict::JE, 1), from));
    }
}
