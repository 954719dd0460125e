//! The data of a dodecahedron input and answer: tiles, placements, arrangements; parsing,
//! formatting and the arrangement check.
//!
//! Exported verbatim with the validator and checker by `judge export` (see
//! [`crate::problems::jury`]): `std` and sibling modules only.

use super::geometry::{edges, FACES, NEIGHBOURS, SIDES};

/// Tile `t`'s edge marks (0-based tile index), starting at its reference edge, clockwise.
pub type Tiles = [[u8; SIDES]; FACES];

/// What one face holds: a tile (0-based) and the side of the face (index into
/// [`geometry::NEIGHBOURS`]) on which the tile's reference edge lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub tile: usize,
    pub reference: usize,
}

/// One placement per face (0-based faces).
pub type Arrangement = [Placement; FACES];

/// Reads the 60 marks of an input, tolerating any ASCII whitespace layout. `None` unless
/// there are exactly 60 tokens, each `0`, `1` or `2`. (The validator is the strict gate; this
/// is for code that receives already validated inputs.)
pub fn parse_tiles(input: &str) -> Option<Tiles> {
    let mut tiles = [[0u8; SIDES]; FACES];
    let mut tokens = input.split_ascii_whitespace();
    for tile in tiles.iter_mut() {
        for mark in tile.iter_mut() {
            *mark = match tokens.next()? {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                _ => return None,
            };
        }
    }
    tokens.next().is_none().then_some(tiles)
}

/// The canonical input text for `tiles` (passes the validator).
pub fn format_tiles(tiles: &Tiles) -> String {
    let mut s = String::with_capacity(FACES * 10);
    for tile in tiles {
        let line: Vec<String> = tile.iter().map(|m| m.to_string()).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

/// The output text for an arrangement: line `i` is `t n` (1-based tile and neighbour).
pub fn format_arrangement(a: &Arrangement) -> String {
    let mut s = String::with_capacity(FACES * 6);
    for (f, p) in a.iter().enumerate() {
        s.push_str(&format!(
            "{} {}\n",
            p.tile + 1,
            NEIGHBOURS[f][p.reference % SIDES] + 1
        ));
    }
    s
}

/// The mark face `f` shows on its side `k` under arrangement `a`.
pub fn mark_on(tiles: &Tiles, a: &Arrangement, f: usize, k: usize) -> u8 {
    let p = a[f];
    tiles[p.tile][(k + SIDES - p.reference % SIDES) % SIDES]
}

/// Why `a` is not a valid arrangement of `tiles` (first problem, one line, 1-based numbers),
/// or `None` when it is valid. Tiles and references must be in range.
pub fn arrangement_violation(tiles: &Tiles, a: &Arrangement) -> Option<String> {
    let mut first_face = [usize::MAX; FACES];
    for (f, p) in a.iter().enumerate() {
        if p.tile >= FACES || p.reference >= SIDES {
            return Some(format!("face {}: placement out of range", f + 1));
        }
        if first_face[p.tile] != usize::MAX {
            return Some(format!(
                "tile {} used twice (faces {} and {})",
                p.tile + 1,
                first_face[p.tile] + 1,
                f + 1
            ));
        }
        first_face[p.tile] = f;
    }
    for (f, k, g, j) in edges() {
        let (x, y) = (mark_on(tiles, a, f, k), mark_on(tiles, a, g, j));
        if x != y {
            return Some(format!(
                "faces {} and {} disagree on their shared edge: {x} vs {y}",
                f + 1,
                g + 1
            ));
        }
    }
    None
}
