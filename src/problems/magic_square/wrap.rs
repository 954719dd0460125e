//! The `diagonal-wrap` construction: N = 4 multisets that form a magic square, and also a
//! "fake" one whose rows and columns sum to `S` but whose main diagonal sums to `S - 2^32`.
//! A solution that computes diagonal sums (or a cell forced by a diagonal) in 32-bit integers
//! sees `S` there too, and may print the fake.
//!
//! Three levels `l = (S - 2^32) / 4`, `m = S / 4`, `h = (2S + 2^32) / 8` (`S ≡ 0 mod 4`) do it:
//! - fake `F`: the four `l` on the main diagonal (sum `S - 2^32`), the four `m` on the
//!   anti-diagonal, `h` elsewhere; each row and column holds `l + m + 2h = S`;
//! - real `T`: the `l` and the `m` on two disjoint transversals that meet each diagonal once,
//!   so every line is again `l + m + 2h`.
//!
//! With 3 distinct values most searches meet a real square first, so noise is added: a
//! vector that sums to 0 on every line of `F` and, moved by a class-preserving bijection
//! (`l` cells to `l` cells, ...), on every line of `T`. Such vectors are the nullspace of a
//! 20 × 16 system, computed exactly; a random bijection leaves 1 or 2 dimensions.

use rand_chacha::ChaCha8Rng;

use super::flawed::int32_diagonal_square;
use super::generator::{below, range, shuffle};
use super::solver::{is_magic, lines};
use super::validator::MAX_ABS;

/// 2^32.
pub const WRAP: i64 = 1 << 32;

/// Main-diagonal, anti-diagonal and other cells of `F`.
const F_LOW: [usize; 4] = [0, 5, 10, 15];
const F_MID: [usize; 4] = [3, 6, 9, 12];
const F_HIGH: [usize; 8] = [1, 2, 4, 7, 8, 11, 13, 14];
/// The `l` and `m` transversals of `T` (each meets both diagonals once) and the rest.
const T_LOW: [usize; 4] = [0, 6, 11, 13];
const T_MID: [usize; 4] = [1, 7, 10, 12];
const T_HIGH: [usize; 8] = [2, 3, 4, 5, 8, 9, 14, 15];

/// A rational number `num / den` with `den > 0`, in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Q {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Q {
    fn new(num: i128, den: i128) -> Q {
        let g = gcd(num, den).max(1) * den.signum();
        Q {
            num: num / g,
            den: den / g,
        }
    }
    fn int(v: i128) -> Q {
        Q { num: v, den: 1 }
    }
    fn sub(self, o: Q) -> Q {
        Q::new(self.num * o.den - o.num * self.den, self.den * o.den)
    }
    fn mul(self, o: Q) -> Q {
        Q::new(self.num * o.num, self.den * o.den)
    }
    fn div(self, o: Q) -> Q {
        Q::new(self.num * o.den, self.den * o.num)
    }
}

/// An integer basis of the nullspace of `rows` (each of length 16).
fn nullspace(rows: &[[i64; 16]]) -> Vec<[i128; 16]> {
    let mut m: Vec<[Q; 16]> = rows
        .iter()
        .map(|r| r.map(|v| Q::int(i128::from(v))))
        .collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut row = 0;
    for col in 0..16 {
        let Some(p) = (row..m.len()).find(|&r| m[r][col].num != 0) else {
            continue;
        };
        m.swap(row, p);
        let lead = m[row][col];
        let pivot_row = m[row].map(|q| q.div(lead));
        m[row] = pivot_row;
        for (r, other) in m.iter_mut().enumerate() {
            if r != row && other[col].num != 0 {
                let f = other[col];
                for (x, &p) in other.iter_mut().zip(&pivot_row) {
                    *x = x.sub(f.mul(p));
                }
            }
        }
        pivots.push(col);
        row += 1;
        if row == m.len() {
            break;
        }
    }
    let mut basis = Vec::new();
    for free in (0..16).filter(|c| !pivots.contains(c)) {
        let mut v = [Q::int(0); 16];
        v[free] = Q::int(1);
        for (r, &p) in pivots.iter().enumerate() {
            v[p] = Q::int(0).sub(m[r][free]);
        }
        let l = v.iter().fold(1i128, |acc, q| acc / gcd(acc, q.den) * q.den);
        basis.push(v.map(|q| q.num * (l / q.den)));
    }
    basis
}

/// Rows of "this line of the square sums to 0", with variable `var[cell]` at each cell.
fn line_rows(var: &[usize; 16]) -> Vec<[i64; 16]> {
    lines(4)
        .iter()
        .map(|line| {
            let mut row = [0i64; 16];
            for &cell in line {
                row[var[cell]] += 1;
            }
            row
        })
        .collect()
}

/// The fake square `F` and the real square `T` (row-major) of one `diagonal-wrap` input, or
/// `None` when this attempt's noise left the value range. The fake's main diagonal holds the
/// smallest values and sums to `S - 2^32`.
pub fn squares(rng: &mut ChaCha8Rng) -> Option<(Vec<i64>, Vec<i64>)> {
    const MARGIN: i64 = 50_000_000;
    // l >= -MAX + MARGIN and h <= MAX - MARGIN, S a multiple of 4.
    let lo = (WRAP - 4 * MAX_ABS + 4 * MARGIN) / 4 + 1;
    let hi = (8 * (MAX_ABS - MARGIN) - WRAP) / 8;
    let s = 4 * range(rng, lo, hi);
    let (l, m, h) = ((s - WRAP) / 4, s / 4, (2 * s + WRAP) / 8);
    // A random class-preserving bijection: T cell -> F cell (the variable it holds).
    let mut t_var = [0usize; 16];
    for (t_cells, f_cells) in [
        (&T_LOW[..], &F_LOW[..]),
        (&T_MID[..], &F_MID[..]),
        (&T_HIGH[..], &F_HIGH[..]),
    ] {
        let mut f: Vec<i64> = f_cells.iter().map(|&c| c as i64).collect();
        shuffle(rng, &mut f);
        for (&t, &fc) in t_cells.iter().zip(&f) {
            t_var[t] = fc as usize;
        }
    }
    let f_var: [usize; 16] = std::array::from_fn(|c| c);
    let mut rows = line_rows(&f_var);
    rows.extend(line_rows(&t_var));
    let basis = nullspace(&rows);
    if basis.is_empty() {
        return None;
    }
    // Noise: a random combination, scaled to at most MARGIN per cell.
    let mut noise = [0i128; 16];
    for v in &basis {
        let k = i128::from(range(rng, -1000, 1000));
        for c in 0..16 {
            noise[c] += k * v[c];
        }
    }
    let peak = noise.iter().map(|v| v.abs()).max().unwrap_or(0);
    if peak == 0 {
        return None;
    }
    let scale = i128::from(MARGIN) / peak;
    let scale = if scale >= 1 {
        i128::from(below(rng, scale as u64)) + 1
    } else {
        return None;
    };
    let base = |c: usize| {
        if F_LOW.contains(&c) {
            l
        } else if F_MID.contains(&c) {
            m
        } else {
            h
        }
    };
    let fake: Vec<i64> = (0..16)
        .map(|c| base(c) + (noise[c] * scale) as i64)
        .collect();
    let real: Vec<i64> = (0..16).map(|c| fake[t_var[c]]).collect();
    fake.iter()
        .all(|v| v.abs() <= MAX_ABS)
        .then_some((fake, real))
}

/// The numbers of one `diagonal-wrap` input in random order. Of the constructions, it keeps
/// one on which [`int32_diagonal_square`] (rows first, ascending values) prints the fake, so
/// such a search is rejected for sure; `negate` turns the numbers around, which does the same
/// to the search trying values in descending order.
pub fn generate(rng: &mut ChaCha8Rng, negate: bool) -> Vec<i64> {
    let mut fallback = None;
    for _ in 0..10_000 {
        let Some((fake, _)) = squares(rng) else {
            continue;
        };
        let fooled = int32_diagonal_square(&fake).is_some_and(|sq| !is_magic(4, &sq));
        if fooled {
            fallback = Some(fake);
            break;
        }
        fallback.get_or_insert(fake);
    }
    let mut values = fallback.unwrap_or_else(|| {
        // Noise-free levels for S = 10^9 (not reached in practice: most attempts fit).
        let s = 1_000_000_000;
        (0..16)
            .map(|c| {
                if F_LOW.contains(&c) {
                    (s - WRAP) / 4
                } else if F_MID.contains(&c) {
                    s / 4
                } else {
                    (2 * s + WRAP) / 8
                }
            })
            .collect()
    });
    if negate {
        values.iter_mut().for_each(|v| *v = -*v);
    }
    shuffle(rng, &mut values);
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sums(sq: &[i64]) -> Vec<i64> {
        lines(4)
            .iter()
            .map(|l| l.iter().map(|&c| sq[c]).sum())
            .collect()
    }

    #[test]
    fn nullspace_of_a_small_system() {
        // x0 + x1 = 0, x2 = 0 over 16 unknowns: 14 free directions, each satisfying both.
        let mut a = [0i64; 16];
        a[0] = 1;
        a[1] = 1;
        let mut b = [0i64; 16];
        b[2] = 1;
        let basis = nullspace(&[a, b]);
        assert_eq!(basis.len(), 14);
        for v in basis {
            assert_eq!(v[0] + v[1], 0);
            assert_eq!(v[2], 0);
        }
    }

    #[test]
    fn the_fake_wraps_and_the_real_square_is_magic() {
        let rng = &mut ChaCha8Rng::seed_from_u64(11);
        let mut made = 0;
        for _ in 0..200 {
            let Some((fake, real)) = squares(rng) else {
                continue;
            };
            made += 1;
            assert!(is_magic(4, &real), "{real:?}");
            let mut a = fake.clone();
            let mut b = real.clone();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
            let s: i64 = real[..4].iter().sum();
            let f = sums(&fake);
            // Rows and columns exact, anti-diagonal exact, main diagonal off by 2^32.
            assert!(f[..8].iter().all(|&x| x == s), "{f:?}");
            assert_eq!(f[9], s);
            assert_eq!(f[8], s - WRAP);
            assert_eq!(f[8] as i32, s as i32);
            assert!(fake.iter().all(|v| v.abs() <= MAX_ABS));
        }
        assert!(made > 50, "{made}");
    }

    #[test]
    fn generated_inputs_fool_the_32_bit_search_in_its_order() {
        let rng = &mut ChaCha8Rng::seed_from_u64(4);
        for negate in [false, true] {
            let values = generate(rng, negate);
            // Negated back, a descending search on the negated input is the modelled one.
            let seen: Vec<i64> = values
                .iter()
                .map(|v| if negate { -v } else { *v })
                .collect();
            let sq = int32_diagonal_square(&seen).expect("prints a square");
            assert!(!is_magic(4, &sq), "{values:?}");
        }
    }
}
