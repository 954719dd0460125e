//! Counterexample shrinking: simpler valid inputs, most aggressive first.

use super::geometry::{FACES, SIDES};
use super::solver::canonical;
use super::{format_tiles, parse_tiles, Tiles};

/// Simpler variants of `input`, most aggressive first: all marks zero; fewer distinct marks
/// (one mark merged into another everywhere); more duplicate tiles (one tile replaced by a
/// copy of another); canonical rotations (all tiles at once, then one at a time). Every
/// candidate passes the validator and differs from `input`; no duplicates. An input that
/// does not parse yields nothing.
pub fn shrink(input: &str) -> Vec<String> {
    let Some(tiles) = parse_tiles(input) else {
        return Vec::new();
    };
    let original = format_tiles(&tiles);
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: &Tiles| {
        let s = format_tiles(t);
        if s != input && s != original && !out.contains(&s) {
            out.push(s);
        }
    };
    push(&[[0; SIDES]; FACES]);
    for (from, to) in [(2, 0), (2, 1), (1, 0)] {
        push(&tiles.map(|t| t.map(|m| if m == from { to } else { m })));
    }
    for i in 0..FACES {
        for j in 0..FACES {
            if tiles[i] != tiles[j] {
                let mut t = tiles;
                t[i] = tiles[j];
                push(&t);
            }
        }
    }
    push(&tiles.map(|t| canonical(&t)));
    for i in 0..FACES {
        let mut t = tiles;
        t[i] = canonical(&tiles[i]);
        push(&t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::validator::validate;
    use super::*;

    #[test]
    fn candidates_are_valid_distinct_and_ordered() {
        let input = "2 1 0 0 0\n".repeat(6) + &"0 0 1 2 2\n".repeat(6);
        let c = shrink(&input);
        assert!(!c.is_empty());
        assert_eq!(c[0], "0 0 0 0 0\n".repeat(12));
        for s in &c {
            assert_eq!(validate(s.as_bytes()), Ok(()));
            assert_ne!(s, &input);
        }
        let mut dedup = c.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), c.len());
        assert!(c.contains(&("0 0 0 2 1\n".repeat(6) + &"0 0 1 2 2\n".repeat(6))));
        assert!(c.contains(&("1 1 0 0 0\n".repeat(6) + &"0 0 1 1 1\n".repeat(6))));
    }

    #[test]
    fn fully_simple_input_has_no_candidates() {
        assert!(shrink(&"0 0 0 0 0\n".repeat(12)).is_empty());
        assert!(shrink("not an input").is_empty());
    }
}
