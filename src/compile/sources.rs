//! The source files of a submission: its entry point, read under the size limit, and for a
//! program given as a folder, the files beside it and the name they are laid out under.

use std::fs;
use std::io::Read;
use std::path::Path;

use super::language::Submission;
use super::{cache, CompileError, Included};

/// What is laid out to compile a submission: its entry point's contents (`None`: over the
/// size limit), the files beside it, and for a program laid out in a folder, the folder's
/// name and the entry's file name ([`program_folder`]).
pub(super) struct Sources {
    pub source: Option<Vec<u8>>,
    pub extra: Vec<(String, Vec<u8>)>,
    pub folder: Option<(String, String)>,
}

/// The [`Sources`] of `submission` with a package's `included` files: beside its own (a
/// folder's files replaced by included ones of the same name), or, where an included file
/// is the entry point (problemtools: a grader's `main.py`), with the submission's own files
/// beside that one, under their own names (the grader imports them), in a folder named after
/// the submission.
pub(super) fn gather(
    submission: &Submission,
    included: &Included,
    limit: u64,
) -> Result<Sources, CompileError> {
    let main = included
        .entry
        .as_ref()
        .and_then(|name| included.files.iter().find(|(n, _)| n == name));
    let Some((main_name, main_bytes)) = main else {
        let entry_file = submission.entry.as_deref().unwrap_or(&submission.path);
        let extra = match &submission.entry {
            Some(entry) => with_extra(
                folder_files_beside(&submission.path, entry, limit)?,
                &included.files,
            ),
            None => included.files.clone(),
        };
        return Ok(Sources {
            source: read_source(entry_file, limit)?,
            extra,
            folder: program_folder(submission),
        });
    };
    let own = match &submission.entry {
        // Every file of the folder (none is "the entry" beside the grader's).
        Some(_) => folder_files_beside(&submission.path, &submission.path, limit)?,
        None => {
            let name = file_name(&submission.path);
            match read_source(&submission.path, limit)? {
                Some(bytes) => vec![(name, bytes)],
                None => {
                    return Ok(Sources {
                        source: None,
                        extra: Vec::new(),
                        folder: None,
                    })
                }
            }
        }
    };
    let rest: Vec<_> = included
        .files
        .iter()
        .filter(|(n, _)| n != main_name)
        .cloned()
        .collect();
    let stem = submission
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    Ok(Sources {
        source: Some(main_bytes.clone()),
        extra: with_extra(own, &rest),
        folder: Some((
            stem.filter(|n| plain_name(n))
                .unwrap_or_else(|| "submission".into()),
            main_name.clone(),
        )),
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// For a program given as a folder: the name its files are laid out under in the cache entry
/// (the folder's own name, as given: a link's, not its target's) and its entry point's file
/// name. `None` for a single file, or a name that cannot stand beside the entry's metadata.
pub(super) fn program_folder(submission: &Submission) -> Option<(String, String)> {
    let entry = submission.entry.as_ref()?;
    let name = submission.path.file_name()?.to_str()?;
    let file = entry.file_name()?.to_str()?;
    (plain_name(name) && plain_name(file)).then(|| (name.to_string(), file.to_string()))
}

/// Whether `name` can stand in a cache entry beside its metadata: not empty, not hidden, not
/// the metadata file's own name.
fn plain_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && name != cache::META_FILE
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
