//! Problem `magic-square`: arrange N·N given integers (N = 3 or 4, |v| ≤ 10^9) into a magic
//! square (all rows, columns and both main diagonals with the same sum). A solution is
//! guaranteed to exist; any one is accepted.
//!
//! - [`validator`]: byte-strict format checks, then solvability via the exact solver.
//! - [`solver`]: exact search over free cells with forced values; proves unsolvability.
//! - [`generator`]: seeded families, each building a square and shuffling it; [`wrap`] builds
//!   the `diagonal-wrap` family.
//! - [`checker`]: token-based output checking in `i128`, plus answer mutations.
//! - [`shrink`]: simpler solvable inputs for stress-test minimisation.
//! - [`brute`]: independent slow searches for cross-checking, benchmarking and `judge hunt`.
//! - [`draw`]: pictures of inputs and answers for `judge show`.
//! - [`hunt`]: input mutations that keep a square, for `judge hunt`.
//! - [`flawed`]: a search with a known mistake that `diagonal-wrap` picks inputs against.

use super::{
    GenError, GenParams, GeneratorSpec, Hunt, Judgement, JuryError, JurySources, Problem,
    SolverSpec, Validation,
};

pub mod brute;
pub mod checker;
pub mod draw;
pub mod family;
pub mod flawed;
pub mod generator;
pub mod hunt;
pub mod shrink;
pub mod solver;
pub mod validator;
pub mod wrap;

/// The validator and checker with what they use, for `judge export`.
static JURY: JurySources = JurySources {
    modules: &[
        ("solver.rs", include_str!("solver.rs")),
        ("validator.rs", include_str!("validator.rs")),
        ("checker.rs", include_str!("checker.rs")),
    ],
    root: "",
    validate: "validator::validate",
    check: "checker::check",
};

/// The `magic-square` problem logic.
pub struct MagicSquare;

impl Problem for MagicSquare {
    fn name(&self) -> &str {
        "magic-square"
    }

    fn generators(&self) -> &[GeneratorSpec] {
        generator::GENERATORS
    }

    /// `n`: the side of the square, the input's first number.
    fn features(&self, input: &str) -> GenParams {
        let mut f = GenParams::default();
        if let Some(n) = input.split_whitespace().next().and_then(|t| t.parse().ok()) {
            f.0.insert("n".into(), n);
        }
        f
    }

    fn generate(&self, generator: &str, params: &GenParams, seed: u64) -> Result<String, GenError> {
        generator::generate(generator, params, seed)
    }

    fn jury_sources(&self) -> Option<&'static JurySources> {
        Some(&JURY)
    }

    fn validate(&self, input: &[u8]) -> Validation {
        Ok(validator::validate(input).map(|_| ()))
    }

    /// The solver's square as N lines of N numbers; an error for an input that is malformed
    /// or has no solution (never the case for valid inputs).
    fn solve(&self, input: &str) -> Result<String, JuryError> {
        let (n, values) = checker::parse_input(input)
            .ok_or_else(|| JuryError("magic-square: the input does not parse".into()))?;
        solver::solve(&values)
            .map(|sq| solver::format_square(n, &sq))
            .ok_or_else(|| JuryError("magic-square: no magic square uses these numbers".into()))
    }

    fn check(&self, input: &str, answer: &str, output: &[u8]) -> Judgement {
        checker::check(input, answer, output)
    }

    fn mutate_answer(&self, input: &str, answer: &str) -> Vec<(String, String)> {
        checker::mutate_answer(input, answer)
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        shrink::shrink(input)
    }

    fn draw(
        &self,
        input: &[u8],
        output: Option<&[u8]>,
    ) -> Option<Result<crate::show::Picture, crate::show::DrawError>> {
        Some(draw::draw(input, output))
    }

    fn hunt(&self) -> Option<&dyn Hunt> {
        Some(self)
    }
}

impl Hunt for MagicSquare {
    fn mutate(&self, input: &str, rng: &mut dyn rand::RngCore) -> Option<String> {
        hunt::mutate(input, rng)
    }

    fn solvers(&self) -> &'static [SolverSpec] {
        hunt::SOLVERS
    }

    fn work(&self, solver: &str, input: &str, cap: u64) -> Option<u64> {
        hunt::work(solver, input, cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn params(pairs: &[(&str, i64)]) -> GenParams {
        GenParams(pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect())
    }

    fn fnv(bytes: &[u8]) -> u64 {
        bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
        })
    }

    /// Every generator × both N × many seeds: validate → solve → check → mutations rejected.
    #[test]
    fn generate_validate_solve_check_round_trip() {
        let p = MagicSquare;
        let mut total = 0;
        for g in p.generators() {
            for &n in generator::orders(g.name) {
                let seeds = if g.name == "few-solutions" { 40 } else { 200 };
                for seed in 0..seeds {
                    let mut pr = vec![("n", n)];
                    if g.name == "huge" {
                        pr.push(("mode", (seed % 4) as i64));
                    }
                    let input = p.generate(g.name, &params(&pr), seed).unwrap();
                    let first = input.split('\n').next();
                    assert_eq!(first, Some(n.to_string().as_str()));
                    p.validate(input.as_bytes())
                        .unwrap()
                        .unwrap_or_else(|v| panic!("{} n={n} seed {seed}: {v}\n{input}", g.name));
                    let ans = p.solve(&input).unwrap();
                    assert_eq!(p.check(&input, &ans, ans.as_bytes()), Judgement::Accepted);
                    if seed % 10 == 0 {
                        for (label, out) in p.mutate_answer(&input, &ans) {
                            assert!(
                                matches!(
                                    p.check(&input, &ans, out.as_bytes()),
                                    Judgement::Rejected(_)
                                ),
                                "{label} accepted for {input}"
                            );
                        }
                    }
                    total += 1;
                }
            }
        }
        assert!(total > 3000);
    }

    #[test]
    fn generators_hit_their_targets() {
        let p = MagicSquare;
        let values = |s: &str| checker::parse_input(s).unwrap().1;
        for seed in 0..30 {
            for n in [3, 4] {
                let nn = n as usize * n as usize;
                let v = values(&p.generate("distinct", &params(&[("n", n)]), seed).unwrap());
                let mut d = v.clone();
                d.sort_unstable();
                d.dedup();
                assert_eq!(d.len(), nn);
                let v = values(&p.generate("all-equal", &params(&[("n", n)]), seed).unwrap());
                assert!(v.iter().all(|&x| x == v[0]));
                let v = values(&p.generate("negative", &params(&[("n", n)]), seed).unwrap());
                assert!(v.iter().all(|&x| x < 0));
                let v = values(
                    &p.generate("small-duplicates", &params(&[("n", n)]), seed)
                        .unwrap(),
                );
                assert!(v.iter().all(|&x| x.abs() <= 3));
                let v = values(
                    &p.generate("huge", &params(&[("n", n), ("mode", 0)]), seed)
                        .unwrap(),
                );
                assert!(v.iter().all(|&x| x >= 999_000_000));
                let v = values(
                    &p.generate("huge", &params(&[("n", n), ("mode", 1)]), seed)
                        .unwrap(),
                );
                assert!(v.iter().all(|&x| x <= -999_000_000));
                let v = values(
                    &p.generate("few-solutions", &params(&[("n", n)]), seed)
                        .unwrap(),
                );
                let limit = if n == 3 { 1 } else { 4 };
                assert!(solver::count_up_to_symmetry(&v, limit) <= limit, "{v:?}");
                let v = values(
                    &p.generate("anti-heuristic", &params(&[("n", n)]), seed)
                        .unwrap(),
                );
                assert!(!generator::heuristics_solve(n as usize, &v), "{v:?}");
            }
        }
    }

    #[test]
    fn diagonal_wrap_is_n4_only() {
        let err = MagicSquare
            .generate("diagonal-wrap", &params(&[("n", 3)]), 1)
            .unwrap_err();
        assert!(err.to_string().contains("needs n = 4"), "{err}");
    }

    /// The 32-bit trap: on "huge" instances, i32 arithmetic gets the magic sum wrong.
    #[test]
    fn i32_sums_wrap_on_large_instances() {
        let p = MagicSquare;
        for n in [3i64, 4] {
            let input = p
                .generate("huge", &params(&[("n", n), ("mode", 0)]), 1)
                .unwrap();
            let (_, v) = checker::parse_input(&input).unwrap();
            let exact: i64 = v.iter().sum();
            let wrapped = v.iter().fold(0i32, |a, &x| a.wrapping_add(x as i32));
            assert_ne!(i64::from(wrapped), exact);
            let row: i64 = exact / n;
            assert!(row > i64::from(i32::MAX), "row sum {row} fits in i32");
            // Row sums ≈ 2.4·10^9: a magic sum taken as (i32 total) / N is wrong, and the
            // answer built from it is rejected.
            let input = p
                .generate("huge", &params(&[("n", n), ("mode", 3)]), 1)
                .unwrap();
            let ans = p.solve(&input).unwrap();
            let labels: Vec<String> = p
                .mutate_answer(&input, &ans)
                .into_iter()
                .map(|(l, _)| l)
                .collect();
            assert!(labels.contains(&"i32-magic-sum".to_string()), "{labels:?}");
            // Mixed signs: total fits in i32, but a left-to-right prefix sum does not.
            let input = p
                .generate("huge", &params(&[("n", n), ("mode", 2)]), 1)
                .unwrap();
            let (_, v) = checker::parse_input(&input).unwrap();
            let total: i64 = v.iter().sum();
            assert!(total.abs() <= i64::from(i32::MAX));
            let mut acc = 0i64;
            assert!(v.iter().any(|&x| {
                acc += x;
                acc > i64::from(i32::MAX)
            }));
        }
    }

    /// The solver agrees with the 9! brute force on which multisets of 9 have a square.
    #[test]
    fn solver_agrees_with_brute_force_n3() {
        let rng = &mut ChaCha8Rng::seed_from_u64(2024);
        let mut solvable = 0;
        for i in 0..400 {
            let v: Vec<i64> = match i % 4 {
                // Perturbed squares: often just barely unsolvable.
                0 => {
                    let input = MagicSquare
                        .generate("small-duplicates", &params(&[("n", 3), ("max", 6)]), i)
                        .unwrap();
                    let mut v = checker::parse_input(&input).unwrap().1;
                    let k = rng.random_range(0..9);
                    v[k] += rng.random_range(-1..=1) * 9;
                    v
                }
                1 => (0..9).map(|_| rng.random_range(-2..=2)).collect(),
                2 => (0..9).map(|_| rng.random_range(0..=8)).collect(),
                _ => {
                    let input = MagicSquare
                        .generate("random", &params(&[("n", 3), ("max", 20)]), i)
                        .unwrap();
                    checker::parse_input(&input).unwrap().1
                }
            };
            let fast = solver::solve(&v);
            if let Some(sq) = &fast {
                assert!(solver::is_magic(3, sq));
                let (mut a, mut b) = (sq.clone(), v.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
                solvable += 1;
            }
            assert_eq!(fast.is_some(), brute::solvable(&v), "{v:?}");
        }
        assert!(
            solvable > 100 && solvable < 380,
            "{solvable} solvable of 400"
        );
    }

    /// N = 4: agreement with the plain brute force on small multisets where it is fast.
    #[test]
    fn solver_agrees_with_brute_force_n4_small() {
        let rng = &mut ChaCha8Rng::seed_from_u64(99);
        let mut decided = [0; 2];
        for i in 0..30 {
            let mut v: Vec<i64> = if i % 2 == 0 {
                let input = MagicSquare
                    .generate("small-duplicates", &params(&[("n", 4), ("max", 2)]), i)
                    .unwrap();
                checker::parse_input(&input).unwrap().1
            } else {
                (0..16).map(|_| rng.random_range(0..=1)).collect()
            };
            if i % 3 == 0 {
                let k = rng.random_range(0..16);
                v[k] += 4;
            }
            // The plain brute force is hopeless on some of these; compare where it finishes.
            let brute = brute::solvable4(&v, Some(std::time::Duration::from_millis(150)));
            if let Some(b) = brute {
                assert_eq!(solver::solve(&v).is_some(), b, "{v:?}");
                decided[usize::from(b)] += 1;
            }
        }
        assert!(decided[0] >= 5 && decided[1] >= 5, "{decided:?}");
    }

    /// Generator outputs are pinned: a change here changes every generated test set.
    #[test]
    fn generators_are_deterministic() {
        let p = MagicSquare;
        let mut lines = Vec::new();
        for g in p.generators() {
            let mut h = 0u64;
            for &n in generator::orders(g.name) {
                for seed in 1..=5 {
                    let input = p.generate(g.name, &params(&[("n", n)]), seed).unwrap();
                    assert_eq!(
                        input,
                        p.generate(g.name, &params(&[("n", n)]), seed).unwrap()
                    );
                    h = h.rotate_left(5) ^ fnv(input.as_bytes());
                }
            }
            lines.push(format!("{} {h:#018x}", g.name));
        }
        let expected = PINNED;
        assert_eq!(lines.join("\n"), expected, "generator outputs changed");
    }

    const PINNED: &str = "random 0x0db415af17567f22
classical 0xf773bf46e77c9a49
small-duplicates 0x3a4e2ba67946ab46
all-equal 0xb4f3b0baa007d7fb
distinct 0x7e2ecc130c5b80ee
negative 0x479340658d6dc1b4
huge 0x55abdd3f5b3fca3d
few-solutions 0xa21c975f9115ea59
anti-heuristic 0xaeb95f2ca09bfafd
diagonal-wrap 0x40b78908451cca54";

    #[test]
    fn shrink_outputs_validate() {
        let p = MagicSquare;
        for g in p.generators() {
            for &n in generator::orders(g.name) {
                let input = p.generate(g.name, &params(&[("n", n)]), 3).unwrap();
                for s in p.shrink(&input) {
                    assert!(p.validate(s.as_bytes()).unwrap().is_ok(), "{s}");
                    assert_ne!(s, input);
                }
            }
        }
    }
}

/// Checks of the shipped package data in `problems/magic-square/` against this logic.
#[cfg(test)]
mod package_tests {
    use super::*;
    use std::fs;
    use std::path::{Path, PathBuf};

    fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square")
    }

    fn files(sub: &str, ext: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(dir().join(sub))
            .unwrap_or_else(|e| panic!("{sub}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        v.sort();
        v
    }

    /// Rewrites every `.ans` in `data/sample` and `data/secret` with the reference solver's
    /// output: `cargo test --lib write_package_answers -- --ignored`.
    #[test]
    #[ignore]
    fn write_package_answers() {
        for sub in ["data/sample", "data/secret"] {
            for input in files(sub, "in") {
                let text = fs::read_to_string(&input).unwrap();
                fs::write(
                    input.with_extension("ans"),
                    MagicSquare.solve(&text).unwrap(),
                )
                .unwrap();
            }
        }
    }

    #[test]
    fn hand_made_tests_are_valid_and_answered() {
        let p = MagicSquare;
        let mut count = 0;
        for sub in ["data/sample", "data/secret"] {
            for input in files(sub, "in") {
                let text = fs::read_to_string(&input).unwrap();
                p.validate(text.as_bytes())
                    .unwrap()
                    .unwrap_or_else(|v| panic!("{}: {v}", input.display()));
                let ans = fs::read_to_string(input.with_extension("ans")).unwrap();
                assert_eq!(ans, p.solve(&text).unwrap(), "{}", input.display());
                assert_eq!(p.check(&text, &ans, ans.as_bytes()), Judgement::Accepted);
                count += 1;
            }
        }
        assert!(count >= 7);
    }

    #[test]
    fn invalid_inputs_are_rejected() {
        let p = MagicSquare;
        let all = files("data/invalid_input", "in");
        assert!(all.len() >= 10);
        for f in all {
            let bytes = fs::read(&f).unwrap();
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            let v = p.validate(&bytes).unwrap().expect_err(&name);
            if name.starts_with("unsolvable") {
                assert_eq!(
                    v.position,
                    Some(crate::problems::Position { line: 2, column: 1 }),
                    "{name}: {v}"
                );
                assert_eq!(v.message, "no magic square uses these numbers", "{name}");
            } else {
                assert_ne!(v.message, "no magic square uses these numbers", "{name}");
            }
        }
    }

    #[test]
    fn statement_samples_match_files() {
        let statement = fs::read_to_string(dir().join("statement.md")).unwrap();
        for input in files("data/sample", "in") {
            let k = input.file_stem().unwrap().to_string_lossy().into_owned();
            for (what, ext) in [("input", "in"), ("output", "ans")] {
                let body = fs::read_to_string(input.with_extension(ext)).unwrap();
                let block = format!("### Sample {what} {k}\n```\n{body}```\n");
                assert!(
                    statement.contains(&block),
                    "statement lacks sample {what} {k}"
                );
            }
        }
    }

    #[test]
    fn test_plan_uses_known_generators() {
        let text = fs::read_to_string(dir().join("problem.toml")).unwrap();
        let doc: toml::Table = text.parse().unwrap();
        assert_eq!(doc["title"].as_str(), Some("Magic Square"));
        let tests = doc["tests"].as_array().unwrap();
        let mut total = 0;
        let mut families = std::collections::BTreeSet::new();
        for t in tests {
            let g = t["generator"].as_str().unwrap();
            let spec = MagicSquare
                .generators()
                .iter()
                .find(|s| s.name == g)
                .unwrap();
            let mut params = GenParams::default();
            if let Some(ps) = t.get("params").and_then(|p| p.as_table()) {
                for (k, v) in ps {
                    assert!(spec.params.contains(&k.as_str()), "{g}: unknown param {k}");
                    params.0.insert(k.clone(), v.as_integer().unwrap());
                }
            }
            let input = MagicSquare.generate(g, &params, 1).unwrap();
            assert!(MagicSquare.validate(input.as_bytes()).unwrap().is_ok());
            families.insert((g.to_string(), params.get("n", 4)));
            total += t["count"].as_integer().unwrap();
        }
        assert!(total >= 40);
        let expected: usize = MagicSquare
            .generators()
            .iter()
            .map(|g| generator::orders(g.name).len())
            .sum();
        assert_eq!(families.len(), expected);
    }
}
