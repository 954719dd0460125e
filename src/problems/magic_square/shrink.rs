//! Counterexample shrinking: simpler solvable inputs derived from a solvable one.
//!
//! Candidates are built from a solution square by maps that keep squares magic (translation,
//! division of differences by their gcd, the constant square), by re-deriving a square from
//! simplified parameters (`S` and the free cells, see [`solver::complete`]), and by N = 3
//! squares made from the N = 4 square's numbers. Only candidates that are strictly simpler by
//! (N, number of distinct values, sum of |v|) are kept, so repeated shrinking terminates.
//! Where possible a candidate keeps the input's order: each input position keeps the cell it
//! held in the solution.

use super::{checker, generator, solver, validator};

type Key = (usize, usize, i128);

fn key(n: usize, values: &[i64]) -> Key {
    let mut s = values.to_vec();
    s.sort_unstable();
    s.dedup();
    (n, s.len(), values.iter().map(|&v| (v as i128).abs()).sum())
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// A "related" 3×3 square: centre from the first cell, deviations from neighbours' differences,
/// halved until everything is in range.
fn related3(sq: &[i64]) -> Vec<i64> {
    let c = sq[0];
    let (mut a, mut b) = (sq[1] - sq[0], sq[4] - sq[0]);
    loop {
        if let Some(s) = solver::complete(3, 3 * c, &[c + a, c - a - b]) {
            if s.iter().all(|v| v.abs() <= validator::MAX_ABS) {
                return s;
            }
        }
        if a == 0 && b == 0 {
            return vec![c; 9];
        }
        (a, b) = (a / 2, b / 2);
    }
}

/// `cell_of[pos]`: the cell of the solution square `sq` that holds the input's number at
/// position `pos` (equal numbers in input order), or `None` when `sq` is not a square of
/// `values`. A square rebuilt from other parameters keeps the input's order through it.
pub(super) fn input_cells(values: &[i64], sq: &[i64]) -> Option<Vec<usize>> {
    let mut taken = vec![false; sq.len()];
    let mut cell_of = Vec::with_capacity(values.len());
    for &v in values {
        let c = (0..sq.len()).find(|&c| !taken[c] && sq[c] == v)?;
        taken[c] = true;
        cell_of.push(c);
    }
    (cell_of.len() == sq.len()).then_some(cell_of)
}

/// Simpler valid inputs than `input`, most aggressive first (see the module docs). Empty when
/// `input` is not a valid, solvable input.
pub fn shrink(input: &str) -> Vec<String> {
    let Some((n, values)) = checker::parse_input(input) else {
        return Vec::new();
    };
    let Some(sq) = solver::solve(&values) else {
        return Vec::new();
    };
    let Some(cell_of) = input_cells(&values, &sq) else {
        return Vec::new();
    };
    let reorder = |s: &[i64]| -> Vec<i64> { cell_of.iter().map(|&c| s[c]).collect() };

    let mut squares: Vec<(usize, Vec<i64>)> = Vec::new();
    // N = 3 candidates (keep a fixed scrambled order so the answer is not the input order).
    if n == 4 {
        let scramble = [4, 0, 8, 2, 6, 1, 7, 3, 5];
        for s3 in [vec![0; 9], related3(&sq)] {
            squares.push((3, scramble.iter().map(|&c| s3[c]).collect()));
        }
    }
    let min = sq.iter().copied().min().unwrap_or(0);
    let mut same: Vec<Vec<i64>> = vec![vec![0; n * n], vec![min; n * n]];
    let shifted: Vec<i64> = sq.iter().map(|v| v - min).collect();
    let g = shifted.iter().fold(0, |a, &b| gcd(a, b));
    if g > 1 {
        same.push(shifted.iter().map(|v| v / g).collect());
    }
    let mut sorted = sq.clone();
    sorted.sort_unstable();
    let median = sorted[n * n / 2];
    same.push(sq.iter().map(|v| v - median).collect());
    same.push(shifted);
    // Parameter simplifications.
    let s: i64 = sq[..n].iter().sum();
    let free: Vec<i64> = solver::free_cells(n).iter().map(|&c| sq[c]).collect();
    let mean = s.div_euclid(n as i64);
    let mut params: Vec<(i64, Vec<i64>)> = Vec::new();
    let halved_s = if n == 3 { (s / 3 / 2) * 3 } else { s / 2 };
    params.push((halved_s, free.iter().map(|v| v / 2).collect()));
    for k in 0..free.len() {
        let mut f = free.clone();
        f[k] = mean;
        params.push((s, f));
    }
    for (s2, f2) in params {
        if let Some(c) = solver::complete(n, s2, &f2) {
            same.push(c);
        }
    }
    for c in same {
        squares.push((n, reorder(&c)));
    }

    let own = key(n, &values);
    let mut out: Vec<(Key, String)> = Vec::new();
    for (m, vals) in squares {
        let k = key(m, &vals);
        if k >= own || vals.iter().any(|v| v.abs() > validator::MAX_ABS) {
            continue;
        }
        let text = generator::format_input(m, &vals);
        if text != input
            && validator::validate(text.as_bytes()).is_ok()
            && !out.iter().any(|(_, t)| *t == text)
        {
            out.push((k, text));
        }
    }
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinks_to_simpler_valid_inputs() {
        let input = "4\n160 30 20 130 50 100 110 80 90 60 70 120 40 150 140 10\n";
        let out = shrink(input);
        assert!(!out.is_empty());
        assert_eq!(out[0], "3\n0 0 0 0 0 0 0 0 0\n");
        let own = key(4, &checker::parse_input(input).unwrap().1);
        for o in &out {
            assert!(validator::validate(o.as_bytes()).is_ok(), "{o}");
            let (m, v) = checker::parse_input(o).unwrap();
            assert!(key(m, &v) < own);
        }
        // Dividing by the gcd of differences keeps the order and Dürer's pattern.
        assert!(out.contains(&"4\n15 2 1 12 4 9 10 7 8 5 6 11 3 14 13 0\n".to_string()));
        assert!(shrink("3\n0 0 0 0 0 0 0 0 0\n").is_empty());
        assert!(shrink("garbage").is_empty());
    }
}
