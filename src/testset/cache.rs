//! Generated test sets kept between runs of `judge grade`.
//!
//! A built-in package's generated tests are the same for the same judge executable and the
//! same declarations (the seeds derive from them), but making them runs every generator and
//! the reference solver: 0.45 s of CPU for dodecahedron's 87 tests at every `judge grade`,
//! most of the CPU time of grading a fast submission. `grade` keeps them in
//! `<cache>/tests/<package>-<key>.json`, one entry per package (a new one replaces the
//! others); `verify`, `gen` and `export` make them afresh, since they check or publish the
//! generators' work.
//!
//! The key covers the judge executable (device, inode, size and modification time: a
//! rebuilt or reinstalled judge may generate and solve differently) and every planned
//! test's name, generator, parameters and seed. An entry that cannot be read, or whose key
//! or test count does not match, is made again; one that cannot be written costs only time.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{make, plan, Planned, TestCase, TestSetError};
use crate::compile::cache::KeyHasher;
use crate::package::Package;

/// Bump when the entry format or the key changes.
const LAYOUT: &str = "judge-tests-v1";

/// One entry: the key it was made for and each generated test's input and answer, in plan
/// order.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    key: String,
    tests: Vec<Made>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Made {
    input: String,
    answer: String,
}

/// [`super::full`], with the generated tests taken from `cache_dir` when they are there.
pub fn full(pkg: &Package, cache_dir: &Path) -> Result<Vec<TestCase>, TestSetError> {
    if pkg.data_tests().is_some() {
        return super::full(pkg);
    }
    let mut tests = super::hand_made_sets(pkg)?;
    tests.extend(generated(pkg, cache_dir)?);
    Ok(tests)
}

/// [`super::generated`], taken from `cache_dir` when an entry matches, else made and stored.
pub fn generated(pkg: &Package, cache_dir: &Path) -> Result<Vec<TestCase>, TestSetError> {
    let plan = plan(pkg);
    let make_all = |plan: Vec<Planned>| -> Result<Vec<TestCase>, TestSetError> {
        plan.into_iter().map(|t| make(pkg, t)).collect()
    };
    let Some(key) = key(&pkg.name, &plan).filter(|_| !plan.is_empty()) else {
        return make_all(plan);
    };
    let folder = cache_dir.join("tests");
    let path = folder.join(format!("{}-{key}.json", pkg.name));
    if let Some(made) = read(&path, &key, plan.len()) {
        return Ok(plan
            .into_iter()
            .zip(made)
            .map(|(t, m)| TestCase {
                origin: t.origin(),
                name: t.name,
                input: m.input,
                answer: m.answer,
            })
            .collect());
    }
    let tests = make_all(plan)?;
    store(&folder, &pkg.name, &path, key, &tests);
    Ok(tests)
}

/// The entry key, or `None` when judge cannot tell which executable it is (no caching).
fn key(package: &str, plan: &[Planned]) -> Option<String> {
    let mut h = KeyHasher::new();
    h.field(LAYOUT)
        .this_executable()?
        .field(package)
        .field((plan.len() as u64).to_le_bytes());
    for t in plan {
        h.field(&t.name)
            .field(&t.group.generator)
            .field(t.seed.to_le_bytes());
        for (name, value) in &t.group.params.0 {
            h.field(name).field(value.to_le_bytes());
        }
    }
    Some(h.finish())
}

/// The tests of the entry at `path` if it is whole and made for `key`.
fn read(path: &Path, key: &str, count: usize) -> Option<Vec<Made>> {
    let entry: Entry = serde_json::from_slice(&fs::read(path).ok()?).ok()?;
    (entry.key == key && entry.tests.len() == count).then_some(entry.tests)
}

/// Writes the entry (atomically: a reader never sees half of one), then removes the
/// package's other entries. Failures are ignored: the cache only saves time.
fn store(folder: &Path, package: &str, path: &Path, key: String, tests: &[TestCase]) {
    let entry = Entry {
        key,
        tests: tests
            .iter()
            .map(|t| Made {
                input: t.input.clone(),
                answer: t.answer.clone(),
            })
            .collect(),
    };
    let Ok(bytes) = serde_json::to_vec(&entry) else {
        return;
    };
    if fs::create_dir_all(folder).is_err() || crate::fsutil::write_atomic(path, &bytes).is_err() {
        return;
    }
    let Ok(read) = fs::read_dir(folder) else {
        return;
    };
    let ours = path.file_name();
    for other in read.filter_map(|e| e.ok()) {
        let name = other.file_name();
        let stale = name
            .to_str()
            .and_then(|n| {
                n.strip_prefix(package)?
                    .strip_prefix('-')?
                    .strip_suffix(".json")
            })
            .is_some_and(crate::compile::cache::is_key);
        if stale && Some(name.as_os_str()) != ours {
            let _ = fs::remove_file(other.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(name: &str) -> Package {
        Package::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("problems")
                .join(name),
        )
        .unwrap()
    }

    fn entries(cache: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(cache.join("tests"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn same(a: &[TestCase], b: &[TestCase]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(a, b)| {
                (&a.name, &a.origin, &a.input, &a.answer)
                    == (&b.name, &b.origin, &b.input, &b.answer)
            })
    }

    #[test]
    fn the_cached_test_set_is_the_one_made_afresh() {
        let cache = tempfile::tempdir().unwrap();
        let pkg = package("dodecahedron");
        let fresh = super::super::full(&pkg).unwrap();
        let first = full(&pkg, cache.path()).unwrap();
        assert_eq!(entries(cache.path()).len(), 1);
        let again = full(&pkg, cache.path()).unwrap();
        assert!(same(&fresh, &first) && same(&fresh, &again));
    }

    #[test]
    fn an_entry_is_read_not_remade() {
        let cache = tempfile::tempdir().unwrap();
        let pkg = package("dodecahedron");
        let made = generated(&pkg, cache.path()).unwrap();
        // Mark the entry's first answer: the next call returns what the entry holds.
        let path = cache.path().join("tests").join(&entries(cache.path())[0]);
        let mut entry: Entry = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        entry.tests[0].answer = "from the cache\n".into();
        fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
        let read = generated(&pkg, cache.path()).unwrap();
        assert_eq!(read[0].answer, "from the cache\n");
        assert!(same(&read[1..], &made[1..]));
    }

    #[test]
    fn a_broken_or_foreign_entry_is_made_again() {
        let cache = tempfile::tempdir().unwrap();
        let pkg = package("dodecahedron");
        let made = generated(&pkg, cache.path()).unwrap();
        let path = cache.path().join("tests").join(&entries(cache.path())[0]);
        for broken in [
            b"{\"key\": \"".to_vec(),
            serde_json::to_vec(&Entry {
                key: "another key".into(),
                tests: Vec::new(),
            })
            .unwrap(),
        ] {
            fs::write(&path, broken).unwrap();
            assert!(same(&generated(&pkg, cache.path()).unwrap(), &made));
            assert!(read(&path, &key(&pkg.name, &plan(&pkg)).unwrap(), made.len()).is_some());
        }
    }

    #[test]
    fn changed_declarations_get_their_own_entry_and_replace_the_old() {
        let cache = tempfile::tempdir().unwrap();
        let mut pkg = package("dodecahedron");
        generated(&pkg, cache.path()).unwrap();
        let before = entries(cache.path());
        pkg.groups[0].count += 1;
        let more = generated(&pkg, cache.path()).unwrap();
        assert!(same(&more, &super::super::generated(&pkg).unwrap()));
        let after = entries(cache.path());
        assert_eq!(after.len(), 1, "{after:?}");
        assert_ne!(after, before);
        // Another package's entry stays.
        generated(&package("magic-square"), cache.path()).unwrap();
        assert_eq!(entries(cache.path()).len(), 2);
    }
}
