//! Hooks for `judge hunt`: small changes of an input that keep it solvable (the statement
//! promises a square), and the work of the built-in solvers.
//!
//! A change is made on a solution square: its parameters (the magic sum `S` and the
//! [`solver::free_cells`]) are changed and the square is rebuilt with [`solver::complete`],
//! or the whole square is shifted or negated; the input keeps its order (each position keeps
//! its cell). Only the order of the numbers changes when two positions are swapped.

use rand::{Rng, RngCore};

use super::family::{self, FAMILY};
use super::shrink::input_cells;
use super::validator::MAX_ABS;
use super::{brute, checker, flawed, generator, solver};
use crate::problems::SolverSpec;

/// The solvers [`work`] measures: the reference, the plain searches of the tests and the
/// benchmark, then the [`family`] of ordinary contestant searches.
pub const SOLVERS: &[SolverSpec] = &[
    SolverSpec {
        name: "reference",
        description: "the reference solver (free cells over distinct values, forced cells, symmetry breaking)",
        family: false,
    },
    SolverSpec {
        name: "plain",
        description: "N = 4: plain permutation search, row by row, every unused number (N = 3: all 9! orders)",
        family: false,
    },
    SolverSpec {
        name: "unmerged",
        description: "N = 4: rows first (a row's last cell forced, the last row by the columns, diagonals checked at the end), a free cell trying every unused position: equal numbers are tried again and again",
        family: false,
    },
    SolverSpec::member(&FAMILY[0]),
    SolverSpec::member(&FAMILY[1]),
    SolverSpec::member(&FAMILY[2]),
    SolverSpec::member(&FAMILY[3]),
    SolverSpec::member(&FAMILY[4]),
    SolverSpec::member(&FAMILY[5]),
    SolverSpec::member(&FAMILY[6]),
    SolverSpec::member(&FAMILY[7]),
];

/// One random change of the square `sq` (row-major, order `n`); `None` when it leaves the
/// value range or fails to build.
fn change(n: usize, sq: &[i64], rng: &mut dyn RngCore) -> Option<Vec<i64>> {
    let s: i64 = sq[..n].iter().sum();
    let cells = solver::free_cells(n);
    let mut free: Vec<i64> = cells.iter().map(|&c| sq[c]).collect();
    let k = rng.random_range(0..free.len());
    let (lo, hi) = sq
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    let spread = (hi - lo).max(1);
    let step = if n == 3 { 3 } else { 1 };
    let next = match rng.random_range(0..6) {
        // Make a free cell equal to another cell.
        0 => {
            free[k] = sq[rng.random_range(0..sq.len())];
            solver::complete(n, s, &free)?
        }
        // Nudge a free cell by a little or by a fraction of the spread.
        1 => {
            let d = if rng.random_bool(0.5) {
                rng.random_range(1..=3)
            } else {
                rng.random_range(1..=(spread / 8).max(1))
            };
            free[k] += if rng.random_bool(0.5) { d } else { -d };
            solver::complete(n, s, &free)?
        }
        // Change the magic sum.
        2 => {
            let d = step * rng.random_range(1..=(spread / 8).max(1));
            let s2 = if rng.random_bool(0.5) { s + d } else { s - d };
            solver::complete(n, s2, &free)?
        }
        // Shift every number.
        3 => {
            let d = rng.random_range(1..=spread.min(1000));
            let d = if rng.random_bool(0.5) { d } else { -d };
            sq.iter().map(|v| v + d).collect()
        }
        // Negate every number.
        4 => sq.iter().map(|v| -v).collect(),
        // Make two cells equal where the square allows: re-derive from a free cell set to
        // the value of a forced one, keeping the magic sum.
        _ => {
            let c = rng.random_range(0..sq.len());
            free[k] = sq[c];
            let other = rng.random_range(0..free.len());
            free[other] = sq[rng.random_range(0..sq.len())];
            solver::complete(n, s, &free)?
        }
    };
    next.iter().all(|v| v.abs() <= MAX_ABS).then_some(next)
}

/// A small valid change of `input`; `None` when it does not parse or has no square.
pub fn mutate(input: &str, rng: &mut dyn RngCore) -> Option<String> {
    let (n, values) = checker::parse_input(input)?;
    let sq = solver::solve(&values)?;
    let cell_of = input_cells(&values, &sq)?;
    for _ in 0..100 {
        let next: Vec<i64> = if rng.random_range(0..5) == 0 {
            // Swap two numbers of the input (the multiset is unchanged).
            let mut v = values.clone();
            let (i, j) = (rng.random_range(0..v.len()), rng.random_range(0..v.len()));
            v.swap(i, j);
            v
        } else {
            match change(n, &sq, rng) {
                Some(square) => cell_of.iter().map(|&c| square[c]).collect(),
                None => continue,
            }
        };
        if next != values {
            return Some(generator::format_input(n, &next));
        }
    }
    None
}

/// Search nodes of `solver` on `input`, at most `cap`.
pub fn work(solver: &str, input: &str, cap: u64) -> Option<u64> {
    let (_, values) = checker::parse_input(input)?;
    let nodes = match solver {
        "reference" => solver::for_each_square(&values, |_| false),
        "plain" => brute::nodes_within(&values, cap),
        "unmerged" => flawed::unmerged_nodes(&values, cap),
        name => family::search(&values, family::options(name)?, cap).nodes,
    };
    Some(nodes.min(cap))
}

#[cfg(test)]
mod tests {
    use super::super::validator::validate;
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn mutations_are_valid_distinct_and_travel() {
        let rng = &mut ChaCha8Rng::seed_from_u64(3);
        for start in [
            "3\n2 7 6 9 5 1 4 3 8\n",
            "4\n16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n",
        ] {
            let mut input = start.to_string();
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..500 {
                let next = mutate(&input, rng).expect("a change");
                assert_ne!(next, input);
                assert!(validate(next.as_bytes()).is_ok(), "{next}");
                seen.insert(next.clone());
                input = next;
            }
            assert!(seen.len() > 400, "{}", seen.len());
        }
        assert_eq!(mutate("4\n1 2 3\n", rng), None);
    }

    #[test]
    fn work_counts_nodes_up_to_the_cap() {
        let durer = "4\n16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n";
        assert!(work("reference", durer, u64::MAX).unwrap() > 16);
        // Already a square in input order: the plain search sees it at once.
        assert_eq!(work("plain", durer, 1000), Some(17));
        let sorted = "4\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
        assert_eq!(work("plain", sorted, 1000), Some(1000));
        assert_eq!(work("nope", durer, 10), None);
    }
}
