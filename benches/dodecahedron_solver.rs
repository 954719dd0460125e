//! Reference solver timings for `dodecahedron`, and its speed-up over the plain DFS.
//!
//! `cargo bench --bench dodecahedron_solver`. Prints two compact tables:
//! 1. per generator family (200 seeds each): median and max time of `Problem::solve`
//!    (each input timed as the best of 3 runs); then the slowest hand-made test;
//! 2. adversarial inputs: reference time (mean over many runs) vs the plain DFS of
//!    `brute` (capped at 10 s of wall time; a capped run gives a lower bound for the ratio).
//!
//! All times are CPU time of the measuring thread, so that other processes on a shared
//! machine do not inflate them.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use judge::problems::dodecahedron::{brute, Dodecahedron};
use judge::problems::{GenParams, Problem};

const SEEDS: u64 = 200;

/// CPU time consumed so far by the calling thread.
fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
const DFS_CAP: Duration = Duration::from_secs(10);

fn params(kv: &[(&str, i64)]) -> GenParams {
    GenParams(
        kv.iter()
            .map(|&(k, v)| (k.to_string(), v))
            .collect::<BTreeMap<_, _>>(),
    )
}

fn fmt(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// Best of three single runs.
fn time_once(input: &str) -> Duration {
    (0..3)
        .map(|_| {
            let t = cpu_now();
            black_box(Dodecahedron.solve(black_box(input)).unwrap());
            cpu_now().saturating_sub(t)
        })
        .min()
        .unwrap_or_default()
}

/// Mean over enough runs to fill about 50 ms.
fn time_mean(input: &str) -> Duration {
    let mut runs = 0u32;
    let start = cpu_now();
    while cpu_now().saturating_sub(start) < Duration::from_millis(50) || runs < 3 {
        black_box(Dodecahedron.solve(black_box(input)).unwrap());
        runs += 1;
    }
    cpu_now().saturating_sub(start) / runs
}

/// The package's hand-made tests: how many, and the slowest solve with its file name.
fn hand_made() -> (usize, Duration, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/dodecahedron/data");
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
            let input = std::fs::read_to_string(&path).expect("readable test");
            let t = time_once(&input);
            files += 1;
            if t > slowest.0 {
                slowest = (t, format!("{sub}/{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    (files, slowest.0, slowest.1)
}

fn main() {
    let p = Dodecahedron;
    let families: Vec<(String, GenParams)> = {
        let mut v: Vec<(String, GenParams)> = p
            .generators()
            .iter()
            .map(|s| (s.name.to_string(), GenParams::default()))
            .collect();
        v.push(("random-solvable marks=2".into(), params(&[("marks", 2)])));
        v.push(("even-unsolvable marks=2".into(), params(&[("marks", 2)])));
        v.push((
            "identical-tiles distinct=2 solvable=0".into(),
            params(&[("distinct", 2), ("solvable", 0)]),
        ));
        v.push((
            "identical-tiles distinct=6 solvable=0".into(),
            params(&[("distinct", 6), ("solvable", 0)]),
        ));
        v.push((
            "identical-tiles distinct=12 solvable=0".into(),
            params(&[("distinct", 12), ("solvable", 0)]),
        ));
        v.push(("unique-tiling mirror=1".into(), params(&[("mirror", 1)])));
        v
    };

    println!("reference solver per family ({SEEDS} seeds, release build)");
    println!(
        "{:<40} {:>9} {:>10} {:>10}",
        "family", "no-sol %", "median", "max"
    );
    let mut overall_max = Duration::ZERO;
    for (label, prm) in &families {
        let generator = label.split(' ').next().unwrap_or(label);
        let mut times = Vec::with_capacity(SEEDS as usize);
        let mut none = 0;
        for seed in 1..=SEEDS {
            let input = p.generate(generator, prm, seed).expect("generator works");
            if p.solve(&input).unwrap() == "-1\n" {
                none += 1;
            }
            times.push(time_once(&input));
        }
        times.sort();
        let max = times[times.len() - 1];
        overall_max = overall_max.max(max);
        println!(
            "{:<40} {:>8}% {:>10} {:>10}",
            label,
            none * 100 / SEEDS,
            fmt(times[times.len() / 2]),
            fmt(max)
        );
    }
    println!("max over all families: {}", fmt(overall_max));
    let (files, slowest, name) = hand_made();
    println!(
        "hand-made tests (data/sample, data/secret): {files} files, max {} ({name})\n",
        fmt(slowest)
    );

    let zeros = "0 0 0 0 0\n".repeat(11);
    let mut adversarial: Vec<(String, String)> = vec![
        (
            "eleven 0 0 0 0 0 + 0 0 0 0 1".into(),
            format!("{zeros}0 0 0 0 1\n"),
        ),
        (
            "eleven 0 0 0 0 0 + 0 0 0 1 1".into(),
            format!("{zeros}0 0 0 1 1\n"),
        ),
        (
            "eleven 2 2 2 2 2 + 2 0 2 0 2".into(),
            format!("{}2 0 2 0 2\n", "2 2 2 2 2\n".repeat(11)),
        ),
    ];
    for (label, generator, prm, seed) in [
        ("even-unsolvable #1", "even-unsolvable", params(&[]), 1),
        ("even-unsolvable #2", "even-unsolvable", params(&[]), 2),
        ("near-miss #1", "near-miss", params(&[]), 1),
        (
            "identical distinct=1 unsolvable",
            "identical-tiles",
            params(&[("distinct", 1), ("solvable", 0)]),
            1,
        ),
        (
            "identical distinct=2 unsolvable",
            "identical-tiles",
            params(&[("distinct", 2), ("solvable", 0)]),
            1,
        ),
        (
            "identical distinct=2 solvable",
            "identical-tiles",
            params(&[("distinct", 2)]),
            1,
        ),
    ] {
        adversarial.push((
            label.to_string(),
            p.generate(generator, &prm, seed).expect("generator works"),
        ));
    }

    println!(
        "adversarial inputs: reference vs plain DFS (cap {} s)",
        DFS_CAP.as_secs()
    );
    println!(
        "{:<34} {:>6} {:>10} {:>12} {:>14}",
        "input", "answer", "reference", "plain DFS", "DFS/reference"
    );
    for (label, input) in &adversarial {
        let answer = if p.solve(input).unwrap() == "-1\n" {
            "-1"
        } else {
            "yes"
        };
        let reference = time_mean(input);
        let start = cpu_now();
        let out = brute::solvable_within(
            input,
            brute::Budget {
                time: Some(DFS_CAP),
                ..brute::Budget::default()
            },
        );
        let dfs = cpu_now().saturating_sub(start);
        if let Some(b) = out.solvable {
            assert_eq!(b, answer == "yes", "solvers disagree on {label}");
        }
        let ratio = dfs.as_secs_f64() / reference.as_secs_f64().max(1e-9);
        let (dfs_s, ratio_s) = match out.solvable {
            Some(_) => (fmt(dfs), format!("{ratio:.0}x")),
            None => (format!("> {}", fmt(dfs)), format!("> {ratio:.0}x")),
        };
        println!(
            "{:<34} {:>6} {:>10} {:>12} {:>14}",
            label,
            answer,
            fmt(reference),
            dfs_s,
            ratio_s
        );
    }
}
