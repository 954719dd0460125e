//! Exact solver: finds a magic square over a given multiset, counts squares up to symmetry, or
//! proves that none exists.
//!
//! Every magic square (all rows, columns and both main diagonals sum to `S`) of order 3 or 4 is
//! fixed by `S` and a few "free" cells; every other cell follows from one linear equation that
//! holds in *every* magic square (a line sum, or for N = 4 the corner identity below). The
//! search therefore only branches on the free cells (2 for N = 3, 7 for N = 4), over *distinct*
//! values with a remaining multiplicity (so duplicates never multiply the work), and looks each
//! forced value up in the remaining multiset. Because every equation used is necessary, no
//! square is missed; because every leaf is re-checked against all lines, nothing wrong is
//! reported. Sums stay far below `i64` limits (|v| ≤ 10^9, so any 4-cell sum is ≤ 4·10^9 and a
//! forced value `S - a - b - c` is ≤ 7·10^9 in absolute value).
//!
//! Corner identity (N = 4): rows 0 and 3 plus columns 0 and 3 count each corner twice and each
//! other border cell once (`4S`); the whole square is `4S`, and both diagonals together are
//! corners + centre (`2S`). Hence corners = centre, and corners + centre = 2S, so the four
//! corners sum to `S`.

use std::collections::BTreeSet;

/// One step of a search plan over the cells `0..n*n` (row-major).
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Branch over every distinct value still available.
    Free(usize),
    /// Like `Free`, but only values ≥ the value of the second cell (symmetry breaking).
    FreeAtLeast(usize, usize),
    /// `cells[a] <= cells[b]` (symmetry breaking).
    Le(usize, usize),
    /// `cell = S - sum(others)`.
    Forced(usize, &'static [usize]),
    /// `cell = S / 3` (the centre of every 3×3 magic square).
    Centre(usize),
    /// All these cells are known: they must sum to `S`.
    Check(&'static [usize]),
}

use Step::{Centre, Check, Forced, Free, FreeAtLeast, Le};

/// N = 3: centre, one corner, then everything else is forced.
const PLAN3: &[Step] = &[
    Centre(4),
    Free(0),
    Forced(8, &[0, 4]),
    Free(1),
    Forced(2, &[0, 1]),
    Forced(7, &[1, 4]),
    Forced(6, &[2, 4]),
    Forced(3, &[0, 6]),
    Forced(5, &[3, 4]),
];

/// N = 4: seven free cells; each forced cell is the last unknown of a line (or of the corners).
///
/// Symmetry breaking: the 32 maps in [`group32`] keep every square magic and act transitively
/// on the 8 diagonal cells, so some image has a smallest diagonal value at cell 0. The maps
/// fixing cell 0 include the transpose (swaps cells 3 and 12, fixes 5 and 10) and swapping
/// rows and columns 1 and 2 (swaps 5 and 10, fixes 3 and 12), so we may also ask for
/// `a11 <= a22` and `a03 <= a30`. Every square therefore has an image the search visits.
const PLAN4: &[Step] = &[
    Free(0),
    FreeAtLeast(5, 0),
    FreeAtLeast(10, 5),
    Forced(15, &[0, 5, 10]), // main diagonal
    Le(0, 15),
    FreeAtLeast(3, 0),
    Forced(12, &[0, 3, 15]), // corners
    Le(3, 12),
    FreeAtLeast(6, 0),
    Forced(9, &[3, 6, 12]), // anti-diagonal
    Le(0, 9),
    Free(1),
    Forced(2, &[0, 1, 3]),     // row 0
    Forced(13, &[1, 5, 9]),    // column 1
    Forced(14, &[12, 13, 15]), // row 3
    Check(&[2, 6, 10, 14]),    // column 2
    Free(4),
    Forced(7, &[4, 5, 6]),   // row 1
    Forced(8, &[0, 4, 12]),  // column 0
    Forced(11, &[8, 9, 10]), // row 2
    Check(&[3, 7, 11, 15]),  // column 3
];

fn plan(n: usize) -> &'static [Step] {
    if n == 3 {
        PLAN3
    } else {
        PLAN4
    }
}

/// The cells (row-major indices) whose values, together with `S`, determine an order-`n`
/// magic square; see [`complete`].
pub fn free_cells(n: usize) -> Vec<usize> {
    plan(n)
        .iter()
        .filter_map(|s| match s {
            Free(c) | FreeAtLeast(c, _) => Some(*c),
            _ => None,
        })
        .collect()
}

/// The magic square of order `n` (3 or 4) with magic sum `s` whose [`free_cells`] hold `free`
/// (in that order), or `None` when no integer square has them (N = 3 with `s` not divisible
/// by 3). Every integer choice of `s` and `free` gives a magic square for N = 4; values are
/// not range-checked.
pub fn complete(n: usize, s: i64, free: &[i64]) -> Option<Vec<i64>> {
    let mut cells = vec![0i64; n * n];
    let mut next = free.iter();
    for step in plan(n) {
        match *step {
            Free(c) | FreeAtLeast(c, _) => cells[c] = *next.next()?,
            Forced(c, others) => {
                cells[c] = s.checked_sub(
                    others
                        .iter()
                        .try_fold(0i64, |a, &o| a.checked_add(cells[o]))?,
                )?
            }
            Centre(c) => {
                if s % 3 != 0 {
                    return None;
                }
                cells[c] = s / 3;
            }
            Check(_) | Le(..) => {}
        }
    }
    is_magic(n, &cells).then_some(cells)
}

/// All lines of an order-`n` square: rows, columns, main diagonal, anti-diagonal (in that
/// order), as row-major cell indices.
pub fn lines(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(2 * n + 2);
    for r in 0..n {
        out.push((0..n).map(|c| r * n + c).collect());
    }
    for c in 0..n {
        out.push((0..n).map(|r| r * n + c).collect());
    }
    out.push((0..n).map(|i| i * n + i).collect());
    out.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
    out
}

/// Whether `cells` (row-major, `n*n` of them) form a magic square. Sums are computed in `i128`.
pub fn is_magic(n: usize, cells: &[i64]) -> bool {
    if cells.len() != n * n || n == 0 {
        return false;
    }
    let target: i128 = cells[..n].iter().map(|&v| v as i128).sum();
    lines(n)
        .iter()
        .all(|l| l.iter().map(|&c| cells[c] as i128).sum::<i128>() == target)
}

/// The 8 symmetries of the square (rotations and reflections) applied to `cells`.
pub fn symmetries(n: usize, cells: &[i64]) -> Vec<Vec<i64>> {
    let mut out = Vec::with_capacity(8);
    let mut cur = cells.to_vec();
    for _ in 0..4 {
        // rotate 90°: new[r][c] = old[n-1-c][r]
        let rot: Vec<i64> = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                cur[(n - 1 - c) * n + r]
            })
            .collect();
        let transposed: Vec<i64> = (0..n * n).map(|i| cur[(i % n) * n + i / n]).collect();
        out.push(cur);
        out.push(transposed);
        cur = rot;
    }
    out
}

/// The 32 images of a 4×4 square under the maps that keep *every* magic square magic: the
/// same permutation `p` of rows and of columns, for the 8 `p` that commute with reversal
/// `i ↦ 3 - i` (they keep both diagonals as sets), each combined with the transpose and with
/// the left-right mirror (which swaps the diagonals). For other lengths, just `cells`.
pub fn group32(cells: &[i64]) -> Vec<Vec<i64>> {
    if cells.len() != 16 {
        return vec![cells.to_vec()];
    }
    let mut perms = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            let p = [a, b, 3 - b, 3 - a];
            let mut seen = [false; 4];
            p.iter().for_each(|&x| seen[x] = true);
            if seen.iter().all(|&x| x) {
                perms.push(p);
            }
        }
    }
    let mut out = Vec::with_capacity(32);
    for p in perms {
        let mut moved = vec![0i64; 16];
        for i in 0..4 {
            for j in 0..4 {
                moved[p[i] * 4 + p[j]] = cells[i * 4 + j];
            }
        }
        let transposed: Vec<i64> = (0..16).map(|k| moved[(k % 4) * 4 + k / 4]).collect();
        for sq in [moved, transposed] {
            let mirrored: Vec<i64> = (0..16).map(|k| sq[(k / 4) * 4 + 3 - k % 4]).collect();
            out.push(sq);
            out.push(mirrored);
        }
    }
    out
}

/// The lexicographically smallest of the 8 symmetric images: equal for squares that differ
/// only by a rotation or reflection.
pub fn canonical(n: usize, cells: &[i64]) -> Vec<i64> {
    symmetries(n, cells)
        .into_iter()
        .min()
        .unwrap_or_else(|| cells.to_vec())
}

struct Search<'a, F: FnMut(&[i64]) -> bool> {
    n: usize,
    s: i64,
    distinct: Vec<i64>,
    counts: Vec<u32>,
    cells: [i64; 16],
    plan: &'static [Step],
    visit: &'a mut F,
    stopped: bool,
    nodes: u64,
}

impl<F: FnMut(&[i64]) -> bool> Search<'_, F> {
    fn place(&mut self, k: usize, cell: usize, d: usize) {
        self.counts[d] -= 1;
        self.cells[cell] = self.distinct[d];
        self.rec(k + 1);
        self.counts[d] += 1;
    }

    fn branch(&mut self, k: usize, cell: usize, from: usize) {
        for d in from..self.distinct.len() {
            if self.counts[d] > 0 {
                self.place(k, cell, d);
                if self.stopped {
                    return;
                }
            }
        }
    }

    fn place_value(&mut self, k: usize, cell: usize, v: i64) {
        if let Ok(d) = self.distinct.binary_search(&v) {
            if self.counts[d] > 0 {
                self.place(k, cell, d);
            }
        }
    }

    fn rec(&mut self, k: usize) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        let Some(step) = self.plan.get(k).copied() else {
            let sq = &self.cells[..self.n * self.n];
            // The plan's equations are necessary, not all sufficient: check every line.
            if is_magic(self.n, sq) && !(self.visit)(sq) {
                self.stopped = true;
            }
            return;
        };
        match step {
            Free(cell) => self.branch(k, cell, 0),
            FreeAtLeast(cell, min) => {
                let from = self.distinct.partition_point(|&v| v < self.cells[min]);
                self.branch(k, cell, from);
            }
            Le(a, b) => {
                if self.cells[a] <= self.cells[b] {
                    self.rec(k + 1);
                }
            }
            Forced(cell, others) => {
                let v = self.s - others.iter().map(|&o| self.cells[o]).sum::<i64>();
                self.place_value(k, cell, v);
            }
            Centre(cell) => {
                if self.s % 3 == 0 {
                    self.place_value(k, cell, self.s / 3);
                }
            }
            Check(cells) => {
                if cells.iter().map(|&c| self.cells[c]).sum::<i64>() == self.s {
                    self.rec(k + 1);
                }
            }
        }
    }
}

/// Calls `visit` on magic squares (row-major) that use exactly the multiset `values`, until
/// `visit` returns `false`: for N = 3 on every such square once; for N = 4 on at least one
/// square of every orbit under [`group32`] (the search breaks that symmetry), each visited
/// square distinct. So "no visit" means "no square". Returns the number of search
/// nodes (a work measure). `values.len()` must be 9 or 16 and every |v| ≤ 10^9 (larger inputs
/// visit nothing).
pub fn for_each_square(values: &[i64], mut visit: impl FnMut(&[i64]) -> bool) -> u64 {
    let n = match values.len() {
        9 => 3,
        16 => 4,
        _ => return 0,
    };
    if values.iter().any(|v| v.abs() > 1_000_000_000) {
        return 0;
    }
    let total: i64 = values.iter().sum();
    if total % n as i64 != 0 {
        return 0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let mut distinct: Vec<i64> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    for v in sorted {
        if distinct.last() == Some(&v) {
            if let Some(c) = counts.last_mut() {
                *c += 1;
            }
        } else {
            distinct.push(v);
            counts.push(1);
        }
    }
    let mut search = Search {
        n,
        s: total / n as i64,
        distinct,
        counts,
        cells: [0; 16],
        plan: plan(n),
        visit: &mut visit,
        stopped: false,
        nodes: 0,
    };
    search.rec(0);
    search.nodes
}

/// A magic square (row-major) using exactly the multiset `values` (9 or 16 of them), or
/// `None` when there is none.
pub fn solve(values: &[i64]) -> Option<Vec<i64>> {
    let mut found = None;
    for_each_square(values, |sq| {
        found = Some(sq.to_vec());
        false
    });
    found
}

/// Number of magic squares over `values` that are distinct up to rotation and reflection,
/// counting at most `limit + 1` (so `> limit` means "more than `limit`").
pub fn count_up_to_symmetry(values: &[i64], limit: usize) -> usize {
    let n = if values.len() == 9 { 3 } else { 4 };
    let mut seen = BTreeSet::new();
    for_each_square(values, |sq| {
        // The N = 4 search visits one square per symmetry orbit; expand it again.
        for img in group32(sq) {
            seen.insert(canonical(n, &img));
        }
        seen.len() <= limit
    });
    seen.len()
}

/// Formats a square as `n` lines of `n` space-separated integers, each line ending in `\n`.
pub fn format_square(n: usize, cells: &[i64]) -> String {
    let mut out = String::new();
    for row in cells.chunks(n) {
        let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LO_SHU: [i64; 9] = [2, 7, 6, 9, 5, 1, 4, 3, 8];
    const DURER: [i64; 16] = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];

    #[test]
    fn known_squares_are_magic_and_found() {
        assert!(is_magic(3, &LO_SHU));
        assert!(is_magic(4, &DURER));
        let mut shuffled = DURER;
        shuffled.reverse();
        let sq = solve(&shuffled).expect("1..16 has a magic square");
        assert!(is_magic(4, &sq));
        let mut a = sq.clone();
        a.sort_unstable();
        assert_eq!(a, (1..=16).collect::<Vec<_>>());
        assert!(solve(&LO_SHU).is_some());
    }

    #[test]
    fn classical_counts() {
        // Known results: 1 square of order 3 and 880 of order 4 over 1..n², up to symmetry.
        assert_eq!(count_up_to_symmetry(&LO_SHU, 10), 1);
        let v: Vec<i64> = (1..=16).collect();
        assert_eq!(count_up_to_symmetry(&v, 10_000), 880);
    }

    #[test]
    fn complete_inverts_free_cells() {
        for (n, sq) in [(3, LO_SHU.to_vec()), (4, DURER.to_vec())] {
            let free: Vec<i64> = free_cells(n).iter().map(|&c| sq[c]).collect();
            let s = sq[..n].iter().sum();
            assert_eq!(complete(n, s, &free), Some(sq));
        }
        // Any parameters give a magic square for N = 4.
        let sq = complete(4, 7, &[1, -5, 9, 100, 3, 0, 2]).unwrap();
        assert!(is_magic(4, &sq));
        assert_eq!(complete(3, 7, &[1, 2]), None);
    }

    #[test]
    fn unsolvable_cases() {
        assert_eq!(solve(&[1, 2, 3, 4, 5, 6, 7, 8, 10]), None); // total not divisible
        assert_eq!(solve(&[0, 0, 0, 0, 0, 0, 0, 1, -1]), None);
        let mut v: Vec<i64> = (1..=16).collect();
        v[15] = 20; // total 140, S = 35, no square
        v[0] = -3;
        assert_eq!(v.iter().sum::<i64>() % 4, 0);
        assert!(solve(&v).is_none() || is_magic(4, &solve(&v).unwrap()));
    }

    #[test]
    fn group32_keeps_squares_magic() {
        let imgs: BTreeSet<Vec<i64>> = group32(&DURER).into_iter().collect();
        assert_eq!(imgs.len(), 32);
        assert!(imgs.iter().all(|s| is_magic(4, s)));
        // Every image is found again from its own multiset.
        let mut count = 0;
        for_each_square(&DURER, |_| {
            count += 1;
            true
        });
        assert!(count >= 880 * 8 / 32, "{count}");
    }

    #[test]
    fn symmetries_are_eight_distinct_images_of_a_generic_square() {
        let imgs: BTreeSet<Vec<i64>> = symmetries(4, &DURER).into_iter().collect();
        assert_eq!(imgs.len(), 8);
        assert!(imgs.iter().all(|s| is_magic(4, s)));
    }
}
