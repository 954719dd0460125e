//! The input being checked: the reading position, whitespace (strict, or `--whitespace-ok`),
//! and the token formats of `INT` and `FLOAT`/`FLOATP` exactly as checktestdata accepts them.

use num_rational::BigRational;

use super::parse::{self, FloatForm};
use super::value::escape;

/// Exponents of input floats beyond this are refused: an exact `10^e` would take minutes.
pub const MAX_EXPONENT: i64 = 100_000;

/// The input does not match: the byte offset where, and why.
#[derive(Debug)]
pub struct Mismatch {
    pub at: usize,
    pub message: String,
}

pub fn mismatch<T>(at: usize, message: impl Into<String>) -> Result<T, Mismatch> {
    Err(Mismatch {
        at,
        message: message.into(),
    })
}

pub struct Reader<'a> {
    pub data: &'a [u8],
    pub pos: usize,
    pub whitespace_ok: bool,
}

/// checktestdata's `isspace` but not a newline.
fn blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

impl Reader<'_> {
    pub fn eof(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    pub fn rest(&self) -> &[u8] {
        &self.data[self.pos.min(self.data.len())..]
    }

    /// 1-based line and column of byte offset `at`.
    pub fn line_column(&self, at: usize) -> (usize, usize) {
        let before = &self.data[..at.min(self.data.len())];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        (line, before.len() - start + 1)
    }

    /// What is at `at`, for messages: `end of file`, `a space`, `a newline`, or the text up to
    /// the next whitespace (at most 20 bytes).
    pub fn found(&self, at: usize) -> String {
        match self.data.get(at) {
            None => "end of file".into(),
            Some(b' ') => "a space".into(),
            Some(b'\n') => "a newline".into(),
            Some(&c) if c.is_ascii_whitespace() => format!("`{}`", escape(&[c])),
            Some(_) => {
                let rest = &self.data[at..];
                let n = rest
                    .iter()
                    .take(20)
                    .position(|c| c.is_ascii_whitespace())
                    .unwrap_or(rest.len().min(20));
                let more = if n == 20 && rest.len() > 20 {
                    "..."
                } else {
                    ""
                };
                format!("`{}{more}`", escape(&rest[..n]))
            }
        }
    }

    pub fn skip_blanks(&mut self) {
        while self.peek().is_some_and(blank) {
            self.pos += 1;
        }
    }

    pub fn space(&mut self) -> Result<(), Mismatch> {
        let ok = match self.peek() {
            Some(b' ') => true,
            Some(c) => self.whitespace_ok && blank(c),
            None => false,
        };
        if !ok {
            return mismatch(
                self.pos,
                format!("expected a space, found {}", self.found(self.pos)),
            );
        }
        self.pos += 1;
        if self.whitespace_ok {
            self.skip_blanks();
        }
        Ok(())
    }

    pub fn newline(&mut self) -> Result<(), Mismatch> {
        if self.whitespace_ok {
            self.skip_blanks();
        }
        if self.peek() != Some(b'\n') {
            let hint = match self.peek() {
                Some(b'\r') => " (a Windows line ending?)",
                _ => "",
            };
            return mismatch(
                self.pos,
                format!("expected a newline, found {}{hint}", self.found(self.pos)),
            );
        }
        self.pos += 1;
        if self.whitespace_ok {
            self.skip_blanks();
        }
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// An integer `0|-?[1-9][0-9]*`: where its text starts (it ends at the new position).
    pub fn int(&mut self) -> Result<usize, Mismatch> {
        let start = self.pos;
        let neg = self.peek() == Some(b'-');
        self.pos += usize::from(neg);
        let n = self.digits();
        let text = &self.data[start..self.pos];
        let first = text.get(usize::from(neg)).copied();
        if n == 0 && !neg {
            return mismatch(
                start,
                format!("expected an integer, found {}", self.found(start)),
            );
        }
        if neg && (n == 0 || first == Some(b'0')) {
            return mismatch(
                start,
                format!(
                    "`{}` is not an integer: a minus sign must be followed by 1-9 (no -0)",
                    escape(text)
                ),
            );
        }
        if n > 1 && first == Some(b'0') {
            return mismatch(
                start,
                format!("integer `{}` has leading zeros", escape(text)),
            );
        }
        Ok(start)
    }

    /// A float `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` (the exponent forbidden by
    /// FIXED, required by SCIENTIFIC), with `decimals` its number of decimals must lie in
    /// (FLOATP, which also wants one non-zero digit before the point of a scientific float).
    pub fn float(
        &mut self,
        form: FloatForm,
        decimals: Option<(u64, u64)>,
    ) -> Result<(BigRational, usize), Mismatch> {
        let start = self.pos;
        let what = match form {
            FloatForm::Any => "a float",
            FloatForm::Fixed => "a fixed-point float",
            FloatForm::Scientific => "a float in scientific notation",
        };
        let bad = |r: &Reader, why: &str| {
            let text = escape(&r.data[start..r.pos]);
            mismatch(start, format!("`{text}` is not {what}: {why}"))
        };
        self.pos += usize::from(self.peek() == Some(b'-'));
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos = start;
            return mismatch(
                start,
                format!("expected {what}, found {}", self.found(start)),
            );
        }
        let first_digit = self.peek();
        let leading = self.digits();
        let mut dot = false;
        let mut ndecimals = 0;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            dot = true;
            ndecimals = self.digits();
            if ndecimals == 0 {
                return bad(self, "a digit must follow the decimal point");
            }
        }
        if first_digit == Some(b'0') && leading > 1 {
            return bad(self, "leading zeros");
        }
        let mut exponent = 0i64;
        let has_exp = match form {
            FloatForm::Scientific => true,
            FloatForm::Any => matches!(self.peek(), Some(b'e' | b'E')),
            FloatForm::Fixed => false,
        };
        if has_exp {
            if !matches!(self.peek(), Some(b'e' | b'E')) {
                return bad(self, "an exponent (e or E) is required");
            }
            self.pos += 1;
            let neg = self.peek() == Some(b'-');
            self.pos += usize::from(matches!(self.peek(), Some(b'+' | b'-')));
            let at = self.pos;
            let n = self.digits();
            if n == 0 {
                return bad(self, "a digit must follow the exponent's e");
            }
            if n > 1 && self.data[at] == b'0' {
                return bad(self, "leading zeros in the exponent");
            }
            exponent = std::str::from_utf8(&self.data[at..self.pos])
                .ok()
                .and_then(|t| t.parse::<i64>().ok())
                .filter(|e| *e <= MAX_EXPONENT)
                .map_or(i64::MAX, |e| if neg { -e } else { e });
            if exponent == i64::MAX {
                return bad(
                    self,
                    &format!("judge checks exponents up to {MAX_EXPONENT}"),
                );
            }
        }
        if let Some((min, max)) = decimals {
            if has_exp && (first_digit == Some(b'0') || leading != 1 || !dot) {
                return bad(
                    self,
                    "scientific notation needs exactly one non-zero digit before the decimal point",
                );
            }
            let n = ndecimals as u64;
            if n < min || n > max {
                return bad(self, &format!("{n} decimals, not in [{min}, {max}]"));
            }
        }
        let text = &self.data[start..self.pos];
        let mantissa_end = text
            .iter()
            .position(|c| *c == b'e' || *c == b'E')
            .unwrap_or(text.len());
        let digits: Vec<u8> = text[..mantissa_end]
            .iter()
            .copied()
            .filter(|c| *c != b'.')
            .collect();
        let m = num_bigint::BigInt::parse_bytes(&digits, 10).unwrap_or_default();
        Ok((parse::scaled(m, exponent - ndecimals as i64), start))
    }
}
