//! Hunting: a directed search for valid inputs that make a submission fail or run long.
//!
//! `stress` throws random tests at a submission; a hunt climbs instead. Each of `jobs` chains
//! starts from a generated input (the test plan's generator setups, round-robin) or a given
//! file, and repeatedly measures a small valid change of its current input (the problem's
//! [`Hunt::mutate`] hook, 1 to 3 changes at once): simulated annealing on the logarithm of
//! the score, so a slower input is always kept and a faster one sometimes, less often as the
//! runs go on. A chain that has not improved for a while goes back to its best input or
//! restarts from a new one. A failure (any verdict but AC; in the sandbox only if a second run
//! alone fails too) ends the hunt at once.
//!
//! ```text
//!   starts ─► chains ─► mutate ─► Target::evaluate (sandbox: CPU time; or solver nodes) ─► accept?
//!                ▲                                                                          │
//!                └──────────────────────────── next round ◄───────────────────────────────┘
//! ```
//!
//! Rounds keep it deterministic: in each round every chain proposes one candidate from its own
//! seeded RNG, the round is measured in parallel, then the chains decide in a fixed order.
//! With a deterministic score (verdicts, or a built-in solver's node count) the same seed and
//! jobs give the same hunt, and a hunt stopped by time is replayed by `--count <runs>`; CPU
//! times are compared in 10 % buckets, so timing noise rarely changes a decision, but can.
//!
//! The runner only emits [`Event`]s and returns an [`Outcome`]; [`report`] renders them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::package::fnv1a64;
use crate::problems::{Hunt, Problem};
use crate::stress::Source;
use crate::verdict::Verdict;

pub mod family;
pub mod family_report;
pub mod report;
pub mod target;

pub use crate::stress::Budget;
use target::{Evaluation, ScoreKind, Target};

/// Proposals without a new best input after which a chain goes back to its best input or
/// restarts from a fresh one.
const STALE: u32 = 150;
/// Starting temperature, in units of ln(score): early on, a candidate 30 % faster than the
/// current input is kept with probability 1/e.
const T0: f64 = 0.3;
/// Runs per chain after which the temperature has halved (T = T0 / (1 + runs / COOLING)).
const COOLING: f64 = 100.0;
/// Width of the CPU-time buckets compared, in units of ln(score) (10 %).
const TIME_BUCKET: f64 = 0.095_310_179_804_324_85; // ln(1.1)

/// Where chains take their start inputs from.
pub enum Starts<'a> {
    /// Generated inputs: start `k` of the hunt uses `sources[k % len]` with seed
    /// `fnv1a64("hunt:<seed>:<k>")`.
    Plan {
        logic: &'a dyn Problem,
        sources: Vec<Source>,
    },
    /// Given inputs (already validated), used in turn.
    Files(Vec<(PathBuf, String)>),
}

impl Starts<'_> {
    /// Start input number `k` of a hunt with base seed `seed`, and how to make it again.
    fn get(&self, seed: u64, k: u64) -> anyhow::Result<(String, String)> {
        match self {
            Starts::Plan { logic, sources } => {
                if sources.is_empty() {
                    anyhow::bail!("the problem has no generators to start from");
                }
                let source = &sources[(k % sources.len() as u64) as usize];
                let s = fnv1a64(format!("hunt:{seed}:{k}").as_bytes());
                let input = logic
                    .generate(&source.generator, &source.params, s)
                    .map_err(anyhow::Error::msg)?;
                Ok((input, source.reproduce(s)))
            }
            Starts::Files(files) => {
                let Some((path, text)) = files.get((k % files.len().max(1) as u64) as usize) else {
                    anyhow::bail!("no start input given");
                };
                Ok((text.clone(), path.display().to_string()))
            }
        }
    }
}

/// How long and how wide to search.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub seed: u64,
    pub budget: Budget,
    /// Parallel chains (and runs at once), at least 1.
    pub jobs: usize,
}

/// The worst input a hunt saw.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    pub input: String,
    /// The reference solver's answer to it.
    pub answer: String,
    pub verdict: Verdict,
    /// CPU microseconds or search nodes, see [`Outcome::kind`].
    pub score: u64,
    /// CPU time in milliseconds (0 for a built-in solver).
    pub time_ms: u64,
    /// The checker's reason or the limit (empty for AC).
    pub message: String,
    /// The chain that found it (0-based).
    pub chain: usize,
    /// Which run found it (1-based, in round order).
    pub run: u64,
    /// Changes made since the chain's start input.
    pub mutations: u32,
    /// The start input: `--generator G --seed S [--param k=v]...`, or a file.
    pub start: String,
}

/// Progress for reporters.
#[derive(Debug)]
pub enum Event<'a> {
    /// A round was measured; `runs` in total so far.
    Round { runs: u64, worst: &'a Found },
    /// A new worst input.
    NewWorst { worst: &'a Found },
    /// A failure is re-run alone to confirm it.
    Confirming { chain: usize },
}

/// What a hunt did.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub kind: ScoreKind,
    pub runs: u64,
    pub elapsed: Duration,
    /// judge's own CPU time during the hunt (all of a built-in solver's search).
    pub cpu: Duration,
    pub chains: usize,
    /// The failing input if one was found, else the highest-scoring one.
    pub worst: Found,
}

impl Outcome {
    /// Whether the hunt found an input the target fails on.
    pub fn failed(&self) -> bool {
        self.worst.verdict != Verdict::AC
    }
}

/// A chain's current input.
#[derive(Clone)]
struct State {
    input: String,
    energy: f64,
    mutations: u32,
    start: String,
}

struct Chain {
    rng: ChaCha8Rng,
    current: Option<State>,
    /// The chain's highest-scoring input since its last fresh start.
    best: Option<State>,
    best_energy: f64,
    stale: u32,
}

/// What a chain proposes in a round.
struct Proposal {
    input: String,
    mutations: u32,
    start: String,
}

/// ln(score), in buckets for noisy CPU times.
fn energy(kind: ScoreKind, score: u64) -> f64 {
    let e = ((score as f64) + 1.0).ln();
    match kind {
        ScoreKind::Nodes => e,
        ScoreKind::CpuMicros => (e / TIME_BUCKET).floor() * TIME_BUCKET,
    }
}

/// Whether `a` is worse for the target than `b`: a failure beats any pass, then the score;
/// ties keep the earlier one.
fn worse(a: &Found, b: &Found) -> bool {
    let fail = |f: &Found| f.verdict != Verdict::AC;
    (fail(a), a.score) > (fail(b), b.score)
}

/// Hunts for the worst input of `target`, starting from `starts` and changing inputs with
/// `hooks`. `Err` only when the harness could not run an input or make a start input.
pub fn hunt(
    target: &dyn Target,
    hooks: &dyn Hunt,
    starts: &Starts,
    config: &Config,
    on_event: &(dyn Fn(Event) + Sync),
) -> anyhow::Result<Outcome> {
    let clock = config.budget.start();
    let kind = target.kind();
    let chains_n = config.jobs.max(1);
    let mut chains: Vec<Chain> = (0..chains_n)
        .map(|c| Chain {
            rng: ChaCha8Rng::seed_from_u64(fnv1a64(
                format!("hunt:{}:chain:{c}", config.seed).as_bytes(),
            )),
            current: None,
            best: None,
            best_energy: f64::NEG_INFINITY,
            stale: 0,
        })
        .collect();
    let mut starts_used = 0u64;
    let mut runs = 0u64;
    let mut worst: Option<Found> = None;
    loop {
        let room = match config.budget {
            Budget::Count(n) => n.saturating_sub(runs),
            _ if clock.spent(runs) => 0,
            _ => u64::MAX,
        };
        // Cooling by runs, not by budget, so `--count <runs>` replays a timed hunt.
        let temperature = T0 / (1.0 + runs as f64 / chains_n as f64 / COOLING);
        if room == 0 {
            break;
        }
        let active = chains_n.min(usize::try_from(room).unwrap_or(usize::MAX));
        // Proposals, in chain order (deterministic).
        let mut proposals = Vec::with_capacity(active);
        for chain in chains.iter_mut().take(active) {
            let proposal = match &chain.current {
                Some(state) => {
                    let changes = chain.rng.random_range(1..=3u32);
                    let mut input = state.input.clone();
                    let mut made = 0;
                    for _ in 0..changes {
                        if let Some(next) = hooks.mutate(&input, &mut chain.rng) {
                            input = next;
                            made += 1;
                        }
                    }
                    (made > 0).then(|| Proposal {
                        input,
                        mutations: state.mutations + made,
                        start: state.start.clone(),
                    })
                }
                None => None,
            };
            let proposal = match proposal {
                Some(p) => p,
                None => {
                    // A fresh start (also when no change could be made).
                    let (input, start) = starts.get(config.seed, starts_used)?;
                    starts_used += 1;
                    chain.current = None;
                    chain.best = None;
                    chain.best_energy = f64::NEG_INFINITY;
                    chain.stale = 0;
                    Proposal {
                        input,
                        mutations: 0,
                        start,
                    }
                }
            };
            proposals.push(proposal);
        }
        let mut results = measure(target, &proposals, config.jobs)?;
        // A failure in the sandbox counts only if a second run, alone, fails too: load on the
        // machine can trip the wall-clock backstop or kill a run, and a hunt must not report
        // noise as the submission's fault. (Even with one job: the load may be foreign.)
        if kind == ScoreKind::CpuMicros {
            for (c, r) in results.iter_mut().enumerate() {
                if r.verdict != Verdict::AC {
                    on_event(Event::Confirming { chain: c });
                    *r = target.evaluate(&proposals[c].input)?;
                }
            }
        }
        for (c, (proposal, eval)) in proposals.into_iter().zip(results).enumerate() {
            runs += 1;
            let found = Found {
                input: proposal.input.clone(),
                answer: eval.answer.clone(),
                verdict: eval.verdict,
                score: eval.score,
                time_ms: eval.time_ms,
                message: eval.message.clone(),
                chain: c,
                run: runs,
                mutations: proposal.mutations,
                start: proposal.start.clone(),
            };
            if worst.as_ref().is_none_or(|w| worse(&found, w)) {
                on_event(Event::NewWorst { worst: &found });
                worst = Some(found);
            }
            accept(&mut chains[c], proposal, &eval, kind, temperature);
        }
        let w = worst.as_ref().expect("a round measures at least one input");
        on_event(Event::Round { runs, worst: w });
        if w.verdict != Verdict::AC {
            break;
        }
    }
    let worst = match worst {
        Some(w) => w,
        None => anyhow::bail!("the budget allowed no run"),
    };
    Ok(Outcome {
        kind,
        runs,
        elapsed: clock.elapsed(),
        cpu: clock.cpu_used(),
        chains: chains_n,
        worst,
    })
}

/// The annealing step: keep a proposal that is at least as bad for the target, a better one
/// with probability exp(-Δ / T).
fn accept(
    chain: &mut Chain,
    proposal: Proposal,
    eval: &Evaluation,
    kind: ScoreKind,
    temperature: f64,
) {
    let e = energy(kind, eval.score);
    // Always draw, so the RNG stream does not depend on the path taken.
    let draw: f64 = chain.rng.random();
    let keep = match &chain.current {
        None => true,
        Some(cur) if e >= cur.energy => true,
        Some(cur) => draw < ((e - cur.energy) / temperature).exp(),
    };
    let state = State {
        input: proposal.input,
        energy: e,
        mutations: proposal.mutations,
        start: proposal.start,
    };
    if e > chain.best_energy {
        chain.best_energy = e;
        chain.best = Some(state.clone());
        chain.stale = 0;
    } else {
        chain.stale += 1;
    }
    if keep {
        chain.current = Some(state);
    }
    // Stuck: back to the chain's best input, or (every other time) a fresh start.
    if chain.stale >= STALE {
        chain.stale = 0;
        chain.current = if chain.rng.random_bool(0.5) {
            chain.best.clone()
        } else {
            None
        };
    }
}

/// Measures `proposals` on `jobs` threads; results in proposal order.
fn measure(
    target: &dyn Target,
    proposals: &[Proposal],
    jobs: usize,
) -> anyhow::Result<Vec<Evaluation>> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<anyhow::Result<Evaluation>>>> =
        Mutex::new((0..proposals.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, proposals.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(p) = proposals.get(i) else { break };
                let r = target.evaluate(&p.input);
                let failed = r.is_err();
                if let Ok(mut v) = slots.lock() {
                    v[i] = Some(r);
                }
                if failed {
                    break;
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_else(|p| p.into_inner());
    // The first harness error wins over the runs it left undone.
    let mut out = Vec::with_capacity(slots.len());
    let mut missing = false;
    for slot in slots {
        match slot {
            Some(r) => out.push(r?),
            None => missing = true,
        }
    }
    if missing {
        anyhow::bail!("an input was not measured");
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
