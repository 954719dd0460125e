//! What the jury side of a problem says, in types that need nothing but `std`: input
//! violations, contestant-output tokens, checker judgements, and the Kattis protocols
//! (input validator: exit 42/43; output validator: `input answer feedback_dir < output`,
//! exit 42/43, `judgemessage.txt`).
//!
//! Single source: this file, and each built-in problem's validator and checker files (see
//! `EXPORTED` in each problem module), are compiled into the crate as modules *and* copied
//! verbatim by `judge export` into standalone validator programs, so the exported jury
//! programs cannot drift from the harness's own. Keep them free of `crate::` paths other
//! than `crate::problems::*` and of dependencies outside `std`.

use std::fmt;

/// Where in an input a [`Violation`] is: 1-based line and column of the first offending byte
/// (a missing line points one past the last byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The first way an input breaks the statement's format or constraints.
///
/// `position` is `None` when the validator only says "invalid" (an external validator
/// program that exits 43 with a message but no location).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub position: Option<Position>,
    pub message: String,
}

impl Violation {
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Violation {
            position: Some(Position { line, column }),
            message: message.into(),
        }
    }

    /// A violation without a known position.
    pub fn unplaced(message: impl Into<String>) -> Self {
        Violation {
            position: None,
            message: message.into(),
        }
    }

    /// `file:line:column: message` (`file: message` without a position), the form every
    /// command uses when the file is known (see [`crate::text::file_name`] for standard
    /// input).
    pub fn at(&self, file: &str) -> String {
        match self.position {
            Some(p) => format!("{file}:{}:{}: {}", p.line, p.column, self.message),
            None => format!("{file}: {}", self.message),
        }
    }

    /// [`Violation::at`] for a path.
    pub fn located(&self, file: &std::path::Path) -> String {
        self.at(&file.display().to_string())
    }
}

/// `line 2, column 1: message`, for inputs that are not files (generated tests).
impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "line {}, column {}: {}", p.line, p.column, self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// One whitespace-separated token of a contestant output, with its 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a [u8],
    pub line: usize,
}

impl Token<'_> {
    /// The token for a one-line message: quoted, escaped, at most 20 bytes (then `...`).
    pub fn shown(&self) -> String {
        let cut = &self.text[..self.text.len().min(20)];
        let ellipsis = if cut.len() < self.text.len() {
            "..."
        } else {
            ""
        };
        format!("{:?}{ellipsis}", String::from_utf8_lossy(cut))
    }

    /// `expected 9 numbers, found "no" at line 1`: what a checker says when a token is not
    /// what the output format has there.
    pub fn unexpected(&self, expected: &str) -> String {
        format!(
            "expected {expected}, found {} at line {}",
            self.shown(),
            self.line
        )
    }
}

/// The tokens of a contestant output (separated by ASCII whitespace) with their lines.
pub fn tokens(output: &[u8]) -> Vec<Token<'_>> {
    output
        .split(|&b| b == b'\n')
        .enumerate()
        .flat_map(|(i, line)| {
            line.split(|b| b.is_ascii_whitespace())
                .filter(|t| !t.is_empty())
                .map(move |text| Token { text, line: i + 1 })
        })
        .collect()
}

/// What a checker concluded about one contestant output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// The output is a valid answer.
    Accepted,
    /// The output is wrong; the string is a one-line reason for the contestant/grader.
    Rejected(String),
    /// The jury side is inconsistent (e.g. the jury says "no solution" but the contestant's
    /// arrangement checks out). Never blamed on the contestant.
    JudgeError(String),
}

/// What an output validator said about an accepted output's score (a scoring problem).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValidatorScore {
    /// `score.txt`: the score itself.
    Score(f64),
    /// `score_multiplier.txt` (2025-09): a fraction of the test's maximum score.
    Multiplier(f64),
}

/// Exit status of a Kattis validator: valid input / accepted output.
pub const EXIT_ACCEPT: i32 = 42;
/// Exit status of a Kattis validator: invalid input / wrong answer.
pub const EXIT_REJECT: i32 = 43;
/// Exit status of a standalone validator that cannot do its job (bad arguments, unreadable
/// files, an inconsistent jury answer): any status but 42/43 is a judge error.
pub const EXIT_JURY_ERROR: i32 = 1;

/// The Kattis input validator protocol around `validate`: reads the input from standard
/// input; exit 42 when valid, else 43 with the violation (`line L, column C: message`) on
/// standard error and standard output. Returns the exit status for `std::process::exit`.
pub fn input_validator_main<T>(validate: impl Fn(&[u8]) -> Result<T, Violation>) -> i32 {
    use std::io::Read;
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("cannot read the input from standard input: {e}");
        return EXIT_JURY_ERROR;
    }
    match validate(&input) {
        Ok(_) => EXIT_ACCEPT,
        Err(v) => {
            println!("{v}");
            eprintln!("{v}");
            EXIT_REJECT
        }
    }
}

/// The Kattis output validator protocol around `check`: `prog input answer feedback_dir
/// [flags...] < output`. Accepted: exit 42. Wrong answer: `judgemessage.txt` in the feedback
/// folder holds the reason, exit 43. A judge error (unreadable or non-UTF-8 jury files, an
/// inconsistent jury answer): the reason on standard error and in `judgemessage.txt`, exit 1.
pub fn output_validator_main(
    args: &[String],
    check: impl Fn(&str, &str, &[u8]) -> Judgement,
) -> i32 {
    use std::io::Read;
    let [input, answer, feedback, ..] = args else {
        eprintln!("usage: output_validator INPUT ANSWER FEEDBACK_DIR < OUTPUT");
        return EXIT_JURY_ERROR;
    };
    let feedback = std::path::Path::new(feedback);
    let say = |text: &str| {
        let path = feedback.join("judgemessage.txt");
        if let Err(e) = std::fs::write(&path, format!("{text}\n")) {
            eprintln!("cannot write {}: {e}", path.display());
        }
    };
    let read = |path: &str| -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))
    };
    let (input, answer) = match (read(input), read(answer)) {
        (Ok(i), Ok(a)) => (i, a),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            say(&e);
            return EXIT_JURY_ERROR;
        }
    };
    let mut output = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut output) {
        eprintln!("cannot read the output from standard input: {e}");
        return EXIT_JURY_ERROR;
    }
    match check(&input, &answer, &output) {
        Judgement::Accepted => EXIT_ACCEPT,
        Judgement::Rejected(why) => {
            say(&why);
            EXIT_REJECT
        }
        Judgement::JudgeError(why) => {
            eprintln!("judge error: {why}");
            say(&format!("judge error: {why}"));
            EXIT_JURY_ERROR
        }
    }
}
