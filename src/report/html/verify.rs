//! The HTML report of `judge verify --html`: per problem every check with its result, the
//! verdict matrix of the jury submissions, the timing chart (the repeated timings of each
//! accepted and TLE submission against the limit, their spread, the suggested limit), and the
//! first failure or compiler message of each jury submission that did not pass.

use std::fmt::Write;

use super::{
    anchor, badge_of, compile_error_section, compile_failure, failure_section, matrix, page,
    short_name, Failure, MatrixRow,
};
use crate::show::palette::{BAD, DIM, GOOD, INK};
use crate::show::svg::{escape, Anchor, Font, Paint, Svg};
use crate::verdict::Verdict;
use crate::verify::run::{ProblemReport, VerifyReport};
use crate::verify::Status;

/// The whole page; `failures[p]` are the first failures of problem `p`'s graded submissions
/// (see [`super::grade::first_failures`]).
pub fn render(r: &VerifyReport, failures: &[Vec<Option<Failure>>]) -> String {
    let mut body = String::with_capacity(64 * 1024);
    let _ = writeln!(
        body,
        "<h1>judge verify: {}</h1><p class=\"meta\">{} ok, {} warnings, <span class=\"{}\">{} failed</span></p>",
        escape(
            &r.problems
                .iter()
                .map(|p| p.problem.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        r.count(Status::Ok),
        r.count(Status::Warn),
        if r.ok { "ok" } else { "fail" },
        r.count(Status::Fail)
    );
    for (i, p) in r.problems.iter().enumerate() {
        let none = Vec::new();
        body.push_str(&problem_section(i, p, failures.get(i).unwrap_or(&none)));
    }
    let title = r
        .problems
        .iter()
        .map(|p| p.problem.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    page(&format!("judge verify {title}"), &body)
}

fn status_class(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Warn => "warn",
        Status::Fail => "fail",
    }
}

fn problem_section(index: usize, p: &ProblemReport, failures: &[Option<Failure>]) -> String {
    let mut s = format!(
        "<section class=\"problem\"><h2>{} <small>({})</small></h2>\n<h3>Checks</h3><table class=\"summary checks\"><tbody>\n",
        escape(&p.problem),
        escape(&p.title)
    );
    for c in &p.checks {
        let _ = writeln!(
            s,
            r#"<tr><td class="status {}">{}</td><td><code>{}</code></td><td>{}</td></tr>"#,
            status_class(c.status),
            c.status.label(),
            escape(&c.name),
            escape(&c.message)
        );
    }
    s.push_str("</tbody></table>\n");
    if !p.graded.is_empty() {
        let prefix = format!("p{index}-");
        let names: Vec<&str> = p.tests.iter().map(|t| t.name.as_str()).collect();
        let rows: Vec<MatrixRow> = p
            .graded
            .iter()
            .enumerate()
            .map(|(i, r)| MatrixRow {
                report: r,
                link: (r.verdict != Some(Verdict::AC)).then(|| anchor(&prefix, i)),
            })
            .collect();
        s.push_str("<h3>Jury submissions</h3>");
        s.push_str(&matrix(&names, &rows));
        s.push_str("<h3>Timing</h3>");
        match timing_chart(p) {
            Some(svg) => {
                let _ = write!(s, r#"<div class="chart">{svg}</div>"#);
            }
            None => s.push_str(r#"<p class="note">no timed submission</p>"#),
        }
        if let Some(t) = &p.suggested_time_limit {
            let _ = write!(
                s,
                "<p>suggested time limit: <b>{:.1} s</b> (slowest accepted {:.3} s x 2, rounded up{})</p>",
                t.time_limit_ms as f64 / 1000.0,
                t.slowest_accepted_ms as f64 / 1000.0,
                match t.fastest_tle_ms {
                    Some(f) if t.consistent => format!("; below fastest TLE {:.3} s / 1.5", f as f64 / 1000.0),
                    Some(f) => format!(
                        "; <span class=\"fail\">not below fastest TLE {:.3} s / 1.5: no limit separates them safely</span>",
                        f as f64 / 1000.0
                    ),
                    None => String::new(),
                }
            );
        }
        for (i, (r, result)) in p.graded.iter().zip(&p.submissions).enumerate() {
            if r.verdict == Some(Verdict::AC) {
                continue;
            }
            let expected = if result.expected == result.actual {
                format!(
                    "<span class=\"ok\">as expected ({})</span>",
                    result.expected
                )
            } else {
                format!("<span class=\"fail\">expected {}</span>", result.expected)
            };
            let _ = write!(
                s,
                "<section id=\"{}\"><h3>{} <code>{}</code> {expected}</h3>",
                anchor(&prefix, i),
                badge_of(r.verdict),
                escape(&result.path)
            );
            if let Some(message) = compile_failure(r) {
                s.push_str(&compile_error_section(message));
            } else if let Some(Some(f)) = failures.get(i) {
                s.push_str(&failure_section(f));
            }
            s.push_str("</section>\n");
        }
    }
    s.push_str("</section>\n");
    s
}

/// The timing chart: one row per timed submission, every run as a dot, the spread as a bar,
/// the median as a tick, the submission's time limit in red, the suggested limit in green.
pub fn timing_chart(p: &ProblemReport) -> Option<String> {
    let rows: Vec<(&str, &crate::verify::Timing, u64, Verdict)> = p
        .submissions
        .iter()
        .zip(&p.graded)
        .filter_map(|(s, g)| {
            s.timing
                .as_ref()
                .map(|t| (s.path.as_str(), t, g.limits.time_ms, s.expected))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let suggested = p.suggested_time_limit.as_ref().map(|t| t.time_limit_ms);
    let max_ms = rows
        .iter()
        .flat_map(|(_, t, limit, _)| [t.max_ms, *limit])
        .chain(suggested)
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let label_w = 300.0;
    let plot_w = 560.0;
    let row_h = 26.0;
    let top = 34.0;
    let height = top + row_h * rows.len() as f64 + 58.0;
    let mut svg = Svg::new(label_w + plot_w + 90.0, height, "timing-chart");
    // A log scale from 1 ms: fast accepted runs and multi-second TLE runs on one chart, each
    // with a visible spread. Runs under 1 ms sit at 1 ms.
    let decades = max_ms.log10().max(1.0);
    let x = |ms: f64| label_w + ms.max(1.0).log10() / decades * plot_w;
    let font = |size: f64, colour: &'static str, anchor: Anchor| Font {
        size,
        colour,
        bold: false,
        anchor,
    };
    let axis_y = top + row_h * rows.len() as f64 + 6.0;
    let mut decade = 1.0;
    while decade <= max_ms {
        for (k, m) in [1.0, 2.0, 5.0].into_iter().enumerate() {
            let ms = decade * m;
            if ms > max_ms {
                break;
            }
            let tx = x(ms);
            let colour = if k == 0 { "#dddddd" } else { "#f0f0f0" };
            svg.line(
                (tx, top - 6.0),
                (tx, axis_y),
                Paint::stroke(colour, 1.0),
                "grid",
                None,
            );
            let label = if ms < 1000.0 {
                format!("{ms:.0} ms")
            } else {
                format!("{:.0} s", ms / 1000.0)
            };
            svg.text(
                (tx, axis_y + 12.0),
                &label,
                font(11.0, DIM, Anchor::Middle),
                "tick",
            );
        }
        decade *= 10.0;
    }
    svg.text(
        (label_w, 14.0),
        "CPU time of repeated runs alone (log scale): dots = runs, bar = spread, tick = median",
        font(12.0, DIM, Anchor::Start),
        "legend",
    );
    for (i, (path, t, limit, expected)) in rows.iter().enumerate() {
        let y = top + row_h * (i as f64 + 0.5);
        svg.text(
            (label_w - 10.0, y),
            short_name(path),
            font(12.0, INK, Anchor::End),
            "label",
        );
        let colour = if *expected == Verdict::AC {
            GOOD
        } else {
            "#ff7f0e"
        };
        let tip = format!(
            "{}: {} runs on {}, median {} ms, {}-{} ms{}",
            short_name(path),
            t.runs,
            t.test,
            t.median_ms,
            t.min_ms,
            t.max_ms,
            if t.capped {
                " (capped: at least this long)"
            } else {
                ""
            }
        );
        svg.line(
            (x(t.min_ms as f64), y),
            (x(t.max_ms as f64), y),
            Paint::stroke(colour, 6.0),
            "spread",
            Some(&tip),
        );
        for &ms in &t.samples_ms {
            svg.circle(
                (x(ms as f64), y),
                3.0,
                Paint::fill("rgba(34,34,34,0.55)"),
                "run",
            );
        }
        svg.line(
            (x(t.median_ms as f64), y - 8.0),
            (x(t.median_ms as f64), y + 8.0),
            Paint::stroke(INK, 2.0),
            "median",
            None,
        );
        let lx = x(*limit as f64);
        svg.line(
            (lx, y - row_h / 2.0),
            (lx, y + row_h / 2.0),
            Paint::stroke(BAD, 2.0),
            "limit",
            Some(&format!("time limit {} ms", limit)),
        );
        if t.capped {
            svg.text(
                (x(t.max_ms as f64) + 8.0, y),
                "> (capped)",
                font(11.0, DIM, Anchor::Start),
                "capped",
            );
        }
    }
    if let Some(s) = suggested {
        let sx = x(s as f64);
        svg.line(
            (sx, top - 6.0),
            (sx, axis_y),
            Paint {
                dash: Some("5 4"),
                ..Paint::stroke(GOOD, 2.0)
            },
            "suggested",
            None,
        );
        svg.text(
            (sx, axis_y + 28.0),
            &format!("suggested {:.1} s", s as f64 / 1000.0),
            font(11.0, GOOD, Anchor::Middle),
            "suggested-label",
        );
    }
    if let Some(&(_, _, limit, _)) = rows.first() {
        let lx = x(limit as f64);
        // Below the suggested limit's label when the two would overlap.
        let crowded = suggested.is_some_and(|s| (x(s as f64) - lx).abs() < 70.0);
        svg.text(
            (lx, axis_y + if crowded { 40.0 } else { 28.0 }),
            &format!("limit {:.1} s", limit as f64 / 1000.0),
            font(11.0, BAD, Anchor::Middle),
            "limit-label",
        );
    }
    Some(svg.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::verify::tests::problem;

    #[test]
    fn the_page_lists_every_check_and_charts_the_timings() {
        let r = VerifyReport::new(vec![problem()], false, false);
        let html = render(&r, &[vec![None, None]]);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert_eq!(html.matches("<tr><td class=\"status ").count(), 3);
        assert!(html.contains(r#"<td class="status fail">FAIL</td><td><code>submissions/wrong_answer/sol.cpp</code></td><td>expected WA, got AC</td>"#));
        // The matrix of the graded submissions and the chart with five runs.
        assert!(html.contains(r#"<table class="matrix">"#));
        assert_eq!(html.matches(r#"class="run""#).count(), 5);
        assert!(html.contains(r#"class="suggested""#) && html.contains("suggested 0.1 s"));
        assert!(html.contains("suggested time limit: <b>0.1 s</b>"));
        // The WA submission has a section, marked as expected.
        assert!(html.contains("as expected (WA)"));
    }
}
