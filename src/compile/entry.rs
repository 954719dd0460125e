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

/// Everything that determines the compile result: layout version, language, source, compile
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
    hash_compile_command(&mut h, spec, compiler);
    h.finish()
}

/// The compile template, compiler environment and rlimit choice, and the compiler's identity
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
/// holds the binary the run needs.
pub(super) fn read_entry(
    entry: &Path,
    language: Language,
    spec: &LanguageSpec,
) -> Option<EntryMeta> {
    read_meta(entry).filter(|m| {
        m.language == language.id()
            && (m.outcome != CompileOutcome::Ok
                || !needs_binary(spec)
                || entry.join(BINARY_NAME).is_file())
    })
}

pub(super) fn needs_binary(spec: &LanguageSpec) -> bool {
    spec.run.iter().any(|a| a.contains("{binary}"))
}
