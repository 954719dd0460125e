//! Hooks for `judge hunt`: small valid changes of an input, and the work of the built-in
//! solvers.

use rand::{Rng, RngCore};

use super::family::{self, FAMILY};
use super::geometry::{edges, FACES, SIDES};
use super::restarts;
use super::solver::{placed_marks, solve_tiles, solve_tiles_with, Mode};
use super::{brute, format_tiles, mark_on, parse_tiles, Tiles};
use crate::problems::SolverSpec;

/// The solvers [`work`] measures: the reference, the plain searches of the tests and the
/// benchmark, then the [`family`] of ordinary contestant searches.
pub const SOLVERS: &[SolverSpec] = &[
    SolverSpec {
        name: "reference",
        description: "the reference solver (parity, merged tiles, symmetry, most-constrained face first)",
        family: false,
    },
    SolverSpec {
        name: "plain",
        description: "plain depth-first search: tile 1 fixed on face 1, then faces in order, every unused tile in every rotation",
        family: false,
    },
    SolverSpec {
        name: "restarts",
        description: "random restarts of the plain search without the pin, each with fresh random tile orders, given up after 3000 placements (wrong_answer/random_restarts.py); placements until 8 restarts found a tiling",
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

/// A mark other than `m`.
fn other_mark(m: u8, rng: &mut dyn RngCore) -> u8 {
    (m + rng.random_range(1..3)) % 3
}

/// One random change of `tiles`; may return `tiles` unchanged (the caller retries).
fn change(tiles: &Tiles, rng: &mut dyn RngCore) -> Tiles {
    let mut t = *tiles;
    let tile = |rng: &mut dyn RngCore| rng.random_range(0..FACES);
    let edge = |rng: &mut dyn RngCore| rng.random_range(0..SIDES);
    match rng.random_range(0..7) {
        // Swap two marks (mark counts, hence parity, unchanged).
        0 => {
            let (a, i, b, j) = (tile(rng), edge(rng), tile(rng), edge(rng));
            let x = t[a][i];
            t[a][i] = t[b][j];
            t[b][j] = x;
        }
        // Change one mark.
        1 => {
            let (a, i) = (tile(rng), edge(rng));
            t[a][i] = other_mark(t[a][i], rng);
        }
        // Change two equal marks into the same other mark (parity unchanged).
        2 => {
            let (a, i, b, j) = (tile(rng), edge(rng), tile(rng), edge(rng));
            if (a, i) != (b, j) && t[a][i] == t[b][j] {
                let m = other_mark(t[a][i], rng);
                t[a][i] = m;
                t[b][j] = m;
            }
        }
        // Rotate a tile (the same tile, read from another edge).
        3 => {
            let a = tile(rng);
            let r = rng.random_range(1..SIDES);
            t[a] = std::array::from_fn(|m| tiles[a][(m + r) % SIDES]);
        }
        // Make a tile equal to another one.
        4 => {
            let (a, b) = (tile(rng), tile(rng));
            t[a] = tiles[b];
        }
        // Swap two tiles (only the input order changes).
        5 => t.swap(tile(rng), tile(rng)),
        // Re-mark one edge of a tiling on both sides (a solvable input stays solvable).
        _ => {
            if let Some(remarked) = remark_tiling_edge(tiles, rng) {
                t = remarked;
            }
        }
    }
    t
}

/// `tiles` with one edge of a tiling of them given another mark on both of its sides, so a
/// solvable input stays solvable; `None` when `tiles` have no tiling.
fn remark_tiling_edge(tiles: &Tiles, rng: &mut dyn RngCore) -> Option<Tiles> {
    let a = solve_tiles(tiles)?;
    let list = edges();
    let (f, k, g, j) = list[rng.random_range(0..list.len())];
    let m = other_mark(mark_on(tiles, &a, f, k), rng);
    let mut t = *tiles;
    for (face, side) in [(f, k), (g, j)] {
        let p = a[face];
        let mut marks = placed_marks(&tiles[p.tile], p.reference);
        marks[side] = m;
        // Back to the tile's own reading: its edge e lies on side (reference + e).
        t[p.tile] = std::array::from_fn(|e| marks[(p.reference + e) % SIDES]);
    }
    Some(t)
}

/// A small valid change of `input`; `None` when it does not parse.
pub fn mutate(input: &str, rng: &mut dyn RngCore) -> Option<String> {
    let tiles = parse_tiles(input)?;
    (0..100)
        .map(|_| change(&tiles, rng))
        .find(|t| t != &tiles)
        .map(|t| format_tiles(&t))
}

/// Search nodes of `solver` on `input`, at most `cap`.
pub fn work(solver: &str, input: &str, cap: u64) -> Option<u64> {
    let nodes = match solver {
        "reference" => {
            let tiles = parse_tiles(input)?;
            solve_tiles_with(&tiles, Mode::Full).1.nodes
        }
        "plain" => {
            let budget = brute::Budget {
                nodes: Some(cap),
                time: None,
                fix_first_tile: true,
            };
            brute::solvable_within(input, budget).nodes
        }
        "restarts" => restarts::nodes(&parse_tiles(input)?, cap),
        name => {
            let o = family::options(name)?;
            family::search(&parse_tiles(input)?, o, cap).nodes
        }
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
    fn mutations_are_valid_distinct_changes() {
        let rng = &mut ChaCha8Rng::seed_from_u64(5);
        let mut input = "0 1 2 0 1\n".repeat(6) + &"2 2 1 0 0\n".repeat(6);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            let next = mutate(&input, rng).expect("a change");
            assert_ne!(next, input);
            assert_eq!(validate(next.as_bytes()), Ok(()), "{next}");
            seen.insert(next.clone());
            input = next;
        }
        assert!(seen.len() > 1500, "{}", seen.len());
        assert_eq!(mutate("not tiles", rng), None);
    }

    #[test]
    fn remarking_a_tiling_edge_keeps_the_input_solvable() {
        let rng = &mut ChaCha8Rng::seed_from_u64(9);
        let mut tiles: Tiles = [[0; SIDES]; FACES];
        for _ in 0..300 {
            let next = remark_tiling_edge(&tiles, rng).expect("solvable");
            let changed = (0..FACES)
                .flat_map(|f| (0..SIDES).map(move |e| (f, e)))
                .filter(|&(f, e)| next[f][e] != tiles[f][e])
                .count();
            assert_eq!(changed, 2, "{}", format_tiles(&next));
            tiles = next;
        }
        let mut unsolvable = [[0; SIDES]; FACES];
        unsolvable[0][0] = 1;
        assert_eq!(remark_tiling_edge(&unsolvable, rng), None);
    }

    #[test]
    fn work_counts_nodes_up_to_the_cap() {
        let zeros = "0 0 0 0 0\n".repeat(12);
        assert!(work("reference", &zeros, u64::MAX).unwrap() >= 11);
        let hard = format!("{}0 0 0 1 1\n", "0 0 0 0 0\n".repeat(11));
        assert_eq!(work("plain", &hard, 50_000), Some(50_000));
        assert_eq!(work("nope", &zeros, 10), None);
    }
}
