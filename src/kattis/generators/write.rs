//! Where made data goes: `judge gen` swaps it into the package's `data/` in one step (a
//! temporary folder beside it, then an atomic exchange: an interrupted or failing run leaves
//! the old `data/` as it was), and writes nothing when nothing changed; `verify` and `grade`
//! take it from a content-addressed folder of the cache and never write into the package.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::check::{self, Diff};
use crate::compile::cache::KeyHasher;
use crate::fsutil::{replace_dir, LockMode, TempFolder};

/// What writing `data/` did.
#[derive(Debug)]
pub enum Written {
    /// `data/` already held exactly this.
    Unchanged,
    /// `data/` was replaced; what differed from the old one.
    Replaced(Diff),
}

/// A fresh folder beside the package's `data/` to make the data in: on the same file system
/// (so it moves into place by renames), and named so that a run killed meanwhile leaves
/// one that the next [`replace_dir`] of `data/` removes.
pub fn scratch_beside(pkg: &Path) -> Result<TempFolder> {
    TempFolder::create(pkg, ".data.judge-tmp-", 0o755)
}

/// Puts the data made in `made` in place of `pkg/data`, unless it holds the same. Files of the
/// old `data/` that no rule makes stop it (they would be lost), but for pictures beside
/// made cases (made by a visualizer, which judge does not run), which are kept.
pub fn into_package(pkg: &Path, made: &Path) -> Result<Written> {
    let data = pkg.join("data");
    // A YAML file with the same values keeps its bytes (its author's quotes and comments,
    // which BAPCtools keeps too): a run never rewrites a file for its style alone.
    let diff = check::diff(made, &data, false)?;
    for f in check::diff(made, &data, true)?.differ {
        if f.ends_with(".yaml") && !diff.differ.contains(&f) {
            std::fs::copy(data.join(&f), made.join(&f))
                .with_context(|| format!("cannot copy {}", data.join(&f).display()))?;
        }
    }
    if diff.is_empty() {
        return Ok(Written::Unchanged);
    }
    if !diff.unmentioned.is_empty() {
        let shown: Vec<&str> = diff
            .unmentioned
            .iter()
            .take(5)
            .map(String::as_str)
            .collect();
        bail!(
            "{} holds {} that no rule of generators/generators.yaml makes ({}{}): they would be lost; \
             add them to generators.yaml (`copy:`) or delete them, then run judge gen again",
            data.display(),
            crate::text::count(diff.unmentioned.len(), "file"),
            shown.join(", "),
            if diff.unmentioned.len() > 5 { ", ..." } else { "" }
        );
    }
    replace_dir(&data, |tmp| {
        for entry in std::fs::read_dir(made)? {
            let entry = entry?;
            let to = tmp.join(entry.file_name());
            std::fs::rename(entry.path(), &to)
                .with_context(|| format!("cannot move {} into place", entry.path().display()))?;
        }
        for picture in &diff.kept {
            let to = tmp.join(picture);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::copy(data.join(picture), &to)
                .with_context(|| format!("cannot keep {}", data.join(picture).display()))?;
        }
        Ok(())
    })?;
    Ok(Written::Replaced(diff))
}

/// The files a cache key covers: everything under these folders of the package, and these
/// files, by path relative to the package.
pub fn key(pkg: &Path, folders: &[&str], files: &[String], extra: &[&[u8]]) -> Result<String> {
    let mut h = KeyHasher::new();
    h.field("judge-generated-data/2")
        .field(env!("CARGO_PKG_VERSION"));
    for x in extra {
        h.field(x);
    }
    let mut all: Vec<String> = files.to_vec();
    for folder in folders {
        let dir = pkg.join(folder);
        if dir.is_dir() {
            all.extend(
                check::files(&dir)?
                    .into_iter()
                    .map(|f| format!("{folder}/{f}")),
            );
        }
    }
    all.sort();
    all.dedup();
    for rel in &all {
        // Read under the package's rule: a link leading out of it, a FIFO or a device is an
        // error, never read.
        let path = pkg.join(rel);
        if path.is_file() {
            h.field(rel)
                .field(&check::read_data_file(pkg, rel, "the package")?);
        } else if path.is_dir() {
            for f in check::files(&path)? {
                let rel = format!("{rel}/{f}");
                h.field(&rel)
                    .field(&check::read_data_file(pkg, &rel, "the package")?);
            }
        }
    }
    Ok(h.finish())
}

/// A fresh folder beside the cache entry `entry` to make its data in; one left by a killed
/// judge is removed first.
pub fn scratch_for(entry: &Path) -> Result<TempFolder> {
    let parent = entry.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let name = entry.file_name().unwrap_or_default().to_string_lossy();
    TempFolder::create(parent, &format!(".{name}.judge-tmp-"), 0o755)
}

/// The cache folder for data of `name` with `key`; entries of the same package with other
/// keys are removed once a new one is complete.
pub fn cache_entry(cache: &Path, name: &str, key: &str) -> PathBuf {
    cache.join("generated-data").join(format!("{name}-{key}"))
}

/// A shared lock on a cache entry: while one lives, no judge removes the entry ([`prune`]).
#[derive(Debug)]
pub struct EntryLock {
    _file: std::fs::File,
}

/// Takes `entry`'s shared lock, waiting while a judge holds it to remove it; `None` when there
/// is no such entry, or when it was removed while this judge waited.
pub fn use_entry(entry: &Path) -> Result<Option<EntryLock>> {
    use std::os::unix::fs::MetadataExt;
    loop {
        let file = match crate::fsutil::open_dir(entry) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot open {}", entry.display())),
        };
        // Without locks on this file system entries are never removed ([`prune`]), so the
        // entry stays usable anyway.
        if crate::fsutil::flock(&file, LockMode::Shared, true).is_ok() {
            let locked = file
                .metadata()
                .with_context(|| format!("cannot read {}", entry.display()))?;
            match std::fs::metadata(entry) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot read {}", entry.display()))
                }
                // Removed meanwhile, and another judge made it again: that one.
                Ok(now) if (now.dev(), now.ino()) != (locked.dev(), locked.ino()) => continue,
                Ok(_) => {}
            }
        }
        return Ok(Some(EntryLock { _file: file }));
    }
}

/// Removes `name`'s entries other than `keep` that no judge is using (best effort). Each is
/// first renamed aside under its exclusive lock, so that a judge killed while removing it
/// leaves no entry with files missing.
pub fn prune(cache: &Path, name: &str, keep: &Path) {
    let dir = cache.join("generated-data");
    let aside = format!(".{name}.judge-pruned-");
    crate::fsutil::remove_stale_temp_dirs(&dir, &aside);
    let Ok(read) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in read.flatten() {
        let path = entry.path();
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(key) = file
            .strip_prefix(&format!("{name}-"))
            .filter(|k| crate::compile::cache::is_key(k))
        else {
            continue;
        };
        if path == keep {
            continue;
        }
        // In use (or no locks here): left alone.
        let Ok(Some(_removing)) = crate::fsutil::lock_dir(&path, false) else {
            continue;
        };
        let to = dir.join(format!("{aside}{}-{key}", std::process::id()));
        if std::fs::rename(&path, &to).is_ok() {
            let _ = std::fs::remove_dir_all(&to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(cache: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(cache.join("generated-data"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_entry_in_use_is_not_pruned_and_one_pruned_is_not_used() {
        let cache = tempfile::tempdir().unwrap();
        let key = |c: char| c.to_string().repeat(32);
        let (a, b, c) = (
            cache_entry(cache.path(), "p", &key('a')),
            cache_entry(cache.path(), "p", &key('b')),
            cache_entry(cache.path(), "p", &key('c')),
        );
        let other = cache_entry(cache.path(), "q", &key('a'));
        for dir in [&a, &b, &c, &other] {
            std::fs::create_dir_all(dir.join("data")).unwrap();
        }
        assert!(use_entry(&cache_entry(cache.path(), "p", &key('d')))
            .unwrap()
            .is_none());
        // `a` is being read; making `c` removes `b` only (and not `q`'s entry).
        let reading = use_entry(&a).unwrap().expect("a is there");
        prune(cache.path(), "p", &c);
        let p_a = format!("p-{}", key('a'));
        let p_c = format!("p-{}", key('c'));
        let q_a = format!("q-{}", key('a'));
        assert_eq!(entries(cache.path()), [p_a.as_str(), &p_c, &q_a]);
        // Once nobody reads it, it goes too, with nothing left beside.
        drop(reading);
        prune(cache.path(), "p", &c);
        assert_eq!(entries(cache.path()), [p_c.as_str(), &q_a]);
        assert!(use_entry(&a).unwrap().is_none());
        // A reader that waits while a judge removes `entry` (renames it aside to `aside`, and
        // with `remade` makes it again), then reads it.
        let wait_behind_removal = |entry: &Path, aside: &str, remade: bool| {
            let pruner = crate::fsutil::open_dir(entry).unwrap();
            assert!(crate::fsutil::flock(&pruner, LockMode::Exclusive, false).unwrap());
            let waiting = {
                let entry = entry.to_path_buf();
                std::thread::spawn(move || use_entry(&entry).unwrap())
            };
            std::thread::sleep(std::time::Duration::from_millis(100));
            std::fs::rename(entry, cache.path().join("generated-data").join(aside)).unwrap();
            if remade {
                std::fs::create_dir(entry).unwrap();
            }
            drop(pruner);
            waiting.join().unwrap()
        };
        assert!(
            wait_behind_removal(&c, ".aside-c", false).is_none(),
            "a removed entry was used"
        );
        // Another judge has made the entry again meanwhile: that one is used.
        std::fs::create_dir(&b).unwrap();
        let lock = wait_behind_removal(&b, ".aside-b", true).expect("the new entry");
        use std::os::unix::fs::MetadataExt;
        assert_eq!(
            lock._file.metadata().unwrap().ino(),
            std::fs::metadata(&b).unwrap().ino(),
            "the removed entry was used"
        );
    }
}
