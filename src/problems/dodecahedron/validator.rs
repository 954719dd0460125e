//! Byte-strict input validator.
//!
//! The only accepted shape is 12 lines of exactly five marks from `{0,1,2}` separated by
//! single spaces, each line ending in `\n`, and nothing after the twelfth line. Columns in
//! violations are 1-based byte offsets within the line.

use super::geometry::{FACES, SIDES};
use crate::problems::Violation;

/// A short, printable rendering of the bytes of a bad token for messages.
fn shown(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(20)];
    let mut s = String::from_utf8_lossy(cut).into_owned();
    if bytes.len() > cut.len() {
        s.push('…');
    }
    s
}

/// A description of the unexpected byte at `pos` (the first byte of something that is not
/// allowed where it stands).
fn describe(input: &[u8], pos: usize, utf8_bad_from: usize) -> String {
    match input[pos] {
        b'\r' => "carriage return (`\\r`) is not allowed; lines must end in `\\n` alone".into(),
        b'\t' => "tab is not allowed; separate marks with a single space".into(),
        b if b >= 0x80 && pos >= utf8_bad_from => format!("invalid UTF-8 byte 0x{b:02x}"),
        b if b >= 0x80 => {
            let ch = std::str::from_utf8(&input[pos..])
                .ok()
                .or_else(|| std::str::from_utf8(&input[pos..utf8_bad_from]).ok())
                .and_then(|s| s.chars().next())
                .unwrap_or('?');
            format!("unexpected character `{ch}`")
        }
        b if b.is_ascii_graphic() => format!("unexpected character `{}`", b as char),
        b => format!("unexpected control byte 0x{b:02x}"),
    }
}

/// Checks `input` against the format; returns the first violation.
pub fn validate(input: &[u8]) -> Result<(), Violation> {
    let utf8_bad_from = match std::str::from_utf8(input) {
        Ok(_) => usize::MAX,
        Err(e) => e.valid_up_to(),
    };
    let mut pos = 0usize;
    for line in 1..=FACES {
        let start = pos;
        let col = |p: usize| p - start + 1;
        if pos >= input.len() {
            return Err(Violation::new(
                line,
                1,
                format!("expected {FACES} lines, found {}", line - 1),
            ));
        }
        for mark in 1..=SIDES {
            // A mark: exactly one byte from 0..=2, not followed by another digit.
            let tok_start = pos;
            let Some(&b) = input.get(pos) else {
                return Err(Violation::new(
                    line,
                    col(pos),
                    format!("expected {SIDES} marks, found {}", mark - 1),
                ));
            };
            let token_end = |mut p: usize| {
                while p < input.len() && !matches!(input[p], b' ' | b'\n' | b'\r' | b'\t') {
                    p += 1;
                }
                p
            };
            match b {
                b'0'..=b'2' if !input.get(pos + 1).is_some_and(u8::is_ascii_digit) => pos += 1,
                b'0' => {
                    let end = token_end(pos);
                    return Err(Violation::new(
                        line,
                        col(tok_start),
                        format!(
                            "leading zeros are not allowed: found `{}`",
                            shown(&input[tok_start..end])
                        ),
                    ));
                }
                b'0'..=b'9' | b'-' | b'+' => {
                    let end = token_end(pos);
                    return Err(Violation::new(
                        line,
                        col(tok_start),
                        format!(
                            "mark must be 0, 1 or 2, found `{}`",
                            shown(&input[tok_start..end])
                        ),
                    ));
                }
                b'\n' if mark == 1 => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!("empty line: expected {SIDES} marks"),
                    ));
                }
                b' ' if mark == 1 => {
                    return Err(Violation::new(line, col(pos), "line starts with a space"));
                }
                b' ' => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!("expected a single space after mark {}", mark - 1),
                    ));
                }
                b'\n' => {
                    return Err(Violation::new(
                        line,
                        col(pos - 1),
                        format!("trailing space after mark {}", mark - 1),
                    ));
                }
                _ => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!(
                            "expected mark {mark} (0, 1 or 2): {}",
                            describe(input, pos, utf8_bad_from)
                        ),
                    ));
                }
            }
            // The separator after the mark.
            let want_newline = mark == SIDES;
            match input.get(pos) {
                Some(b' ') if !want_newline => pos += 1,
                Some(b'\n') if want_newline => pos += 1,
                None if want_newline => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        "missing newline at the end of the line",
                    ));
                }
                None | Some(b'\n') => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!("expected {SIDES} marks, found {mark}"),
                    ));
                }
                Some(b' ') => {
                    let next = input.get(pos + 1);
                    let msg = if matches!(next, None | Some(b'\n')) {
                        format!("trailing space after mark {SIDES}")
                    } else {
                        format!("expected {SIDES} marks, found more")
                    };
                    return Err(Violation::new(line, col(pos), msg));
                }
                Some(_) if want_newline => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!(
                            "expected end of line after mark {SIDES}: {}",
                            describe(input, pos, utf8_bad_from)
                        ),
                    ));
                }
                Some(_) => {
                    return Err(Violation::new(
                        line,
                        col(pos),
                        format!(
                            "expected a space after mark {mark}: {}",
                            describe(input, pos, utf8_bad_from)
                        ),
                    ));
                }
            }
        }
    }
    if pos < input.len() {
        let msg = if input[pos] == b'\n' {
            format!("blank line after line {FACES}; the input must end right after it")
        } else {
            format!("expected {FACES} lines, found more")
        };
        return Err(Violation::new(FACES + 1, 1, msg));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD_LINE: &str = "0 1 2 1 0\n";

    fn with_line(i: usize, line: &str) -> Vec<u8> {
        let mut s = String::new();
        for k in 0..FACES {
            s.push_str(if k == i { line } else { GOOD_LINE });
        }
        s.into_bytes()
    }

    fn err(input: &[u8]) -> (usize, usize, String) {
        let v = validate(input).expect_err("must be rejected");
        let p = v.position.expect("a position");
        (p.line, p.column, v.message)
    }

    #[test]
    fn accepts_well_formed() {
        assert_eq!(validate(GOOD_LINE.repeat(12).as_bytes()), Ok(()));
        assert_eq!(validate("2 2 2 2 2\n".repeat(12).as_bytes()), Ok(()));
    }

    #[test]
    fn line_count() {
        let (l, c, m) = err(GOOD_LINE.repeat(11).as_bytes());
        assert_eq!((l, c, m.as_str()), (12, 1, "expected 12 lines, found 11"));
        let (l, c, m) = err(b"");
        assert_eq!((l, c, m.as_str()), (1, 1, "expected 12 lines, found 0"));
        let (l, c, m) = err(GOOD_LINE.repeat(13).as_bytes());
        assert_eq!((l, c, m.as_str()), (13, 1, "expected 12 lines, found more"));
        let mut blank = GOOD_LINE.repeat(12);
        blank.push('\n');
        let (l, c, m) = err(blank.as_bytes());
        assert_eq!((l, c), (13, 1));
        assert!(m.contains("blank line"), "{m}");
    }

    #[test]
    fn bad_marks() {
        assert_eq!(
            err(&with_line(2, "0 3 0 0 0\n")),
            (3, 3, "mark must be 0, 1 or 2, found `3`".into())
        );
        assert_eq!(
            err(&with_line(0, "0 0 -1 0 0\n")),
            (1, 5, "mark must be 0, 1 or 2, found `-1`".into())
        );
        assert_eq!(
            err(&with_line(0, "+1 0 0 0 0\n")),
            (1, 1, "mark must be 0, 1 or 2, found `+1`".into())
        );
        assert_eq!(
            err(&with_line(4, "0 0 0 00 0\n")),
            (5, 7, "leading zeros are not allowed: found `00`".into())
        );
        assert_eq!(
            err(&with_line(4, "0 0 0 12 0\n")),
            (5, 7, "mark must be 0, 1 or 2, found `12`".into())
        );
        let (l, c, m) = err(&with_line(1, "0 x 0 0 0\n"));
        assert_eq!((l, c), (2, 3));
        assert!(m.contains("`x`"), "{m}");
    }

    #[test]
    fn separators() {
        assert_eq!(
            err(&with_line(0, "0 0 0 0 0 \n")),
            (1, 10, "trailing space after mark 5".into())
        );
        assert_eq!(
            err(&with_line(0, "0 0  0 0 0\n")),
            (1, 5, "expected a single space after mark 2".into())
        );
        assert_eq!(
            err(&with_line(0, "0 0 0 0 0 0\n")),
            (1, 10, "expected 5 marks, found more".into())
        );
        assert_eq!(
            err(&with_line(0, "0 0 0 0\n")),
            (1, 8, "expected 5 marks, found 4".into())
        );
        assert_eq!(
            err(&with_line(0, "0 0 0 \n")),
            (1, 6, "trailing space after mark 3".into())
        );
        assert_eq!(
            err(&with_line(3, "00 0 0 0\n")),
            (4, 1, "leading zeros are not allowed: found `00`".into())
        );
        let (l, c, m) = err(&with_line(6, "0 0\t0 0 0\n"));
        assert_eq!((l, c), (7, 4));
        assert!(
            m.starts_with("expected a space after mark 2") && m.contains("tab"),
            "{m}"
        );
        let (l, c, m) = err(&with_line(0, "0 0 0 0 0\r\n"));
        assert_eq!((l, c), (1, 10));
        assert!(m.contains("carriage return"), "{m}");
        assert_eq!(
            err(&with_line(0, " 0 0 0 0 0\n")),
            (1, 1, "line starts with a space".into())
        );
        assert_eq!(
            err(&with_line(5, "\n")),
            (6, 1, "empty line: expected 5 marks".into())
        );
    }

    #[test]
    fn missing_final_newline() {
        let mut s = GOOD_LINE.repeat(12);
        s.pop();
        assert_eq!(
            err(s.as_bytes()),
            (12, 10, "missing newline at the end of the line".into())
        );
        let mut s = GOOD_LINE.repeat(11);
        s.push_str("0 1");
        assert_eq!(
            err(s.as_bytes()),
            (12, 4, "expected 5 marks, found 2".into())
        );
    }

    #[test]
    fn non_utf8_and_unicode() {
        let mut bytes = with_line(8, "0 0 0 0 0\n");
        bytes[8 * 10 + 2] = 0xff;
        let (l, c, m) = err(&bytes);
        assert_eq!((l, c), (9, 3));
        assert!(m.contains("invalid UTF-8 byte 0xff"), "{m}");
        let (l, c, m) = err(&with_line(0, "0 é 0 0 0\n"));
        assert_eq!((l, c), (1, 3));
        assert!(m.contains("`é`"), "{m}");
        let (_, _, m) = err(&with_line(0, "0 0 0 0 0\u{0}\n"));
        assert!(m.contains("control byte 0x00"), "{m}");
    }

    #[test]
    fn reports_the_first_violation() {
        let mut s = with_line(1, "0 3 0 0 0\n");
        s.extend_from_slice(b"extra\n");
        assert_eq!(err(&s).0, 2);
    }
}
