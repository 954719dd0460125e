//! A deliberately plain, obviously correct search: faces 1..12 in order, every unused tile,
//! every rotation, checked against the already filled neighbours. No parity test, no
//! merging of identical tiles, no symmetry. Exponential on hard inputs; used as an
//! independent oracle by tests and as the "naive" side of the benchmark.

use std::time::{Duration, Instant};

use super::geometry::{FACES, NEIGHBOURS, SIDES};

/// Limits for one search (`None` means unlimited) and one optional shortcut.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Put tile 1 on face 1 with its reference edge towards face 2 and search the rest.
    /// Valid because rotating the solid maps any arrangement to one of that form; cuts the
    /// tree about 60-fold so tests can afford exhaustive "no" answers. Off for the benchmark.
    pub fix_first_tile: bool,
}

struct State {
    tiles: [[u8; SIDES]; FACES],
    /// (tile, reference side) per face.
    placed: [Option<(usize, usize)>; FACES],
    used: [bool; FACES],
    nodes: u64,
    budget: Budget,
    start: Instant,
    out_of_budget: bool,
}

impl State {
    fn mark(&self, f: usize, k: usize) -> Option<u8> {
        let (t, r) = self.placed[f]?;
        Some(self.tiles[t][(k + SIDES - r) % SIDES])
    }

    fn dfs(&mut self, f: usize) -> bool {
        if f == FACES {
            return true;
        }
        for t in 0..FACES {
            if self.used[t] {
                continue;
            }
            for r in 0..SIDES {
                self.nodes += 1;
                if self.budget.nodes.is_some_and(|n| self.nodes > n)
                    || (self.nodes.is_multiple_of(4096)
                        && self.budget.time.is_some_and(|d| self.start.elapsed() > d))
                {
                    self.out_of_budget = true;
                }
                if self.out_of_budget {
                    return false;
                }
                self.placed[f] = Some((t, r));
                let fits = (0..SIDES).all(|k| {
                    let g = NEIGHBOURS[f][k];
                    let j = NEIGHBOURS[g].iter().position(|&x| x == f).unwrap_or(0);
                    match self.mark(g, j) {
                        Some(m) => self.mark(f, k) == Some(m),
                        None => true,
                    }
                });
                if fits {
                    self.used[t] = true;
                    if self.dfs(f + 1) {
                        return true;
                    }
                    self.used[t] = false;
                }
                self.placed[f] = None;
            }
        }
        false
    }
}

/// Result of a budgeted search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// `Some(solvable)`, or `None` when the budget ran out first.
    pub solvable: Option<bool>,
    /// Placements tried.
    pub nodes: u64,
}

/// Decides solvability within `budget`. Inputs that do not parse as 60 marks are unsolvable.
pub fn solvable_within(input: &str, budget: Budget) -> Outcome {
    let marks: Vec<u8> = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u8>().unwrap_or(u8::MAX))
        .collect();
    if marks.len() != FACES * SIDES || marks.iter().any(|&m| m > 2) {
        return Outcome {
            solvable: Some(false),
            nodes: 0,
        };
    }
    let mut state = State {
        tiles: std::array::from_fn(|t| std::array::from_fn(|m| marks[t * SIDES + m])),
        placed: [None; FACES],
        used: [false; FACES],
        nodes: 0,
        budget,
        start: Instant::now(),
        out_of_budget: false,
    };
    let found = if budget.fix_first_tile {
        state.placed[0] = Some((0, 0));
        state.used[0] = true;
        state.dfs(1)
    } else {
        state.dfs(0)
    };
    Outcome {
        solvable: if state.out_of_budget {
            None
        } else {
            Some(found)
        },
        nodes: state.nodes,
    }
}

/// Whether `input` has an arrangement (unbounded; may take hours on hard inputs).
pub fn solvable(input: &str) -> bool {
    solvable_within(input, Budget::default()).solvable == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        assert!(solvable(&"0 0 0 0 0\n".repeat(12)));
        assert!(solvable(&"2 2 2 2 2\n".repeat(12)));
        let odd = format!("{}0 0 0 0 1\n", "0 0 0 0 0\n".repeat(11));
        let out = solvable_within(
            &odd,
            Budget {
                nodes: Some(100_000),
                ..Budget::default()
            },
        );
        assert_eq!(out.solvable, None);
        assert!(out.nodes > 100_000);
        // With tile 1 fixed on face 1, its 1s meet nothing: refuted at the second face.
        let lone = format!("1 1 1 1 1\n{}", "0 0 0 0 0\n".repeat(11));
        let fixed = Budget {
            fix_first_tile: true,
            ..Budget::default()
        };
        assert_eq!(solvable_within(&lone, fixed).solvable, Some(false));
        assert!(solvable_within(&"0 0 0 0 0\n".repeat(12), fixed).solvable == Some(true));
    }
}
