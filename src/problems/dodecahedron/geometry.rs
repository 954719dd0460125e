//! The solid itself: which faces touch, in which clockwise order, and its symmetries.
//!
//! Faces are 0-based here (`0..12`); the statement and all I/O use 1-based numbers.

/// Number of faces (and of tiles).
pub const FACES: usize = 12;
/// Number of edges of a face (and of a tile).
pub const SIDES: usize = 5;

/// `NEIGHBOURS[f]` lists face `f`'s neighbours clockwise as seen from outside the solid
/// (0-based transcription of the statement's table).
pub const NEIGHBOURS: [[usize; SIDES]; FACES] = [
    [1, 2, 3, 4, 5],
    [0, 5, 6, 10, 2],
    [0, 1, 10, 9, 3],
    [0, 2, 9, 8, 4],
    [0, 3, 8, 7, 5],
    [0, 4, 7, 6, 1],
    [7, 11, 10, 1, 5],
    [8, 11, 6, 5, 4],
    [9, 11, 7, 4, 3],
    [10, 11, 8, 3, 2],
    [6, 11, 9, 2, 1],
    [6, 7, 8, 9, 10],
];

/// The side index of `g` in face `f`'s neighbour list, if `g` is a neighbour of `f`.
pub fn side_towards(f: usize, g: usize) -> Option<usize> {
    NEIGHBOURS.get(f)?.iter().position(|&x| x == g)
}

/// `BACK[f][k]`: the side index of face `f` in the list of its `k`-th neighbour, i.e. the
/// same physical edge seen from the other face.
pub const BACK: [[usize; SIDES]; FACES] = back_table();

const fn back_table() -> [[usize; SIDES]; FACES] {
    let mut back = [[usize::MAX; SIDES]; FACES];
    let mut f = 0;
    while f < FACES {
        let mut k = 0;
        while k < SIDES {
            let g = NEIGHBOURS[f][k];
            let mut j = 0;
            while j < SIDES {
                if NEIGHBOURS[g][j] == f {
                    back[f][k] = j;
                }
                j += 1;
            }
            k += 1;
        }
        f += 1;
    }
    back
}

/// The 30 edges as `(f, k, g, j)`: face `f`'s side `k` is face `g`'s side `j`, with `f < g`.
pub fn edges() -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::with_capacity(30);
    for f in 0..FACES {
        for k in 0..SIDES {
            let g = NEIGHBOURS[f][k];
            if f < g {
                out.push((f, k, g, BACK[f][k]));
            }
        }
    }
    out
}

/// Whether the table describes a closed, consistently oriented surface: every face has five
/// distinct neighbours other than itself, adjacency is symmetric, and around every shared
/// edge the two clockwise orders agree (the face after `g` around `f` is the face before
/// `f` around `g`, and vice versa). Returns the first problem found.
pub fn check_consistency(table: &[[usize; SIDES]; FACES]) -> Result<(), String> {
    for (f, ns) in table.iter().enumerate() {
        for (k, &g) in ns.iter().enumerate() {
            if g >= FACES || g == f {
                return Err(format!("face {}: bad neighbour {}", f + 1, g + 1));
            }
            if ns[..k].contains(&g) {
                return Err(format!("face {}: neighbour {} listed twice", f + 1, g + 1));
            }
            let Some(j) = table[g].iter().position(|&x| x == f) else {
                return Err(format!("face {} lists {} but not vice versa", f + 1, g + 1));
            };
            let next_f = ns[(k + 1) % SIDES];
            let prev_f = ns[(k + SIDES - 1) % SIDES];
            let next_g = table[g][(j + 1) % SIDES];
            let prev_g = table[g][(j + SIDES - 1) % SIDES];
            if next_g != prev_f || prev_g != next_f {
                return Err(format!(
                    "edge {}-{}: clockwise orders disagree",
                    f + 1,
                    g + 1
                ));
            }
        }
    }
    Ok(())
}

/// A symmetry of the solid as a map on faces plus the side shift it induces:
/// face `f` goes to `face[f]`, and side `k` of `f` goes to side `(k + shift[f]) % 5` of
/// `face[f]` (for rotations) or to side `(shift[f] - k) mod 5` (for reflections).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symmetry {
    pub face: [usize; FACES],
    pub shift: [usize; FACES],
    pub reflect: bool,
}

impl Symmetry {
    /// Where side `k` of face `f` lands on face `self.face[f]`.
    pub fn side(&self, f: usize, k: usize) -> usize {
        if self.reflect {
            (self.shift[f] + SIDES - k % SIDES) % SIDES
        } else {
            (k + self.shift[f]) % SIDES
        }
    }
}

/// The map determined by sending face 0 to `f0` with side 0 of face 0 on side `s0` of `f0`,
/// preserving (or, with `reflect`, reversing) orientation; `None` if that is not a symmetry.
fn symmetry_from(f0: usize, s0: usize, reflect: bool) -> Option<Symmetry> {
    let mut face = [usize::MAX; FACES];
    let mut shift = [0; FACES];
    face[0] = f0;
    shift[0] = s0;
    let mut queue = vec![0usize];
    let mut sym = Symmetry {
        face,
        shift,
        reflect,
    };
    while let Some(f) = queue.pop() {
        for k in 0..SIDES {
            let g = NEIGHBOURS[f][k];
            let img_f = sym.face[f];
            let img_side = sym.side(f, k);
            let img_g = NEIGHBOURS[img_f][img_side];
            // Side BACK[f][k] of g must land on side BACK[img_f][img_side] of img_g.
            let j = BACK[f][k];
            let target = BACK[img_f][img_side];
            let shift_g = if reflect {
                (target + j) % SIDES
            } else {
                (target + SIDES - j) % SIDES
            };
            if sym.face[g] == usize::MAX {
                sym.face[g] = img_g;
                sym.shift[g] = shift_g;
                queue.push(g);
            } else if sym.face[g] != img_g || sym.shift[g] != shift_g {
                return None;
            }
        }
    }
    let mut seen = [false; FACES];
    for &x in &sym.face {
        if seen[x] {
            return None;
        }
        seen[x] = true;
    }
    Some(sym)
}

/// All orientation-preserving symmetries (the 60 rotations), identity first.
pub fn rotations() -> Vec<Symmetry> {
    symmetries(false)
}

/// All orientation-reversing symmetries (the 60 reflections composed with rotations).
pub fn reflections() -> Vec<Symmetry> {
    symmetries(true)
}

fn symmetries(reflect: bool) -> Vec<Symmetry> {
    let mut out = Vec::new();
    for f0 in 0..FACES {
        for s0 in 0..SIDES {
            if let Some(s) = symmetry_from(f0, s0, reflect) {
                out.push(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_table_is_a_consistent_oriented_solid() {
        assert_eq!(check_consistency(&NEIGHBOURS), Ok(()));
        assert_eq!(edges().len(), 30);
        for f in 0..FACES {
            for k in 0..SIDES {
                let g = NEIGHBOURS[f][k];
                assert_eq!(NEIGHBOURS[g][BACK[f][k]], f);
                assert_eq!(BACK[g][BACK[f][k]], k);
            }
        }
    }

    #[test]
    fn consistency_check_catches_broken_tables() {
        let mut t = NEIGHBOURS;
        t[0].swap(1, 2); // same neighbours, wrong cyclic order
        assert!(check_consistency(&t).is_err());
        let mut t = NEIGHBOURS;
        t[0][0] = 6; // 1 lists 7 but 7 does not list 1
        assert!(check_consistency(&t).is_err());
        let mut t = NEIGHBOURS;
        t[3][1] = 3;
        assert!(check_consistency(&t).is_err());
    }

    #[test]
    fn statement_table_matches_transcription() {
        let statement = "1: 2 3 4 5 6\n2: 1 6 7 11 3\n3: 1 2 11 10 4\n4: 1 3 10 9 5\n\
            5: 1 4 9 8 6\n6: 1 5 8 7 2\n7: 8 12 11 2 6\n8: 9 12 7 6 5\n\
            9: 10 12 8 5 4\n10: 11 12 9 4 3\n11: 7 12 10 3 2\n12: 7 8 9 10 11\n";
        for (f, line) in statement.lines().enumerate() {
            let nums: Vec<usize> = line
                .split([':', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(nums[0], f + 1);
            let ns: Vec<usize> = NEIGHBOURS[f].iter().map(|g| g + 1).collect();
            assert_eq!(&nums[1..], &ns[..]);
        }
    }

    #[test]
    fn sixty_rotations_and_sixty_reflections() {
        let rots = rotations();
        assert_eq!(rots.len(), 60);
        assert_eq!(rots[0].face, std::array::from_fn(|i| i));
        assert_eq!(reflections().len(), 60);
        // Each symmetry maps every edge onto an edge with matching sides.
        for s in rots.iter().chain(reflections().iter()) {
            for f in 0..FACES {
                for k in 0..SIDES {
                    let g = NEIGHBOURS[f][k];
                    assert_eq!(NEIGHBOURS[s.face[f]][s.side(f, k)], s.face[g]);
                }
            }
        }
    }
}
