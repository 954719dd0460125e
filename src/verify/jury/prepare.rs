//! Before any submission runs: the jury submissions as listed, `--submissions` applied, and
//! every one judge can run compiled (`jobs` + 1 at once), beside the static checks.

use anyhow::Result;

use super::super::select::Selection;
use super::Check;
use crate::compile::{Compiled, Submission};
use crate::grade::submission::Grader;
use crate::verdict::expectation::JurySubmission;

/// The jury submissions of a package and what each must get, each one checked compiled (see
/// [`prepare`]).
pub struct Prepared {
    /// The submissions `--submissions` selects.
    pub(super) subs: Vec<JurySubmission>,
    /// Whether `submissions/accepted/` holds any (selected or not).
    pub(super) any_accepted: bool,
    /// The warning of a partial verify (see [`Selection::check`]).
    pub(super) partial: Option<Check>,
    pub(super) warnings: Vec<String>,
    /// Per submission not skipped, in order.
    pub(crate) compiled: Vec<Result<(Submission, Compiled)>>,
    /// Runs of each randomised submission.
    pub(super) random_runs: u32,
    /// Every submission on every test ([`Selection::all_tests`]).
    pub(super) all_tests: bool,
}

/// Takes the jury submissions of a package as listed ([`crate::package::Package::jury_submissions`]) and
/// compiles those judge can run, `jobs` + 1 at once. Needs nothing of the static checks, so it
/// can run beside them (a cold compile cache costs seconds per compiler).
pub fn prepare(
    grader: &Grader,
    included: &crate::package::Included,
    listed: Result<(Vec<JurySubmission>, Vec<String>), String>,
    jobs: usize,
    select: &Selection,
) -> Result<Prepared> {
    let (mut subs, warnings) = listed.map_err(anyhow::Error::msg)?;
    crate::kattis::submissions::skip_missing_toolchains(&mut subs, &grader.table);
    let any_accepted = subs.iter().any(|s| s.folder == "accepted");
    let total = subs.len();
    let subs: Vec<_> = subs
        .into_iter()
        .filter(|s| select.selects(&format!("submissions/{}", s.rel)))
        .collect();
    let partial = select.check(subs.len(), total);
    let submissions = subs
        .iter()
        .filter(|s| s.skipped.is_none())
        .map(|s| s.submission())
        .collect::<Result<Vec<_>, _>>()?;
    // One compiler more than `jobs`: their serial phases (javac's JVM start, the linker) leave
    // a core idle otherwise (a cold verify of the exported magic-square: 21.5 s, 20.3 s).
    let compiled = grader
        .compile_many(included, &submissions, jobs + 1)
        .into_iter()
        .zip(submissions)
        .map(|(c, s)| c.map(|c| (s, c)))
        .collect();
    Ok(Prepared {
        subs,
        any_accepted,
        partial,
        warnings,
        compiled,
        random_runs: select.random_runs(),
        all_tests: select.all_tests(),
    })
}
