//! Byte-strict input validator.
//!
//! Accepted inputs are exactly: `N\n` with N ∈ {3, 4}, then one line of N·N integers separated
//! by single spaces and ending in `\n`, nothing after it. Integers: optional `-`, no `+`, no
//! leading zeros, no `-0`, |v| ≤ 10^9. Finally a magic square over the numbers must exist.

use super::solver;
use crate::problems::Violation;

/// Largest allowed absolute value.
pub const MAX_ABS: i64 = 1_000_000_000;

/// Describes byte `b` for a message ("'x'", "a space", "byte 0xC3", ...).
fn describe(b: Option<&u8>) -> String {
    match b {
        None => "end of input".into(),
        Some(b' ') => "a space".into(),
        Some(b'\n') => "end of line".into(),
        Some(b'\r') => "a carriage return (CRLF line ending?)".into(),
        Some(b'\t') => "a tab".into(),
        Some(&b) if b.is_ascii_graphic() => format!("'{}'", b as char),
        Some(&b) => format!("byte 0x{b:02X}"),
    }
}

/// Reads one integer token starting at `bytes[pos]`. Returns the value and the index just
/// past the token. The error carries the 0-based offset of the offending byte and a message.
/// `what` names the token for range messages ("token 7").
fn read_int(bytes: &[u8], pos: usize, what: &str) -> Result<(i64, usize), (usize, String)> {
    let start = pos;
    let mut i = pos;
    let neg = bytes.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    match bytes.get(i) {
        Some(b) if b.is_ascii_digit() => {}
        Some(b'+') if !neg => return Err((i, "'+' sign is not allowed".into())),
        other => {
            return Err((i, format!("expected an integer, found {}", describe(other))));
        }
    }
    let digits_start = i;
    while bytes.get(i).is_some_and(|b| b.is_ascii_digit()) {
        i += 1;
    }
    let digits = &bytes[digits_start..i];
    let text = String::from_utf8_lossy(&bytes[start..i]).into_owned();
    if digits.len() > 1 && digits[0] == b'0' {
        return Err((start, format!("leading zero in {text}")));
    }
    if neg && digits == b"0" {
        return Err((start, "negative zero -0 is not allowed".into()));
    }
    // At most 10 digits can be in range; longer tokens are rejected before any arithmetic.
    let magnitude: Option<i64> = if digits.len() <= 10 {
        Some(
            digits
                .iter()
                .fold(0i64, |a, &d| a * 10 + i64::from(d - b'0')),
        )
    } else {
        None
    };
    match magnitude {
        Some(m) if m <= MAX_ABS => Ok((if neg { -m } else { m }, i)),
        _ => {
            let shown = if text.len() > 24 {
                format!("{}... ({} digits)", &text[..20], digits.len())
            } else {
                text
            };
            Err((
                start,
                format!("value {shown} out of range at {what} (|v| ≤ 1000000000)"),
            ))
        }
    }
}

/// Validates `input` byte for byte. On success returns N and the N·N numbers in input order.
/// On failure returns the first violation (1-based line and column).
pub fn validate(input: &[u8]) -> Result<(usize, Vec<i64>), Violation> {
    // Line 1.
    let (n, mut i) = read_int(input, 0, "line 1").map_err(|(p, m)| Violation::new(1, p + 1, m))?;
    if n != 3 && n != 4 {
        return Err(Violation::new(1, 1, format!("N must be 3 or 4, found {n}")));
    }
    let n = n as usize;
    match input.get(i) {
        Some(b'\n') => i += 1,
        Some(b' ') => return Err(Violation::new(1, i + 1, "trailing space on line 1")),
        None => return Err(Violation::new(1, i + 1, "missing newline at end of line 1")),
        other => {
            return Err(Violation::new(
                1,
                i + 1,
                format!("expected end of line after N, found {}", describe(other)),
            ))
        }
    }
    // Line 2.
    let line2 = i;
    let col = |p: usize| p - line2 + 1;
    let want = n * n;
    let mut values = Vec::with_capacity(want);
    loop {
        let k = values.len();
        match input.get(i) {
            None | Some(b'\n') if k < want => {
                return Err(Violation::new(
                    2,
                    col(i),
                    format!("expected {want} integers on line 2, found {k}"),
                ));
            }
            Some(b' ') => {
                let msg = if k == 0 {
                    "leading space on line 2"
                } else {
                    "two spaces in a row"
                };
                return Err(Violation::new(2, col(i), msg));
            }
            _ => {}
        }
        let (v, end) = read_int(input, i, &format!("token {}", k + 1))
            .map_err(|(p, m)| Violation::new(2, col(p), m))?;
        values.push(v);
        i = end;
        match input.get(i) {
            Some(b' ') if values.len() < want => i += 1,
            Some(b' ') => {
                let msg = match input.get(i + 1) {
                    None | Some(b'\n') | Some(b'\r') => "trailing space on line 2".to_string(),
                    _ => format!("more than {want} integers on line 2"),
                };
                return Err(Violation::new(2, col(i), msg));
            }
            Some(b'\n') if values.len() == want => {
                i += 1;
                break;
            }
            Some(b'\n') => {} // reported as "found k" at the top of the loop
            None if values.len() == want => {
                return Err(Violation::new(
                    2,
                    col(i),
                    "missing newline at end of line 2",
                ));
            }
            None => {}
            other => {
                return Err(Violation::new(
                    2,
                    col(i),
                    format!("unexpected {} after an integer", describe(other)),
                ));
            }
        }
    }
    if i < input.len() {
        return Err(Violation::new(
            3,
            1,
            "unexpected data after line 2 (expected end of input)",
        ));
    }
    if solver::solve(&values).is_none() {
        return Err(Violation::new(2, 1, "no magic square uses these numbers"));
    }
    Ok((n, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(input: &[u8]) -> (usize, usize, String) {
        let v = validate(input).expect_err("should be rejected");
        let p = v.position.expect("a position");
        (p.line, p.column, v.message)
    }

    fn at(input: &[u8], line: usize, column: usize, needle: &str) {
        let (l, c, m) = err(input);
        assert_eq!(
            (l, c),
            (line, column),
            "position for {:?}: {m}",
            String::from_utf8_lossy(input)
        );
        assert!(
            m.contains(needle),
            "message {m:?} should contain {needle:?}"
        );
    }

    #[test]
    fn accepts_valid() {
        assert_eq!(
            validate(b"3\n2 7 6 9 5 1 4 3 8\n").unwrap(),
            (3, vec![2, 7, 6, 9, 5, 1, 4, 3, 8])
        );
        assert!(validate(b"4\n16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n").is_ok());
        assert!(validate(b"3\n0 0 0 0 0 0 0 0 0\n").is_ok());
        let big = "3\n".to_string() + &["-1000000000"; 9].join(" ") + "\n";
        assert!(validate(big.as_bytes()).is_ok());
    }

    #[test]
    fn rejects_with_positions() {
        at(b"", 1, 1, "expected an integer, found end of input");
        at(b"5\n", 1, 1, "N must be 3 or 4, found 5");
        at(b"2\n1 1 1 1\n", 1, 1, "N must be 3 or 4");
        at(b"03\n", 1, 1, "leading zero");
        at(b"3 \n", 1, 2, "trailing space on line 1");
        at(b"3", 1, 2, "missing newline at end of line 1");
        at(b"3\r\n", 1, 2, "carriage return");
        at(
            b"3\n1 1 1 1 1 1 1 1\n",
            2,
            16,
            "expected 9 integers on line 2, found 8",
        );
        at(b"3\n1 1 1 1 1 1 1 1 1 1\n", 2, 18, "more than 9 integers");
        at(
            b"3\n1 1 1 1 1 1 1 1 1 \n",
            2,
            18,
            "trailing space on line 2",
        );
        at(
            b"3\n1 1 1 1 1 1 1 1 1",
            2,
            18,
            "missing newline at end of line 2",
        );
        at(b"3\n1 1 1 1 1 1 1 1 1\r\n", 2, 18, "carriage return");
        at(
            b"3\n1 1 1 1 1 1 1 1 1\n\n",
            3,
            1,
            "unexpected data after line 2",
        );
        at(b"3\n1 1  1 1 1 1 1 1 1\n", 2, 5, "two spaces");
        at(b" 3\n", 1, 1, "expected an integer");
        at(b"3\n 1 1 1 1 1 1 1 1 1\n", 2, 1, "leading space");
        at(b"3\n1 1 +5 1 1 1 1 1 1\n", 2, 5, "'+' sign");
        at(b"3\n1 1 007 1 1 1 1 1 1\n", 2, 5, "leading zero in 007");
        at(b"3\n1 1 -0 1 1 1 1 1 1\n", 2, 5, "negative zero");
        at(
            b"3\n1 1 1 1 1 1 1000000001 1 1\n",
            2,
            13,
            "value 1000000001 out of range at token 7",
        );
        at(
            b"3\n1 1 1 1 1 1 -1000000001 1 1\n",
            2,
            13,
            "value -1000000001 out of range",
        );
        at(
            b"3\n1 123456789012345678901234567890 1 1 1 1 1 1 1\n",
            2,
            3,
            "out of range at token 2",
        );
        at(b"3\n1 1 1a 1 1 1 1 1 1\n", 2, 6, "unexpected 'a'");
        at(
            b"3\n1 1 - 1 1 1 1 1 1\n",
            2,
            6,
            "expected an integer, found a space",
        );
        at(b"3\n1 1 \xC3\xA9 1 1 1 1 1 1\n", 2, 5, "byte 0xC3");
        at(b"3\n1 1 1\t1 1 1 1 1 1\n", 2, 6, "a tab");
        at(
            b"3\n1 2 3 4 5 6 7 8 10\n",
            2,
            1,
            "no magic square uses these numbers",
        );
        at(
            b"4\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 17\n",
            2,
            1,
            "no magic square",
        );
    }
}
