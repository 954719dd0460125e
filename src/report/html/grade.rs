//! The HTML report of `judge grade --html`: the verdict matrix, then per submission that did
//! not pass its first failure (files, checker message, picture) or its compiler message.

use std::fmt::Write;

use super::{
    anchor, badge_of, compile_error_section, compile_failure, failure_section, matrix, page,
    Failure, MatrixRow,
};
use crate::problems::Problem;
use crate::report::SubmissionReport;
use crate::show::svg::escape;
use crate::testset::TestCase;
use crate::verdict::Verdict;

/// Everything the grade report shows.
pub struct GradePage<'a> {
    pub problem: &'a str,
    pub title: &'a str,
    /// The tests in plan order (the matrix columns).
    pub tests: &'a [TestCase],
    pub reports: &'a [SubmissionReport],
    /// The first failure of each report (same order), prepared by [`first_failures`].
    pub failures: Vec<Option<Failure<'a>>>,
}

/// The first failure of each report with its files and, when the problem draws itself, the
/// picture of the output on the input.
pub fn first_failures<'a>(
    reports: &'a [SubmissionReport],
    tests: &'a [TestCase],
    logic: &dyn Problem,
) -> Vec<Option<Failure<'a>>> {
    reports
        .iter()
        .map(|r| {
            let result = r.tests.iter().find(|t| t.verdict != Verdict::AC)?;
            let test = tests.iter().find(|t| t.name == result.name)?;
            let picture = result.output.as_ref().and_then(|o| {
                match logic.draw(test.input.as_bytes(), Some(&o.bytes))? {
                    Ok(p) => Some(p.svg),
                    Err(_) => None,
                }
            });
            Some(Failure {
                result,
                input: &test.input,
                answer: &test.answer,
                picture,
            })
        })
        .collect()
}

/// The whole page.
pub fn render(p: &GradePage) -> String {
    let mut body = String::with_capacity(64 * 1024);
    let _ = writeln!(
        body,
        "<h1>judge grade: {} <small>({})</small></h1><p class=\"meta\">{} submission{}, {} tests</p>",
        escape(p.problem),
        escape(p.title),
        p.reports.len(),
        if p.reports.len() == 1 { "" } else { "s" },
        p.tests.len()
    );
    let names: Vec<&str> = p.tests.iter().map(|t| t.name.as_str()).collect();
    let rows: Vec<MatrixRow> = p
        .reports
        .iter()
        .enumerate()
        .map(|(i, r)| MatrixRow {
            report: r,
            link: (r.verdict != Some(Verdict::AC)).then(|| anchor("", i)),
        })
        .collect();
    body.push_str(&matrix(&names, &rows));
    for (i, (r, failure)) in p.reports.iter().zip(&p.failures).enumerate() {
        if r.verdict == Some(Verdict::AC) {
            continue;
        }
        let _ = write!(
            body,
            "<section id=\"{}\"><h2>{} <code>{}</code></h2>",
            anchor("", i),
            badge_of(r.verdict),
            escape(&r.submission)
        );
        let _ = write!(
            body,
            "<p class=\"meta\">{} · limits {:.3} s CPU, {} MiB</p>",
            escape(&r.language),
            r.limits.time_ms as f64 / 1000.0,
            r.limits.memory_mib
        );
        if let Some(message) = compile_failure(r) {
            body.push_str(&compile_error_section(message));
        } else if let Some(f) = failure {
            body.push_str(&failure_section(f));
        }
        body.push_str("</section>\n");
    }
    page(&format!("judge grade {}", p.problem), &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::OutputHead;
    use crate::problems::magic_square::MagicSquare;
    use crate::report::tests::report;
    use crate::testset::Origin;

    fn tests() -> Vec<TestCase> {
        ["sample-1", "large-02", "large-03"]
            .iter()
            .map(|n| TestCase {
                name: n.to_string(),
                origin: Origin::External(format!("{n}.in").into()),
                input: "3\n5 1 9 3 7 2 8 4 6\n".into(),
                answer: "2 7 6\n9 5 1\n4 3 8\n".into(),
            })
            .collect()
    }

    #[test]
    fn the_page_has_a_matrix_cell_per_test_run_and_the_picture_of_the_failure() {
        let tests = tests();
        let mut wa = report();
        wa.tests[1].output = Some(OutputHead::of(b"2 7 6\n1 5 9\n4 3 8\n"));
        wa.tests_total = 3;
        let mut ac = report();
        ac.submission = "submissions/accepted/a.cpp".into();
        ac.verdict = Some(Verdict::AC);
        ac.tests.truncate(1);
        let mut ce = report();
        ce.verdict = Some(Verdict::CE);
        let c = ce.compile.as_mut().expect("compile report");
        c.ok = false;
        c.message = "a.cpp:1: error: expected ';' <here>".into();
        ce.tests.clear();
        let reports = vec![wa, ac, ce];
        let failures = first_failures(&reports, &tests, &MagicSquare);
        let html = render(&GradePage {
            problem: "magic-square",
            title: "Magic Square",
            tests: &tests,
            reports: &reports,
            failures,
        });
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert_eq!(html.matches(r#"<td class="cell v-AC""#).count(), 2);
        assert_eq!(html.matches(r#"<td class="cell v-WA""#).count(), 1);
        // Not-run cells: one for the WA row, two for AC, three for CE.
        assert_eq!(html.matches(r#"<td class="none">"#).count(), 6);
        assert!(
            html.contains("data-t=\"large-02: WA&#10;CPU 0.005 s of 1.000 s"),
            "{html}"
        );
        // The failure's picture, inline, with the wrong sums in red.
        assert!(html.contains(
            r#"<div class="picture"><svg xmlns="http://www.w3.org/2000/svg" class="magic-square""#
        ));
        assert!(html.contains(r#"class="sum bad""#));
        // The compiler's message, escaped; no section for the accepted submission.
        assert!(html.contains("expected &#39;;&#39; &lt;here&gt;"));
        assert_eq!(html.matches("<section").count(), 2);
        // Self-contained: no script, no external resources.
        assert!(!html.contains("<script") && !html.contains(" src=") && !html.contains("https:"));
        assert_eq!(
            html.matches("http:").count(),
            html.matches("http://www.w3.org/2000/svg").count()
        );
    }
}
