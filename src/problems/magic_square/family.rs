//! The hunt's family of ordinary backtracking searches, as contestants write them (N = 3 and
//! N = 4 alike): cells row by row or most-constrained cell first, a cell that is the last
//! empty one of a line taking the value the line's sum forces; with or without symmetry
//! breaking (the square's 8 rotations and reflections: the top-left corner is the smallest
//! corner, top-right ≤ bottom-left); with or without skipping repeated values (a free cell
//! tries each distinct value left once, instead of every unused number). Each counts its
//! search nodes exactly; never used to answer a test.

/// How one family member searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Next cell: the first empty one row by row (`false`), or the empty one in the fullest
    /// line (`true`; a cell forced by a line comes first, ties to the lowest index).
    pub most_constrained: bool,
    /// Corner order constraints against the 8 rotations and reflections.
    pub symmetry: bool,
    /// A free cell tries each distinct value once (equal numbers merged).
    pub skip_repeated: bool,
}

/// The family: `(name, options, description)`, in a stable order.
pub const FAMILY: &[(&str, Options, &str)] = &[
    (
        "fixed",
        opts(false, false, false),
        "cells row by row (a line's last cell forced), every unused number",
    ),
    (
        "fixed-sym",
        opts(false, true, false),
        "cells row by row, corner order against the 8 symmetries",
    ),
    (
        "fixed-skip",
        opts(false, false, true),
        "cells row by row, each distinct value once per cell",
    ),
    (
        "fixed-sym-skip",
        opts(false, true, true),
        "cells row by row, corner order, each distinct value once",
    ),
    (
        "mcf",
        opts(true, false, false),
        "the cell of the fullest line first (forced cells first), every unused number",
    ),
    (
        "mcf-sym",
        opts(true, true, false),
        "the cell of the fullest line first, corner order",
    ),
    (
        "mcf-skip",
        opts(true, false, true),
        "the cell of the fullest line first, each distinct value once",
    ),
    (
        "mcf-sym-skip",
        opts(true, true, true),
        "the cell of the fullest line first, corner order, each distinct value once",
    ),
];

const fn opts(most_constrained: bool, symmetry: bool, skip_repeated: bool) -> Options {
    Options {
        most_constrained,
        symmetry,
        skip_repeated,
    }
}

/// The options of family member `name`.
pub fn options(name: &str) -> Option<Options> {
    FAMILY.iter().find(|(n, ..)| *n == name).map(|(_, o, _)| *o)
}

/// What a search did: its square (`None` inside: none exists; outer `None`: it reached the node
/// cap first), and its nodes (numbers put in a cell, forced or free).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub found: Option<Option<Vec<i64>>>,
    pub nodes: u64,
}

/// Runs family member `o` on `values` (9 or 16 numbers), stopping at `cap` nodes.
pub fn search(values: &[i64], o: Options, cap: u64) -> Outcome {
    let n = match values.len() {
        9 => 3,
        16 => 4,
        _ => {
            return Outcome {
                found: Some(None),
                nodes: 0,
            }
        }
    };
    let total: i64 = values.iter().sum();
    if total % n as i64 != 0 {
        return Outcome {
            found: Some(None),
            nodes: 0,
        };
    }
    let lines = super::solver::lines(n);
    let cell_lines: Vec<Vec<usize>> = (0..n * n)
        .map(|c| {
            (0..lines.len())
                .filter(|&l| lines[l].contains(&c))
                .collect()
        })
        .collect();
    let mut s = Search {
        n,
        s: total / n as i64,
        values: values.to_vec(),
        used: vec![false; n * n],
        cells: vec![None; n * n],
        filled: vec![0; lines.len()],
        sum: vec![0; lines.len()],
        cell_lines,
        o,
        nodes: 0,
        cap,
        capped: false,
    };
    let found = s.dfs(n * n);
    Outcome {
        found: (!s.capped).then(|| found.then(|| s.cells.iter().map(|c| c.unwrap_or(0)).collect())),
        nodes: s.nodes.min(cap),
    }
}

struct Search {
    n: usize,
    s: i64,
    values: Vec<i64>,
    used: Vec<bool>,
    cells: Vec<Option<i64>>,
    /// The lines through each cell.
    cell_lines: Vec<Vec<usize>>,
    /// Filled cells and their sum, per line.
    filled: Vec<usize>,
    sum: Vec<i64>,
    o: Options,
    nodes: u64,
    cap: u64,
    capped: bool,
}

impl Search {
    fn next_cell(&self) -> Option<usize> {
        let empty = (0..self.n * self.n).filter(|&c| self.cells[c].is_none());
        if !self.o.most_constrained {
            return empty.min();
        }
        // Fullest line through the cell; the first such cell wins ties.
        let mut best: Option<(usize, usize)> = None;
        for c in empty {
            let k = self.cell_lines[c]
                .iter()
                .map(|&l| self.filled[l])
                .max()
                .unwrap_or(0);
            if best.is_none_or(|(b, _)| k > b) {
                best = Some((k, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// The value a line forces on empty cell `c` (a line whose other cells are filled).
    fn forced(&self, c: usize) -> Option<i64> {
        self.cell_lines[c]
            .iter()
            .find(|&&l| self.filled[l] == self.n - 1)
            .map(|&l| self.s - self.sum[l])
    }

    /// Whether `v` in cell `c` breaks a line that it completes, or the symmetry order.
    fn fits(&self, c: usize, v: i64) -> bool {
        for &l in &self.cell_lines[c] {
            if self.filled[l] == self.n - 1 && self.sum[l] + v != self.s {
                return false;
            }
        }
        if self.o.symmetry {
            let n = self.n;
            let (tl, tr, bl, br) = (0, n - 1, n * (n - 1), n * n - 1);
            let get = |x: usize| if x == c { Some(v) } else { self.cells[x] };
            let le = |a: usize, b: usize| match (get(a), get(b)) {
                (Some(x), Some(y)) => x <= y,
                _ => true,
            };
            if !(le(tl, tr) && le(tl, bl) && le(tl, br) && le(tr, bl)) {
                return false;
            }
        }
        true
    }

    fn set(&mut self, c: usize, v: Option<i64>) {
        let (d, dv) = match v {
            Some(x) => (1isize, x),
            None => (-1, -self.cells[c].unwrap_or(0)),
        };
        for &l in &self.cell_lines[c] {
            self.filled[l] = (self.filled[l] as isize + d) as usize;
            self.sum[l] += dv;
        }
        self.cells[c] = v;
    }

    /// Puts the number at position `i` in cell `c` (one node) and searches on.
    fn put(&mut self, c: usize, i: usize, left: usize) -> bool {
        self.nodes += 1;
        if self.nodes >= self.cap {
            self.capped = true;
            return false;
        }
        let v = self.values[i];
        if !self.fits(c, v) {
            return false;
        }
        self.used[i] = true;
        self.set(c, Some(v));
        let found = self.dfs(left - 1);
        if found {
            return true;
        }
        self.set(c, None);
        self.used[i] = false;
        false
    }

    fn dfs(&mut self, left: usize) -> bool {
        if left == 0 {
            return true;
        }
        let Some(c) = self.next_cell() else {
            return true;
        };
        if let Some(need) = self.forced(c) {
            return match (0..self.values.len()).find(|&i| !self.used[i] && self.values[i] == need) {
                Some(i) => self.put(c, i, left),
                None => false,
            };
        }
        for i in 0..self.values.len() {
            if self.used[i] {
                continue;
            }
            if self.o.skip_repeated
                && (0..i).any(|j| !self.used[j] && self.values[j] == self.values[i])
            {
                continue;
            }
            if self.put(c, i, left) {
                return true;
            }
            if self.capped {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{generator, solver};
    use super::*;
    use crate::problems::GenParams;

    #[test]
    fn every_member_finds_a_square_where_the_reference_does() {
        let mut inputs: Vec<Vec<i64>> = vec![
            vec![2, 7, 6, 9, 5, 1, 4, 3, 8],
            (1..=16).collect(),
            vec![7; 16],
            vec![1, 2, 3, 4, 5, 6, 7, 8, 10],
        ];
        for (g, n) in [
            ("small-duplicates", 4),
            ("random", 3),
            ("distinct", 4),
            ("few-solutions", 4),
        ] {
            for seed in 0..6 {
                let mut p = GenParams::default();
                p.0.insert("n".into(), n);
                let text = generator::generate(g, &p, seed).unwrap();
                let (_, v) = super::super::checker::parse_input(&text).unwrap();
                inputs.push(v);
            }
        }
        let mut decided = 0;
        for v in &inputs {
            let want = solver::solve(v).is_some();
            for (name, o, _) in FAMILY {
                let out = search(v, *o, 20_000_000);
                if let Some(found) = out.found {
                    decided += 1;
                    assert_eq!(found.is_some(), want, "{name} on {v:?}");
                    if let Some(sq) = found {
                        let mut a = sq.clone();
                        let mut b = v.clone();
                        a.sort_unstable();
                        b.sort_unstable();
                        assert_eq!(a, b, "{name}");
                        assert!(solver::is_magic(v.len().isqrt(), &sq), "{name}: {sq:?}");
                    }
                }
            }
        }
        assert!(
            decided > inputs.len() * 6,
            "{decided} of {}",
            inputs.len() * 8
        );
    }

    #[test]
    fn skipping_repeated_values_cuts_the_work_on_equal_numbers() {
        let v = vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, -1, -1, -1, -1];
        let n = |name: &str| search(&v, options(name).unwrap(), u64::MAX).nodes;
        assert!(
            n("fixed-skip") < n("fixed"),
            "{} {}",
            n("fixed-skip"),
            n("fixed")
        );
        assert_eq!(
            search(&[7; 16], options("mcf").unwrap(), u64::MAX).nodes,
            16
        );
    }

    #[test]
    fn the_shipped_family_tests_keep_their_node_counts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems/magic-square/data/secret");
        for (name, nodes) in [
            ("fixed-skip", 10_000_000),
            ("mcf", 8_685_883),
            ("mcf-sym", 10_000_000),
            ("mcf-skip", 1_120_391),
            ("mcf-sym-skip", 432_808),
        ] {
            let text = std::fs::read_to_string(dir.join(format!("family-{name}.in"))).unwrap();
            let (_, v) = super::super::checker::parse_input(&text).unwrap();
            assert_eq!(
                search(&v, options(name).unwrap(), 10_000_000).nodes,
                nodes,
                "{name}"
            );
        }
    }
}
