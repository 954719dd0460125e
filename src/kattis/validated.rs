//! Remembered validations: what an input or answer validator said of one file, kept in the
//! compile cache (`<cache>/validated/<key>`) so that a verify with nothing changed does not run
//! every validator on every test again (a Python validator costs 10-20 ms a run: BAPCtools'
//! generatorcount, 64 inputs and 64 answers, spent a second of its warm verify on them).
//!
//! The key holds everything the answer depends on: the validator's compiled program (its
//! compile-cache entry, named by its sources, compiler and flags), whether it checks an input
//! or an answer, its arguments, its limits, the bytes it reads (and the input beside an
//! answer) and this judge executable. Only a verdict is kept (valid, or rejected with its
//! message), never a jury error (a limit hit, a wrong exit status), which runs again. A
//! validator run from the package folder itself rather than from the compile cache is not
//! remembered: judge cannot tell what it reads. `--fresh` runs every validator again.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::compile::cache::KeyHasher;
use crate::compile::Cache;
use crate::sandbox::Limits;

/// What a validator said of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Said {
    Valid,
    /// Rejected, and why (the line the report shows).
    Invalid(String),
}

/// The remembered validations of one compile cache.
pub(crate) struct Validations {
    dir: PathBuf,
    /// The key's start: this layout and this judge executable (`None` when judge cannot tell
    /// which executable it is: nothing is remembered).
    base: Option<KeyHasher>,
    on: AtomicBool,
}

/// What one validation reads, beside the validator's program.
pub(crate) struct Reads<'a> {
    pub args: &'a [String],
    pub limits: &'a Limits,
    pub stdin: &'a [u8],
    /// An answer validator's input file (`None` for an input validator).
    pub input: Option<&'a [u8]>,
}

impl Validations {
    pub(crate) fn new(cache: &Cache) -> Validations {
        let mut base = KeyHasher::new();
        Validations {
            dir: cache.dir().join("validated"),
            base: base
                .field("judge-validated/1")
                .this_executable()
                .map(|h| h.clone()),
            on: AtomicBool::new(true),
        }
    }

    /// Neither read nor write remembered validations from now on (`verify --fresh`).
    pub(crate) fn turn_off(&self) {
        self.on.store(false, Ordering::Relaxed);
    }

    /// The key of a validation by the program in the compile-cache entry `program`; `None`
    /// when validations are not remembered, or judge cannot tell which executable it is.
    pub(crate) fn key(&self, program: &str, reads: &Reads) -> Option<String> {
        if !self.on.load(Ordering::Relaxed) {
            return None;
        }
        let mut h = self.base.clone()?;
        h.field(program)
            .field(format!("{:?}", reads.limits))
            .field(reads.stdin)
            .field(reads.args.len().to_le_bytes());
        for a in reads.args {
            h.field(a);
        }
        // An answer validator's (with the input beside the answer) or an input validator's.
        match reads.input {
            Some(input) => h.field("answer, of the input").field(input),
            None => h.field("input"),
        };
        Some(h.finish())
    }

    /// What the validation of `key` said before, if it was kept.
    pub(crate) fn recall(&self, key: &str) -> Option<Said> {
        let text = fs::read_to_string(self.dir.join(key)).ok()?;
        match text.split_once('\n') {
            Some(("valid", "")) => Some(Said::Valid),
            Some(("invalid", why)) if !why.is_empty() => Some(Said::Invalid(why.to_string())),
            _ => None,
        }
    }

    /// Keeps what the validation of `key` said. A cache that cannot be written costs only the
    /// time of validating again.
    pub(crate) fn remember(&self, key: &str, said: &Said) {
        let text = match said {
            Said::Valid => "valid\n".to_string(),
            Said::Invalid(why) => format!("invalid\n{why}"),
        };
        if fs::create_dir_all(&self.dir).is_ok() {
            let _ = crate::fsutil::write_atomic(&self.dir.join(key), text.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(memory_bytes: u64) -> Limits {
        Limits {
            cpu_time: std::time::Duration::from_secs(1),
            wall_time: std::time::Duration::from_secs(2),
            memory_bytes,
            output_bytes: 1 << 20,
            stderr_bytes: 1 << 16,
            processes: 1,
        }
    }

    fn reads<'a>(stdin: &'a [u8], limits: &'a Limits) -> Reads<'a> {
        Reads {
            args: &[],
            limits,
            stdin,
            input: None,
        }
    }

    #[test]
    fn a_validation_is_kept_under_a_key_of_everything_it_reads() {
        let dir = tempfile::tempdir().unwrap();
        let v = Validations::new(&Cache::new(dir.path()));
        let limits = limits(1 << 30);
        let key = v.key("entry-1", &reads(b"1 2\n", &limits)).unwrap();
        assert_eq!(v.recall(&key), None);
        v.remember(&key, &Said::Invalid("rejected by v.py (exit 43)".into()));
        assert_eq!(
            v.recall(&key),
            Some(Said::Invalid("rejected by v.py (exit 43)".into()))
        );
        v.remember(&key, &Said::Valid);
        assert_eq!(v.recall(&key), Some(Said::Valid));
        // Another program, other bytes, other limits, an answer: other keys.
        let other_limits = self::limits(1 << 20);
        let answer = Reads {
            input: Some(b"1 2\n"),
            ..reads(b"1 2\n", &limits)
        };
        for other in [
            v.key("entry-2", &reads(b"1 2\n", &limits)),
            v.key("entry-1", &reads(b"1 3\n", &limits)),
            v.key("entry-1", &reads(b"1 2\n", &other_limits)),
            v.key("entry-1", &answer),
        ] {
            assert_ne!(other.unwrap(), key);
        }
        // Turned off (`--fresh`): no key, so nothing is read or written.
        v.turn_off();
        assert_eq!(v.key("entry-1", &reads(b"1 2\n", &limits)), None);
    }
}
