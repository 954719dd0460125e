//! The default output validator of the Kattis / ICPC package format, natively: a token diff
//! with the flags `case_sensitive`, `space_change_sensitive`, `float_relative_tolerance ε`,
//! `float_absolute_tolerance ε` and `float_tolerance ε` (2025-09 spec, "Default output
//! validator specification").

/// The default validator's settings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub absolute: Option<f64>,
    pub relative: Option<f64>,
}

impl Flags {
    /// Parses the validator arguments. Unknown arguments, a tolerance given twice, or
    /// `float_tolerance` together with a specific one are errors (a broken package).
    pub fn parse(args: &[String]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut general = false;
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |name: &str| -> Result<f64, String> {
                let v = it.next().ok_or_else(|| format!("`{name}` needs a value"))?;
                match parse_float(v) {
                    Some(x) if x >= 0.0 => Ok(x),
                    _ => Err(format!("`{name} {v}`: not a non-negative number")),
                }
            };
            match arg.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => {
                    if flags.absolute.is_some() {
                        return Err("a float tolerance is given twice".into());
                    }
                    flags.absolute = Some(value(arg)?);
                }
                "float_relative_tolerance" => {
                    if flags.relative.is_some() {
                        return Err("a float tolerance is given twice".into());
                    }
                    flags.relative = Some(value(arg)?);
                }
                "float_tolerance" => {
                    if flags.absolute.is_some() || flags.relative.is_some() {
                        return Err(
                            "float_tolerance cannot be combined with another float tolerance"
                                .into(),
                        );
                    }
                    let v = value(arg)?;
                    flags.absolute = Some(v);
                    flags.relative = Some(v);
                    general = true;
                }
                other => {
                    return Err(format!(
                        "unknown default output validator argument `{other}` (known: case_sensitive, space_change_sensitive, float_tolerance, float_absolute_tolerance, float_relative_tolerance)"
                    ))
                }
            }
            if general && args.iter().filter(|a| a.starts_with("float_")).count() > 1 {
                return Err(
                    "float_tolerance cannot be combined with another float tolerance".into(),
                );
            }
        }
        Ok(flags)
    }

    fn has_tolerance(&self) -> bool {
        self.absolute.is_some() || self.relative.is_some()
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\x0c' | b'\n' | b'\r' | b'\t' | b'\x0b')
}

/// A float by the format's grammar: `[+-]? (d* . d+ | d+ . | d+) ([eE] [+-]? d+)?`.
pub fn parse_float(token: &str) -> Option<f64> {
    let b = token.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == s {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    token.parse::<f64>().ok()
}

/// A token and where it starts (1-based line).
struct Token<'a> {
    text: &'a [u8],
    line: usize,
}

/// Alternating whitespace runs and tokens: `spaces[k]` precedes `tokens[k]`; the last
/// whitespace run (after the last token) is `spaces[tokens.len()]`.
fn split(text: &[u8]) -> (Vec<&[u8]>, Vec<Token<'_>>) {
    let mut spaces = Vec::new();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut line = 1;
    loop {
        let s = i;
        while i < text.len() && is_space(text[i]) {
            if text[i] == b'\n' {
                line += 1;
            }
            i += 1;
        }
        spaces.push(&text[s..i]);
        if i == text.len() {
            break;
        }
        let t = i;
        while i < text.len() && !is_space(text[i]) {
            i += 1;
        }
        tokens.push(Token {
            text: &text[t..i],
            line,
        });
    }
    (spaces, tokens)
}

fn show(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s: String = s.chars().flat_map(char::escape_debug).collect();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s
    }
}

/// Compares a contestant `output` with the jury `answer`; `Err` is the reason for a WA.
pub fn compare(answer: &[u8], output: &[u8], flags: &Flags) -> Result<(), String> {
    let (ans_spaces, ans) = split(answer);
    let (out_spaces, out) = split(output);
    for (k, a) in ans.iter().enumerate() {
        let Some(o) = out.get(k) else {
            return Err(format!(
                "output ends after {} token{}; expected `{}` next (answer line {})",
                out.len(),
                if out.len() == 1 { "" } else { "s" },
                show(a.text),
                a.line
            ));
        };
        if flags.space_change_sensitive && ans_spaces[k] != out_spaces[k] {
            return Err(format!(
                "whitespace before token {} (line {}) differs: expected `{}`, got `{}`",
                k + 1,
                o.line,
                show(ans_spaces[k]),
                show(out_spaces[k])
            ));
        }
        token_matches(a, o, flags).map_err(|why| {
            format!(
                "token {} (line {}): expected `{}`, got `{}`{why}",
                k + 1,
                o.line,
                show(a.text),
                show(o.text)
            )
        })?;
    }
    if let Some(extra) = out.get(ans.len()) {
        return Err(format!(
            "extra output after the answer's {} token{}: `{}` (line {})",
            ans.len(),
            if ans.len() == 1 { "" } else { "s" },
            show(extra.text),
            extra.line
        ));
    }
    if flags.space_change_sensitive && ans_spaces[ans.len()] != out_spaces[out.len()] {
        return Err(format!(
            "trailing whitespace differs: expected `{}`, got `{}`",
            show(ans_spaces[ans.len()]),
            show(out_spaces[out.len()])
        ));
    }
    Ok(())
}

/// `Ok` if the tokens match; `Err` holds a suffix for the message.
fn token_matches(a: &Token, o: &Token, flags: &Flags) -> Result<(), String> {
    if flags.has_tolerance() {
        if let Some(want) = std::str::from_utf8(a.text).ok().and_then(parse_float) {
            let Some(got) = std::str::from_utf8(o.text).ok().and_then(parse_float) else {
                return Err(" (not a number)".into());
            };
            let diff = (got - want).abs();
            let abs_ok = flags.absolute.is_some_and(|e| diff <= e);
            let rel_ok = flags.relative.is_some_and(|e| diff <= e * want.abs());
            return if abs_ok || rel_ok {
                Ok(())
            } else {
                Err(format!(" (difference {diff:e})"))
            };
        }
    }
    let equal = if flags.case_sensitive {
        a.text == o.text
    } else {
        a.text.eq_ignore_ascii_case(o.text)
    };
    if equal {
        Ok(())
    } else {
        Err(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &str) -> Flags {
        let v: Vec<String> = args.split_whitespace().map(String::from).collect();
        Flags::parse(&v).unwrap()
    }

    fn ok(ans: &str, out: &str, f: &str) -> bool {
        compare(ans.as_bytes(), out.as_bytes(), &flags(f)).is_ok()
    }

    #[test]
    fn tokens_ignore_whitespace_and_ascii_case_by_default() {
        assert!(ok("Hello World!\n", "hello   world!", ""));
        assert!(ok("1 2\n3\n", "\t1\r\n2 3  \n\n", ""));
        assert!(!ok("1 2\n", "1 2 3\n", ""));
        assert!(!ok("1 2 3\n", "1 2\n", ""));
        assert!(!ok("Hello\n", "hello\n", "case_sensitive"));
        assert!(ok("Hello\n", "Hello\n", "case_sensitive"));
        // Only ASCII letters fold.
        assert!(!ok("É\n", "é\n", ""));
    }

    #[test]
    fn space_change_sensitive_compares_every_whitespace_run() {
        assert!(ok("1 2\n", "1 2\n", "space_change_sensitive"));
        assert!(!ok("1 2\n", "1  2\n", "space_change_sensitive"));
        assert!(!ok("1 2\n", "1 2", "space_change_sensitive"));
        assert!(!ok("1 2\n", " 1 2\n", "space_change_sensitive"));
        assert!(!ok("1\n2\n", "1 2\n", "space_change_sensitive"));
    }

    #[test]
    fn float_tolerances_as_the_spec_defines_them() {
        // Absolute: |s - a| <= eps.
        assert!(ok("1.0\n", "1.0000009\n", "float_absolute_tolerance 1e-6"));
        assert!(!ok("1.0\n", "1.000002\n", "float_absolute_tolerance 1e-6"));
        // Relative: |s - a| <= eps |a|.
        assert!(ok("1000\n", "1000.5\n", "float_relative_tolerance 1e-3"));
        assert!(!ok("1000\n", "1002\n", "float_relative_tolerance 1e-3"));
        // Either tolerance suffices when both are set.
        assert!(ok(
            "1000\n",
            "1000.5\n",
            "float_absolute_tolerance 1e-6 float_relative_tolerance 1e-3"
        ));
        assert!(ok("0\n", "0.0000001\n", "float_tolerance 1e-6"));
        // Any valid formatting of a float token; integers in the answer are floats too.
        assert!(ok("0.0314\n", "3.14000000e-2\n", "float_tolerance 1e-9"));
        assert!(ok("200\n", "2.0e2\n", "float_tolerance 1e-9"));
        assert!(ok("5\n", "+5.\n", "float_tolerance 0"));
        // Without a tolerance, floats are strings.
        assert!(!ok("200\n", "2.0e2\n", ""));
        // A non-float answer token is compared as a string even with a tolerance.
        assert!(ok("yes 1.5\n", "YES 1.5000001\n", "float_tolerance 1e-6"));
        // An output token that is not a float fails where the answer has a float.
        assert!(!ok("1.5\n", "1,5\n", "float_tolerance 1e-6"));
        assert!(!ok("1.5\n", "nan\n", "float_tolerance 1e-6"));
    }

    #[test]
    fn float_grammar() {
        for good in [
            "1", "-1", "+1", "1.", ".5", "1.5", "1e5", "1.5E-3", "-.5e+2",
        ] {
            assert!(parse_float(good).is_some(), "{good}");
        }
        for bad in [
            "", ".", "e5", "1e", "1.5.2", "inf", "nan", "0x10", "1_000", "--1",
        ] {
            assert!(parse_float(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn bad_flags_are_errors() {
        let parse =
            |s: &str| Flags::parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>());
        assert!(parse("float_tolerance 1e-6 float_absolute_tolerance 1e-6").is_err());
        assert!(parse("float_absolute_tolerance 1e-6 float_tolerance 1e-6").is_err());
        assert!(parse("float_absolute_tolerance 1 float_absolute_tolerance 2").is_err());
        assert!(parse("float_tolerance").is_err());
        assert!(parse("float_tolerance x").is_err());
        assert!(parse("ignore_case").unwrap_err().contains("`ignore_case`"));
        assert_eq!(
            parse("float_absolute_tolerance 1e-6 float_relative_tolerance 1e-4").unwrap(),
            Flags {
                absolute: Some(1e-6),
                relative: Some(1e-4),
                ..Flags::default()
            }
        );
    }

    #[test]
    fn messages_name_the_token_and_line() {
        let e = compare(b"1\n2\n", b"1\n3\n", &Flags::default()).unwrap_err();
        assert_eq!(e, "token 2 (line 2): expected `2`, got `3`");
        let e = compare(b"1 2\n", b"1\n", &Flags::default()).unwrap_err();
        assert!(e.starts_with("output ends after 1 token"), "{e}");
        let e = compare(b"1\n", b"1 2\n", &Flags::default()).unwrap_err();
        assert!(e.starts_with("extra output"), "{e}");
    }
}
