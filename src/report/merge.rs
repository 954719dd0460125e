//! `judge report merge`: joins the partial reports of `--partition K/N` runs into the report
//! one run gives. The verdicts are recomputed from every part's results with the runners' own
//! rules ([`crate::grade::conclude`], the stress search's smallest failing test number).
//!
//! A scoring problem's parts carry its rules (`partition.scoring`), so the merged report is
//! scored as one run's is (not when a custom grader is needed).
//!
//! Equal to one run's report except the fields that depend on timing or on the machine
//! (docs/scale-out.md, "Merging"): per test `time_ms`, `wall_ms`, `memory_kib`, `runs` and the
//! `message` of a TLE or an overload JE (it quotes measured times); `compile.time_ms` and
//! `compile.cached`; for stress `tests_run`, `elapsed_ms` and `failure.saved`; for verify
//! `submissions[].timing`, `suggested_time_limit` and check messages quoting measured times.

use std::collections::HashMap;

use crate::grade::conclude;
use crate::grade::submission::{mark_score_error, score_with};
use crate::partition::Partition;
use crate::report::{GradePartition, SubmissionReport};
use crate::stress::run::StressReport;
use crate::verdict::score::Scoring;
use crate::verdict::Verdict;
use crate::verify::run::VerifyReport;

/// Why partial reports cannot be merged (each message is one line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("{file}: not a partial report (made without --partition K/N)")]
    NotPartial { file: String },
    #[error("{file}: no report in the file")]
    Empty { file: String },
    #[error("{file}: its reports come from different partitions")]
    MixedFile { file: String },
    #[error("partition counts differ: {a} and {b}")]
    CountMismatch { a: Partition, b: Partition },
    #[error("partition {0} is given twice")]
    Duplicate(Partition),
    #[error("partition {0} is missing")]
    Missing(Partition),
    #[error("the partial reports differ in {what}: {a} and {b}")]
    Mismatch { what: String, a: String, b: String },
    #[error("partition {partition}: test `{test}` of {submission} is not one of its tests")]
    StrayTest {
        partition: Partition,
        test: String,
        submission: String,
    },
    #[error("{submission}: the parts disagree on whether it compiles")]
    CompileDisagrees { submission: String },
    #[error("{what}: a part of the work is missing though no part was interrupted")]
    Incomplete { what: String },
}

/// One partial report file: its name (for messages) and partition, and its reports.
#[derive(Debug)]
pub struct Part<T> {
    pub file: String,
    pub partition: Partition,
    pub reports: Vec<T>,
}

/// Orders `parts` by partition and checks that they are exactly the parts `1..=N` of one split.
pub fn check_parts<T>(mut parts: Vec<Part<T>>) -> Result<Vec<Part<T>>, MergeError> {
    parts.sort_by_key(|p| p.partition.index);
    let Some(first) = parts.first().map(|p| p.partition) else {
        return Err(MergeError::Empty {
            file: "(no files)".into(),
        });
    };
    for p in &parts {
        if p.partition.count != first.count {
            return Err(MergeError::CountMismatch {
                a: first,
                b: p.partition,
            });
        }
    }
    for pair in parts.windows(2) {
        if pair[0].partition == pair[1].partition {
            return Err(MergeError::Duplicate(pair[0].partition));
        }
    }
    for index in 1..=first.count {
        if !parts.iter().any(|p| p.partition.index == index) {
            return Err(MergeError::Missing(Partition {
                index,
                count: first.count,
            }));
        }
    }
    Ok(parts)
}

fn same<T: PartialEq + std::fmt::Debug>(what: &str, a: &T, b: &T) -> Result<(), MergeError> {
    if a == b {
        return Ok(());
    }
    Err(MergeError::Mismatch {
        what: what.into(),
        a: format!("{a:?}"),
        b: format!("{b:?}"),
    })
}

/// Merged grade reports.
#[derive(Debug)]
pub struct GradeMerge {
    /// The reports one run gives, one per submission in command-line order.
    pub reports: Vec<SubmissionReport>,
    /// The test names of the whole test set, in plan order.
    pub plan: Vec<String>,
    /// What the merge could not do (no score for a custom-graded package).
    pub notes: Vec<String>,
}

/// Merges the parts of `judge grade --json --partition K/N` (each file: one report per
/// submission, in the same order) into the reports of one run.
pub fn grade(parts: Vec<Part<SubmissionReport>>) -> Result<GradeMerge, MergeError> {
    let parts = check_parts(parts)?;
    let submissions = parts[0].reports.len();
    for p in &parts {
        same("number of submissions", &submissions, &p.reports.len())?;
    }
    let reports = (0..submissions)
        .map(|s| {
            let of_submission = parts
                .iter()
                .map(|p| {
                    let r = &p.reports[s];
                    match &r.partition {
                        Some(split) => Ok((p.partition, split, r)),
                        None => Err(MergeError::NotPartial {
                            file: p.file.clone(),
                        }),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            grade_one(&of_submission)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let plan = parts[0]
        .reports
        .first()
        .and_then(|r| r.partition.as_ref())
        .map(|p| p.plan.clone())
        .unwrap_or_default();
    let scoring = parts[0]
        .reports
        .first()
        .and_then(|r| r.partition.as_ref())
        .and_then(|p| p.scoring.as_ref());
    let notes = notes(&reports, scoring);
    Ok(GradeMerge {
        reports,
        plan,
        notes,
    })
}

/// Merges the parts of one submission: each part's partition (from its file), its
/// `partition` field and its report, in partition order (already checked).
fn grade_one(
    parts: &[(Partition, &GradePartition, &SubmissionReport)],
) -> Result<SubmissionReport, MergeError> {
    let (_, split, first) = parts[0];
    let (plan, all) = (&split.plan, split.all);
    for &(partition, s, r) in &parts[1..] {
        same("problem", &first.problem, &r.problem)?;
        same("submission", &first.submission, &r.submission)?;
        same("language", &first.language, &r.language)?;
        same("limits", &first.limits, &r.limits)?;
        same("--all", &all, &s.all)?;
        same("test set", plan, &s.plan)?;
        same("scoring", &split.scoring, &s.scoring)?;
        same(
            "partition",
            &partition,
            &Partition {
                index: s.index,
                count: s.count,
            },
        )?;
    }
    let reports: Vec<&SubmissionReport> = parts.iter().map(|p| p.2).collect();
    let compiled: Vec<bool> = reports
        .iter()
        .filter_map(|r| r.compile.as_ref().map(|c| c.ok))
        .collect();
    if compiled.windows(2).any(|w| w[0] != w[1]) {
        return Err(MergeError::CompileDisagrees {
            submission: first.submission.clone(),
        });
    }
    let mut merged = SubmissionReport {
        compile: reports.iter().find_map(|r| r.compile.clone()),
        tests: Vec::new(),
        tests_total: plan.len(),
        interrupted: false,
        partition: None,
        verdict: None,
        // A part has no score (not every test ran): the merge scores the whole below.
        score: None,
        ..first.clone()
    };
    let interrupted = reports.iter().any(|r| r.interrupted);
    match compiled.first() {
        Some(false) => {
            merged.verdict = Some(Verdict::CE);
            set_score(&mut merged, split.scoring.as_ref());
            return Ok(merged);
        }
        None => {
            merged.interrupted = true;
            return Ok(merged);
        }
        Some(true) => {}
    }
    let index: HashMap<&str, usize> = plan
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut results = vec![None; plan.len()];
    for &(partition, _, r) in parts {
        for t in &r.tests {
            match index.get(t.name.as_str()) {
                Some(&i) if partition.contains(i as u64) => results[i] = Some(t.clone()),
                _ => {
                    return Err(MergeError::StrayTest {
                        partition,
                        test: t.name.clone(),
                        submission: r.submission.clone(),
                    })
                }
            }
        }
    }
    let concluded = conclude(results, all);
    if concluded.missing && !interrupted {
        return Err(MergeError::Incomplete {
            what: first.submission.clone(),
        });
    }
    merged.tests = concluded.results;
    merged.verdict = concluded.verdict;
    merged.interrupted = concluded.missing;
    set_score(&mut merged, split.scoring.as_ref());
    Ok(merged)
}

/// The score of a merged report by the rules its parts carry, as one run computes it (none
/// when interrupted, or when a custom grader is needed: a merge does not run programs).
fn set_score(merged: &mut SubmissionReport, scoring: Option<&Scoring>) {
    if let Some(scoring) = scoring.filter(|s| !s.has_custom_grading()) {
        merged.score = score_with(scoring, None, merged);
        mark_score_error(merged);
    }
}

/// What a merge of these reports cannot do, for the user: a note line each.
pub fn notes(reports: &[SubmissionReport], parts_scoring: Option<&Scoring>) -> Vec<String> {
    match parts_scoring {
        Some(s) if s.has_custom_grading() && !reports.is_empty() => vec![
            "the merged reports have no score: the package's custom grader (graders/) runs only in `judge grade`".into(),
        ],
        _ => Vec::new(),
    }
}

/// Merges the parts of `judge verify --json --partition K/N` (each part verified whole
/// problems): the problems back in command-line order, `ok` recomputed as one run does.
pub fn verify(parts: Vec<Part<VerifyReport>>) -> Result<VerifyReport, MergeError> {
    let parts = check_parts(parts)?;
    let plan = |r: &VerifyReport| r.partition.as_ref().map(|p| p.plan.clone());
    let first = &parts[0].reports[0];
    let mut problems = vec![None; plan(first).map_or(0, |p| p.len())];
    let mut interrupted = false;
    for part in &parts {
        let [report] = &part.reports[..] else {
            return Err(MergeError::Mismatch {
                what: "number of reports per file".into(),
                a: "1".into(),
                b: format!("{} in {}", part.reports.len(), part.file),
            });
        };
        same("problems", &plan(first), &plan(report))?;
        same("--strict", &first.strict, &report.strict)?;
        interrupted |= report.interrupted;
        for (j, problem) in report.problems.iter().enumerate() {
            let i = part.partition.nth(j as u64) as usize;
            let Some(slot) = problems.get_mut(i) else {
                return Err(MergeError::Mismatch {
                    what: "number of problems".into(),
                    a: format!("{}", problems.len()),
                    b: format!("more in {}", part.file),
                });
            };
            *slot = Some(problem.clone());
        }
    }
    // An interrupted part stopped before some of its problems: one run's report ends there.
    if problems.iter().any(Option::is_none) && !interrupted {
        return Err(MergeError::Incomplete {
            what: "verify".into(),
        });
    }
    let problems = problems.into_iter().map_while(|p| p).collect();
    Ok(VerifyReport::new(problems, interrupted, first.strict))
}

/// Merges the parts of `judge stress --json --count N --partition K/N`: the failure with the
/// smallest test number wins, as in one run's search.
pub fn stress(parts: Vec<Part<StressReport>>) -> Result<StressReport, MergeError> {
    let parts = check_parts(parts)?;
    let reports: Vec<&StressReport> = parts.iter().flat_map(|p| &p.reports).collect();
    for p in &parts {
        if p.reports.len() != 1 {
            return Err(MergeError::Mismatch {
                what: "number of reports per file".into(),
                a: "1".into(),
                b: format!("{} in {}", p.reports.len(), p.file),
            });
        }
    }
    let first = reports[0];
    for r in &reports[1..] {
        same("problem", &first.problem, &r.problem)?;
        same("submission", &first.submission, &r.submission)?;
        same("seed", &first.seed, &r.seed)?;
        same(
            "--count",
            &first.partition.as_ref().map(|p| p.tests),
            &r.partition.as_ref().map(|p| p.tests),
        )?;
        if r.compile.ok != first.compile.ok {
            return Err(MergeError::CompileDisagrees {
                submission: first.submission.clone(),
            });
        }
    }
    let winner = reports
        .iter()
        .filter(|r| r.failure.is_some())
        .min_by_key(|r| r.failure.as_ref().map(|f| f.index))
        .copied()
        .unwrap_or(first);
    Ok(StressReport {
        tests_run: reports.iter().map(|r| r.tests_run).sum(),
        elapsed_ms: reports.iter().map(|r| r.elapsed_ms).max().unwrap_or(0),
        interrupted: reports.iter().any(|r| r.interrupted),
        partition: None,
        ..winner.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::TestResult;
    use crate::report::{CompileReport, LimitsReport};

    fn result(name: &str, verdict: Verdict) -> TestResult {
        TestResult {
            wall_ms: 2,
            memory_kib: 3,
            ..TestResult::sample(name, verdict, 1)
        }
    }

    const PLAN: [&str; 5] = ["t0", "t1", "t2", "t3", "t4"];

    /// The partial report of part `index` of `count` on a plan where `fails` fail: what the
    /// runner gives on the part's tests.
    fn partial(index: u32, count: u32, fails: &[usize], all: bool) -> SubmissionReport {
        let p = Partition { index, count };
        let mine: Vec<Option<TestResult>> = (0..PLAN.len())
            .filter(|&i| p.contains(i as u64))
            .map(|i| {
                let v = if fails.contains(&i) {
                    Verdict::WA
                } else {
                    Verdict::AC
                };
                Some(result(PLAN[i], v))
            })
            .collect();
        let c = conclude(mine, all);
        SubmissionReport {
            problem: "p".into(),
            submission: "a.c".into(),
            language: "c".into(),
            runtime: None,
            verdict: c.verdict,
            compile: Some(CompileReport {
                ok: true,
                message: String::new(),
                time_ms: 0,
                cached: true,
            }),
            tests: c.results,
            tests_total: PLAN.len(),
            limits: LimitsReport {
                time_ms: 1000,
                wall_ms: 2000,
                memory_mib: 64,
                output_mib: 8,
            },
            interrupted: false,
            partition: Some(GradePartition {
                index,
                count,
                all,
                plan: PLAN.iter().map(|s| s.to_string()).collect(),
                scoring: None,
            }),
            score: None,
        }
    }

    fn parts(count: u32, fails: &[usize], all: bool) -> Vec<Part<SubmissionReport>> {
        (1..=count)
            .rev()
            .map(|k| Part {
                file: format!("{k}.json"),
                partition: Partition { index: k, count },
                reports: vec![partial(k, count, fails, all)],
            })
            .collect()
    }

    fn names(r: &SubmissionReport) -> Vec<&str> {
        r.tests.iter().map(|t| t.name.as_str()).collect()
    }

    #[test]
    fn merged_parts_are_cut_at_the_first_failure_of_the_whole_plan() {
        // Part 1 (t0, t2, t4) fails at t4, part 2 (t1, t3) at t3: one run stops at t3.
        let merged = grade(parts(2, &[3, 4], false)).unwrap().reports;
        assert_eq!(names(&merged[0]), ["t0", "t1", "t2", "t3"]);
        assert_eq!(merged[0].verdict, Some(Verdict::WA));
        assert_eq!(merged[0].tests_total, 5);
        assert!(merged[0].partition.is_none() && !merged[0].interrupted);
        let all = grade(parts(3, &[3, 4], true)).unwrap().reports;
        assert_eq!(names(&all[0]), PLAN);
        let ok = grade(parts(3, &[], false)).unwrap().reports;
        assert_eq!(ok[0].verdict, Some(Verdict::AC));
    }

    #[test]
    fn mismatched_parts_are_refused() {
        let mut p = parts(3, &[], false);
        p.pop();
        assert_eq!(
            grade(p).unwrap_err().to_string(),
            "partition 1/3 is missing"
        );
        let mut p = parts(2, &[], false);
        p[1].partition.index = 2;
        assert_eq!(
            grade(p).unwrap_err().to_string(),
            "partition 2/2 is given twice"
        );
        let mut p = parts(2, &[], false);
        p[0].partition.count = 3;
        assert!(matches!(grade(p), Err(MergeError::CountMismatch { .. })));
        let mut p = parts(2, &[], false);
        p[0].reports[0].submission = "b.c".into();
        assert!(grade(p)
            .unwrap_err()
            .to_string()
            .starts_with("the partial reports differ in submission"));
        let mut p = parts(2, &[], false);
        p[0].reports[0].tests[0].name = "t0".into();
        assert!(matches!(grade(p), Err(MergeError::StrayTest { .. })));
    }

    #[test]
    fn an_interrupted_part_leaves_the_merged_verdict_open() {
        let mut p = parts(2, &[], false);
        p[0].reports[0].tests.pop();
        p[0].reports[0].interrupted = true;
        let merged = grade(p).unwrap().reports;
        assert_eq!(merged[0].verdict, None);
        assert!(merged[0].interrupted);
        let mut p = parts(2, &[], false);
        p[0].reports[0].tests.pop();
        assert!(matches!(grade(p), Err(MergeError::Incomplete { .. })));
    }
}
