//! Searches with a known mistake, modelled so a generator can keep the inputs they get wrong.
//! Never used to answer a test.

/// The N = 4 plan of [`int32_diagonal_square`]: `(cell, line)`: a free cell (`None`), or a
/// cell forced by the other three cells of a line (`Some((x, y, z, diagonal))`).
type Step = (usize, Option<(usize, usize, usize, bool)>);

const PLAN: [Step; 16] = [
    (0, None),
    (1, None),
    (2, None),
    (3, Some((0, 1, 2, false))), // row 0
    (4, None),
    (5, None),
    (6, None),
    (7, Some((4, 5, 6, false))), // row 1
    (8, None),
    (12, Some((0, 4, 8, false))), // column 0
    (9, Some((3, 6, 12, true))),  // anti-diagonal
    (13, Some((1, 5, 9, false))), // column 1
    (10, None),
    (11, Some((8, 9, 10, false))),   // row 2
    (15, Some((0, 5, 10, true))),    // main diagonal
    (14, Some((12, 13, 15, false))), // row 3
];

/// The first square an N = 4 search prints that fills rows first, tries each distinct value
/// left in ascending order for a free cell, forces the other cells by a line in 64 bits, but
/// computes a diagonal's forced cell in a 32-bit integer (S minus three values, wrapping).
/// Columns 2 and 3 are checked at the end, the diagonals never again. `None` when it finds
/// nothing or `values` is not 16 numbers.
pub fn int32_diagonal_square(values: &[i64]) -> Option<Vec<i64>> {
    if values.len() != 16 {
        return None;
    }
    let s = values.iter().sum::<i64>().div_euclid(4);
    let mut distinct = values.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut count: Vec<u32> = distinct
        .iter()
        .map(|d| values.iter().filter(|v| *v == d).count() as u32)
        .collect();
    let mut cells = [0i64; 16];
    place(0, s, &distinct, &mut count, &mut cells).then(|| cells.to_vec())
}

fn place(k: usize, s: i64, distinct: &[i64], count: &mut [u32], cells: &mut [i64; 16]) -> bool {
    if k == PLAN.len() {
        let col = |c: usize| (0..4).map(|r| cells[4 * r + c]).sum::<i64>();
        return col(2) == s && col(3) == s;
    }
    let (cell, forced) = PLAN[k];
    let put = |d: usize, count: &mut [u32], cells: &mut [i64; 16]| {
        count[d] -= 1;
        cells[cell] = distinct[d];
        let ok = place(k + 1, s, distinct, count, cells);
        count[d] += 1;
        ok
    };
    match forced {
        None => (0..distinct.len()).any(|d| count[d] > 0 && put(d, count, cells)),
        Some((x, y, z, diagonal)) => {
            let need = s - cells[x] - cells[y] - cells[z];
            // The mistake: a diagonal's forced value squeezed into an i32.
            let need = if diagonal {
                i64::from(need as i32)
            } else {
                need
            };
            match distinct.binary_search(&need) {
                Ok(d) if count[d] > 0 => put(d, count, cells),
                _ => false,
            }
        }
    }
}

/// Search nodes of an N = 4 search that fills rows 1 to 3 cell by cell (each row's last cell
/// forced: S minus the other three), forces row 4 by the column sums and checks the diagonals
/// at the end, where a free cell tries every unused *position* instead of every distinct value,
/// so equal numbers are tried again and again; until it finds a square, at most `cap`.
/// (N = 3 and other lengths: 0.)
pub fn unmerged_nodes(values: &[i64], cap: u64) -> u64 {
    if values.len() != 16 {
        return 0;
    }
    let mut u = Unmerged {
        values,
        s: values.iter().sum::<i64>().div_euclid(4),
        used: [false; 16],
        cells: [0; 16],
        nodes: 0,
        cap,
    };
    u.place(0);
    u.nodes.min(cap)
}

struct Unmerged<'a> {
    values: &'a [i64],
    s: i64,
    used: [bool; 16],
    cells: [i64; 16],
    nodes: u64,
    cap: u64,
}

impl Unmerged<'_> {
    /// The first unused position holding `v`.
    fn find(&self, v: i64) -> Option<usize> {
        (0..16).find(|&i| !self.used[i] && self.values[i] == v)
    }

    /// Whether a square was found (or the cap reached: that stops the search too).
    fn place(&mut self, k: usize) -> bool {
        self.nodes += 1;
        if self.nodes >= self.cap {
            return true;
        }
        if k == 12 {
            return self.last_row();
        }
        if k % 4 == 3 {
            let need = self.s - self.cells[k - 3] - self.cells[k - 2] - self.cells[k - 1];
            let Some(i) = self.find(need) else {
                return false;
            };
            return self.put(k, i);
        }
        (0..16).any(|i| !self.used[i] && self.put(k, i))
    }

    fn put(&mut self, k: usize, i: usize) -> bool {
        self.used[i] = true;
        self.cells[k] = self.values[i];
        let found = self.place(k + 1);
        self.used[i] = false;
        found
    }

    /// Row 4 from the column sums, then the diagonals and row 4's sum.
    fn last_row(&mut self) -> bool {
        let mut taken = Vec::with_capacity(4);
        for c in 0..4 {
            let need = self.s - self.cells[c] - self.cells[4 + c] - self.cells[8 + c];
            match self.find(need) {
                Some(i) => {
                    self.used[i] = true;
                    taken.push(i);
                    self.cells[12 + c] = need;
                }
                None => break,
            }
        }
        let line = |cells: &[i64; 16], f: &dyn Fn(usize) -> usize| {
            (0..4).map(|i| cells[f(i)]).sum::<i64>()
        };
        let ok = taken.len() == 4
            && line(&self.cells, &|i| 5 * i) == self.s
            && line(&self.cells, &|i| 3 * i + 3) == self.s
            && line(&self.cells, &|i| 12 + i) == self.s;
        for i in taken {
            self.used[i] = false;
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::super::solver::is_magic;
    use super::*;

    #[test]
    fn right_on_small_values_wrong_where_a_diagonal_wraps() {
        let durer = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];
        let sq = int32_diagonal_square(&durer).expect("finds a square");
        assert!(is_magic(4, &sq));
        // A `diagonal-wrap` input on which the C++ version of this search printed a square
        // whose main diagonal sums to S - 2^32.
        let wrap = [
            -858261345, 192456175, 192456175, 763863543, -904309953, -858261345, -858261345,
            763863543, 717814935, 763863543, 717814935, 717814935, 192456175, 763863543, 238504783,
            717814935,
        ];
        let sq = int32_diagonal_square(&wrap).expect("prints something");
        assert!(!is_magic(4, &sq), "{sq:?}");
        let s: i64 = wrap.iter().sum::<i64>() / 4;
        let diagonal: i64 = (0..4).map(|i| sq[5 * i]).sum();
        assert_eq!(diagonal, s - (1 << 32));
    }

    #[test]
    fn unmerged_search_repeats_equal_values() {
        // All equal: the first arrangement is a square (12 cells placed, then row 4).
        assert_eq!(unmerged_nodes(&[7; 16], u64::MAX), 13);
        // Dürer's numbers in order are a square at once, too; sorted, the search takes longer.
        let durer = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];
        assert_eq!(unmerged_nodes(&durer, u64::MAX), 13);
        let sorted: Vec<i64> = (1..=16).collect();
        assert!(unmerged_nodes(&sorted, u64::MAX) > 13);
        assert_eq!(unmerged_nodes(&sorted, 10), 10);
    }
}
