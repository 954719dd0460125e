//! Independent, obviously-correct (and slow) searches, for tests and the benchmark.
//!
//! They share nothing with the real solver: no forced cells, no identities, no value
//! deduplication. N = 3 tries all 9! orders; N = 4 fills the square row by row with every
//! unused element and only rejects a row once it is complete.

use std::time::{Duration, Instant};

fn magic(n: usize, cells: &[i64]) -> bool {
    let s: i128 = cells[..n].iter().map(|&v| v as i128).sum();
    let sum = |f: &dyn Fn(usize) -> usize| (0..n).map(|i| cells[f(i)] as i128).sum::<i128>();
    (0..n).all(|r| sum(&|i| r * n + i) == s)
        && (0..n).all(|c| sum(&|i| i * n + c) == s)
        && sum(&|i| i * n + i) == s
        && sum(&|i| i * n + n - 1 - i) == s
}

/// Whether some ordering of the 9 `values` is a 3×3 magic square, by trying all 9! orders
/// (Heap's algorithm). Returns `false` for any other length.
pub fn solvable(values: &[i64]) -> bool {
    orders_tried(values, u64::MAX).0
}

/// Whether some of the first `cap` orders of the 9 `values` (Heap's algorithm) is a magic
/// square, and how many orders were tried.
fn orders_tried(values: &[i64], cap: u64) -> (bool, u64) {
    if values.len() != 9 {
        return (false, 0);
    }
    let mut a = values.to_vec();
    let mut c = [0usize; 9];
    let mut tried = 1;
    if magic(3, &a) {
        return (true, tried);
    }
    let mut i = 1;
    while i < 9 && tried < cap {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            tried += 1;
            if magic(3, &a) {
                return (true, tried);
            }
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    (false, tried)
}

struct Brute4<'a> {
    values: &'a [i64],
    used: [bool; 16],
    cells: [i64; 16],
    deadline: Option<Instant>,
    max_nodes: u64,
    target: i128,
    nodes: u64,
    out_of_time: bool,
}

impl Brute4<'_> {
    fn rec(&mut self, k: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes
            || (self.nodes.is_multiple_of(1 << 16)
                && self.deadline.is_some_and(|d| Instant::now() > d))
        {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return false;
        }
        if k == 16 {
            return magic(4, &self.cells);
        }
        if k.is_multiple_of(4) && k > 0 {
            // Obvious pruning: a completed row must sum to total / 4.
            let last: i128 = self.cells[k - 4..k].iter().map(|&v| v as i128).sum();
            if last != self.target {
                return false;
            }
        }
        for i in 0..16 {
            if !self.used[i] {
                self.used[i] = true;
                self.cells[k] = self.values[i];
                let found = self.rec(k + 1);
                self.used[i] = false;
                if found {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether some ordering of the 16 `values` is a 4×4 magic square, by plain permutation search
/// (each completed row must sum to total / 4). `None` when `budget` ran out first (or the length is
/// not 16).
pub fn solvable4(values: &[i64], budget: Option<Duration>) -> Option<bool> {
    if values.len() != 16 {
        return None;
    }
    let total: i128 = values.iter().map(|&v| v as i128).sum();
    if total % 4 != 0 {
        return Some(false);
    }
    let mut b = Brute4 {
        values,
        target: total / 4,
        used: [false; 16],
        cells: [0; 16],
        deadline: budget.map(|d| Instant::now() + d),
        max_nodes: u64::MAX,
        nodes: 0,
        out_of_time: false,
    };
    let found = b.rec(0);
    if found {
        Some(true)
    } else if b.out_of_time {
        None
    } else {
        Some(false)
    }
}

/// The search nodes (N = 4: partial squares visited; N = 3: orders tried) the plain searches
/// spend on `values` until they find a square, at most `cap`.
pub fn nodes_within(values: &[i64], cap: u64) -> u64 {
    if values.len() == 9 {
        return orders_tried(values, cap).1.min(cap);
    }
    if values.len() != 16 {
        return 0;
    }
    let total: i128 = values.iter().map(|&v| v as i128).sum();
    if total % 4 != 0 {
        return 0;
    }
    let mut b = Brute4 {
        values,
        target: total / 4,
        used: [false; 16],
        cells: [0; 16],
        deadline: None,
        max_nodes: cap,
        nodes: 0,
        out_of_time: false,
    };
    b.rec(0);
    b.nodes.min(cap)
}

/// N = 3 or 4 by length: [`solvable`] or [`solvable4`].
pub fn solvable_any(values: &[i64], budget: Option<Duration>) -> Option<bool> {
    match values.len() {
        9 => Some(solvable(values)),
        _ => solvable4(values, budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_force_basics() {
        assert!(solvable(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
        assert!(solvable(&[0; 9]));
        assert!(!solvable(&[1, 2, 3, 4, 5, 6, 7, 8, 10]));
        let v: Vec<i64> = (1..=16).rev().collect();
        assert_eq!(solvable4(&v, Some(Duration::from_secs(10))), Some(true));
        assert_eq!(solvable4(&[0; 16], None), Some(true));
        let mut w = [0i64; 16];
        w[0] = 4;
        assert_eq!(solvable4(&w, Some(Duration::from_secs(10))), Some(false));
    }
}
