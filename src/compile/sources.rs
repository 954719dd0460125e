//! The source files of a submission: its entry point, read under the size limit, and for a
//! program given as a folder, the files beside it and the name they are laid out under.

use std::fs;
use std::io::Read;
use std::path::Path;

use super::language::Submission;
use super::{cache, CompileError};

/// For a program given as a folder: the name its files are laid out under in the cache entry
/// (the folder's own name, as given: a link's, not its target's) and its entry point's file
/// name. `None` for a single file, or a name that cannot stand beside the entry's metadata.
pub(super) fn program_folder(submission: &Submission) -> Option<(String, String)> {
    let entry = submission.entry.as_ref()?;
    let name = submission.path.file_name()?.to_str()?;
    let file = entry.file_name()?.to_str()?;
    let plain = |n: &str| !n.is_empty() && !n.starts_with('.') && n != cache::META_FILE;
    (plain(name) && plain(file)).then(|| (name.to_string(), file.to_string()))
}

/// `files` with `extra` added, a file of `extra` replacing one of `files` of the same name;
/// sorted by name.
pub(super) fn with_extra(
    mut files: Vec<(String, Vec<u8>)>,
    extra: &[(String, Vec<u8>)],
) -> Vec<(String, Vec<u8>)> {
    files.retain(|(name, _)| !extra.iter().any(|(n, _)| n == name));
    files.extend(extra.iter().cloned());
    files.sort();
    files
}

/// The files of `folder` but `entry` (sorted by name, litter and subfolders left out), as
/// `(file name, contents)`; each at most `limit` bytes.
pub(super) fn folder_files_beside(
    folder: &Path,
    entry: &Path,
    limit: u64,
) -> Result<Vec<(String, Vec<u8>)>, CompileError> {
    let io_err = |e| CompileError::Io {
        context: format!("cannot read submission folder `{}`", folder.display()),
        source: e,
    };
    let mut files = Vec::new();
    for e in fs::read_dir(folder).map_err(io_err)? {
        let e = e.map_err(io_err)?;
        let path = e.path();
        if path == entry || crate::fsutil::is_tool_litter(&e.file_name()) || !path.is_file() {
            continue;
        }
        let Some(bytes) = read_source(&path, limit)? else {
            return Err(CompileError::Io {
                context: format!("reading `{}`", path.display()),
                source: std::io::Error::other(format!("larger than {} KiB", limit / 1024)),
            });
        };
        files.push((e.file_name().to_string_lossy().into_owned(), bytes));
    }
    files.sort();
    Ok(files)
}

/// Reads at most `limit` bytes; `Ok(None)` if the file is larger.
pub(super) fn read_source(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, CompileError> {
    let io_err = |e| CompileError::Io {
        context: format!("cannot read submission `{}`", path.display()),
        source: e,
    };
    let file = fs::File::open(path).map_err(io_err)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}
