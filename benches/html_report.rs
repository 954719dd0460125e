//! Size and speed of the HTML report: for each shipped problem, 20 graded submissions on 69
//! tests (the real test set, padded with generated tests), graded with `--all` so every cell
//! is filled (the largest matrix), 12 of them failing with a wrong answer on many tests (so
//! each failing submission has a first failure with files and a picture).
//!
//! `cargo bench --bench html_report`. Measures building the page (pictures included) and
//! writing it atomically, median of 15 rounds, and prints the file sizes: one `grade --html`
//! page per problem, and one `verify --html` page holding both problems (checks, matrix,
//! timing chart of the 8 accepted submissions, first failures).

use std::time::{Duration, Instant};

use judge::fsutil::write_atomic;
use judge::grade::{OutputHead, TestResult};
use judge::package::Package;
use judge::report::html::grade::{first_failures, render, GradePage};
use judge::report::html::verify as html_verify;
use judge::report::{CompileReport, LimitsReport, SubmissionReport};
use judge::testset::{self, TestCase};
use judge::verdict::Verdict;
use judge::verify::run::{ProblemReport, VerifyReport};
use judge::verify::submissions::SubmissionResult;
use judge::verify::{Check, Timing};

const SUBMISSIONS: usize = 20;
const TESTS: usize = 69;
const ROUNDS: usize = 15;

/// The problem's test set, cut or padded (with more tests of its generated groups) to `TESTS`.
fn tests_of(pkg: &Package) -> Vec<TestCase> {
    let mut tests = testset::full(pkg).expect("test set");
    let mut k = 0u64;
    while tests.len() < TESTS {
        let g = &pkg.groups[k as usize % pkg.groups.len()];
        let input = pkg
            .logic
            .generate(&g.generator, &g.params, 1000 + k)
            .expect("generates");
        let answer = pkg.logic.solve(&input).expect("solves");
        tests.push(TestCase {
            name: format!("extra-{k:02}"),
            origin: testset::Origin::External(format!("extra-{k}.in").into()),
            input,
            answer,
        });
        k += 1;
    }
    tests.truncate(TESTS);
    tests
}

/// Submission `s`: AC everywhere when `s < 8`, else a wrong answer (a mutation of the jury
/// answer, which the checker rejects) on every third test.
fn reports(pkg: &Package, tests: &[TestCase]) -> Vec<SubmissionReport> {
    (0..SUBMISSIONS)
        .map(|s| {
            let results: Vec<TestResult> = tests
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let wrong = (s >= 8 && (i + s) % 3 == 0)
                        .then(|| pkg.logic.mutate_answer(&t.input, &t.answer).pop())
                        .flatten();
                    let (verdict, message, output) = match wrong {
                        Some((label, out)) => (
                            Verdict::WA,
                            format!("mutated: {label}"),
                            Some(OutputHead::of(out.as_bytes())),
                        ),
                        None => (Verdict::AC, String::new(), None),
                    };
                    TestResult {
                        name: t.name.clone(),
                        verdict,
                        time_ms: ((i * 37 + s * 11) % 900) as u64,
                        wall_ms: ((i * 37 + s * 11) % 900 + 3) as u64,
                        memory_kib: 1024 + (i * 53 % 4096) as u64,
                        message,
                        runs: 1,
                        shared: false,
                        settled: false,
                        output,
                        validator_score: None,
                        passes: None,
                    }
                })
                .collect();
            let verdict = results
                .iter()
                .map(|r| r.verdict)
                .find(|&v| v != Verdict::AC)
                .unwrap_or(Verdict::AC);
            SubmissionReport {
                problem: pkg.name.clone(),
                submission: format!("problems/{}/submissions/x/sub_{s:02}.cpp", pkg.name),
                language: "cpp".into(),
                runtime: None,
                verdict: Some(verdict),
                compile: Some(CompileReport {
                    ok: true,
                    message: String::new(),
                    time_ms: 0,
                    cached: true,
                }),
                tests: results,
                tests_total: tests.len(),
                limits: LimitsReport {
                    time_ms: 1000,
                    wall_ms: 2000,
                    memory_mib: 64,
                    output_mib: 8,
                },
                interrupted: false,
                partition: None,
                score: None,
            }
        })
        .collect()
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("tempdir");
    let mut total_bytes = 0;
    let mut total_time = Duration::ZERO;
    for name in ["dodecahedron", "magic-square"] {
        let pkg = Package::load(&root.join("problems").join(name)).expect("package");
        let tests = tests_of(&pkg);
        let reports = reports(&pkg, &tests);
        let path = dir.path().join(format!("{name}.html"));
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..ROUNDS {
            let start = Instant::now();
            let page = GradePage {
                problem: &pkg.name,
                title: &pkg.title,
                tests: &tests,
                reports: &reports,
                failures: first_failures(&reports, &tests, pkg.logic.as_ref()),
            };
            let html = render(&page);
            write_atomic(&path, html.as_bytes()).expect("write");
            times.push(start.elapsed());
            size = html.len();
        }
        times.sort();
        let median = times[ROUNDS / 2];
        println!(
            "{name}: {SUBMISSIONS} submissions x {} tests: {:.1} KiB, built and written in {:.1} ms (median of {ROUNDS}; min {:.1}, max {:.1})",
            tests.len(),
            size as f64 / 1024.0,
            median.as_secs_f64() * 1000.0,
            times[0].as_secs_f64() * 1000.0,
            times[ROUNDS - 1].as_secs_f64() * 1000.0
        );
        total_bytes += size;
        total_time += median;
    }
    println!(
        "grade, both problems: {:.1} KiB in {:.1} ms",
        total_bytes as f64 / 1024.0,
        total_time.as_secs_f64() * 1000.0
    );

    // verify --html: both problems on one page.
    let mut problems = Vec::new();
    let mut logics = Vec::new();
    for name in ["dodecahedron", "magic-square"] {
        let pkg = Package::load(&root.join("problems").join(name)).expect("package");
        let tests = tests_of(&pkg);
        let graded = reports(&pkg, &tests);
        let submissions = graded
            .iter()
            .map(|r| SubmissionResult {
                path: r.submission.clone(),
                expected: r.verdict.unwrap_or(Verdict::JE),
                actual: r.verdict.unwrap_or(Verdict::JE),
                permitted: vec![r.verdict.unwrap_or(Verdict::JE)],
                timing: (r.verdict == Some(Verdict::AC)).then(|| {
                    let ms = [31, 30, 33, 29, 35].map(Duration::from_millis).to_vec();
                    Timing::from_samples(&tests[5].name, ms, false)
                }),
                margin: None,
                randomised: None,
            })
            .collect();
        problems.push(ProblemReport {
            problem: pkg.name.clone(),
            checks: vec![Check::ok("checker", "rejects all 400 mutated answers"); 30],
            submissions,
            suggested_time_limit: Some(judge::verify::suggest_time_limit(35, None, 100)),
            title: pkg.title.clone(),
            tests,
            graded,
            interrupted: false,
            time: Default::default(),
        });
        logics.push(pkg.logic);
    }
    let report = VerifyReport::new(problems, false, false);
    let path = dir.path().join("verify.html");
    let mut times = Vec::new();
    let mut size = 0;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let failures: Vec<_> = report
            .problems
            .iter()
            .zip(&logics)
            .map(|(p, logic)| first_failures(&p.graded, &p.tests, logic.as_ref()))
            .collect();
        let html = html_verify::render(&report, &failures);
        write_atomic(&path, html.as_bytes()).expect("write");
        times.push(start.elapsed());
        size = html.len();
    }
    times.sort();
    println!(
        "verify, 2 problems x {SUBMISSIONS} submissions x {TESTS} tests on one page: {:.1} KiB, built and written in {:.1} ms (median of {ROUNDS}; min {:.1}, max {:.1}) (targets: under 2048 KiB, under 1000 ms)",
        size as f64 / 1024.0,
        times[ROUNDS / 2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        times[ROUNDS - 1].as_secs_f64() * 1000.0
    );
}
