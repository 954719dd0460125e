//! The summary table of several submissions: one row each, with verdict, tests passed, max
//! CPU, max memory and first failure (as BAPCtools' `bt run --table`). Rows can be printed as
//! each submission finishes: the column widths depend only on the submission names.

use super::{mib, secs, SubmissionReport};
use crate::verdict::score::{fmt_score, is_column};
use crate::verdict::Verdict;

/// The layout of a summary table.
#[derive(Debug, Clone)]
pub struct SummaryTable {
    name_width: usize,
    /// A scoring problem's groups (those directly under `secret`): a column each, then the
    /// score.
    groups: Vec<String>,
}

/// Figures of one submission's row.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRow {
    /// `None`: no verdict (stopped before one was certain).
    pub verdict: Option<Verdict>,
    pub passed: usize,
    pub total: usize,
    pub max_cpu_ms: u64,
    pub max_memory_kib: u64,
    /// `test: message` of the first non-AC test, the compiler's first line, or why the score
    /// is a judge error.
    pub first_failure: Option<String>,
    /// A scoring problem's score and its groups' scores (as in the report).
    pub score: Option<crate::verdict::score::ScoreReport>,
}

impl SummaryRow {
    pub fn of(r: &SubmissionReport) -> SummaryRow {
        let compile_failed = r.compile.as_ref().filter(|c| !c.ok);
        let first_failure = if let Some(c) = compile_failed {
            Some(format!(
                "compilation failed: {}",
                c.message.lines().next().unwrap_or("")
            ))
        } else if let Some(e) = r.score.as_ref().and_then(|s| s.error.as_ref()) {
            Some(format!("judge error while scoring: {e}"))
        } else {
            r.tests
                .iter()
                .find(|t| t.verdict != Verdict::AC)
                .map(|t| match t.message.as_str() {
                    "" => t.name.clone(),
                    m => format!("{}: {m}", t.name),
                })
        };
        SummaryRow {
            verdict: r.verdict,
            passed: r.tests.iter().filter(|t| t.verdict == Verdict::AC).count(),
            total: r.tests_total,
            max_cpu_ms: r.tests.iter().map(|t| t.time_ms).max().unwrap_or(0),
            max_memory_kib: r.tests.iter().map(|t| t.memory_kib).max().unwrap_or(0),
            first_failure,
            score: r.score.clone(),
        }
    }
}

/// The scoring groups the reports were scored on (none for a pass-fail problem).
pub fn groups_of<'a>(reports: impl IntoIterator<Item = &'a SubmissionReport>) -> Vec<String> {
    reports
        .into_iter()
        .find_map(|r| r.score.as_ref())
        .map(|s| s.groups.iter().map(|g| g.group.clone()).collect())
        .unwrap_or_default()
}

impl SummaryTable {
    /// A table for submissions with these names.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> SummaryTable {
        let name_width = names
            .into_iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max("SUBMISSION".len());
        SummaryTable {
            name_width,
            groups: Vec::new(),
        }
    }

    /// The table with a column per group of a scoring problem (their paths under `data/`;
    /// only those directly under `secret` get one) and one for the score.
    pub fn with_groups(mut self, groups: &[String]) -> SummaryTable {
        self.groups = groups.iter().filter(|g| is_column(g)).cloned().collect();
        self
    }

    fn group_cells(&self, cell: impl Fn(&str) -> String, total: String) -> String {
        if self.groups.is_empty() && total.is_empty() {
            return String::new();
        }
        let mut s = String::new();
        for g in &self.groups {
            let short = &g["secret/".len()..];
            s.push_str(&format!("{:>w$}  ", cell(g), w = short.len().max(5)));
        }
        s.push_str(&format!("{total:>7}  "));
        s
    }

    fn scored(&self) -> bool {
        !self.groups.is_empty()
    }

    /// The header line.
    pub fn header(&self) -> String {
        let w = self.name_width;
        let groups = if self.scored() {
            self.group_cells(|g| g["secret/".len()..].to_string(), "SCORE".into())
        } else {
            String::new()
        };
        format!(
            "{:w$}  {:7}  {:>7}  {groups}{:>8}  {:>10}  FIRST FAILURE\n",
            "SUBMISSION", "VERDICT", "PASSED", "MAX CPU", "MAX MEMORY"
        )
    }

    /// The row of one submission.
    pub fn row(&self, name: &str, row: &SummaryRow) -> String {
        let w = self.name_width;
        let groups = if self.scored() {
            let of = |g: &str| {
                row.score
                    .as_ref()
                    .and_then(|s| s.group_score(g))
                    .map_or("-".into(), fmt_score)
            };
            let total = row
                .score
                .as_ref()
                .map_or("-".into(), |s| fmt_score(s.score));
            self.group_cells(of, total)
        } else {
            String::new()
        };
        let line = format!(
            "{name:w$}  {:7}  {:>7}  {groups}{:>8}  {:>10}  {}",
            row.verdict.map_or("-", Verdict::code),
            format!("{}/{}", row.passed, row.total),
            secs(row.max_cpu_ms),
            mib(row.max_memory_kib),
            row.first_failure.as_deref().unwrap_or("")
        );
        line.trim_end().to_string() + "\n"
    }

    /// The closing line: `3 submissions: 1 AC, 2 not accepted (WA 1, CE 1)`.
    pub fn footer(verdicts: &[Option<Verdict>]) -> String {
        let ac = verdicts.iter().filter(|&&v| v == Some(Verdict::AC)).count();
        let mut line = format!(
            "{} submission{}: {ac} AC",
            verdicts.len(),
            if verdicts.len() == 1 { "" } else { "s" }
        );
        if ac < verdicts.len() {
            let counts: Vec<String> = crate::verdict::ALL
                .iter()
                .filter(|&&v| v != Verdict::AC)
                .filter_map(|&v| {
                    let k = verdicts.iter().filter(|&&x| x == Some(v)).count();
                    (k > 0).then(|| format!("{v} {k}"))
                })
                .chain({
                    let open = verdicts.iter().filter(|v| v.is_none()).count();
                    (open > 0).then(|| format!("no verdict {open}"))
                })
                .collect();
            line.push_str(&format!(
                ", {} not accepted ({})",
                verdicts.len() - ac,
                counts.join(", ")
            ));
        }
        line + "\n"
    }
}

/// The whole table for finished reports.
pub fn render_summary(reports: &[SubmissionReport]) -> String {
    let table = SummaryTable::new(reports.iter().map(|r| r.submission.as_str()))
        .with_groups(&groups_of(reports.iter()));
    let mut s = table.header();
    for r in reports {
        s.push_str(&table.row(&r.submission, &SummaryRow::of(r)));
    }
    let verdicts: Vec<Option<Verdict>> = reports.iter().map(|r| r.verdict).collect();
    s.push_str(&SummaryTable::footer(&verdicts));
    s
}

#[cfg(test)]
mod tests {
    use super::super::tests::report;
    use super::*;

    #[test]
    fn one_row_per_submission_with_first_failure_and_a_footer() {
        let wa = report();
        let mut ac = report();
        ac.submission = "accepted/fast.cpp".into();
        ac.verdict = Some(Verdict::AC);
        ac.tests.truncate(1);
        ac.tests_total = 1;
        let mut ce = report();
        ce.submission = "ce.rs".into();
        ce.verdict = Some(Verdict::CE);
        let c = ce.compile.as_mut().expect("compile report");
        c.ok = false;
        c.message = "error[E0502]: cannot borrow\n  --> ce.rs:3".into();
        ce.tests.clear();
        let t = render_summary(&[ac, wa, ce]);
        let expected = "\
SUBMISSION         VERDICT   PASSED   MAX CPU  MAX MEMORY  FIRST FAILURE
accepted/fast.cpp  AC           1/1    0.003s     1.5 MiB
sol.cpp            WA          1/50    0.005s     2.0 MiB  large-02: row 2 sums to 14, expected 15
ce.rs              CE          0/50    0.000s     0.0 MiB  compilation failed: error[E0502]: cannot borrow
3 submissions: 1 AC, 2 not accepted (WA 1, CE 1)
";
        assert_eq!(t, expected);
    }

    #[test]
    fn all_accepted_footer_has_no_breakdown() {
        assert_eq!(
            SummaryTable::footer(&[Some(Verdict::AC), Some(Verdict::AC)]),
            "2 submissions: 2 AC\n"
        );
    }
}
