//! A compile cache entry: its key (everything that determines the compile result) and the
//! metadata stored beside its artefacts.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{cache, CompileLimits, CompileOutcome, Language, LanguageSpec, BINARY_NAME};

/// What is stored beside the artefacts in a cache entry.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EntryMeta {
    pub(super) language: String,
    pub(super) outcome: CompileOutcome,
    pub(super) compile_time_us: u64,
}

/// Everything that determines the compile result: layout version, language, source, the
/// folder name and entry point's file name of a program given as a folder (its files are laid
/// out under that name, so that it sees its own path as BAPCtools runs it), compile
/// template, compiler environment and rlimit choice, the compiler binary's identity (path,
/// canonical path, size, mtime: an upgraded compiler misses the cache), and the limits a
/// cached compile error may come from: the file-size and memory limits (a binary over the
/// file-size limit kills the assembler or linker, and the compiler driver reports it as its
/// own error, which is cached: raising the limit must compile it again).
///
/// Not `precompiled_headers`, nor whether a precompiled header was used: GCC uses one only
/// where it stands for the header exactly (and [`pch`] rebuilds it when a file it was built
/// from changed), so the program is the same with or without it. Turning the key on or off
/// then keeps every cached submission, and a submission compiled while its header could not
/// be precompiled is not compiled again once it can. The one visible difference: a compile
/// error whose include chain passes through the header names `judge-pch.h:1` instead of the
/// source's line of the `#include`, and the cache keeps whichever message came first.
pub(super) fn cache_key(
    language: Language,
    spec: &LanguageSpec,
    source: &[u8],
    extra: &[(String, Vec<u8>)],
    folder: Option<(&str, &str)>,
    compiler: Option<&Path>,
    limits: &CompileLimits,
) -> String {
    let mut h = cache::KeyHasher::new();
    h.field("judge-compile/1")
        .field(language.id())
        .field(source)
        .field(limits.binary_bytes.to_le_bytes())
        .field(limits.memory_bytes.to_le_bytes());
    // Only when present, so that single-file keys stay what they were.
    if !extra.is_empty() {
        h.field("extra-files").field(extra.len().to_le_bytes());
        for (name, bytes) in extra {
            h.field(name).field(bytes);
        }
    }
    if let Some((name, file)) = folder {
        h.field("folder").field(name).field(file);
    }
    hash_compile_command(&mut h, spec, compiler);
    h.finish()
}

/// The compile template, compiler environment, folders and rlimit choice, and the compiler's identity
/// (shared by submission and precompiled-header keys).
pub(super) fn hash_compile_command(
    h: &mut cache::KeyHasher,
    spec: &LanguageSpec,
    compiler: Option<&Path>,
) {
    if let Some(template) = &spec.compile {
        h.field(template.len().to_le_bytes());
        for arg in template {
            h.field(arg);
        }
    }
    for (k, v) in &spec.compile_env {
        h.field(k).field(v);
    }
    h.field([u8::from(spec.compile_rlimit_as)]);
    // A compile outside the sandbox may succeed where one inside fails.
    h.field([u8::from(super::boxed::host_requested())]);
    h.field(spec.compile_dirs.len().to_le_bytes());
    for dir in &spec.compile_dirs {
        h.field(dir);
    }
    if let Some(compiler) = compiler {
        h.field(compiler.as_os_str().as_encoded_bytes());
        if let Ok(canonical) = fs::canonicalize(compiler) {
            h.field(canonical.as_os_str().as_encoded_bytes());
            if let Ok(meta) = fs::metadata(&canonical) {
                h.field(meta.len().to_le_bytes());
                if let Ok(mtime) = meta.modified() {
                    let since = mtime
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap_or_default();
                    h.field(since.as_nanos().to_le_bytes());
                }
            }
        }
    }
}

fn read_meta(entry: &Path) -> Option<EntryMeta> {
    let bytes = fs::read(entry.join(cache::META_FILE)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// An entry's metadata, if it is complete, describes `language` and (for a success) still
/// holds the binary the run needs in `program_dir` (the entry, or its folder named after the
/// program).
pub(super) fn read_entry(
    entry: &Path,
    program_dir: &Path,
    language: Language,
    spec: &LanguageSpec,
) -> Option<EntryMeta> {
    read_meta(entry).filter(|m| {
        m.language == language.id()
            && (m.outcome != CompileOutcome::Ok
                || !needs_binary(spec)
                || program_dir.join(BINARY_NAME).is_file())
    })
}

pub(super) fn needs_binary(spec: &LanguageSpec) -> bool {
    spec.run.iter().any(|a| a.contains("{binary}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::language::lang;
    use crate::compile::LanguageTable;

    /// A program given as a folder is keyed by its folder's name and entry point's file name
    /// too (its files are laid out under that name): the same name and contents give the same
    /// entry, another name another one; a single file's key is what it was without them.
    #[test]
    fn a_folder_programs_name_is_part_of_its_key() {
        let table = LanguageTable::load(None).unwrap();
        let python = lang("python");
        let extra = [("lib.py".to_string(), b"X = 1\n".to_vec())];
        let key = |folder: Option<(&str, &str)>| {
            cache_key(
                python,
                table.spec(python),
                b"print(1)\n",
                &extra,
                folder,
                None,
                &CompileLimits::default(),
            )
        };
        assert_eq!(key(Some(("y", "y.py"))), key(Some(("y", "y.py"))));
        assert_ne!(key(Some(("y", "y.py"))), key(Some(("n", "y.py"))));
        assert_ne!(key(Some(("y", "y.py"))), key(Some(("y", "main.py"))));
        assert_ne!(key(Some(("y", "y.py"))), key(None));
        // Unambiguous: the folder and file fields do not run into each other.
        assert_ne!(key(Some(("ab", "c.py"))), key(Some(("a", "bc.py"))));
        // A single file's key: as before the folder field existed.
        let mut h = cache::KeyHasher::new();
        h.field("judge-compile/1")
            .field(python.id())
            .field(b"print(1)\n")
            .field(CompileLimits::default().binary_bytes.to_le_bytes())
            .field(CompileLimits::default().memory_bytes.to_le_bytes())
            .field("extra-files")
            .field(1usize.to_le_bytes())
            .field("lib.py")
            .field(b"X = 1\n");
        hash_compile_command(&mut h, table.spec(python), None);
        assert_eq!(key(None), h.finish());
    }
}
