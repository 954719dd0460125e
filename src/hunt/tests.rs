use std::path::Path;
use std::time::Duration;

use rand::{Rng, RngCore};

use super::target::{Evaluation, SandboxTarget, ScoreKind, Target};
use super::*;
use crate::grade::Program;
use crate::package::Package;
use crate::problems::Hunt;
use crate::sandbox::fake::ScriptedSandbox;
use crate::sandbox::{LimitHit, Limits, RunOutcome, Termination};

/// Inputs are one number `k`; a change adds or subtracts 1 to 3.
struct Numbers;

impl Hunt for Numbers {
    fn mutate(&self, input: &str, rng: &mut dyn RngCore) -> Option<String> {
        let k: i64 = input.trim().parse().ok()?;
        let d = rng.random_range(1..=3);
        Some(format!(
            "{}\n",
            if rng.random_bool(0.5) { k + d } else { k - d }
        ))
    }
}

/// Scores an input `k` by `f(k)` nodes, WA at `wrong_from` and above.
struct Curve {
    f: fn(i64) -> u64,
    wrong_from: i64,
}

impl Target for Curve {
    fn kind(&self) -> ScoreKind {
        ScoreKind::Nodes
    }

    fn evaluate(&self, input: &str) -> anyhow::Result<Evaluation> {
        let k: i64 = input.trim().parse()?;
        let wrong = k >= self.wrong_from;
        Ok(Evaluation {
            verdict: if wrong { Verdict::WA } else { Verdict::AC },
            score: (self.f)(k),
            time_ms: 0,
            message: if wrong {
                "too big".into()
            } else {
                String::new()
            },
            answer: String::new(),
        })
    }
}

fn from_zero() -> Starts<'static> {
    Starts::Files(vec![(PathBuf::from("zero.in"), "0\n".into())])
}

fn config(seed: u64, count: u64, jobs: usize) -> Config {
    Config {
        seed,
        budget: Budget::Count(count),
        jobs,
    }
}

fn run(target: &dyn Target, config: &Config) -> Outcome {
    hunt(target, &Numbers, &from_zero(), config, &|_| {}).expect("hunt runs")
}

#[test]
fn climbs_towards_the_slowest_input() {
    // Slowest at k = 40, far from the start at 0; |k| grows by at most 3 per change.
    let target = Curve {
        f: |k| 1_000_000u64.saturating_sub(((k - 40) * (k - 40)) as u64 * 100),
        wrong_from: i64::MAX,
    };
    let out = run(&target, &config(1, 400, 2));
    assert_eq!(out.runs, 400);
    assert!(!out.failed());
    let k: i64 = out.worst.input.trim().parse().unwrap();
    assert!((35..=45).contains(&k), "stopped at {k}");
    assert!(out.worst.mutations >= 12, "{}", out.worst.mutations);
    assert_eq!(out.worst.start, "zero.in");
}

#[test]
fn the_same_seed_and_jobs_give_the_same_hunt() {
    let target = Curve {
        f: |k| (k.unsigned_abs() * 7919) % 1000,
        wrong_from: i64::MAX,
    };
    let a = run(&target, &config(5, 300, 3));
    let b = run(&target, &config(5, 300, 3));
    assert_eq!(
        (&a.worst.input, a.worst.run, a.worst.chain),
        (&b.worst.input, b.worst.run, b.worst.chain)
    );
    let c = run(&target, &config(6, 300, 3));
    assert_ne!((&a.worst.input, a.worst.run), (&c.worst.input, c.worst.run));
}

#[test]
fn a_wrong_answer_ends_the_hunt_at_once() {
    let target = Curve {
        f: |k| k.unsigned_abs(),
        wrong_from: 12,
    };
    let events = Mutex::new(Vec::new());
    let out = hunt(
        &target,
        &Numbers,
        &from_zero(),
        &config(2, 10_000, 1),
        &|e| {
            if let Event::NewWorst { worst } = e {
                events.lock().unwrap().push(worst.score);
            }
        },
    )
    .unwrap();
    assert!(out.failed());
    assert_eq!(out.worst.verdict, Verdict::WA);
    assert_eq!(out.worst.message, "too big");
    assert!(out.runs < 10_000, "{}", out.runs);
    assert_eq!(out.worst.run, out.runs);
    let k: i64 = out.worst.input.trim().parse().unwrap();
    assert!(k >= 12);
    // Every new worst input scored higher than the one before.
    let seen = events.into_inner().unwrap();
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
}

#[test]
fn a_time_budget_stops_the_hunt() {
    let target = Curve {
        f: |_| 1,
        wrong_from: i64::MAX,
    };
    let cfg = Config {
        seed: 1,
        budget: Budget::Time(Duration::from_millis(50)),
        jobs: 2,
    };
    let out = run(&target, &cfg);
    assert!(out.runs > 0);
    assert!(out.elapsed < Duration::from_secs(5));
}

fn package() -> Package {
    Package::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/magic-square"))
        .expect("the shipped package loads")
}

fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(2),
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
        stderr_bytes: 1024,
        processes: 1,
    }
}

fn program() -> Program {
    Program {
        argv: vec!["/bin/true".into()],
        ..Program::default()
    }
}

fn ran(cpu_us: u64, stdout: &str) -> RunOutcome {
    RunOutcome {
        termination: Termination::Exited(0),
        limit_hit: None,
        cpu_time: Duration::from_micros(cpu_us),
        wall_time: Duration::from_micros(cpu_us + 100),
        cpu_wait: None,
        peak_memory_kib: 1024,
        forks_refused: 0,
        settled: false,
        stdout: stdout.as_bytes().to_vec(),
        stderr: Vec::new(),
    }
}

const LO_SHU: &str = "2 7 6\n9 5 1\n4 3 8\n";

#[test]
fn sandboxed_runs_are_scored_by_exact_cpu_time_and_a_wrong_answer_wins() {
    // The start input is answered right in 0.3 ms; the next run prints garbage, and again
    // when it is re-run to confirm.
    let script = vec![
        ran(300, LO_SHU),
        ran(1500, "x"),
        ran(1400, "x"),
        ran(9, LO_SHU),
    ];
    let scores = Mutex::new(Vec::new());
    let out = sandboxed(script, 10, 1, &|e| {
        if let Event::NewWorst { worst } = e {
            scores.lock().unwrap().push((worst.verdict, worst.score));
        }
    })
    .unwrap();
    assert_eq!(out.kind, ScoreKind::CpuMicros);
    assert_eq!(out.runs, 2);
    assert!(out.failed());
    assert_eq!(out.worst.verdict, Verdict::WA);
    assert_eq!(out.worst.run, 2);
    assert!(out.worst.mutations >= 1);
    assert_ne!(out.worst.input, "3\n2 7 6 9 5 1 4 3 8\n");
    assert_eq!(out.worst.start, "lo-shu.in");
    assert_eq!(
        scores.into_inner().unwrap(),
        vec![(Verdict::AC, 300), (Verdict::WA, 1400)]
    );
}

fn tle() -> RunOutcome {
    RunOutcome {
        termination: Termination::Signaled(libc::SIGKILL),
        limit_hit: Some(LimitHit::CpuTime),
        ..ran(990_000, "")
    }
}

/// A hunt of `count` runs on `jobs` chains from the Lo Shu input, with `script` as the
/// sandbox's outcomes.
fn sandboxed(
    script: Vec<RunOutcome>,
    count: u64,
    jobs: usize,
    on_event: &(dyn Fn(Event) + Sync),
) -> anyhow::Result<Outcome> {
    let pkg = package();
    let hooks = pkg.logic.hunt().expect("magic-square has hunt hooks");
    let sandbox = ScriptedSandbox::new(script);
    let (program, limits) = (program(), limits());
    let target = SandboxTarget {
        sandbox: &sandbox,
        program: &program,
        limits: &limits,
        pkg: &pkg,
    };
    let starts = Starts::Files(vec![(
        PathBuf::from("lo-shu.in"),
        "3\n2 7 6 9 5 1 4 3 8\n".into(),
    )]);
    hunt(&target, hooks, &starts, &config(3, count, jobs), on_event)
}

/// Two chains, one round.
fn one_parallel_round(script: Vec<RunOutcome>) -> anyhow::Result<Outcome> {
    sandboxed(script, 2, 2, &|_| {})
}

#[test]
fn a_tle_under_parallel_load_that_passes_alone_is_not_a_failure() {
    let out = one_parallel_round(vec![tle(), ran(500, LO_SHU), ran(600, LO_SHU)]).unwrap();
    assert_eq!(out.runs, 2);
    assert!(!out.failed());
    // The re-run's time counts, not the time under load.
    assert_eq!(out.worst.score, 600);
}

#[test]
fn a_confirmed_tle_is_the_worst_possible_time() {
    let out = one_parallel_round(vec![tle(), ran(500, LO_SHU), tle()]).unwrap();
    assert!(out.failed());
    assert_eq!(out.worst.verdict, Verdict::TLE);
    // Killed a little before the limit, ranked at the limit.
    assert_eq!(out.worst.score, 1_000_000);
}

#[test]
fn a_sandbox_failure_is_an_error() {
    let err = one_parallel_round(Vec::new()).unwrap_err();
    assert!(err.to_string().contains("no outcome left"), "{err}");
}

#[test]
fn a_wall_clock_tle_from_machine_load_is_re_run_even_with_one_job() {
    let blocked = RunOutcome {
        termination: Termination::Signaled(libc::SIGKILL),
        limit_hit: Some(LimitHit::WallTime),
        ..ran(220_000, "")
    };
    let out = sandboxed(vec![blocked, ran(500, LO_SHU)], 1, 1, &|_| {}).unwrap();
    assert_eq!(out.runs, 1);
    assert!(!out.failed());
    assert_eq!(out.worst.score, 500);
}

#[test]
fn a_failure_that_does_not_happen_again_alone_is_noise() {
    let killed = RunOutcome {
        termination: Termination::Signaled(libc::SIGKILL),
        ..ran(44_000, "")
    };
    let out = sandboxed(vec![killed, ran(86_000, LO_SHU)], 1, 1, &|_| {}).unwrap();
    assert!(!out.failed());
    assert_eq!(out.worst.score, 86_000);
}
