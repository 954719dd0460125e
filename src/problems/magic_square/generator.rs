//! Generators: each builds a magic square, then shuffles its numbers, so every output is
//! solvable by construction.
//!
//! Randomness is `ChaCha8Rng::seed_from_u64(seed)` read only through `next_u64` with our own
//! bounded sampling and shuffle, so outputs depend on nothing but the seed (not on `rand`'s
//! distribution internals or the platform's `usize`).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::validator::MAX_ABS;
use super::{solver, wrap};
use crate::problems::{GenError, GenParams, GeneratorSpec};

/// The generator families, in a stable order.
pub const GENERATORS: &[GeneratorSpec] = &[
    GeneratorSpec {
        name: "random",
        description: "random magic square with values in [-max, max] (default 10^9), shuffled",
        params: &["n", "max"],
    },
    GeneratorSpec {
        name: "classical",
        description: "Lo Shu / Duerer patterns over an arithmetic progression, or Euler's Latin-square construction (N=4)",
        params: &["n"],
    },
    GeneratorSpec {
        name: "small-duplicates",
        description: "values in [-max, max] (default 3): many duplicates; breaks solvers that assume distinct values",
        params: &["n", "max"],
    },
    GeneratorSpec {
        name: "all-equal",
        description: "every number equal (one random value); breaks solvers that dedupe or divide by differences",
        params: &["n"],
    },
    GeneratorSpec {
        name: "distinct",
        description: "all N*N values distinct, in [-max, max] (default 1000, at least 20)",
        params: &["n", "max"],
    },
    GeneratorSpec {
        name: "negative",
        description: "all values negative, in [-max, -1] (default max 10^9); breaks unsigned/abs assumptions",
        params: &["n", "max"],
    },
    GeneratorSpec {
        name: "huge",
        description: "values near 10^9 (mode 0), near -10^9 (mode 1), +-10^9 mixed with total 0 but input-order prefix sums past i32 (mode 2), row sums ~2.4e9 where total/N in i32 is wrong (mode 3)",
        params: &["n", "mode"],
    },
    GeneratorSpec {
        name: "few-solutions",
        description: "small values (|v| <= max, default 30) but at most `limit` squares up to the 8 symmetries (default 1 for N=3, 4 for N=4)",
        params: &["n", "max", "limit"],
    },
    GeneratorSpec {
        name: "anti-heuristic",
        description: "small values (|v| <= max, default 50) where sorted, Lo Shu/Duerer-rank and complement placements all fail",
        params: &["n", "max"],
    },
    GeneratorSpec {
        name: "diagonal-wrap",
        description: "N = 4 only: numbers that also fill a non-magic square whose rows and columns sum to S but whose main diagonal sums to S - 2^32 (S + 2^32 with negate = 1): rejects diagonal sums in 32 bits",
        params: &["n", "negate"],
    },
];

/// Families that only make N = 4 inputs (`n = 3` is a parameter error).
pub const N4_ONLY: &[&str] = &["diagonal-wrap"];

/// The N values family `name` accepts.
pub fn orders(name: &str) -> &'static [i64] {
    if N4_ONLY.contains(&name) {
        &[4]
    } else {
        &[3, 4]
    }
}

/// Uniform integer in `0..n` (`n > 0`), by rejection so it is exactly uniform.
pub(super) fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return x % n;
        }
    }
}

/// Uniform integer in `lo..=hi` (`lo <= hi`).
pub(super) fn range(rng: &mut ChaCha8Rng, lo: i64, hi: i64) -> i64 {
    let width = (hi as i128 - lo as i128 + 1) as u64;
    (lo as i128 + below(rng, width) as i128) as i64
}

pub(super) fn shuffle(rng: &mut ChaCha8Rng, v: &mut [i64]) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

fn in_range(v: &[i64], lo: i64, hi: i64) -> bool {
    v.iter().all(|&x| lo <= x && x <= hi)
}

/// A random magic square of order `n` with every value in `lo..=hi`, centred near `t`:
/// magic sum about `n·t`, free cells `t ± w`, shrinking `w` until the forced cells fit. Ends
/// at worst with the constant square `t`, so it always returns.
fn square_around(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64, t: i64) -> Vec<i64> {
    let mut w = (hi - lo) / 2;
    let k = solver::free_cells(n).len();
    loop {
        for _ in 0..4 {
            let r = if n == 4 { range(rng, -3, 3) } else { 0 };
            let s = n as i64 * t + r;
            let free: Vec<i64> = (0..k).map(|_| t + range(rng, -w, w)).collect();
            if let Some(sq) = solver::complete(n, s, &free) {
                if in_range(&sq, lo, hi) {
                    return sq;
                }
            }
        }
        if w == 0 {
            return vec![t; n * n];
        }
        w = w * 3 / 4;
    }
}

/// A random magic square of order `n` with values in `lo..=hi`.
pub fn random_square(rng: &mut ChaCha8Rng, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    let t = range(rng, lo, hi);
    square_around(rng, n, lo, hi, t)
}

/// Lo Shu ranks (1-based) of the 3×3 square.
const LO_SHU: [usize; 9] = [2, 7, 6, 9, 5, 1, 4, 3, 8];
/// Dürer's ranks (Melencolia I).
const DURER: [usize; 16] = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];
/// The diagonal-complement construction's ranks.
const COMPLEMENT: [usize; 16] = [1, 15, 14, 4, 12, 6, 7, 9, 8, 10, 11, 5, 13, 3, 2, 16];
/// An orthogonal pair of diagonal Latin squares of order 4 (the second is the transpose of
/// the first): `x[L1] + y[L2]` is magic for any `x`, `y`.
const L1: [usize; 16] = [0, 1, 2, 3, 2, 3, 0, 1, 3, 2, 1, 0, 1, 0, 3, 2];

/// `values` (sorted ascending) placed by 1-based rank pattern.
fn by_ranks(sorted: &[i64], ranks: &[usize]) -> Vec<i64> {
    ranks.iter().map(|&r| sorted[r - 1]).collect()
}

/// The Euler (orthogonal Latin squares) square `x[L1] + y[L2]`.
pub fn euler_square(x: [i64; 4], y: [i64; 4]) -> Vec<i64> {
    (0..16)
        .map(|i| x[L1[i]] + y[L1[(i % 4) * 4 + i / 4]])
        .collect()
}

/// Whether a simple "sort and place by a fixed pattern" heuristic solves `values`.
pub fn heuristics_solve(n: usize, values: &[i64]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let mut rev = sorted.clone();
    rev.reverse();
    let patterns: Vec<&[usize]> = if n == 3 {
        vec![&LO_SHU]
    } else {
        vec![&DURER, &COMPLEMENT]
    };
    let mut tries = vec![sorted.clone(), rev.clone()];
    for p in patterns {
        tries.push(by_ranks(&sorted, p));
        tries.push(by_ranks(&rev, p));
    }
    tries.iter().any(|t| solver::is_magic(n, t))
}

fn bad(generator: &str, message: impl Into<String>) -> GenError {
    GenError::BadParams {
        generator: generator.into(),
        message: message.into(),
    }
}

fn param(
    generator: &str,
    params: &GenParams,
    key: &str,
    default: i64,
    lo: i64,
    hi: i64,
) -> Result<i64, GenError> {
    let v = params.get(key, default);
    if v < lo || v > hi {
        return Err(bad(
            generator,
            format!("{key} must be in {lo}..={hi}, got {v}"),
        ));
    }
    Ok(v)
}

/// `N\n` then the values on one line, the exact input format.
pub fn format_input(n: usize, values: &[i64]) -> String {
    let nums: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("{n}\n{}\n", nums.join(" "))
}

fn distinct_count(v: &[i64]) -> usize {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.dedup();
    s.len()
}

/// The largest prefix sum of `v` in absolute value (as if summed left to right).
fn max_prefix(v: &[i64]) -> i64 {
    let mut acc = 0i64;
    let mut best = 0i64;
    for &x in v {
        acc += x;
        best = best.max(acc.abs());
    }
    best
}

/// One input from family `generator` (see [`GENERATORS`]); deterministic in `seed`.
pub fn generate(generator: &str, params: &GenParams, seed: u64) -> Result<String, GenError> {
    let rng = &mut ChaCha8Rng::seed_from_u64(seed);
    let n = param(generator, params, "n", 4, 3, 4)? as usize;
    let mut square = match generator {
        "random" => {
            let max = param(generator, params, "max", MAX_ABS, 0, MAX_ABS)?;
            random_square(rng, n, -max, max)
        }
        "classical" => classical(rng, n),
        "small-duplicates" => {
            let max = param(generator, params, "max", 3, 0, MAX_ABS)?;
            random_square(rng, n, -max, max)
        }
        "all-equal" => vec![range(rng, -MAX_ABS, MAX_ABS); n * n],
        "distinct" => {
            let max = param(generator, params, "max", 1000, 20, MAX_ABS)?;
            distinct(rng, n, max)
        }
        "negative" => {
            let max = param(generator, params, "max", MAX_ABS, 1, MAX_ABS)?;
            random_square(rng, n, -max, -1)
        }
        "huge" => {
            let mode = param(generator, params, "mode", 0, 0, 3)?;
            return Ok(huge(rng, n, mode));
        }
        "few-solutions" => {
            let max = param(generator, params, "max", 30, 1, MAX_ABS)?;
            let limit = param(
                generator,
                params,
                "limit",
                if n == 3 { 1 } else { 4 },
                1,
                1000,
            )?;
            few_solutions(rng, n, max, limit as usize)
        }
        "anti-heuristic" => {
            let max = param(generator, params, "max", 50, 10, MAX_ABS)?;
            anti_heuristic(rng, n, max)
        }
        "diagonal-wrap" => {
            if n != 4 {
                return Err(bad(generator, "needs n = 4 (no 3x3 square can wrap)"));
            }
            let negate = param(generator, params, "negate", 0, 0, 1)? == 1;
            return Ok(format_input(n, &wrap::generate(rng, negate)));
        }
        _ => {
            let available: Vec<&str> = GENERATORS.iter().map(|g| g.name).collect();
            return Err(GenError::UnknownGenerator {
                name: generator.into(),
                available: available.join(", "),
            });
        }
    };
    shuffle(rng, &mut square);
    Ok(format_input(n, &square))
}

fn classical(rng: &mut ChaCha8Rng, n: usize) -> Vec<i64> {
    let kind = below(rng, 3);
    if n == 4 && kind == 2 {
        let mut x = [0i64; 4];
        let mut y = [0i64; 4];
        for i in 0..4 {
            x[i] = range(rng, -MAX_ABS / 2, MAX_ABS / 2);
            y[i] = range(rng, -MAX_ABS / 2, MAX_ABS / 2);
        }
        return euler_square(x, y);
    }
    let cells = (n * n) as i64;
    // Small steps half the time (like 1..n²), large ones otherwise.
    let dmax = if below(rng, 2) == 0 {
        10
    } else {
        2 * MAX_ABS / (cells - 1)
    };
    let d = range(rng, 1, dmax);
    let a = range(rng, -MAX_ABS, MAX_ABS - (cells - 1) * d);
    let ap: Vec<i64> = (0..cells).map(|k| a + k * d).collect();
    match (n, kind) {
        (3, _) => by_ranks(&ap, &LO_SHU),
        (_, 0) => by_ranks(&ap, &DURER),
        _ => by_ranks(&ap, &COMPLEMENT),
    }
}

fn distinct(rng: &mut ChaCha8Rng, n: usize, max: i64) -> Vec<i64> {
    for _ in 0..10_000 {
        let sq = random_square(rng, n, -max, max);
        if distinct_count(&sq) == n * n {
            return sq;
        }
    }
    // Practically unreachable for max ≥ 20; a shifted classical square is always distinct.
    let ranks: &[usize] = if n == 3 { &LO_SHU } else { &DURER };
    ranks.iter().map(|&r| r as i64 - 8).collect()
}

fn huge(rng: &mut ChaCha8Rng, n: usize, mode: i64) -> String {
    const SPREAD: i64 = 1_000_000;
    let mut sq = match mode {
        0 => random_square(rng, n, MAX_ABS - SPREAD, MAX_ABS),
        1 => random_square(rng, n, -MAX_ABS, -MAX_ABS + SPREAD),
        3 => {
            // Magic sum ≈ 2.4·10^9: above i32::MAX, and not ≡ (wrapped total)/N mod 2^32.
            let centre = if n == 3 { 800_000_000 } else { 600_000_000 };
            random_square(rng, n, centre - SPREAD, centre + SPREAD)
        }
        _ if n == 3 => {
            // Centre 0, deviations a+b ≈ 10^9: positives sum to ≥ 2.4·10^9 > i32::MAX.
            let b = range(rng, 200_000_000, 300_000_000);
            let a = MAX_ABS - b - range(rng, 0, SPREAD);
            let sign = if below(rng, 2) == 0 { 1 } else { -1 };
            solver::complete(3, 0, &[a * sign, -a * sign - b * sign]).unwrap_or_else(|| vec![0; 9])
        }
        _ => {
            // Euler square with x, y ≈ ±5·10^8 (two of each sign): cells ≈ ±10^9 or ≈ 0,
            // total ≈ 0.
            let mut x = [0i64; 4];
            let mut y = [0i64; 4];
            for i in 0..4 {
                let sign = if i < 2 { 1 } else { -1 };
                x[i] = sign * (MAX_ABS / 2 - range(rng, 0, SPREAD));
                y[i] = sign * (MAX_ABS / 2 - range(rng, 0, SPREAD));
            }
            shuffle(rng, &mut x);
            shuffle(rng, &mut y);
            euler_square(x, y)
        }
    };
    shuffle(rng, &mut sq);
    if mode == 2 {
        // Make a left-to-right i32 accumulation of the input overflow although the total fits.
        let mut tries = 0;
        while max_prefix(&sq) <= i64::from(i32::MAX) {
            tries += 1;
            if tries > 200 {
                sq.sort_unstable_by(|a, b| b.cmp(a));
                break;
            }
            shuffle(rng, &mut sq);
        }
    }
    format_input(n, &sq)
}

fn few_solutions(rng: &mut ChaCha8Rng, n: usize, max: i64, limit: usize) -> Vec<i64> {
    let mut best: Option<(usize, Vec<i64>)> = None;
    for _ in 0..300 {
        let sq = random_square(rng, n, -max, max);
        let count = solver::count_up_to_symmetry(&sq, limit);
        if count <= limit {
            return sq;
        }
        if best.as_ref().is_none_or(|(c, _)| count < *c) {
            best = Some((count, sq));
        }
    }
    best.map(|(_, sq)| sq).unwrap_or_else(|| vec![0; n * n])
}

fn anti_heuristic(rng: &mut ChaCha8Rng, n: usize, max: i64) -> Vec<i64> {
    let mut last = vec![0; n * n];
    for _ in 0..1000 {
        let sq = random_square(rng, n, -max, max);
        if distinct_count(&sq) >= n * n - 2 && !heuristics_solve(n, &sq) {
            return sq;
        }
        last = sq;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructions_are_magic() {
        let ap: Vec<i64> = (1..=16).collect();
        assert!(solver::is_magic(4, &by_ranks(&ap, &DURER)));
        assert!(solver::is_magic(4, &by_ranks(&ap, &COMPLEMENT)));
        assert!(solver::is_magic(3, &by_ranks(&ap[..9], &LO_SHU)));
        let e = euler_square([1, 20, 300, 4000], [50000, 600000, 7000000, 80000000]);
        assert!(solver::is_magic(4, &e));
        assert_eq!(distinct_count(&e), 16);
        assert!(heuristics_solve(4, &ap));
    }

    #[test]
    fn bounded_sampling_is_uniform_enough_and_in_range() {
        let rng = &mut ChaCha8Rng::seed_from_u64(7);
        let mut hist = [0u32; 3];
        for _ in 0..3000 {
            let x = range(rng, -1, 1);
            hist[(x + 1) as usize] += 1;
        }
        assert!(hist.iter().all(|&h| (800..1200).contains(&h)), "{hist:?}");
        assert_eq!(range(rng, 5, 5), 5);
        let x = range(rng, -MAX_ABS, MAX_ABS);
        assert!(x.abs() <= MAX_ABS);
    }

    #[test]
    fn bad_params_are_reported() {
        let mut p = GenParams::default();
        p.0.insert("n".into(), 5);
        assert!(matches!(
            generate("random", &p, 1),
            Err(GenError::BadParams { .. })
        ));
        assert!(matches!(
            generate("nope", &GenParams::default(), 1),
            Err(GenError::UnknownGenerator { .. })
        ));
    }
}
