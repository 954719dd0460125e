//! Solver benchmark for `magic-square` (`cargo bench --bench magic_square_solver`).
//!
//! 1. Per generator family (both N, 200 seeds each): max and median solve time; then the
//!    slowest of the hand-made tests.
//! 2. Adversarial inputs (unsolvable N = 4 multisets found by search, few-solution and
//!    large-value squares, duplicates): solver time against the plain permutation brute force,
//!    each brute run capped at 10 s (a capped run is reported as a lower bound, `>`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use judge::problems::magic_square::{brute, checker, generator, solver};
use judge::problems::GenParams;

const SEEDS: u64 = 200;
const BRUTE_CAP: Duration = Duration::from_secs(10);

fn params(pairs: &[(&str, i64)]) -> GenParams {
    GenParams(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect::<BTreeMap<_, _>>(),
    )
}

/// Median-of-runs wall time of `f`, repeated enough to be above timer resolution.
fn time_it(mut f: impl FnMut()) -> Duration {
    let mut runs = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        let mut reps = 0u32;
        while reps < 3 || t.elapsed() < Duration::from_micros(200) {
            f();
            reps += 1;
        }
        runs.push(t.elapsed() / reps);
    }
    runs.sort();
    runs[runs.len() / 2]
}

fn us(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

/// The unsolvable multiset of 16 distinct values that makes the solver work hardest among
/// structured candidates: 1..16 and sum sets {x_i + y_j} (the richest in equal 4-sums), with
/// one pair of values moved by ±d so the total is kept.
fn hardest_unsolvable_distinct() -> (Vec<i64>, u64) {
    let mut bases: Vec<Vec<i64>> = vec![(1..=16).collect()];
    for (x, y) in [
        ([0, 1, 2, 3], [0, 5, 10, 15]),
        ([0, 1, 3, 4], [0, 6, 12, 18]),
        ([0, 2, 3, 5], [0, 7, 14, 21]),
        ([0, 1, 2, 4], [0, 10, 20, 31]),
    ] {
        bases.push(
            x.iter()
                .flat_map(|a| y.iter().map(move |b| a + b))
                .collect(),
        );
    }
    let mut best: (Vec<i64>, u64) = (Vec::new(), 0);
    for base in &bases {
        for i in 0..16 {
            for j in 0..16 {
                for d in 1..=3 {
                    if i == j {
                        continue;
                    }
                    let mut v = base.clone();
                    v[i] += d;
                    v[j] -= d;
                    let mut s = v.clone();
                    s.sort_unstable();
                    s.dedup();
                    if s.len() < 16 {
                        continue;
                    }
                    let mut any = false;
                    let nodes = solver::for_each_square(&v, |_| {
                        any = true;
                        false
                    });
                    if !any && nodes > best.1 {
                        best = (v, nodes);
                    }
                }
            }
        }
    }
    best
}

/// An unsolvable multiset with many duplicates: a 0/1/2 square with one value moved.
fn unsolvable_duplicates() -> Vec<i64> {
    let mut best = (vec![0; 16], 0u64);
    for seed in 0..2000 {
        let input = generator::generate("small-duplicates", &params(&[("n", 4), ("max", 2)]), seed)
            .expect("generator");
        let (_, mut v) = checker::parse_input(&input).expect("valid");
        v[(seed % 16) as usize] += 4;
        let mut any = false;
        let nodes = solver::for_each_square(&v, |_| {
            any = true;
            false
        });
        if !any && nodes > best.1 {
            best = (v, nodes);
        }
    }
    best.0
}

fn values_of(g: &str, p: &[(&str, i64)], seed: u64) -> Vec<i64> {
    let input = generator::generate(g, &params(p), seed).expect("generator");
    checker::parse_input(&input).expect("valid").1
}

/// The package's hand-made tests: how many, and the slowest solve with its file name.
fn hand_made() -> (usize, Duration, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square/data");
    let mut files = 0;
    let mut slowest = (Duration::ZERO, String::new());
    for sub in ["sample", "secret"] {
        let Ok(dir) = std::fs::read_dir(root.join(sub)) else {
            continue;
        };
        for entry in dir.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|x| x != "in") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable test");
            let v = checker::parse_input(&text).expect("valid test").1;
            let t = time_it(|| {
                std::hint::black_box(solver::solve(std::hint::black_box(&v)));
            });
            files += 1;
            if t > slowest.0 {
                slowest = (t, format!("{sub}/{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    (files, slowest.0, slowest.1)
}

fn main() {
    let start = Instant::now();
    println!("== solve time per family ({SEEDS} seeds each, µs) ==");
    println!("{:<18} {:>2} {:>10} {:>10}", "family", "N", "median", "max");
    let mut worst = Duration::ZERO;
    for g in generator::GENERATORS {
        for &n in generator::orders(g.name) {
            let mut times = Vec::new();
            for seed in 0..SEEDS {
                let mut p = vec![("n", n)];
                if g.name == "huge" {
                    p.push(("mode", (seed % 4) as i64));
                }
                if g.name == "diagonal-wrap" {
                    p.push(("negate", (seed % 2) as i64));
                }
                let v = values_of(g.name, &p, seed);
                let t = time_it(|| {
                    std::hint::black_box(solver::solve(std::hint::black_box(&v)));
                });
                times.push(t);
            }
            times.sort();
            let max = *times.last().unwrap_or(&Duration::ZERO);
            worst = worst.max(max);
            println!(
                "{:<18} {:>2} {:>10} {:>10}",
                g.name,
                n,
                us(times[times.len() / 2]),
                us(max)
            );
        }
    }
    println!("worst over all families: {} µs", us(worst));
    let (files, slowest, name) = hand_made();
    println!(
        "hand-made tests (data/sample, data/secret): {files} files, max {} µs ({name})",
        us(slowest)
    );

    println!();
    println!(
        "== adversarial inputs: solver vs plain permutation brute force (cap {BRUTE_CAP:?}) =="
    );
    let (hard, hard_nodes) = hardest_unsolvable_distinct();
    let mut cases: Vec<(String, Vec<i64>)> = vec![
        (
            format!("N=4 distinct, no solution ({hard_nodes} nodes)"),
            hard,
        ),
        (
            "N=4 duplicates, no solution".into(),
            unsolvable_duplicates(),
        ),
        ("N=4 1..16 (880 squares)".into(), (1..=16).rev().collect()),
        (
            "N=4 few solutions".into(),
            values_of("few-solutions", &[("n", 4)], 1),
        ),
        (
            "N=4 anti-heuristic".into(),
            values_of("anti-heuristic", &[("n", 4)], 1),
        ),
        (
            "N=4 huge (~1e9)".into(),
            values_of("huge", &[("n", 4), ("mode", 0)], 1),
        ),
        (
            "N=4 huge mixed signs".into(),
            values_of("huge", &[("n", 4), ("mode", 2)], 1),
        ),
        ("N=4 all equal".into(), vec![-7; 16]),
        (
            "N=3 distinct, no solution".into(),
            vec![1, 2, 3, 4, 5, 6, 7, 8, 18],
        ),
        (
            "N=3 huge".into(),
            values_of("huge", &[("n", 3), ("mode", 0)], 1),
        ),
    ];
    // A random 16-value multiset with total divisible by 4 (almost surely no square).
    let mut r: Vec<i64> = values_of("distinct", &[("n", 4), ("max", 100)], 9);
    r[0] += 4;
    cases.push(("N=4 perturbed distinct".into(), r));

    println!(
        "{:<40} {:>8} {:>12} {:>14} {:>10}",
        "input", "solvable", "solver µs", "brute ms", "ratio"
    );
    for (name, v) in &cases {
        let found = solver::solve(v).is_some();
        let t_solver = time_it(|| {
            std::hint::black_box(solver::solve(std::hint::black_box(v)));
        });
        let t0 = Instant::now();
        let b = brute::solvable_any(v, Some(BRUTE_CAP));
        let t_brute = t0.elapsed();
        if let Some(b) = b {
            assert_eq!(b, found, "solver and brute force disagree on {v:?}");
        }
        let bound = if b.is_none() { ">" } else { "" };
        let ratio = t_brute.as_secs_f64() / t_solver.as_secs_f64();
        let brute_ms = format!("{bound}{:.1}", t_brute.as_secs_f64() * 1e3);
        let ratio = format!("{bound}{ratio:.0}x");
        println!(
            "{name:<40} {found:>8} {:>12} {brute_ms:>14} {ratio:>10}",
            us(t_solver)
        );
    }
    println!();
    println!("total bench time: {:.1} s", start.elapsed().as_secs_f64());
}
