//! Randomised jury submissions (`@RANDOMISED@`): each runs several times, each run a process
//! of its own; later runs try first the tests earlier runs failed on; their lines merge into
//! one with the pass rate.

use super::*;

/// Each graded submission once, a randomised one `runs` times in a row (each run a process of
/// its own in the one pool, so each seeds itself afresh).
pub(super) fn copies(graded: Vec<Graded<'_>>, runs: u32) -> Vec<Graded<'_>> {
    let mut out: Vec<Graded> = graded
        .into_iter()
        .flat_map(|g| {
            let n = if g.jury.randomised { runs.max(1) } else { 1 };
            (0..n).map(move |k| Graded {
                run: k,
                ..g.clone()
            })
        })
        .collect();
    for (i, g) in out.iter_mut().enumerate() {
        g.index = i;
    }
    out
}

/// What, beside program, limits and jury side, names the remembered runs of `g` (`how` for a
/// submission that is not randomised): each run of a randomised submission is remembered as
/// a run of its own, with its order of the tests (made from what the earlier runs gave), so
/// that a warm verify shows the same runs and `--fresh` draws new ones. `None`: not
/// remembered.
pub(super) fn memo_how(g: &Graded, tests: &[TestCase], how: String) -> Option<String> {
    match (g.jury.randomised, &g.order) {
        (false, None) => Some(how),
        (true, order) => {
            let names: Vec<&str> = order
                .as_deref()
                .unwrap_or(tests)
                .iter()
                .map(|t| t.name.as_str())
                .collect();
            Some(format!(
                "{how} randomised run {} on {}",
                g.run,
                names.join("/")
            ))
        }
        (false, Some(_)) => None,
    }
}

/// Runs the later runs `held` of randomised submissions whose first runs are in `firsts`, a
/// round of `jobs` at a time: each tries first the tests its submission's earlier runs failed
/// on (most failures first), then the others from the cheapest for its earlier runs (a test no
/// run reached counts as half the limit). A wrong heuristic mostly fails early that way, and a
/// heuristic that gives up after a time budget, which spends it on each unsolvable test, meets
/// those last; whether a run passes every test does not depend on the order. One whose rules
/// are read at its first failure keeps the test set's order (which test fails first is what
/// it is judged by). True if judge was asked to stop.
pub(super) fn rerun_failures_first(
    grader: &Grader,
    pkg: &Package,
    tests: &[TestCase],
    firsts: &[Graded],
    held: &mut [Graded],
    jobs: usize,
) -> Result<bool> {
    use std::collections::HashMap;
    /// What the earlier runs of one submission showed: first failures and CPU time per test.
    #[derive(Default)]
    struct Seen {
        failed: HashMap<String, u32>,
        cost: HashMap<String, u64>,
    }
    let mut seen: HashMap<String, Seen> = HashMap::new();
    fn learn(g: &Graded, seen: &mut HashMap<String, Seen>) {
        let s = seen.entry(g.jury.rel.clone()).or_default();
        if let Some(t) = g
            .results
            .iter()
            .find(|t| g.view.see(t).verdict != Verdict::AC)
        {
            *s.failed.entry(t.name.clone()).or_default() += 1;
        }
        for t in &g.results {
            let c = s.cost.entry(t.name.clone()).or_default();
            *c = (*c).max(t.time_ms);
        }
    }
    for g in firsts.iter().filter(|g| g.jury.randomised) {
        learn(g, &mut seen);
    }
    for round in held.chunks_mut(jobs.max(1)) {
        for h in round.iter_mut() {
            let Some(s) = seen.get(h.jury.rel.as_str()) else {
                continue;
            };
            if h.scope == Scope::FirstFailure {
                continue;
            }
            let unknown = h.view.limit().as_millis() as u64 / 2;
            let mut order: Vec<(usize, &TestCase)> = tests.iter().enumerate().collect();
            order.sort_by_key(|(i, t)| {
                let failed = s.failed.get(&t.name).copied().unwrap_or(0);
                let cost = s.cost.get(&t.name).copied().unwrap_or(unknown);
                (std::cmp::Reverse(failed), cost, *i)
            });
            h.order = Some(order.into_iter().map(|(_, t)| t.clone()).collect());
        }
        if run_all(grader, pkg, tests, round, Until::Decided, jobs)? {
            return Ok(true);
        }
        for h in round.iter() {
            learn(h, &mut seen);
        }
    }
    Ok(false)
}

/// The one report line of a randomised submission's runs (`runs`, in order): every run must get
/// what the submission must; a wrong one that passes any run is a hole in the test data.
pub(super) fn merge_runs(jury: &JurySubmission, mut runs: Vec<Judged>) -> Judged {
    use std::collections::BTreeMap;
    let n = runs.len() as u32;
    let mut verdicts: BTreeMap<String, u32> = BTreeMap::new();
    let mut first_failures: BTreeMap<String, u32> = BTreeMap::new();
    let mut passed = 0;
    for j in &runs {
        let v = j.report.verdict.map_or("none", |v| v.code());
        *verdicts.entry(v.to_string()).or_default() += 1;
        passed += u32::from(j.report.verdict == Some(Verdict::AC));
        if let Some(t) = j.report.tests.iter().find(|t| t.verdict != Verdict::AC) {
            *first_failures.entry(t.name.clone()).or_default() += 1;
        }
    }
    let tally = verdicts
        .iter()
        .map(|(v, k)| format!("{v} in {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut firsts: Vec<(&String, &u32)> = first_failures.iter().collect();
    firsts.sort_by_key(|(t, k)| (std::cmp::Reverse(**k), (*t).clone()));
    let firsts = if firsts.is_empty() {
        String::new()
    } else {
        let shown: Vec<String> = firsts
            .iter()
            .take(4)
            .map(|(t, k)| format!("{t} x{k}"))
            .collect();
        let more = if firsts.len() > 4 { ", ..." } else { "" };
        format!("; first failures: {}{more}", shown.join(", "))
    };
    let summary = format!("randomised: {n} runs, passed every test in {passed} ({tally}){firsts}");
    let tle = jury.upper_bound;
    // The worst margin of the runs: the slowest accepted one, the fastest TLE one.
    let margin = runs
        .iter()
        .filter_map(|j| j.result.as_ref().and_then(|r| r.margin.clone()))
        .max_by(|a, b| {
            let (a, b) = if tle { (b, a) } else { (a, b) };
            a.ratio.total_cmp(&b.ratio)
        });
    let failed = runs
        .iter()
        .filter(|j| j.check.status == Status::Fail)
        .count();
    let warned = runs.iter().any(|j| j.check.status == Status::Warn);
    // The run the line, the JSON result and the HTML matrix show: the first that failed.
    let pick = runs
        .iter()
        .position(|j| j.check.status == Status::Fail)
        .unwrap_or(0);
    let mut j = runs.swap_remove(pick);
    j.check = if failed > 0 && !jury.accept_only() && passed > 0 {
        Check::fail(
            name(jury),
            format!(
                "passed every test in {passed} of {n} runs, but is not a correct solution: the test data does not stop this randomised heuristic (add tests where it fails; see docs/preparing.md); {summary}"
            ),
        )
    } else if failed > 0 {
        Check::fail(
            name(jury),
            format!(
                "{failed} of {n} runs do not get what they must; the first: {}; {summary}",
                j.check.message
            ),
        )
    } else if warned {
        Check::warn(name(jury), format!("{}; {summary}", j.check.message))
    } else {
        Check::ok(name(jury), format!("{}; {summary}", j.check.message))
    };
    if let Some(r) = j.result.as_mut() {
        r.margin = margin;
        r.randomised = Some(RandomRuns {
            runs: n,
            passed,
            verdicts,
            first_failures,
        });
    }
    j
}

/// Emits judged submissions in order; the runs of a randomised one are kept until the last,
/// then emitted as one line ([`merge_runs`]).
pub(super) struct Lines {
    pub(super) runs: u32,
    pub(super) copies: Vec<Judged>,
}

impl Lines {
    pub(super) fn push(&mut self, g: &Graded, j: Judged, emit: &mut dyn FnMut(Judged)) {
        if !g.jury.randomised {
            return emit(j);
        }
        self.copies.push(j);
        if self.copies.len() as u32 >= self.runs.max(1) {
            emit(merge_runs(g.jury, std::mem::take(&mut self.copies)));
        }
    }
}
