//! The on-disk cache of compiled submissions.
//!
//! Layout: `<dir>/v2/<key>/` is one entry: the copied source, whatever the compiler wrote
//! (binary, class files) and `judge-entry.json` describing the outcome; or a precompiled
//! header (`<header>.gch`, see `super::pch`) and its `judge-entry.json`. An entry directory
//! only ever appears complete: it is built in `<dir>/tmp/` and renamed into place.
//! Entries are world-readable (dirs and executables 0755, other files 0644) because the
//! sandbox runs contestants under an unprivileged uid. `<dir>/seen/<key>` says that something
//! wanted entry `<key>` before (precompiled headers are built from their second use on).
//! `<dir>/locks/<key>` is the lock a judge holds while it builds entry `<key>`, so that
//! judges running at once (or the threads of one) compile a submission once and the others
//! wait for its entry.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::CompileError;
use crate::sandbox::HostAccess;

/// Bump when the entry layout or key derivation changes, so old entries are ignored.
const LAYOUT: &str = "v2";
/// The file in each entry recording the compile outcome.
pub(crate) const META_FILE: &str = "judge-entry.json";

/// A cache directory. Creating the value does no I/O; directories are created on first use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    /// Tests whose stand-in compilers log to the host: compile outside the sandbox.
    #[cfg(test)]
    pub(crate) on_host: bool,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            #[cfg(test)]
            on_host: false,
        }
    }

    /// Whether compiles into this cache run outside the sandbox (tests only).
    pub(super) fn compiles_on_host(&self) -> bool {
        #[cfg(test)]
        return self.on_host;
        #[cfg(not(test))]
        false
    }

    /// `$JUDGE_CACHE_DIR` (a relative one taken from the current folder: compiled programs
    /// are started by absolute path), else `$XDG_CACHE_HOME/judge` (if absolute), else
    /// `$HOME/.cache/judge` (if `$HOME` is an existing folder: a missing home is never
    /// created); `None` if none of them applies.
    pub fn default_dir() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(dir) = var("JUDGE_CACHE_DIR") {
            let dir = PathBuf::from(dir);
            return Some(std::path::absolute(&dir).unwrap_or(dir));
        }
        if let Some(xdg) = var("XDG_CACHE_HOME").map(PathBuf::from) {
            if xdg.is_absolute() {
                return Some(xdg.join("judge"));
            }
        }
        var("HOME")
            .map(PathBuf::from)
            .filter(|home| home.is_dir())
            .map(|home| home.join(".cache").join("judge"))
    }

    /// The cache directory as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache this user's commands use: `$JUDGE_CACHE_DIR` when set (it must be fit, see
    /// [`Cache::unfitness`]: an explicit folder that is not is an error, never silently
    /// replaced), else [`Cache::default_dir`] when it is fit, else `/var/tmp/judge-cache-<uid>`
    /// (a home folder may be missing, read-only, or closed to the sandbox's uids where runs
    /// see the host's paths). The error is one line saying what to do.
    pub fn for_this_user() -> Result<Cache, String> {
        let access = HostAccess::of_this_process();
        let explicit = std::env::var_os("JUDGE_CACHE_DIR").is_some_and(|v| !v.is_empty());
        if let Some(dir) = Cache::default_dir() {
            let cache = Cache::new(dir);
            match cache.unfitness(access) {
                None => return Ok(cache),
                Some(why) if explicit => {
                    return Err(format!("{why}; set JUDGE_CACHE_DIR to another folder"))
                }
                Some(_) => {}
            }
        }
        // SAFETY: getuid has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        let cache = Cache::new(format!("/var/tmp/judge-cache-{uid}"));
        match cache.unfitness(access) {
            None => Ok(cache),
            Some(why) => Err(format!(
                "no folder for the compile cache: {why}; set JUDGE_CACHE_DIR to a folder of your own"
            )),
        }
    }

    /// Why this folder cannot hold the cache for runs that reach it as `access` says, or
    /// `None`; creates it (private: mode 0700, or 0711 when other uids must enter it) when
    /// missing. Unfit: the sandbox's uids could not reach a cached program
    /// ([`Cache::reachability_problem`]), another local user could replace one
    /// ([`Cache::trust_problem`]), or the folder cannot be made or written.
    pub fn unfitness(&self, access: HostAccess) -> Option<String> {
        if let Some(problem) = self
            .reachability_problem(access)
            .or_else(|| self.trust_problem())
        {
            return Some(problem);
        }
        if let Err(e) = ensure_private_dir(&self.dir, access) {
            return Some(format!(
                "cache directory `{}` cannot be made: {e}",
                self.dir.display()
            ));
        }
        tempfile::tempfile_in(&self.dir).err().map(|e| {
            format!(
                "cache directory `{}` is not writable: {e}",
                self.dir.display()
            )
        })
    }

    /// Why a sandboxed program reaching host folders as `access` says could not run a cached
    /// binary: with [`HostAccess::HostPaths`], the first existing parent that others may not
    /// enter (e.g. a 0700 home). Own-uid runs reach what we reach, and bound folders need no
    /// open parents, so those are never a problem.
    pub fn reachability_problem(&self, access: HostAccess) -> Option<String> {
        if access != HostAccess::HostPaths {
            return None;
        }
        let abs = std::path::absolute(&self.dir).ok()?;
        for ancestor in abs.ancestors() {
            let Ok(meta) = fs::metadata(ancestor) else {
                continue; // created later, enterable by others
            };
            if meta.permissions().mode() & 0o001 == 0 {
                return Some(format!(
                    "cache directory `{}` is not reachable by the sandbox user: `{}` is not \
                     searchable by others (mode {:o})",
                    self.dir.display(),
                    ancestor.display(),
                    meta.permissions().mode() & 0o7777
                ));
            }
        }
        None
    }

    /// Why another local user could replace what this cache holds (and so the program a
    /// grade runs), or `None`: the folder and each folder above it must belong to us or to
    /// root, and none may be writable by group or others, except a sticky one (such as
    /// `/tmp`) above the cache folder itself. Checks the path as it exists, links resolved.
    pub fn trust_problem(&self) -> Option<String> {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let euid = unsafe { libc::geteuid() };
        let owned_by_us_or_root = |uid: u32| uid == euid || uid == 0;
        // A link on the way, planted by another user, could be pointed elsewhere later.
        let abs = std::path::absolute(&self.dir).ok()?;
        for link in abs.ancestors() {
            match fs::symlink_metadata(link) {
                Ok(meta) if meta.is_symlink() && !owned_by_us_or_root(meta.uid()) => {
                    return Some(format!(
                        "cache directory `{}` is not private: the link `{}` belongs to uid {}",
                        self.dir.display(),
                        link.display(),
                        meta.uid()
                    ));
                }
                _ => {}
            }
        }
        // The folders that exist so far (the rest will be made by us, private).
        let existing = abs.ancestors().find(|p| p.exists())?;
        let real = fs::canonicalize(existing).ok()?;
        for (depth, dir) in real.ancestors().enumerate() {
            let Ok(meta) = fs::metadata(dir) else {
                continue;
            };
            let mode = meta.mode();
            let is_cache_folder = depth == 0 && existing == abs;
            let sticky_parent = !is_cache_folder && mode & 0o1000 != 0;
            let why = if !owned_by_us_or_root(meta.uid()) {
                format!("belongs to uid {}", meta.uid())
            } else if mode & 0o022 != 0 && !sticky_parent {
                format!("is writable by others (mode {:o})", mode & 0o7777)
            } else {
                continue;
            };
            return Some(format!(
                "cache directory `{}` is not private: `{}` {why}, so another user could \
                 replace a compiled program",
                self.dir.display(),
                dir.display()
            ));
        }
        None
    }

    fn unwritable(&self, source: io::Error) -> CompileError {
        CompileError::CacheUnwritable {
            dir: self.dir.clone(),
            source,
        }
    }

    /// Notes that something wanted entry `key` (a file `<dir>/seen/<key>`): `Ok(true)` when it
    /// was noted before, `Ok(false)` when this is the first time.
    pub(crate) fn mark_seen(&self, key: &str) -> Result<bool, CompileError> {
        let seen = self.dir.join("seen");
        ensure_dir(&seen).map_err(|e| self.unwritable(e))?;
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(seen.join(key))
        {
            Ok(_) => Ok(false),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(true),
            Err(e) => Err(self.unwritable(e)),
        }
    }

    /// The directory an entry with this key lives in (whether or not it exists).
    pub(crate) fn entry_path(&self, key: &str) -> PathBuf {
        self.dir.join(LAYOUT).join(key)
    }

    /// Waits for this caller's turn to build `entry` (from [`Cache::entry_path`]): an
    /// exclusive lock on a file named after it, held until the returned file is dropped.
    /// Whoever else builds the same entry holds the lock until the entry is installed, so
    /// after waiting the caller looks for the entry again. Checks for an interruption while
    /// it waits. `Ok(None)` when no lock file can be opened (a read-only cache folder): then
    /// builds race, which [`Cache::install`] settles.
    fn lock(&self, entry: &Path) -> Result<Option<fs::File>, CompileError> {
        let Some(file) = self.lock_file(entry) else {
            return Ok(None);
        };
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(file)),
                Err(fs::TryLockError::WouldBlock) => {
                    crate::interrupt::check()?;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(fs::TryLockError::Error(_)) => return Ok(None),
            }
        }
    }

    /// The lock file of `entry` (see [`Cache::lock`]), if one can be opened.
    fn lock_file(&self, entry: &Path) -> Option<fs::File> {
        let key = entry.file_name()?;
        let locks = self.dir.join("locks");
        ensure_dir(&locks)
            .and_then(|()| {
                fs::OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(locks.join(key))
            })
            .ok()
    }

    /// [`Cache::lookup_or_lock`] without the wait: `Ok(None)` while someone else builds
    /// `entry`.
    pub(crate) fn lookup_or_try_lock<T>(
        &self,
        entry: &Path,
        lookup: impl Fn() -> Option<T>,
    ) -> Result<Option<Lookup<T>>, CompileError> {
        if let Some(found) = lookup() {
            return Ok(Some(Lookup::Found(found)));
        }
        let Some(file) = self.lock_file(entry) else {
            return Ok(Some(Lookup::Build(None)));
        };
        Ok(match file.try_lock() {
            Ok(()) => Some(match lookup() {
                Some(found) => Lookup::Found(found),
                None => Lookup::Build(Some(file)),
            }),
            Err(fs::TryLockError::WouldBlock) => None,
            Err(fs::TryLockError::Error(_)) => Some(Lookup::Build(None)),
        })
    }

    /// What `lookup` finds of `entry`, or else this caller's turn to build it: looked up
    /// once, then again after waiting for whoever else was building it (see [`Cache::lock`]).
    pub(crate) fn lookup_or_lock<T>(
        &self,
        entry: &Path,
        lookup: impl Fn() -> Option<T>,
    ) -> Result<Lookup<T>, CompileError> {
        if let Some(found) = lookup() {
            return Ok(Lookup::Found(found));
        }
        let turn = self.lock(entry)?;
        Ok(match lookup() {
            Some(found) => Lookup::Found(found),
            None => Lookup::Build(turn),
        })
    }

    /// A fresh, empty directory on the cache's filesystem, removed when dropped.
    pub(crate) fn temp_dir(&self) -> Result<tempfile::TempDir, CompileError> {
        ensure_dir(&self.dir).map_err(|e| self.unwritable(e))?;
        let entries = self.dir.join(LAYOUT);
        ensure_dir(&entries).map_err(|e| self.unwritable(e))?;
        let tmp = self.dir.join("tmp");
        ensure_dir(&tmp).map_err(|e| self.unwritable(e))?;
        remove_stale_builds(&tmp);
        tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(&tmp)
            .map_err(|e| self.unwritable(e))
    }

    /// Makes `built` world-readable and renames it to `entry`. If another process installed
    /// the same entry first, `built` is discarded and that entry kept (same key, same
    /// content).
    pub(crate) fn install(
        &self,
        built: tempfile::TempDir,
        entry: &Path,
    ) -> Result<(), CompileError> {
        open_permissions(built.path()).map_err(|e| CompileError::Io {
            context: format!("setting permissions under `{}`", built.path().display()),
            source: e,
        })?;
        match fs::rename(built.path(), entry) {
            Ok(()) => {
                // The directory now lives on as the entry; nothing left to delete.
                let _ = built.keep();
                Ok(())
            }
            // Lost a race with a concurrent compile of the same submission: keep theirs
            // (dropping `built` deletes ours).
            Err(_) if entry.join(META_FILE).is_file() => Ok(()),
            Err(e) => Err(self.unwritable(e)),
        }
    }
}

/// What [`Cache::lookup_or_lock`] found.
pub(crate) enum Lookup<T> {
    Found(T),
    /// Not in the cache: build it, holding this lock (if one could be taken) until the entry
    /// is installed.
    Build(Option<fs::File>),
}

/// Build directories older than a day are leftovers of a killed judge (a live compile is
/// bounded by its wall-time limit). Best effort: errors are ignored.
fn remove_stale_builds(tmp: &Path) {
    const STALE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);
    let Ok(read) = fs::read_dir(tmp) else { return };
    for entry in read.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if old && entry.file_name().to_string_lossy().starts_with("build-") {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Creates `dir` (and parents) if missing; a directory we create gets mode 0755.
fn ensure_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
}

/// Makes the cache's own folder when missing: mode 0700 when programs run as our uid, 0711
/// when the sandbox's uids must enter it (they never need to list it). An existing folder
/// keeps its mode.
fn ensure_private_dir(dir: &Path, access: HostAccess) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => return Ok(()),
        Err(e) => return Err(e),
    }
    let mode = if access == HostAccess::OwnUid {
        0o700
    } else {
        0o711
    };
    fs::set_permissions(dir, fs::Permissions::from_mode(mode))
}

/// Directories and files with any execute bit → 0755, other files → 0644; symlinks untouched.
pub(crate) fn open_permissions(root: &Path) -> io::Result<()> {
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = fs::symlink_metadata(&path)?;
        if meta.is_dir() {
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
            for entry in fs::read_dir(&path)? {
                stack.push(entry?.path());
            }
        } else if meta.is_file() {
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            fs::set_permissions(&path, fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}

/// A cache key: BLAKE3 over length-prefixed fields, so keys are stable across builds and
/// platforms, unambiguous (`["ab","c"]` and `["a","bc"]` differ) and collision-resistant: a
/// source or test file made on purpose cannot take the key of another one's compiled program
/// or remembered verdict, even in a cache shared by many contestants.
#[derive(Debug, Clone)]
pub(crate) struct KeyHasher {
    state: blake3::Hasher,
}

/// Characters in a key as [`KeyHasher::finish`] prints it (256 bits in hex). Keys of older
/// judges (32 hex digits of FNV-1a) have another length, so they are never read as ours.
pub(crate) const KEY_LEN: usize = 64;

/// Whether a file name part is a cache key, this judge's or an older one's (for pruning).
pub(crate) fn is_key(k: &str) -> bool {
    (k.len() == KEY_LEN || k.len() == 32) && k.bytes().all(|b| b.is_ascii_hexdigit())
}

impl KeyHasher {
    pub(crate) fn new() -> KeyHasher {
        KeyHasher {
            state: blake3::Hasher::new(),
        }
    }

    /// Adds one field.
    pub(crate) fn field(&mut self, data: impl AsRef<[u8]>) -> &mut Self {
        let data = data.as_ref();
        self.state.update(&(data.len() as u64).to_le_bytes());
        self.state.update(data);
        self
    }

    /// Adds this judge executable: its device, inode, size and modification time (a rebuilt
    /// or reinstalled judge may generate, solve or judge differently); `None` when judge
    /// cannot tell which executable it is.
    pub(crate) fn this_executable(&mut self) -> Option<&mut Self> {
        use std::os::unix::fs::MetadataExt;
        let exe = fs::metadata(std::env::current_exe().ok()?).ok()?;
        Some(
            self.field(exe.dev().to_le_bytes())
                .field(exe.ino().to_le_bytes())
                .field(exe.size().to_le_bytes())
                .field(exe.mtime().to_le_bytes())
                .field(exe.mtime_nsec().to_le_bytes()),
        )
    }

    /// The key as [`KEY_LEN`] lowercase hex digits.
    pub(crate) fn finish(&self) -> String {
        self.state.finalize().to_hex().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a 128 as the keys were made before, for the collision test below.
    fn fnv1a_128(data: &[u8]) -> u128 {
        let mut state: u128 = 0x6c62272e07bb014262b821756295c58d;
        for &b in data {
            state ^= u128::from(b);
            state = state.wrapping_mul(0x0000000001000000000000000000013B);
        }
        state
    }

    #[test]
    fn inputs_that_collide_under_fnv_get_different_keys() {
        // Two 28-byte fields that collided under the FNV-1a 128 keys judge used before (found
        // by lattice reduction: small differences d_i with sum d_i * PRIME^(29-i) = 0 mod
        // 2^128, then bytes whose XOR with the running state adds exactly those differences).
        let hex = |s: &str| -> Vec<u8> {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
                .collect()
        };
        let a = hex("a313d162f8594375d9580960687ebc8614842a0f1a245d704862432a");
        let b = hex("a73adc63c17fc39f6be90f6df7e878910286d302153f7a5cb3acc12e");
        let old_field = |d: &[u8]| fnv1a_128(&[&(d.len() as u64).to_le_bytes()[..], d].concat());
        assert_ne!(a, b);
        assert_eq!(
            old_field(&a),
            old_field(&b),
            "the pair collides under FNV-1a"
        );
        let key = |d: &[u8]| KeyHasher::new().field(d).finish();
        assert_ne!(key(&a), key(&b));
        assert_eq!(key(&a).len(), KEY_LEN);
        assert!(is_key(&key(&a)) && !is_key("xyz"));
    }

    #[test]
    fn fields_are_unambiguous() {
        let a = KeyHasher::new().field("ab").field("c").finish();
        let b = KeyHasher::new().field("a").field("bc").finish();
        assert_ne!(a, b);
        assert_eq!(a, KeyHasher::new().field("ab").field("c").finish());
    }

    #[test]
    fn permissions_opened_recursively() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("pkg");
        fs::create_dir(&sub).unwrap();
        fs::set_permissions(&sub, fs::Permissions::from_mode(0o700)).unwrap();
        let exe = dir.path().join("bin");
        fs::write(&exe, "x").unwrap();
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o700)).unwrap();
        let class = sub.join("A.class");
        fs::write(&class, "x").unwrap();
        fs::set_permissions(&class, fs::Permissions::from_mode(0o600)).unwrap();
        open_permissions(dir.path()).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&sub), 0o755);
        assert_eq!(mode(&exe), 0o755);
        assert_eq!(mode(&class), 0o644);
        assert_eq!(mode(dir.path()), 0o755);
    }

    #[test]
    fn a_closed_parent_matters_only_where_runs_see_host_paths() {
        let dir = tempfile::tempdir().unwrap();
        let closed = dir.path().join("home");
        fs::create_dir(&closed).unwrap();
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o700)).unwrap();
        let cache = Cache::new(closed.join(".cache/judge"));
        let msg = cache
            .reachability_problem(HostAccess::HostPaths)
            .expect("0700 ancestor must be reported");
        assert!(msg.contains(&closed.display().to_string()), "{msg}");
        // Own-uid runs reach it; bound runs need no open parents.
        assert_eq!(cache.reachability_problem(HostAccess::OwnUid), None);
        assert_eq!(cache.reachability_problem(HostAccess::Bound), None);
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        // The rest of the path (e.g. /tmp, /) is open on any sane system.
        assert_eq!(
            Cache::new(closed.join("c")).reachability_problem(HostAccess::HostPaths),
            None
        );
    }

    #[test]
    fn a_new_cache_folder_is_private() {
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let own = Cache::new(dir.path().join("own"));
        assert_eq!(own.unfitness(HostAccess::OwnUid), None);
        assert_eq!(mode(own.dir()), 0o700);
        let bound = Cache::new(dir.path().join("a/b/bound"));
        assert_eq!(bound.unfitness(HostAccess::Bound), None);
        assert_eq!(mode(bound.dir()), 0o711);
    }

    #[test]
    fn a_folder_others_can_write_is_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
        let cache = Cache::new(shared.join("judge"));
        let msg = cache.unfitness(HostAccess::OwnUid).expect("0777 parent");
        assert!(msg.contains("writable by others (mode 777)"), "{msg}");
        assert!(!cache.dir().exists(), "an unfit folder is not made");
        // A sticky parent (like /tmp) is fine: others cannot rename what is ours in it.
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(cache.unfitness(HostAccess::OwnUid), None);
        // The cache folder itself must not be writable by others, sticky or not.
        fs::set_permissions(cache.dir(), fs::Permissions::from_mode(0o1777)).unwrap();
        let msg = cache
            .unfitness(HostAccess::OwnUid)
            .expect("0777 cache folder");
        assert!(msg.contains("is not private"), "{msg}");
    }
}
