//! `judge hunt <P> --family`: for each of the problem's family of ordinary contestant searches
//! ([`SolverSpec::family`]), the hardest input of three sources in search nodes: the test set,
//! a random sample of the test plan's generators, and a hunt. Problems whose valid inputs may
//! have no solution ([`Hunt::solvable`]) get two rows per solver, solvable and unsolvable: a
//! search that gives up is wrong only on the first kind, and slow on either.
//!
//! The runner emits one [`Row`] per (solver, kind) through a callback and returns them all;
//! [`super::family_report`] renders them. Node counts are exact and every source is seeded,
//! so the same arguments give the same table (the hunts with `--count`; a hunt stopped by
//! `--seconds` is replayed by the `reproduce` command of its row).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use super::target::{Evaluation, ScoreKind, SolverTarget, Target};
use super::{hunt, Budget, Config, Starts};
use crate::package::{fnv1a64, Package};
use crate::problems::{Hunt, SolverSpec};
use crate::stress::Source;
use crate::verdict::Verdict;

/// Which inputs a row is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Every valid input (a problem whose inputs are all solvable).
    All,
    Solvable,
    Unsolvable,
}

impl Kind {
    fn wants(self, solvable: Option<bool>) -> bool {
        match self {
            Kind::All => true,
            Kind::Solvable => solvable != Some(false),
            Kind::Unsolvable => solvable == Some(false),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::All => "all",
            Kind::Solvable => "solvable",
            Kind::Unsolvable => "unsolvable",
        }
    }
}

/// The hardest input one source had for one row.
#[derive(Debug, Clone, Serialize)]
pub struct Hardest {
    /// Search nodes (at most the cap).
    pub nodes: u64,
    /// Whether `nodes` is the cap ("at least").
    pub capped: bool,
    /// The test's name, the generator and seed, or the hunt's start and changes.
    pub from: String,
    pub input: String,
}

/// One solver on one kind of input.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub solver: String,
    pub description: String,
    pub kind: Kind,
    /// `None`: the source had no input of this kind.
    pub test_set: Option<Hardest>,
    pub sample: Option<Hardest>,
    pub hunt: Option<Hardest>,
    /// Inputs the hunt measured.
    pub hunt_runs: u64,
    /// The `judge hunt` command that replays the hunt (its worst input).
    pub reproduce: String,
    /// Test set nodes / the most nodes the hunt or the sample found (1 when both are 0).
    pub ratio: f64,
    /// `ratio >= 0.9`: the test set is within 10 % of the hardest input found.
    pub within: bool,
}

/// How wide to look.
#[derive(Debug, Clone)]
pub struct FamilyConfig {
    pub seed: u64,
    /// Node cap of every measurement.
    pub cap: u64,
    /// Random inputs in the sample (shared by all solvers).
    pub sample: u64,
    /// Budget of each hunt (one per row).
    pub hunt: Budget,
    pub jobs: usize,
    /// Only these solvers (empty: the whole family).
    pub only: Vec<String>,
}

/// The family members of `hooks`, restricted to `only` when it is not empty.
pub fn members<'a>(hooks: &'a dyn Hunt, only: &[String]) -> Vec<&'a SolverSpec> {
    hooks
        .solvers()
        .iter()
        .filter(|s| s.family && (only.is_empty() || only.iter().any(|o| o == s.name)))
        .collect()
}

/// A measured input.
struct Measured {
    from: String,
    input: String,
    solvable: Option<bool>,
}

/// Progress for reporters.
pub enum FamilyEvent<'a> {
    /// About to measure (what, how many inputs or runs).
    Stage(&'a str),
    /// A row is complete.
    Row(&'a Row),
}

/// Measures the family of `pkg`. `Err` when a start input or the test set cannot be made.
pub fn run(
    pkg: &Package,
    hooks: &dyn Hunt,
    config: &FamilyConfig,
    on_event: &(dyn Fn(FamilyEvent) + Sync),
) -> anyhow::Result<Vec<Row>> {
    let solvers = members(hooks, &config.only);
    on_event(FamilyEvent::Stage("the test set"));
    let tests: Vec<Measured> = crate::testset::full(pkg)?
        .into_iter()
        .map(|t| Measured {
            solvable: hooks.solvable(&t.input),
            from: t.name,
            input: t.input,
        })
        .collect();
    on_event(FamilyEvent::Stage("the random sample"));
    let sources = Source::from_plan(pkg, None);
    let mut sample = Vec::new();
    for k in 0..config.sample {
        if sources.is_empty() {
            break;
        }
        let source = &sources[(k % sources.len() as u64) as usize];
        let s = fnv1a64(format!("family-sample:{}:{k}", config.seed).as_bytes());
        let input = pkg
            .logic
            .generate(&source.generator, &source.params, s)
            .map_err(anyhow::Error::msg)?;
        sample.push(Measured {
            solvable: hooks.solvable(&input),
            from: source.reproduce(s),
            input,
        });
    }
    let kinds: &[Kind] = if tests.iter().chain(&sample).any(|m| m.solvable.is_some()) {
        &[Kind::Solvable, Kind::Unsolvable]
    } else {
        &[Kind::All]
    };
    let mut rows = Vec::new();
    for spec in solvers {
        let test_nodes = measure_all(hooks, spec.name, &tests, config);
        let sample_nodes = measure_all(hooks, spec.name, &sample, config);
        for &kind in kinds {
            on_event(FamilyEvent::Stage(&format!(
                "hunting for {} ({})",
                spec.name,
                kind.name()
            )));
            let test_set = hardest(&tests, &test_nodes, kind, config.cap);
            let from_sample = hardest(&sample, &sample_nodes, kind, config.cap);
            let (found, runs, reproduce) = hunt_row(pkg, hooks, spec.name, kind, config)?;
            let best_found = [&from_sample, &found]
                .iter()
                .filter_map(|h| h.as_ref().map(|h| h.nodes))
                .max()
                .unwrap_or(0);
            let ours = test_set.as_ref().map_or(0, |h| h.nodes);
            let ratio = if best_found == 0 {
                1.0
            } else {
                ours as f64 / best_found as f64
            };
            let row = Row {
                solver: spec.name.to_string(),
                description: spec.description.to_string(),
                kind,
                test_set,
                sample: from_sample,
                hunt: found,
                hunt_runs: runs,
                reproduce,
                ratio,
                within: ratio >= 0.9,
            };
            on_event(FamilyEvent::Row(&row));
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Nodes of `solver` on every input, on `config.jobs` threads, in input order.
fn measure_all(
    hooks: &dyn Hunt,
    solver: &str,
    inputs: &[Measured],
    config: &FamilyConfig,
) -> Vec<u64> {
    let next = AtomicUsize::new(0);
    let out = Mutex::new(vec![0u64; inputs.len()]);
    std::thread::scope(|s| {
        for _ in 0..config.jobs.clamp(1, inputs.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(m) = inputs.get(i) else { break };
                let n = hooks.work(solver, &m.input, config.cap).unwrap_or(0);
                if let Ok(mut v) = out.lock() {
                    v[i] = n;
                }
            });
        }
    });
    out.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// The input of `kind` with the most nodes (the first of equals).
fn hardest(inputs: &[Measured], nodes: &[u64], kind: Kind, cap: u64) -> Option<Hardest> {
    let mut best: Option<usize> = None;
    for (i, m) in inputs.iter().enumerate() {
        if kind.wants(m.solvable) && best.is_none_or(|b| nodes[i] > nodes[b]) {
            best = Some(i);
        }
    }
    best.map(|i| Hardest {
        nodes: nodes[i],
        capped: nodes[i] >= cap,
        from: inputs[i].from.clone(),
        input: inputs[i].input.clone(),
    })
}

/// A solver target that scores inputs of the other kind as 0 nodes, so a hunt keeps to `kind`.
pub struct KindTarget<'a> {
    pub inner: SolverTarget<'a>,
    pub hooks: &'a dyn Hunt,
    pub kind: Kind,
}

impl Target for KindTarget<'_> {
    fn kind(&self) -> ScoreKind {
        ScoreKind::Nodes
    }

    fn evaluate(&self, input: &str) -> anyhow::Result<Evaluation> {
        if !self.kind.wants(self.hooks.solvable(input)) {
            return Ok(Evaluation {
                verdict: Verdict::AC,
                score: 0,
                time_ms: 0,
                message: String::new(),
                answer: String::new(),
            });
        }
        self.inner.evaluate(input)
    }
}

/// The hunt of one row: its worst input of `kind` (`None` if it met none), runs, replay command.
fn hunt_row(
    pkg: &Package,
    hooks: &dyn Hunt,
    solver: &str,
    kind: Kind,
    config: &FamilyConfig,
) -> anyhow::Result<(Option<Hardest>, u64, String)> {
    let target = KindTarget {
        inner: SolverTarget {
            hooks,
            pkg,
            solver,
            cap: config.cap,
        },
        hooks,
        kind,
    };
    let seed = fnv1a64(format!("family:{}:{solver}:{}", config.seed, kind.name()).as_bytes());
    let starts = Starts::Plan {
        logic: pkg.logic.as_ref(),
        sources: Source::from_plan(pkg, None),
    };
    let hunt_config = Config {
        seed,
        budget: config.hunt,
        jobs: config.jobs,
    };
    let outcome = hunt(&target, hooks, &starts, &hunt_config, &|_| {})?;
    let w = &outcome.worst;
    let found = kind.wants(hooks.solvable(&w.input)).then(|| Hardest {
        nodes: w.score,
        capped: w.score >= config.cap,
        from: format!(
            "{} change{} from {}",
            w.mutations,
            if w.mutations == 1 { "" } else { "s" },
            w.start
        ),
        input: w.input.clone(),
    });
    let reproduce = format!(
        "judge hunt {} --solver {solver} --cap {} --seed {seed} --count {} --jobs {}{}",
        pkg.name,
        config.cap,
        outcome.runs,
        config.jobs,
        match kind {
            Kind::All => String::new(),
            k => format!(" --kind {}", k.name()),
        }
    );
    Ok((found, outcome.runs, reproduce))
}
