// WRONG: believes even mark counts guarantee an arrangement and asserts the search succeeds (panics on unsolvable inputs with even counts)
use std::io::{self, Read, Write};

const NB: [[usize; 5]; 12] = [
    [2, 3, 4, 5, 6],
    [1, 6, 7, 11, 3],
    [1, 2, 11, 10, 4],
    [1, 3, 10, 9, 5],
    [1, 4, 9, 8, 6],
    [1, 5, 8, 7, 2],
    [8, 12, 11, 2, 6],
    [9, 12, 7, 6, 5],
    [10, 12, 8, 5, 4],
    [11, 12, 9, 4, 3],
    [7, 12, 10, 3, 2],
    [7, 8, 9, 10, 11],
];

struct Search {
    /// For each edge, its two (face, position) sides.
    sides: Vec<[(usize, usize); 2]>,
    /// Base-4 pattern of each face's marks (3 = not yet coloured).
    pat: [usize; 12],
    /// compat[p]: bit t set when type t fits pattern p in some rotation.
    compat: Vec<u16>,
    /// type_of[p] for complete patterns: the type with that mark cycle, or usize::MAX.
    type_of: Vec<usize>,
    count: Vec<u32>,
    avail: u16,
    order: Vec<usize>,
    /// completes[i]: faces whose last uncoloured edge is order[i].
    completes: Vec<Vec<usize>>,
}

impl Search {
    fn dfs(&mut self, idx: usize) -> bool {
        if idx == self.order.len() {
            return true;
        }
        let e = self.order[idx];
        let [(f1, j1), (f2, j2)] = self.sides[e];
        for c in 0..3usize {
            self.pat[f1] -= (3 - c) << (2 * j1);
            self.pat[f2] -= (3 - c) << (2 * j2);
            if self.compat[self.pat[f1]] & self.avail != 0
                && self.compat[self.pat[f2]] & self.avail != 0
            {
                let mut taken: Vec<usize> = Vec::new();
                let mut ok = true;
                for k in 0..self.completes[idx].len() {
                    let f = self.completes[idx][k];
                    let t = self.type_of[self.pat[f]];
                    if t == usize::MAX || self.count[t] == 0 {
                        ok = false;
                        break;
                    }
                    self.count[t] -= 1;
                    if self.count[t] == 0 {
                        self.avail &= !(1 << t);
                    }
                    taken.push(t);
                }
                if ok && self.dfs(idx + 1) {
                    return true;
                }
                for &t in &taken {
                    self.count[t] += 1;
                    self.avail |= 1 << t;
                }
            }
            self.pat[f1] += (3 - c) << (2 * j1);
            self.pat[f2] += (3 - c) << (2 * j2);
        }
        false
    }
}

fn canon(s: &[usize]) -> Vec<usize> {
    (0..5)
        .map(|r| (0..5).map(|j| s[(j + r) % 5]).collect::<Vec<_>>())
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let v: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|x| x.parse().expect("integer"))
        .collect();
    let tiles: Vec<Vec<usize>> = (0..12).map(|i| v[5 * i..5 * i + 5].to_vec()).collect();
    let mut total = [0usize; 3];
    for &x in &v[..60] {
        total[x] += 1;
    }
    let out = io::stdout();
    let mut out = out.lock();
    if total.iter().any(|x| x % 2 == 1) {
        writeln!(out, "-1").ok();
        return;
    }
    let nb: Vec<Vec<usize>> = NB.iter().map(|r| r.iter().map(|x| x - 1).collect()).collect();
    let mut eid = [[usize::MAX; 5]; 12];
    let mut sides = Vec::new();
    for i in 0..12 {
        for j in 0..5 {
            let g = nb[i][j];
            if g > i {
                let jj = nb[g].iter().position(|&x| x == i).expect("symmetric table");
                eid[i][j] = sides.len();
                eid[g][jj] = sides.len();
                sides.push([(i, j), (g, jj)]);
            }
        }
    }
    let mut types: Vec<Vec<usize>> = tiles.iter().map(|t| canon(t)).collect();
    types.sort();
    types.dedup();
    let tile_type: Vec<usize> = tiles
        .iter()
        .map(|t| types.iter().position(|c| *c == canon(t)).expect("own type"))
        .collect();
    let nt = types.len();
    let mut count = vec![0u32; nt];
    for &t in &tile_type {
        count[t] += 1;
    }
    let mut compat = vec![0u16; 1024];
    let mut type_of = vec![usize::MAX; 1024];
    for (t, s) in types.iter().enumerate() {
        for k in 0..5 {
            let seq: Vec<usize> = (0..5).map(|j| s[(j + 5 - k) % 5]).collect();
            let full: usize = (0..5).map(|j| seq[j] << (2 * j)).sum();
            type_of[full] = t;
            for unk in 0..32 {
                let p: usize = (0..5)
                    .map(|j| (if unk >> j & 1 == 1 { 3 } else { seq[j] }) << (2 * j))
                    .sum();
                compat[p] |= 1 << t;
            }
        }
    }
    // Symmetry: the rarest-marked type (per copy) sits on face 1 in rotation 0.
    let score = |t: usize| {
        types[t].iter().map(|&c| 1.0 / total[c] as f64).sum::<f64>() / count[t] as f64
    };
    let t0 = (0..nt)
        .max_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(0);
    let mut pat = [1023usize; 12];
    let mut coloured = [false; 30];
    for j in 0..5 {
        let e = eid[0][j];
        coloured[e] = true;
        for &(f, jj) in &sides[e] {
            pat[f] -= (3 - types[t0][j]) << (2 * jj);
        }
    }
    count[t0] -= 1;
    let mut avail: u16 = 0;
    for t in 0..nt {
        if count[t] > 0 {
            avail |= 1 << t;
        }
    }
    // Edge order: faces in breadth-first order from face 1, each face's uncoloured edges.
    let mut face_order = vec![0usize];
    let mut seen = [false; 12];
    seen[0] = true;
    let mut h = 0;
    while h < face_order.len() {
        let f = face_order[h];
        h += 1;
        for &g in &nb[f] {
            if !seen[g] {
                seen[g] = true;
                face_order.push(g);
            }
        }
    }
    let mut order = Vec::new();
    for &f in &face_order {
        for j in 0..5 {
            let e = eid[f][j];
            if !coloured[e] {
                coloured[e] = true;
                order.push(e);
            }
        }
    }
    let mut last = [usize::MAX; 12];
    for (i, &e) in order.iter().enumerate() {
        for &(f, _) in &sides[e] {
            last[f] = i;
        }
    }
    let mut completes = vec![Vec::new(); order.len()];
    for f in 1..12 {
        completes[last[f]].push(f);
    }
    let mut s = Search {
        sides,
        pat,
        compat,
        type_of,
        count,
        avail,
        order,
        completes,
    };
    // Parity was fine, so an arrangement must exist.
    assert!(s.dfs(0), "no arrangement found");
    let mut used = [false; 12];
    for f in 0..12 {
        let seq: Vec<usize> = (0..5).map(|j| (s.pat[f] >> (2 * j)) & 3).collect();
        let ti = (0..12)
            .find(|&i| !used[i] && canon(&tiles[i]) == canon(&seq))
            .expect("a tile of this type is left");
        used[ti] = true;
        let k = (0..5)
            .find(|&k| (0..5).all(|j| tiles[ti][(j + 5 - k) % 5] == seq[j]))
            .expect("some rotation matches");
        writeln!(out, "{} {}", ti + 1, nb[f][k] + 1).ok();
    }
}
