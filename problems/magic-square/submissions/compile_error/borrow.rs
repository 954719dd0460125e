// WRONG: decrements a count in the map while iterating over it (E0502: cannot borrow as mutable while borrowed as immutable)
use std::collections::BTreeMap;
use std::io::{self, Read};

fn place(
    k: usize,
    n: usize,
    s: i64,
    grid: &mut Vec<i64>,
    counts: &mut BTreeMap<i64, usize>,
) -> bool {
    if k == n * n {
        let mut sums = vec![0i64; 2 * n + 2];
        for r in 0..n {
            for c in 0..n {
                sums[r] += grid[r * n + c];
                sums[n + c] += grid[r * n + c];
            }
            sums[2 * n] += grid[r * n + r];
            sums[2 * n + 1] += grid[r * n + n - 1 - r];
        }
        return sums.iter().all(|&x| x == s);
    }
    for (v, c) in counts.iter() {
        if *c > 0 {
            *counts.get_mut(v).unwrap() -= 1;
            grid[k] = *v;
            if place(k + 1, n, s, grid, counts) {
                return true;
            }
            *counts.get_mut(v).unwrap() += 1;
        }
    }
    false
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<i64> = it.take(n * n).collect();
    let s = a.iter().sum::<i64>() / n as i64;
    let mut counts = BTreeMap::new();
    for &x in &a {
        *counts.entry(x).or_insert(0) += 1;
    }
    let mut grid = vec![0; n * n];
    place(0, n, s, &mut grid, &mut counts);
    for r in 0..n {
        let row: Vec<String> = grid[r * n..(r + 1) * n].iter().map(|x| x.to_string()).collect();
        println!("{}", row.join(" "));
    }
}
