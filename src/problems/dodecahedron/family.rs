//! The hunt's family of ordinary backtracking searches, as contestants write them: faces in a
//! fixed order or most-constrained face first, with or without pinning tile 1 on face 1
//! (symmetry breaking), with or without skipping tiles identical (up to rotation) to one
//! already tried at the same face. No parity test: that is an insight, not a search order.
//! Each counts its search nodes exactly; never used to answer a test.

use super::geometry::{BACK, FACES, NEIGHBOURS, SIDES};
use super::solver::canonical;
use super::Tiles;

/// How one family member searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Next face: the first empty one in order 1..12 (`false`), or the empty one with the
    /// fewest fitting (tile, rotation) placements (`true`).
    pub most_constrained: bool,
    /// Tile 1 fixed on face 1 in rotation 0 (valid: a rotation of the solid brings any
    /// tiling there).
    pub symmetry: bool,
    /// A tile equal up to rotation to one already tried at this face is skipped, and a tile
    /// with all marks equal is tried in one rotation only.
    pub skip_identical: bool,
}

/// The family: `(name, options, description)`, in a stable order.
pub const FAMILY: &[(&str, Options, &str)] = &[
    (
        "fixed",
        opts(false, false, false),
        "faces in order, every unused tile in every rotation",
    ),
    (
        "fixed-sym",
        opts(false, true, false),
        "faces in order, tile 1 pinned on face 1",
    ),
    (
        "fixed-skip",
        opts(false, false, true),
        "faces in order, identical tiles tried once per face",
    ),
    (
        "fixed-sym-skip",
        opts(false, true, true),
        "faces in order, tile 1 pinned, identical tiles tried once",
    ),
    (
        "mcf",
        opts(true, false, false),
        "most-constrained face first (fewest fitting placements; none left: back up)",
    ),
    (
        "mcf-sym",
        opts(true, true, false),
        "most-constrained face first, tile 1 pinned on face 1",
    ),
    (
        "mcf-skip",
        opts(true, false, true),
        "most-constrained face first, identical tiles tried once per face",
    ),
    (
        "mcf-sym-skip",
        opts(true, true, true),
        "most-constrained face first, tile 1 pinned, identical tiles tried once",
    ),
];

const fn opts(most_constrained: bool, symmetry: bool, skip_identical: bool) -> Options {
    Options {
        most_constrained,
        symmetry,
        skip_identical,
    }
}

/// The options of family member `name`.
pub fn options(name: &str) -> Option<Options> {
    FAMILY.iter().find(|(n, ..)| *n == name).map(|(_, o, _)| *o)
}

/// What a search did: whether it found a tiling (`None`: it reached the node cap first), and
/// its nodes. A node is a placement tried: in fixed order every (tile, rotation) put on the
/// face, fitting or not; most-constrained-first puts only fitting ones (it counted them to
/// choose the face).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub found: Option<bool>,
    pub nodes: u64,
}

/// Runs family member `o` on `tiles`, stopping at `cap` nodes.
pub fn search(tiles: &Tiles, o: Options, cap: u64) -> Outcome {
    let mut codes = [[0u16; SIDES]; FACES];
    let mut class = [0usize; FACES];
    let mut uniform = [false; FACES];
    for (t, tile) in tiles.iter().enumerate() {
        for (r, code) in codes[t].iter_mut().enumerate() {
            // Reference edge on side r: side k shows the tile's edge (k - r) mod 5.
            *code = (0..SIDES).fold(0u16, |acc, k| {
                acc | (u16::from(tile[(k + SIDES - r) % SIDES]) << (2 * k))
            });
        }
        let c = canonical(tile);
        class[t] = (0..=t).find(|&u| canonical(&tiles[u]) == c).unwrap_or(t);
        uniform[t] = tile.iter().all(|&m| m == tile[0]);
    }
    let mut s = Search {
        codes,
        class,
        uniform,
        o,
        placed: [None; FACES],
        used: [false; FACES],
        nodes: 0,
        cap,
        capped: false,
    };
    let found = if o.symmetry {
        s.nodes += 1;
        s.placed[0] = Some((0, 0));
        s.used[0] = true;
        s.dfs(FACES - 1)
    } else {
        s.dfs(FACES)
    };
    Outcome {
        found: (!s.capped).then_some(found),
        nodes: s.nodes.min(cap),
    }
}

struct Search {
    /// `codes[t][r]`: the marks tile `t` shows on sides 0..5 with its reference on side `r`,
    /// two bits a side.
    codes: [[u16; SIDES]; FACES],
    /// The first tile equal to tile `t` up to rotation.
    class: [usize; FACES],
    uniform: [bool; FACES],
    o: Options,
    /// (tile, rotation) per face.
    placed: [Option<(usize, usize)>; FACES],
    used: [bool; FACES],
    nodes: u64,
    cap: u64,
    capped: bool,
}

impl Search {
    /// The (mask, value) a placement on empty face `f` must match: the marks its placed
    /// neighbours show on the shared edges.
    fn need(&self, f: usize) -> (u16, u16) {
        let (mut mask, mut value) = (0u16, 0u16);
        for k in 0..SIDES {
            let g = NEIGHBOURS[f][k];
            if let Some((t, r)) = self.placed[g] {
                let m = (self.codes[t][r] >> (2 * BACK[f][k])) & 3;
                mask |= 3 << (2 * k);
                value |= m << (2 * k);
            }
        }
        (mask, value)
    }

    fn rotations(&self, t: usize) -> usize {
        if self.o.skip_identical && self.uniform[t] {
            1
        } else {
            SIDES
        }
    }

    /// Fitting placements on empty face `f`, at most `stop`.
    fn count_fits(&self, f: usize, stop: u32) -> u32 {
        let (mask, value) = self.need(f);
        let mut n = 0;
        for t in 0..FACES {
            if self.used[t] {
                continue;
            }
            for r in 0..self.rotations(t) {
                if self.codes[t][r] & mask == value {
                    n += 1;
                    if n >= stop {
                        return n;
                    }
                }
            }
        }
        n
    }

    fn next_face(&self) -> Option<usize> {
        if !self.o.most_constrained {
            return (0..FACES).find(|&f| self.placed[f].is_none());
        }
        let mut best: Option<(u32, usize)> = None;
        for f in 0..FACES {
            if self.placed[f].is_some() {
                continue;
            }
            let stop = best.map_or(u32::MAX, |(n, _)| n);
            let n = self.count_fits(f, stop);
            if best.is_none_or(|(b, _)| n < b) {
                best = Some((n, f));
            }
            if n == 0 {
                break;
            }
        }
        best.map(|(_, f)| f)
    }

    fn dfs(&mut self, left: usize) -> bool {
        if left == 0 {
            return true;
        }
        let Some(f) = self.next_face() else {
            return true;
        };
        let (mask, value) = self.need(f);
        let mut tried = [false; FACES];
        for t in 0..FACES {
            if self.used[t] {
                continue;
            }
            if self.o.skip_identical {
                if tried[self.class[t]] {
                    continue;
                }
                tried[self.class[t]] = true;
            }
            for r in 0..self.rotations(t) {
                let fits = self.codes[t][r] & mask == value;
                if !fits && self.o.most_constrained {
                    continue;
                }
                self.nodes += 1;
                if self.nodes >= self.cap {
                    self.capped = true;
                    return false;
                }
                if !fits {
                    continue;
                }
                self.placed[f] = Some((t, r));
                self.used[t] = true;
                let found = self.dfs(left - 1);
                self.used[t] = false;
                self.placed[f] = None;
                if found {
                    return true;
                }
                if self.capped {
                    return false;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{brute, format_tiles, parse_tiles, solver};
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn fixed_order_with_the_pin_is_the_plain_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..30 {
            let tiles: Tiles =
                std::array::from_fn(|_| std::array::from_fn(|_| rng.random_range(0..2)));
            let input = format_tiles(&tiles);
            let cap = 200_000;
            let plain = brute::solvable_within(
                &input,
                brute::Budget {
                    nodes: Some(cap),
                    time: None,
                    fix_first_tile: true,
                },
            );
            let ours = search(&tiles, options("fixed-sym").unwrap(), cap + 2);
            if plain.solvable.is_some() {
                // The plain search counts the pinned tile as no node.
                assert_eq!(ours.nodes, plain.nodes + 1, "{input}");
                assert_eq!(ours.found, plain.solvable);
            }
        }
    }

    #[test]
    fn every_member_agrees_with_the_reference_solver() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut inputs: Vec<Tiles> = Vec::new();
        let zeros = [[0u8; SIDES]; FACES];
        inputs.push(zeros);
        // Random two-mark inputs (often solvable), then solvable ones re-marked along a tiling.
        for _ in 0..24 {
            inputs.push(std::array::from_fn(|_| {
                std::array::from_fn(|_| rng.random_range(0..2))
            }));
        }
        let sample = "0 0 0 2 0\n0 0 0 0 0\n2 1 2 1 0\n1 2 2 0 1\n0 2 2 1 1\n1 0 1 2 2\n\
                      2 0 2 0 1\n1 1 2 1 1\n1 2 2 2 1\n2 2 2 0 0\n1 2 1 0 1\n0 1 2 0 1\n";
        inputs.push(parse_tiles(sample).unwrap());
        let mut decided = [0; 2];
        for tiles in &inputs {
            let want = solver::solve_tiles(tiles).is_some();
            for (name, o, _) in FAMILY {
                let out = search(tiles, *o, 1_000_000);
                if let Some(found) = out.found {
                    decided[usize::from(found)] += 1;
                    assert_eq!(found, want, "{name} on\n{}", format_tiles(tiles));
                }
            }
        }
        // Both answers decided many times (the rest reached the cap).
        assert!(decided[0] > 10 && decided[1] > 30, "{decided:?}");
    }

    #[test]
    fn skipping_and_pinning_cut_the_work_on_equal_tiles() {
        let mut odd = [[0u8; SIDES]; FACES];
        odd[11] = [0, 0, 0, 1, 1];
        let n = |name: &str| search(&odd, options(name).unwrap(), 5_000_000);
        assert_eq!(n("fixed").found, None);
        assert_eq!(n("fixed-sym-skip").found, Some(false));
        assert!(n("fixed-sym-skip").nodes < n("fixed-skip").nodes);
        assert_eq!(n("mcf-sym-skip").found, Some(false));
        assert_eq!(n("fixed").nodes, 5_000_000);
    }

    #[test]
    fn the_shipped_family_tests_keep_their_node_counts() {
        // The hardest solvable inputs found for these searches (docs/verifying.md).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems/dodecahedron/data/secret");
        for (name, at_least) in [
            ("fixed-skip", 2_000_000),
            ("fixed-sym-skip", 2_000_000),
            ("mcf-skip", 61_606),
            ("mcf-sym-skip", 45_117),
        ] {
            let text =
                std::fs::read_to_string(dir.join(format!("family-{name}-solvable.in"))).unwrap();
            let out = search(
                &parse_tiles(&text).unwrap(),
                options(name).unwrap(),
                at_least,
            );
            assert_eq!(out.nodes, at_least, "{name}");
            assert!(solver::solve_tiles(&parse_tiles(&text).unwrap()).is_some());
        }
        let text = std::fs::read_to_string(dir.join("family-mcf-sym-skip-unsolvable.in")).unwrap();
        let out = search(
            &parse_tiles(&text).unwrap(),
            options("mcf-sym-skip").unwrap(),
            2_000_000,
        );
        assert_eq!(
            out,
            Outcome {
                found: Some(false),
                nodes: 932_778
            }
        );
    }
}
