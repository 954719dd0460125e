//! Output checker and answer mutations.
//!
//! The checker reads whitespace-separated tokens (any layout: trailing spaces and blank lines
//! are fine), requires exactly N·N integers using exactly the input multiset, and all rows,
//! columns and both main diagonals summing to total/N. Sums are computed in `i128`, so no
//! contestant number can overflow them; tokens longer than 30 characters are rejected unread.

use std::collections::BTreeMap;

use super::solver;
use crate::problems::{tokens, Judgement};

/// Parses an input leniently (whitespace-separated tokens): N and the N·N numbers. `None` when
/// it is not of that shape; valid inputs always parse.
pub fn parse_input(input: &str) -> Option<(usize, Vec<i64>)> {
    let mut tokens = input.split_ascii_whitespace();
    let n: usize = tokens.next()?.parse().ok()?;
    if n != 3 && n != 4 {
        return None;
    }
    let values: Vec<i64> = tokens.map(|t| t.parse().ok()).collect::<Option<_>>()?;
    (values.len() == n * n).then_some((n, values))
}

/// An optional `-` and decimal digits (of any length).
fn is_integer(token: &[u8]) -> bool {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

fn parse_number(token: &[u8]) -> Option<i128> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if digits.is_empty() || digits.len() > 30 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // 30 digits fit in i128 (< 1.7·10^38).
    let m = digits
        .iter()
        .fold(0i128, |a, &d| a * 10 + i128::from(d - b'0'));
    Some(if token.first() == Some(&b'-') { -m } else { m })
}

fn times(k: usize) -> String {
    match k {
        0 => "no times".into(),
        1 => "once".into(),
        2 => "twice".into(),
        k => format!("{k} times"),
    }
}

/// Judges `output` as an arrangement of `values` (order `n`). `Err` holds a one-line reason.
pub fn judge_square(n: usize, values: &[i64], output: &[u8]) -> Result<(), String> {
    let tokens = tokens(output);
    let want = format!("{} numbers", n * n);
    // What is there instead of a number comes first (`no solution` is 2 tokens, not numbers);
    // one token past the square is checked too, so extra text is named as well.
    let mut cells = Vec::with_capacity(n * n);
    for (k, t) in tokens.iter().take(n * n + 1).enumerate() {
        match parse_number(t.text) {
            Some(v) => cells.push(v),
            None if is_integer(t.text) => {
                return Err(format!(
                    "token {} ({}) at line {} is out of range",
                    k + 1,
                    t.shown(),
                    t.line
                ))
            }
            None => return Err(t.unexpected(&want)),
        }
    }
    if tokens.len() != n * n {
        return Err(format!("expected {want}, found {}", tokens.len()));
    }
    let mut have: BTreeMap<i128, usize> = BTreeMap::new();
    for &v in values {
        *have.entry(v as i128).or_default() += 1;
    }
    let mut used: BTreeMap<i128, usize> = BTreeMap::new();
    for &v in &cells {
        let u = used.entry(v).or_default();
        *u += 1;
        let h = have.get(&v).copied().unwrap_or(0);
        if *u > h {
            let count = cells.iter().filter(|&&c| c == v).count();
            return Err(if h == 0 {
                format!("uses {v}, which is not in the input")
            } else {
                format!(
                    "uses {v} {} but the input has it {}",
                    times(count),
                    times(h)
                )
            });
        }
    }
    let total: i128 = values.iter().map(|&v| v as i128).sum();
    let target = total / n as i128;
    let names = (0..n)
        .map(|r| format!("row {}", r + 1))
        .chain((0..n).map(|c| format!("column {}", c + 1)))
        .chain(["main diagonal".to_string(), "anti-diagonal".to_string()]);
    for (line, name) in solver::lines(n).iter().zip(names) {
        let sum: i128 = line.iter().map(|&c| cells[c]).sum();
        if sum != target || total % n as i128 != 0 {
            return Err(format!("{name} sums to {sum}, expected {target}"));
        }
    }
    Ok(())
}

/// Full check: the jury answer must itself be valid (else `JudgeError`), then the output.
pub fn check(input: &str, answer: &str, output: &[u8]) -> Judgement {
    let Some((n, values)) = parse_input(input) else {
        return Judgement::JudgeError("input is not a magic-square input".into());
    };
    if let Err(why) = judge_square(n, &values, answer.as_bytes()) {
        return Judgement::JudgeError(format!("jury answer is not a valid magic square: {why}"));
    }
    match judge_square(n, &values, output) {
        Ok(()) => Judgement::Accepted,
        Err(why) => Judgement::Rejected(why),
    }
}

/// Labelled wrong answers derived from the (correct) `answer`; each one is rejected by
/// [`check`] (candidates that happen to stay valid are dropped).
pub fn mutate_answer(input: &str, answer: &str) -> Vec<(String, String)> {
    let Some((n, values)) = parse_input(input) else {
        return Vec::new();
    };
    let cells: Option<Vec<i64>> = answer
        .split_ascii_whitespace()
        .map(|t| t.parse().ok())
        .collect();
    let Some(cells) = cells.filter(|c| c.len() == n * n) else {
        return Vec::new();
    };
    let fmt = |c: &[i64]| solver::format_square(n, c);
    let mut out: Vec<(String, String)> = Vec::new();

    let mut changed = cells.clone();
    changed[0] += 1;
    out.push(("change-one".into(), fmt(&changed)));

    // First swap of two different values that breaks the square.
    'swap: for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            if cells[i] != cells[j] {
                let mut s = cells.clone();
                s.swap(i, j);
                if !solver::is_magic(n, &s) {
                    out.push(("swap-two".into(), fmt(&s)));
                    break 'swap;
                }
            }
        }
    }

    let text = fmt(&cells);
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    out.push((
        "missing-token".into(),
        tokens[..tokens.len() - 1].join(" ") + "\n",
    ));
    out.push(("extra-token".into(), format!("{text}{}\n", cells[0])));

    let mut transposed: Vec<i64> = (0..n * n).map(|i| cells[(i % n) * n + i / n]).collect();
    transposed[n * n - 1] -= 1;
    out.push(("transposed-one-wrong".into(), fmt(&transposed)));

    let max = values.iter().copied().max().unwrap_or(0);
    let min = values.iter().copied().min().unwrap_or(0);
    let foreign = if max < super::validator::MAX_ABS {
        max + 1
    } else {
        min - 1
    };
    let mut replaced = cells.clone();
    replaced[n * n / 2] = foreign;
    out.push(("foreign-value".into(), fmt(&replaced)));

    // A solution that computes the magic sum in 32-bit arithmetic (wrapping, as C++ does in
    // practice) and derives each row's last cell from it. Only differs when the total or the
    // row sums do not fit in i32. (Values themselves always fit in i32, so "wrapping each
    // value" never changes a valid square.)
    let total32 = values.iter().fold(0i32, |a, &v| a.wrapping_add(v as i32));
    let s32 = total32.wrapping_div(n as i32);
    let mut wrapped = cells.clone();
    for r in 0..n {
        let partial = (0..n - 1).fold(0i32, |a, c| a.wrapping_add(cells[r * n + c] as i32));
        wrapped[r * n + n - 1] = i64::from(s32.wrapping_sub(partial));
    }
    if wrapped != cells {
        out.push(("i32-magic-sum".into(), fmt(&wrapped)));
    }

    out.retain(|(_, o)| matches!(check(input, answer, o.as_bytes()), Judgement::Rejected(_)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const IN3: &str = "3\n1 2 3 4 5 6 7 8 9\n";
    const ANS3: &str = "2 7 6\n9 5 1\n4 3 8\n";

    fn rejected(output: &str) -> String {
        match check(IN3, ANS3, output.as_bytes()) {
            Judgement::Rejected(r) => r,
            other => panic!("{output:?} gave {other:?}"),
        }
    }

    #[test]
    fn accepts_any_valid_layout() {
        assert_eq!(check(IN3, ANS3, ANS3.as_bytes()), Judgement::Accepted);
        assert_eq!(
            check(IN3, ANS3, b"8 3 4 1 5 9 6 7 2  \n\n\n"),
            Judgement::Accepted
        );
        assert_eq!(
            check(IN3, ANS3, b"\t2 7 6 9 5 1 4 3 8"),
            Judgement::Accepted
        );
    }

    #[test]
    fn rejects_with_reasons() {
        assert_eq!(
            rejected("2 7 6\n9 5 1\n4 3\n"),
            "expected 9 numbers, found 8"
        );
        assert_eq!(rejected(""), "expected 9 numbers, found 0");
        assert_eq!(
            rejected("2 7 6 9 5 1 4 3 8 8"),
            "expected 9 numbers, found 10"
        );
        assert_eq!(
            rejected("2 7 6 9 5 1 4 3 x"),
            "expected 9 numbers, found \"x\" at line 1"
        );
        assert_eq!(
            rejected("no solution\n"),
            "expected 9 numbers, found \"no\" at line 1"
        );
        assert_eq!(
            rejected("2 7 6\n9 5 1\n4 3 8\nthanks"),
            "expected 9 numbers, found \"thanks\" at line 4"
        );
        assert_eq!(
            rejected("2 7 6 9 5 1 4 3 9999999999999999999999999999999999"),
            "token 9 (\"99999999999999999999\"...) at line 1 is out of range"
        );
        assert!(rejected("2 7 6 9 5 1 4 3 +8").contains("found \"+8\""));
        assert!(rejected("2 7 6 9 5 1 4 3 -").contains("found \"-\""));
        assert!(rejected("2 7 6 9 5 1 4 3 \u{e9}").contains("found \"\u{e9}\""));
        match check(IN3, ANS3, b"2 7 6 9 5 1 4 3 \xff\xfe") {
            Judgement::Rejected(r) => assert!(r.contains("expected 9 numbers, found"), "{r}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            rejected("2 7 7 9 5 1 4 3 8"),
            "uses 7 twice but the input has it once"
        );
        assert_eq!(
            rejected("2 7 6 9 5 1 4 3 10"),
            "uses 10, which is not in the input"
        );
        assert_eq!(
            rejected("1 2 3 4 5 6 7 8 9"),
            "row 1 sums to 6, expected 15"
        );
        assert_eq!(
            rejected("7 2 6 9 5 1 4 3 8"),
            "column 1 sums to 20, expected 15"
        );
        assert_eq!(
            rejected("2 7 6 9 5 1 4 8 3"),
            "column 2 sums to 20, expected 15"
        );
        assert_eq!(
            rejected("9 5 1 2 7 6 4 3 8"),
            "main diagonal sums to 24, expected 15"
        );
        // Dürer's square with its two middle rows swapped: rows/columns/main diagonal hold.
        let input4 = "4\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
        let durer = "16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1";
        let bad = "16 3 2 13 5 10 11 8 4 15 14 1 9 6 7 12";
        assert_eq!(check(input4, durer, durer.as_bytes()), Judgement::Accepted);
        assert!(
            matches!(check(input4, durer, bad.as_bytes()), Judgement::Rejected(r) if r.contains("diagonal"))
        );
        // Jury answers that are wrong are the jury's fault.
        assert!(matches!(
            check(IN3, "1 2 3 4 5 6 7 8 9", ANS3.as_bytes()),
            Judgement::JudgeError(_)
        ));
        assert!(matches!(
            check("garbage", ANS3, ANS3.as_bytes()),
            Judgement::JudgeError(_)
        ));
    }

    #[test]
    fn huge_sums_do_not_overflow() {
        let v = 1_000_000_000i64;
        let input = format!("3\n{}\n", [v; 9].map(|x| x.to_string()).join(" "));
        let ans = format!("{v} {v} {v}\n{v} {v} {v}\n{v} {v} {v}\n");
        assert_eq!(check(&input, &ans, ans.as_bytes()), Judgement::Accepted);
        let out = ans.replacen("1000000000", "-1000000000", 1);
        assert!(matches!(
            check(&input, &ans, out.as_bytes()),
            Judgement::Rejected(_)
        ));
    }

    #[test]
    fn mutations_are_all_rejected() {
        let m = mutate_answer(IN3, ANS3);
        let labels: Vec<&str> = m.iter().map(|(l, _)| l.as_str()).collect();
        for l in [
            "change-one",
            "swap-two",
            "missing-token",
            "extra-token",
            "transposed-one-wrong",
            "foreign-value",
        ] {
            assert!(labels.contains(&l), "{l} missing from {labels:?}");
        }
        for (label, out) in &m {
            assert!(
                matches!(check(IN3, ANS3, out.as_bytes()), Judgement::Rejected(_)),
                "{label}"
            );
        }
        // All-equal: no swap of different values exists, the rest still applies.
        let eq = "3\n5 5 5 5 5 5 5 5 5\n";
        let m = mutate_answer(eq, "5 5 5\n5 5 5\n5 5 5\n");
        assert!(m.iter().all(|(l, _)| l != "swap-two"));
        assert!(m.len() >= 5);
    }
}
