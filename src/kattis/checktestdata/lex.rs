//! The tokens of a checktestdata program, as checktestdata's flex scanner reads them:
//! upper-case keywords, lower-case variable names, integer and float literals, strings with
//! escapes, operators; `#` comments and whitespace are skipped.

use super::ProgramError;

/// Where a token starts in the program (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An upper-case word (command, test, function or option).
    Word(&'static str),
    Var(String),
    Int(Vec<u8>),
    Float(String),
    Str(Vec<u8>),
    /// An operator or punctuation: `( ) [ ] , = + - * / % ^ ! < > <= >= == != && ||`.
    Op(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
    /// Byte offsets of the token in the source.
    pub start: usize,
    pub end: usize,
}

const WORDS: &[&str] = &[
    "ISEOF",
    "MATCH",
    "UNIQUE",
    "INARRAY",
    "STRLEN",
    "SPACE",
    "NEWLINE",
    "EOF",
    "INT",
    "FLOAT",
    "FLOATP",
    "STRING",
    "REGEX",
    "ASSERT",
    "SET",
    "UNSET",
    "REP",
    "REPI",
    "WHILE",
    "WHILEI",
    "IF",
    "ELSE",
    "END",
    "FIXED",
    "SCIENTIFIC",
];

const OPS: &[&str] = &[
    "&&", "||", "<=", ">=", "==", "!=", "(", ")", "[", "]", ",", "=", "+", "-", "*", "/", "%", "^",
    "!", "<", ">",
];

pub fn tokenize(src: &[u8]) -> Result<Vec<Token>, ProgramError> {
    let mut out = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < src.len() {
        let c = src[i];
        let pos = Pos {
            line,
            column: i - line_start + 1,
        };
        let err = |message: String| ProgramError { pos, message };
        let start = i;
        let tok = match c {
            b'\n' => {
                i += 1;
                line += 1;
                line_start = i;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < src.len() && src[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'A'..=b'Z' => {
                while i < src.len() && src[i].is_ascii_uppercase() {
                    i += 1;
                }
                let word = String::from_utf8_lossy(&src[start..i]);
                match WORDS.iter().find(|w| **w == word) {
                    Some(w) => Tok::Word(w),
                    None => return Err(err(format!("unknown keyword `{word}`"))),
                }
            }
            b'a'..=b'z' => {
                while i < src.len() && (src[i].is_ascii_lowercase() || src[i].is_ascii_digit()) {
                    i += 1;
                }
                Tok::Var(String::from_utf8_lossy(&src[start..i]).into_owned())
            }
            b'0'..=b'9' => {
                let digits = |i: &mut usize| {
                    let s = *i;
                    while *i < src.len() && src[*i].is_ascii_digit() {
                        *i += 1;
                    }
                    *i > s
                };
                digits(&mut i);
                let mut float = false;
                if i < src.len() && src[i] == b'.' {
                    i += 1;
                    digits(&mut i);
                    float = true;
                }
                // An exponent only when digits follow it (`1e` is `1` then `e`).
                if i < src.len() && (src[i] == b'e' || src[i] == b'E') {
                    let mut j = i + 1;
                    if j < src.len() && (src[j] == b'+' || src[j] == b'-') {
                        j += 1;
                    }
                    if digits(&mut j) {
                        i = j;
                        float = true;
                    }
                }
                let text = &src[start..i];
                match float {
                    true => Tok::Float(String::from_utf8_lossy(text).into_owned()),
                    false => Tok::Int(text.to_vec()),
                }
            }
            b'"' => {
                let (s, next, lines) = string(src, i + 1).map_err(err)?;
                if let Some(last) = lines {
                    line += last.0;
                    line_start = last.1;
                }
                i = next;
                Tok::Str(s)
            }
            _ => match OPS.iter().find(|o| src[i..].starts_with(o.as_bytes())) {
                Some(o) => {
                    i += o.len();
                    Tok::Op(o)
                }
                None => {
                    return Err(err(format!(
                        "unexpected character `{}`",
                        super::value::escape(&src[i..i + 1])
                    )))
                }
            },
        };
        out.push(Token {
            tok,
            pos,
            start,
            end: i,
        });
    }
    Ok(out)
}

/// A string literal from just after its opening quote: its bytes, the offset after the closing
/// quote, and (newlines in it, offset of the last line's start) if it spans lines.
#[allow(clippy::type_complexity)]
fn string(src: &[u8], mut i: usize) -> Result<(Vec<u8>, usize, Option<(usize, usize)>), String> {
    let mut out = Vec::new();
    let mut lines: Option<(usize, usize)> = None;
    let mut newline = |at: usize| {
        let l = lines.get_or_insert((0, 0));
        l.0 += 1;
        l.1 = at + 1;
    };
    loop {
        let Some(&c) = src.get(i) else {
            return Err("unterminated string".into());
        };
        i += 1;
        match c {
            b'"' => return Ok((out, i, lines)),
            b'\n' => {
                newline(i - 1);
                out.push(c);
            }
            b'\\' => {
                let Some(&e) = src.get(i) else {
                    return Err("unterminated string".into());
                };
                match e {
                    b'0'..=b'7' => {
                        let mut v = 0u32;
                        let mut n = 0;
                        while n < 3 && matches!(src.get(i), Some(b'0'..=b'7')) {
                            v = v * 8 + u32::from(src[i] - b'0');
                            i += 1;
                            n += 1;
                        }
                        let Ok(b) = u8::try_from(v) else {
                            return Err(format!("bad escape sequence `\\{v:o}` (over 255)"));
                        };
                        out.push(b);
                        continue;
                    }
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'"' => out.push(b'"'),
                    b'\\' => out.push(b'\\'),
                    // An escaped newline continues the line.
                    b'\n' => newline(i),
                    // Any other backslash is a backslash.
                    _ => {
                        out.push(b'\\');
                        continue;
                    }
                }
                i += 1;
            }
            _ => out.push(c),
        }
    }
}
