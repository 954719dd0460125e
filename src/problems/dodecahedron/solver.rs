//! The reference solver: exact, and fast on every input (including proving "no solution").
//!
//! Why it is fast:
//! - parity: every real edge is counted twice over the 60 tile edges, so each mark must occur
//!   an even number of times, or there is no arrangement at all;
//! - tiles equal up to rotation are merged into classes with a multiplicity, so identical
//!   tiles are never permuted among themselves;
//! - the solid's 60 rotations: some face holds a tile of any chosen class, and rotating the
//!   solid brings it onto face 1 with its canonical reference edge towards face 2, so only
//!   that placement is tried for face 1 (the class with the rarest marks is chosen);
//! - candidates are (class, rotation) pairs kept as `u64` bitsets; each face keeps the set
//!   that fits its placed neighbours, so placing a tile is five ANDs;
//! - the next face is always the one with the fewest candidates, and a branch dies as soon
//!   as an empty face has no candidate or a class has fewer fitting faces than tiles left.

use super::geometry::{BACK, FACES, NEIGHBOURS, SIDES};
use super::{Arrangement, Placement, Tiles};

/// Which arrangements the search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The statement's rules: any tile on any face, any rotation.
    Full,
    /// Every tile's reference edge must lie towards the first listed neighbour of its face
    /// (used by a generator to reject instances that need no rotations).
    IdentityRotation,
}

/// A set of tiles that are equal up to rotation (or, in [`Mode::IdentityRotation`], equal).
#[derive(Debug, Clone)]
struct Class {
    /// Side codes of the representative for each distinct rotation `r` (reference edge on
    /// side `r`): side `k` holds mark `(code >> 2k) & 3`.
    codes: [u16; SIDES],
    /// Number of distinct rotations (1 for a tile with all marks equal, else 5).
    rotations: usize,
    /// Member tiles with their offset `o`: the representative is the tile read from edge `o`
    /// on, so tile `t` with its reference on side `r - o` looks like the representative
    /// with its reference on side `r`.
    members: Vec<(usize, usize)>,
}

/// The marks seen on sides `0..5` of a face holding `tile` with its reference edge on side `r`.
pub fn placed_marks(tile: &[u8; SIDES], r: usize) -> [u8; SIDES] {
    std::array::from_fn(|k| tile[(k + SIDES - r % SIDES) % SIDES])
}

fn code_of(marks: &[u8; SIDES]) -> u16 {
    marks
        .iter()
        .enumerate()
        .fold(0, |acc, (k, &m)| acc | (u16::from(m & 3) << (2 * k)))
}

/// The rotation offset making `tile` lexicographically smallest: the tile's marks read from
/// edge `offset` on are its canonical form.
pub fn canonical_offset(tile: &[u8; SIDES]) -> usize {
    (0..SIDES)
        .min_by_key(|&o| std::array::from_fn::<u8, SIDES, _>(|m| tile[(m + o) % SIDES]))
        .unwrap_or(0)
}

/// `tile` rotated to its lexicographically smallest reading.
pub fn canonical(tile: &[u8; SIDES]) -> [u8; SIDES] {
    let o = canonical_offset(tile);
    std::array::from_fn(|m| tile[(m + o) % SIDES])
}

fn build_classes(tiles: &Tiles, mode: Mode) -> Vec<Class> {
    let mut classes: Vec<([u8; SIDES], Class)> = Vec::new();
    for (t, tile) in tiles.iter().enumerate() {
        let (key, offset) = match mode {
            Mode::Full => (canonical(tile), canonical_offset(tile)),
            Mode::IdentityRotation => (*tile, 0),
        };
        if let Some((_, c)) = classes.iter_mut().find(|(k, _)| *k == key) {
            c.members.push((t, offset));
            continue;
        }
        let rotations = match mode {
            Mode::IdentityRotation => 1,
            Mode::Full if key.iter().all(|&m| m == key[0]) => 1,
            Mode::Full => SIDES,
        };
        let codes = std::array::from_fn(|r| code_of(&placed_marks(&key, r)));
        classes.push((
            key,
            Class {
                codes,
                rotations,
                members: vec![(t, offset)],
            },
        ));
    }
    classes.into_iter().map(|(_, c)| c).collect()
}

/// Whether each mark occurs an even number of times over the 60 tile edges (necessary for
/// any arrangement to exist).
pub fn parity_ok(tiles: &Tiles) -> bool {
    let mut count = [0usize; 3];
    for &m in tiles.iter().flatten() {
        count[usize::from(m % 3)] += 1;
    }
    count.iter().all(|c| c % 2 == 0)
}

/// The class to pin on face 0: the one whose marks are rarest over all tile edges (fewest
/// fitting neighbours), ties to the lowest index.
fn first_class(tiles: &Tiles, classes: &[Class]) -> usize {
    let mut freq = [0usize; 4];
    for &m in tiles.iter().flatten() {
        freq[usize::from(m & 3)] += 1;
    }
    (0..classes.len())
        .min_by_key(|&c| {
            (0..SIDES)
                .map(|k| freq[usize::from((classes[c].codes[0] >> (2 * k)) & 3)])
                .product::<usize>()
        })
        .unwrap_or(0)
}

/// Search statistics, for the benchmark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Placements tried (search-tree nodes).
    pub nodes: u64,
}

/// Search state. Candidates are (class, rotation) pairs numbered `pair = 5 * class + r`
/// (at most 60, so a set of them is a `u64`).
struct Search {
    classes: Vec<Class>,
    remaining: Vec<usize>,
    /// Bits of classes with tiles left.
    avail: u64,
    /// `side_mark[k][m]`: pairs that show mark `m` on side `k`.
    side_mark: [[u64; 3]; SIDES],
    /// `class_pairs[c]`: all pairs of class `c`.
    class_pairs: Vec<u64>,
    /// (class, rotation) per face, `usize::MAX` class when empty.
    placed: [(usize, usize); FACES],
    nodes: u64,
}

/// Per face, the pairs compatible with every already placed neighbour.
type Candidates = [u64; FACES];

impl Search {
    fn new(classes: Vec<Class>) -> Self {
        let mut side_mark = [[0u64; 3]; SIDES];
        let mut class_pairs = Vec::with_capacity(classes.len());
        for (c, class) in classes.iter().enumerate() {
            let mut bits = 0u64;
            for r in 0..class.rotations {
                let pair = 1u64 << (SIDES * c + r);
                bits |= pair;
                for (k, row) in side_mark.iter_mut().enumerate() {
                    row[usize::from((class.codes[r] >> (2 * k)) & 3)] |= pair;
                }
            }
            class_pairs.push(bits);
        }
        let remaining: Vec<usize> = classes.iter().map(|c| c.members.len()).collect();
        Search {
            avail: (1u64 << classes.len()) - 1,
            remaining,
            side_mark,
            class_pairs,
            classes,
            placed: [(usize::MAX, 0); FACES],
            nodes: 0,
        }
    }

    /// The candidate sets after putting pair `(c, r)` on face `f`.
    fn place(&self, cand: &Candidates, f: usize, c: usize, r: usize) -> Candidates {
        let code = self.classes[c].codes[r];
        let mut next = *cand;
        for k in 0..SIDES {
            let mark = usize::from((code >> (2 * k)) & 3);
            next[NEIGHBOURS[f][k]] &= self.side_mark[BACK[f][k]][mark];
        }
        next
    }

    fn take(&mut self, f: usize, c: usize, r: usize) {
        self.remaining[c] -= 1;
        if self.remaining[c] == 0 {
            self.avail &= !(1 << c);
        }
        self.placed[f] = (c, r);
    }

    fn untake(&mut self, f: usize, c: usize) {
        self.remaining[c] += 1;
        self.avail |= 1 << c;
        self.placed[f] = (usize::MAX, 0);
    }

    fn avail_pairs(&self) -> u64 {
        let mut pairs = 0;
        let mut a = self.avail;
        while a != 0 {
            let c = a.trailing_zeros() as usize;
            a &= a - 1;
            pairs |= self.class_pairs[c];
        }
        pairs
    }

    fn dfs(&mut self, cand: &Candidates, left: usize) -> bool {
        if left == 0 {
            return true;
        }
        let avail = self.avail_pairs();
        // Forward checking on both sides: every empty face needs a fitting tile, and every
        // class needs at least as many empty faces it fits as it has tiles left.
        let mut best = (u32::MAX, usize::MAX);
        let mut fits_count = [0usize; FACES];
        for (f, &face_cand) in cand.iter().enumerate() {
            if self.placed[f].0 != usize::MAX {
                continue;
            }
            let here = face_cand & avail;
            let count = here.count_ones();
            if count == 0 {
                return false;
            }
            if count < best.0 {
                best = (count, f);
            }
            let mut a = self.avail;
            while a != 0 {
                let c = a.trailing_zeros() as usize;
                a &= a - 1;
                if here & self.class_pairs[c] != 0 {
                    fits_count[c] += 1;
                }
            }
        }
        let mut a = self.avail;
        while a != 0 {
            let c = a.trailing_zeros() as usize;
            a &= a - 1;
            if fits_count[c] < self.remaining[c] {
                return false;
            }
        }
        let f = best.1;
        let mut options = cand[f] & avail;
        while options != 0 {
            let pair = options.trailing_zeros() as usize;
            options &= options - 1;
            let (c, r) = (pair / SIDES, pair % SIDES);
            self.nodes += 1;
            self.take(f, c, r);
            let next = self.place(cand, f, c, r);
            if self.dfs(&next, left - 1) {
                return true;
            }
            self.untake(f, c);
        }
        false
    }

    /// Counts the completions of the current placement, stopping once more than `limit`
    /// are found (same pruning as [`Search::dfs`]).
    fn count(&mut self, cand: &Candidates, left: usize, limit: usize) -> usize {
        if left == 0 {
            return 1;
        }
        let avail = self.avail_pairs();
        let mut best = (u32::MAX, usize::MAX);
        for (f, &face_cand) in cand.iter().enumerate() {
            if self.placed[f].0 != usize::MAX {
                continue;
            }
            let count = (face_cand & avail).count_ones();
            if count == 0 {
                return 0;
            }
            if count < best.0 {
                best = (count, f);
            }
        }
        let f = best.1;
        let mut total = 0;
        let mut options = cand[f] & avail;
        while options != 0 && total <= limit {
            let pair = options.trailing_zeros() as usize;
            options &= options - 1;
            let (c, r) = (pair / SIDES, pair % SIDES);
            self.nodes += 1;
            self.take(f, c, r);
            let next = self.place(cand, f, c, r);
            total += self.count(&next, left - 1, limit - total);
            self.untake(f, c);
        }
        total
    }

    /// Turns the class-level solution into concrete tiles and reference edges.
    fn arrangement(&self) -> Arrangement {
        let mut next_member = vec![0usize; self.classes.len()];
        std::array::from_fn(|f| {
            let (c, r) = self.placed[f];
            let (tile, offset) = self.classes[c].members[next_member[c]];
            next_member[c] += 1;
            Placement {
                tile,
                reference: (r + SIDES - offset) % SIDES,
            }
        })
    }
}

/// An arrangement of `tiles` under `mode`, or `None` when none exists, plus search statistics.
pub fn solve_tiles_with(tiles: &Tiles, mode: Mode) -> (Option<Arrangement>, Stats) {
    if !parity_ok(tiles) {
        return (None, Stats::default());
    }
    let mut search = Search::new(build_classes(tiles, mode));
    let all = [u64::MAX; FACES];
    let found = match mode {
        Mode::Full => {
            // Up to the solid's rotations: one class on face 0 with rotation 0 (see module
            // docs). Any class is valid; the one whose marks are rarest prunes best.
            let c0 = first_class(tiles, &search.classes);
            search.take(0, c0, 0);
            let cand = search.place(&all, 0, c0, 0);
            search.dfs(&cand, FACES - 1)
        }
        Mode::IdentityRotation => search.dfs(&all, FACES),
    };
    let stats = Stats {
        nodes: search.nodes,
    };
    (found.then(|| search.arrangement()), stats)
}

/// An arrangement of `tiles` under the statement's rules, or `None` when none exists.
pub fn solve_tiles(tiles: &Tiles) -> Option<Arrangement> {
    solve_tiles_with(tiles, Mode::Full).0
}

/// How many ways `tiles` can be laid with one fixed tile kind on face 1 in its canonical
/// rotation, counting at most `limit + 1`. Equal tiles are interchangeable; every tiling up to
/// rotations of the solid is counted at least once (once per distinct rotated image that puts
/// the fixed kind on face 1), so 1 means exactly one tiling up to rotations.
pub fn count_tilings(tiles: &Tiles, limit: usize) -> usize {
    if !parity_ok(tiles) {
        return 0;
    }
    let mut search = Search::new(build_classes(tiles, Mode::Full));
    let c0 = first_class(tiles, &search.classes);
    search.take(0, c0, 0);
    let cand = search.place(&[u64::MAX; FACES], 0, c0, 0);
    search.count(&cand, FACES - 1, limit)
}

#[cfg(test)]
mod tests {
    use super::super::{arrangement_violation, Tiles};
    use super::*;

    fn tiles_from(rows: &[[u8; 5]]) -> Tiles {
        std::array::from_fn(|i| rows[i % rows.len()])
    }

    #[test]
    fn canonical_rotation_is_smallest() {
        assert_eq!(canonical(&[2, 1, 0, 1, 2]), [0, 1, 2, 2, 1]);
        assert_eq!(canonical_offset(&[2, 1, 0, 1, 2]), 2);
        assert_eq!(canonical(&[1, 1, 1, 1, 1]), [1, 1, 1, 1, 1]);
    }

    #[test]
    fn placed_marks_follow_the_statement() {
        // Reference edge on side 2: tile edge m lies on side (2 + m) mod 5.
        let tile = [0, 1, 2, 1, 0];
        let placed = placed_marks(&tile, 2);
        for m in 0..5 {
            assert_eq!(placed[(2 + m) % 5], tile[m]);
        }
    }

    #[test]
    fn trivial_cases() {
        let zeros = tiles_from(&[[0; 5]]);
        let a = solve_tiles(&zeros).expect("all zeros is solvable");
        assert_eq!(arrangement_violation(&zeros, &a), None);
        let mut odd = zeros;
        odd[11] = [0, 0, 0, 0, 1];
        assert_eq!(solve_tiles(&odd), None);
    }

    #[test]
    fn counts_tilings() {
        // All zeros: one kind, five rotations of it on face 1, twelve faces for it.
        let zeros = tiles_from(&[[0; 5]]);
        assert_eq!(count_tilings(&zeros, 1000), 1);
        let mut odd = zeros;
        odd[11] = [0, 0, 0, 0, 1];
        assert_eq!(count_tilings(&odd, 10), 0);
        // One edge marked 1: the two tiles meeting there are the rarest kind, and the half
        // turn about that edge swaps them: one tiling, one image.
        let mut one_edge = zeros;
        one_edge[3] = [0, 1, 0, 0, 0];
        one_edge[7] = [0, 0, 0, 1, 0];
        assert_eq!(count_tilings(&one_edge, 10), 1);
        // Two marked edges far apart: still one tiling up to rotations, but now two images.
        let mut two_edges = one_edge;
        two_edges[0] = [2, 0, 0, 0, 0];
        two_edges[11] = [0, 0, 2, 0, 0];
        assert!(count_tilings(&two_edges, 10) >= 1);
        assert_eq!(count_tilings(&two_edges, 0), 1);
    }

    #[test]
    fn identity_mode_only_uses_reference_side_zero() {
        let zeros = tiles_from(&[[0; 5]]);
        let (a, _) = solve_tiles_with(&zeros, Mode::IdentityRotation);
        let a = a.expect("solvable");
        assert!(a.iter().all(|p| p.reference == 0));
    }
}
