//! Pictures of inputs and answers (`judge show`, the HTML report).
//!
//! A problem that can draw itself returns a [`Picture`] from its `draw` hook (`Problem::draw`
//! in `problems`, which uses this module, never the other way round): the same drawing as
//! terminal text ([`term::Text`]) and as a standalone SVG document ([`svg::Svg`]), plus a
//! [`Finding`]: what the validator and the checker say about the files. This module holds the
//! problem-independent primitives; each problem's drawing code lives in
//! `src/problems/<name>/draw.rs`.

pub mod svg;
pub mod term;

/// A drawing of an input (and possibly an output) of a problem.
#[derive(Debug, Clone)]
pub struct Picture {
    /// The terminal rendering.
    pub text: term::Text,
    /// A standalone SVG document (no XML prolog, so it can also be inlined into HTML).
    pub svg: String,
    /// What the validator (input) or the checker (output) concluded.
    pub finding: Finding,
}

/// What the files of a picture amount to, in the validator's or the checker's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// Only an input was drawn, and it is valid.
    ValidInput,
    /// The input breaks the format or the constraints (the validator's first violation).
    InvalidInput(String),
    /// The output is accepted.
    Accepted,
    /// The output is rejected (the checker's reason).
    Rejected(String),
    /// The jury side is inconsistent (the checker's reason).
    JudgeError(String),
}

impl Finding {
    /// Whether the files are fine (valid input, accepted output).
    pub fn is_ok(&self) -> bool {
        matches!(self, Finding::ValidInput | Finding::Accepted)
    }

    /// One line: `valid input`, `invalid input: ...`, `AC`, `WA: ...`, `JE: ...`.
    pub fn line(&self) -> String {
        match self {
            Finding::ValidInput => "valid input".into(),
            Finding::InvalidInput(why) => format!("invalid input: {why}"),
            Finding::Accepted => "AC".into(),
            Finding::Rejected(why) => format!("WA: {why}"),
            Finding::JudgeError(why) => format!("JE: {why}"),
        }
    }
}

/// Why nothing could be drawn: the file holds nothing the problem recognises.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The input has nothing drawable (the reason says what was expected).
    #[error("the input has nothing to draw: {0}")]
    Input(String),
    /// The output has nothing drawable (the checker's reason).
    #[error("the output has nothing to draw: {0}")]
    Output(String),
}

/// `text` broken into lines of at most `width` characters at spaces (a longer word stays whole).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// The colours every picture uses (CSS colours, shared by the SVG and HTML renderers).
pub mod palette {
    /// Something wrong: a disagreeing edge, a wrong sum, a misused number.
    pub const BAD: &str = "#d62728";
    /// Light background of a wrong cell or face.
    pub const BAD_FILL: &str = "#fde2e1";
    /// Something right.
    pub const GOOD: &str = "#2ca02c";
    /// Ordinary ink.
    pub const INK: &str = "#222222";
    /// Secondary ink: labels, unknown edges.
    pub const DIM: &str = "#888888";
    /// Ordinary face/cell fill.
    pub const FILL: &str = "#f3f6fb";
    /// Fill of an empty face or a missing cell.
    pub const EMPTY_FILL: &str = "#e6e6e6";
    /// Fill of a face whose tile is used more than once.
    pub const WARN_FILL: &str = "#ffe3b3";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces() {
        assert_eq!(
            wrap("faces 1-2, 1-3, 2-4", 10),
            vec!["faces 1-2,", "1-3, 2-4"]
        );
        assert_eq!(wrap("short", 10), vec!["short"]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            vec!["averyveryverylongword", "x"]
        );
    }

    #[test]
    fn finding_lines_use_the_verdict_codes() {
        assert_eq!(Finding::Accepted.line(), "AC");
        assert_eq!(Finding::Rejected("x".into()).line(), "WA: x");
        assert!(Finding::ValidInput.is_ok());
        assert!(!Finding::InvalidInput("y".into()).is_ok());
    }
}
