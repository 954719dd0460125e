//! A model of the random-restart search contestants write when backtracking is too slow: faces
//! in order 1..12, each face trying the unused tiles in a random order drawn afresh at every
//! restart (rotations in order), giving up after [`CAP`] placements and starting again
//! (`wrong_answer/random_restarts.py`, which prints `-1` when its time budget runs out).
//! `judge hunt dodecahedron --solver restarts --kind solvable` climbs towards the solvable
//! inputs on which such restarts seldom succeed.
//!
//! The score is the placements tried until [`SUCCESSES`] restarts have found a tiling, with
//! the random orders drawn from a fixed seed, so it is deterministic and two inputs are
//! compared on the same orders. Its expectation is about `SUCCESSES * CAP / p` for a restart
//! success rate `p`; a budget of `B` placements then fails with probability about
//! `(1 - p)^(B / CAP)`.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::geometry::{BACK, FACES, NEIGHBOURS, SIDES};
use super::Tiles;

/// Placements a restart may try before it gives up (a node: one (tile, rotation) put on a
/// face, fitting or not), as in `random_restarts.py`.
pub const CAP: u64 = 3000;
/// Successful restarts the score waits for (more: less noise, slower).
pub const SUCCESSES: u32 = 8;
/// Seed of the random orders (the same for every input).
const SEED: u64 = 0x0005_eed0_f7e5_7a27;

/// Placements tried until [`SUCCESSES`] restarts succeeded, at most `cap` (`cap` also when
/// the tiles have no tiling: no restart ever succeeds).
pub fn nodes(tiles: &Tiles, cap: u64) -> u64 {
    // codes[t][r]: the marks tile t shows on sides 0..5 with its reference on side r.
    let mut codes = [[0u16; SIDES]; FACES];
    for (t, tile) in tiles.iter().enumerate() {
        for (r, code) in codes[t].iter_mut().enumerate() {
            *code = (0..SIDES).fold(0u16, |acc, k| {
                acc | (u16::from(tile[(k + SIDES - r) % SIDES]) << (2 * k))
            });
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut total = 0u64;
    let mut found = 0;
    while found < SUCCESSES && total < cap {
        let mut order = [[0usize; FACES]; FACES];
        for o in &mut order {
            *o = std::array::from_fn(|i| i);
            o.shuffle(&mut rng);
        }
        let mut r = Restart {
            codes: &codes,
            order: &order,
            placed: [(0, 0); FACES],
            used: [false; FACES],
            nodes: 0,
        };
        if r.dfs(0) {
            found += 1;
        }
        total += r.nodes.min(CAP);
    }
    total.min(cap)
}

struct Restart<'a> {
    codes: &'a [[u16; SIDES]; FACES],
    order: &'a [[usize; FACES]; FACES],
    /// (tile, rotation) of faces `0..f`.
    placed: [(usize, usize); FACES],
    used: [bool; FACES],
    nodes: u64,
}

impl Restart<'_> {
    /// Faces `f..` in order; `false` when the subtree has no tiling or the cap was hit.
    fn dfs(&mut self, f: usize) -> bool {
        if f == FACES {
            return true;
        }
        // The marks the placed neighbours (faces before f) show on f's sides.
        let (mut mask, mut value) = (0u16, 0u16);
        for k in 0..SIDES {
            let g = NEIGHBOURS[f][k];
            if g < f {
                let (t, r) = self.placed[g];
                mask |= 3 << (2 * k);
                value |= ((self.codes[t][r] >> (2 * BACK[f][k])) & 3) << (2 * k);
            }
        }
        for &t in &self.order[f] {
            if self.used[t] {
                continue;
            }
            for r in 0..SIDES {
                self.nodes += 1;
                if self.nodes > CAP {
                    return false;
                }
                if self.codes[t][r] & mask != value {
                    continue;
                }
                self.placed[f] = (t, r);
                self.used[t] = true;
                if self.dfs(f + 1) {
                    return true;
                }
                self.used[t] = false;
                if self.nodes > CAP {
                    return false;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_tiles, solver};
    use super::*;

    #[test]
    fn easy_inputs_need_few_restarts_and_unsolvable_ones_reach_the_cap() {
        let zeros = [[0u8; SIDES]; FACES];
        // Every restart succeeds at once: 12 faces, the first tile in rotation 0 fits.
        assert_eq!(nodes(&zeros, 1_000_000), u64::from(SUCCESSES) * 12);
        let mut odd = zeros;
        odd[11] = [0, 0, 0, 1, 1];
        assert!(solver::solve_tiles(&odd).is_none());
        assert_eq!(nodes(&odd, 1_000_000), 1_000_000);
    }

    #[test]
    fn a_unique_tiling_needs_many_restarts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems/dodecahedron/data/secret");
        let text = std::fs::read_to_string(dir.join("memo-kinds-collision.in")).unwrap();
        let tiles = parse_tiles(&text).unwrap();
        // Tens of restarts per success (the Python model: a success rate of about 1 %).
        assert!(nodes(&tiles, u64::MAX) > u64::from(SUCCESSES) * 20 * CAP);
    }
}
