// Two orthogonal partitions: split the cells' numbers into N groups summing to S (the rows),
// then into N groups summing to S that meet every row exactly once (the columns). Each cell is
// then the single number shared by its row and column; finally choose orders of rows and
// columns that make both diagonals sum to S.
use std::io::{self, Read, Write};

struct Solver {
    n: usize,
    a: Vec<i64>,
    s: i64,
    lines: Vec<u32>, // index sets (bit masks) of size n that sum to s
    rows: Vec<u32>,
    cols: Vec<u32>,
    answer: Option<Vec<Vec<i64>>>,
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn rec(cur: &mut Vec<usize>, used: &mut Vec<bool>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == used.len() {
            out.push(cur.clone());
            return;
        }
        for i in 0..used.len() {
            if !used[i] {
                used[i] = true;
                cur.push(i);
                rec(cur, used, out);
                cur.pop();
                used[i] = false;
            }
        }
    }
    let mut out = Vec::new();
    rec(&mut Vec::new(), &mut vec![false; n], &mut out);
    out
}

impl Solver {
    /// Equal numbers are interchangeable: a group is only tried in the form that uses, of
    /// each value, the lowest free indices (free = outside `covered`, inside `within`).
    fn canonical(&self, group: u32, covered: u32, within: u32) -> bool {
        let free = !covered & within & !group;
        (0..self.n * self.n)
            .filter(|&i| group >> i & 1 == 1)
            .all(|i| (0..i).all(|j| free >> j & 1 == 0 || self.a[j] != self.a[i]))
    }

    fn rows_from(&mut self, covered: u32) -> bool {
        let full = (1u32 << (self.n * self.n)) - 1;
        if covered == full {
            return self.cols_from(0);
        }
        let low = (!covered & full).trailing_zeros();
        for i in 0..self.lines.len() {
            let l = self.lines[i];
            if l & covered == 0 && l >> low & 1 == 1 && self.canonical(l, covered, full) {
                self.rows.push(l);
                if self.rows_from(covered | l) {
                    return true;
                }
                self.rows.pop();
            }
        }
        false
    }

    fn cols_from(&mut self, covered: u32) -> bool {
        let full = (1u32 << (self.n * self.n)) - 1;
        if covered == full {
            return self.order();
        }
        let low = (!covered & full).trailing_zeros();
        for i in 0..self.lines.len() {
            let l = self.lines[i];
            if l & covered == 0
                && l >> low & 1 == 1
                && self.rows.iter().all(|r| (r & l).count_ones() == 1)
                // equal numbers within one row are interchangeable
                && self.rows.iter().all(|&r| self.canonical(l & r, covered, r))
            {
                self.cols.push(l);
                if self.cols_from(covered | l) {
                    return true;
                }
                self.cols.pop();
            }
        }
        false
    }

    fn order(&mut self) -> bool {
        let n = self.n;
        // cell[i][j] = the number in row group i and column group j
        let cell: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| self.a[(self.rows[i] & self.cols[j]).trailing_zeros() as usize])
                    .collect()
            })
            .collect();
        let perms = permutations(n);
        for rp in &perms {
            for cp in &perms {
                let d1: i64 = (0..n).map(|k| cell[rp[k]][cp[k]]).sum();
                let d2: i64 = (0..n).map(|k| cell[rp[k]][cp[n - 1 - k]]).sum();
                if d1 == self.s && d2 == self.s {
                    self.answer = Some(
                        (0..n)
                            .map(|i| (0..n).map(|j| cell[rp[i]][cp[j]]).collect())
                            .collect(),
                    );
                    return true;
                }
            }
        }
        false
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let a: Vec<i64> = (0..n * n)
        .map(|_| it.next().unwrap().parse().unwrap())
        .collect();
    let s = a.iter().sum::<i64>() / n as i64;
    let mut lines = Vec::new();
    for mask in 0u32..1 << (n * n) {
        if mask.count_ones() as usize == n {
            let sum: i64 = (0..n * n)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| a[i])
                .sum();
            if sum == s {
                lines.push(mask);
            }
        }
    }
    let mut solver = Solver {
        n,
        a,
        s,
        lines,
        rows: Vec::new(),
        cols: Vec::new(),
        answer: None,
    };
    solver.rows_from(0);
    let mut out = String::new();
    if let Some(g) = solver.answer {
        for row in g {
            let r: Vec<String> = row.iter().map(|x| x.to_string()).collect();
            out.push_str(&r.join(" "));
            out.push('\n');
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
