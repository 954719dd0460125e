//! Small helpers for the wording of messages: counted nouns and source locations.

use std::fmt::Display;
use std::path::Path;

/// `1 test`, `2 tests`, `0 tests`: a count with its noun in the right number (regular plurals).
pub fn count<N: Copy + Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `all 3 tests`, `the 1 test`: every one of a counted group.
pub fn all<N: Copy + Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("the {}", count(n, noun))
    } else {
        format!("all {}", count(n, noun))
    }
}

/// `singular` when `n` is 1, else `plural`: for the verb after a count (`is`/`are`).
pub fn agree<N: PartialEq + From<u8>>(
    n: N,
    singular: &'static str,
    plural: &'static str,
) -> &'static str {
    if n == N::from(1) {
        singular
    } else {
        plural
    }
}

/// How a file is named in `file:line:column: message` locations: its path, or `<stdin>` for
/// standard input (`None` or `-`).
pub fn file_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "<stdin>".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(1usize, "sample"), "1 sample");
        assert_eq!(count(2u64, "step"), "2 steps");
        assert_eq!(count(0u32, "test"), "0 tests");
        assert_eq!(all(1usize, "test"), "the 1 test");
        assert_eq!(all(63usize, "test"), "all 63 tests");
    }

    #[test]
    fn standard_input_has_a_name() {
        assert_eq!(file_name(None), "<stdin>");
        assert_eq!(file_name(Some(Path::new("-"))), "<stdin>");
        assert_eq!(file_name(Some(Path::new("a/1.in"))), "a/1.in");
    }
}
