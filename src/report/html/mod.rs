//! The HTML report (`grade --html`, `verify --html`): one self-contained file (inline CSS and
//! SVG, no script, no network) rendered from result data by pure functions.
//!
//! Shared pieces live here: the page skeleton, the verdict matrix (submissions x tests, each
//! cell coloured by verdict with its CPU time as a bar against the limit and the numbers on
//! hover or click), file excerpts and the first-failure section.

use std::fmt::Write;

use similar::{ChangeTag, TextDiff};

use crate::grade::TestResult;
use crate::report::SubmissionReport;
use crate::show::svg::escape;
use crate::verdict::score::{fmt_score, is_column};
use crate::verdict::Verdict;

pub mod grade;
pub mod verify;

/// Lines of a file shown at most.
const EXCERPT_LINES: usize = 60;
/// Bytes of a file shown at most.
const EXCERPT_BYTES: usize = 6 * 1024;
/// Diffs are shown for answers of at most this many lines.
const DIFF_LINES: usize = 400;

/// A whole page: `<!DOCTYPE html>`, the inline style sheet, `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <style>{}</style></head>\n<body>\n{body}</body></html>\n",
        escape(title),
        include_str!("style.css")
    )
}

/// A verdict as a coloured badge.
pub fn badge(v: Verdict) -> String {
    format!(r#"<span class="badge v-{0}">{0}</span>"#, v.code())
}

/// [`badge`] of a report's verdict; a grey `-` when there is none (interrupted).
pub fn badge_of(v: Option<Verdict>) -> String {
    match v {
        Some(v) => badge(v),
        None => r#"<span class="badge">-</span>"#.to_string(),
    }
}

/// The compiler's message when a report's compile failed.
pub fn compile_failure(r: &crate::report::SubmissionReport) -> Option<&str> {
    r.compile
        .as_ref()
        .filter(|c| !c.ok)
        .map(|c| c.message.as_str())
}

/// `0.012 s`.
fn secs(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// A submission path as shown: what follows `submissions/` when present.
pub fn short_name(path: &str) -> &str {
    path.rfind("submissions/")
        .map_or(path, |i| &path[i + "submissions/".len()..])
}

/// The anchor of a submission's section.
pub fn anchor(prefix: &str, index: usize) -> String {
    format!("{prefix}sub-{index}")
}

/// One row of the matrix: a submission's results by test name.
pub struct MatrixRow<'a> {
    pub report: &'a SubmissionReport,
    /// Where its section is (`#...`), if it has one.
    pub link: Option<String>,
}

/// The verdict matrix: one row per submission, one column per test (in `tests` order).
pub fn matrix(tests: &[&str], rows: &[MatrixRow]) -> String {
    let mut s = String::with_capacity(256 + rows.len() * tests.len() * 140);
    s.push_str(r#"<div class="matrix-wrap"><table class="matrix"><thead><tr><th></th><th></th>"#);
    // A scoring problem: a column per group under `secret`, then the score.
    let groups: Vec<String> = crate::report::summary::groups_of(rows.iter().map(|r| r.report))
        .into_iter()
        .filter(|g| is_column(g))
        .collect();
    let scored = rows.iter().any(|r| r.report.score.is_some());
    if scored {
        for g in &groups {
            let _ = write!(
                s,
                r#"<th class="group" title="{0}">{0}</th>"#,
                escape(&g["secret/".len()..])
            );
        }
        s.push_str(r#"<th class="group">score</th>"#);
    }
    for t in tests {
        let _ = write!(
            s,
            r#"<th class="test" title="{0}"><span>{0}</span></th>"#,
            escape(t)
        );
    }
    s.push_str("</tr></thead><tbody>\n");
    for row in rows {
        let r = row.report;
        let name = escape(short_name(&r.submission));
        let label = match &row.link {
            Some(l) => format!(r##"<a href="#{l}">{name}</a>"##),
            None => name.clone(),
        };
        let passed = r.tests.iter().filter(|t| t.verdict == Verdict::AC).count();
        let _ = write!(
            s,
            r#"<tr><th class="sub" title="{}">{label}</th><td class="after">{} {passed}/{}</td>"#,
            escape(&r.submission),
            badge_of(r.verdict),
            r.tests_total
        );
        if scored {
            let of = |g: &str| {
                r.score
                    .as_ref()
                    .and_then(|sc| sc.group_score(g))
                    .map_or("-".to_string(), fmt_score)
            };
            for g in &groups {
                let _ = write!(s, r#"<td class="score">{}</td>"#, of(g));
            }
            let total = r.score.as_ref().map_or("-".to_string(), |sc| sc.describe());
            let _ = write!(s, r#"<td class="score"><b>{total}</b></td>"#);
        }
        // Results by name (the report holds the tests that ran, in plan order).
        let mut ran = r.tests.iter().peekable();
        for t in tests {
            match ran.peek() {
                Some(res) if res.name == *t => {
                    cell(&mut s, res, r.limits.time_ms);
                    ran.next();
                }
                _ => s.push_str(r#"<td class="none"></td>"#),
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n<p class=\"legend\">");
    for v in crate::verdict::ALL {
        let _ = write!(s, "{} ", badge(v));
    }
    s.push_str(
        "each cell is a test; its bar is the CPU time against the time limit; hover or click a cell \
         for the numbers; grey: not run (grading stops at the first failure without <code>--all</code>)</p>\n",
    );
    s
}

fn cell(s: &mut String, t: &TestResult, limit_ms: u64) {
    let fraction = if limit_ms == 0 {
        1.0
    } else {
        (t.time_ms as f64 / limit_ms as f64).min(1.0)
    };
    let mut tip = format!(
        "{}: {}\nCPU {} of {}\nwall {}\nmemory {}",
        t.name,
        t.verdict,
        secs(t.time_ms),
        secs(limit_ms),
        secs(t.wall_ms),
        mib(t.memory_kib)
    );
    if !t.message.is_empty() {
        tip.push('\n');
        tip.push_str(&t.message);
    }
    if let Some(n) = t.passes {
        tip.push('\n');
        tip.push_str(super::passes_note(n).trim());
    }
    if t.runs > 1 {
        tip.push_str("\n(re-run alone)");
    }
    let _ = write!(
        s,
        r#"<td class="cell v-{}" tabindex="0" data-t="{}"><i style="height:{:.0}%"></i></td>"#,
        t.verdict.code(),
        escape(&tip).replace('\n', "&#10;"),
        fraction * 100.0
    );
}

/// At most [`EXCERPT_LINES`] lines and [`EXCERPT_BYTES`] bytes of `text`, and a note on what
/// was cut (`total` is the length of the whole file when `text` is already a part of it).
pub fn excerpt(text: &str, total: usize) -> (String, Option<String>) {
    let mut end = text.len().min(EXCERPT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some((i, _)) = text[..end].match_indices('\n').nth(EXCERPT_LINES - 1) {
        end = i + 1;
    }
    let shown = &text[..end];
    let note = (end < total).then(|| {
        format!(
            "cut: showing {} of {} bytes ({} of {} lines)",
            end,
            total,
            shown.lines().count(),
            if total == text.len() {
                text.lines().count().to_string()
            } else {
                "more".to_string()
            }
        )
    });
    (shown.to_string(), note)
}

/// A titled `<pre>` with an excerpt of `text`.
pub fn file_block(title: &str, text: &str, total: usize) -> String {
    if text.is_empty() {
        return format!(
            r#"<div><h4>{}</h4><pre class="empty">(empty)</pre></div>"#,
            escape(title)
        );
    }
    let (shown, note) = excerpt(text, total);
    let mut s = format!(
        "<div><h4>{}</h4><pre>{}</pre>",
        escape(title),
        escape(&shown)
    );
    if let Some(n) = note {
        let _ = write!(s, r#"<p class="note">{}</p>"#, escape(&n));
    }
    s.push_str("</div>");
    s
}

/// A line diff of the jury answer and the output, when both are short enough to help.
pub fn diff(answer: &str, output: &str) -> Option<String> {
    if answer.lines().count() > DIFF_LINES || output.lines().count() > DIFF_LINES {
        return None;
    }
    let d = TextDiff::from_lines(answer, output);
    let mut s = String::from(r#"<pre class="diff">"#);
    for change in d.iter_all_changes() {
        let (class, sign) = match change.tag() {
            ChangeTag::Delete => ("del", '-'),
            ChangeTag::Insert => ("ins", '+'),
            ChangeTag::Equal => ("", ' '),
        };
        let line = change.value().trim_end_matches('\n');
        let _ = writeln!(s, r#"<span class="{class}">{sign} {}</span>"#, escape(line));
    }
    s.push_str("</pre>");
    Some(s)
}

/// What the first failure of a submission shows.
pub struct Failure<'a> {
    pub result: &'a TestResult,
    pub input: &'a str,
    pub answer: &'a str,
    /// A picture of the output on the input (an SVG document), when the problem draws itself.
    pub picture: Option<String>,
}

/// The first-failure section: the verdict and message, the picture, the files, a diff when
/// there is no picture.
pub fn failure_section(f: &Failure) -> String {
    let r = f.result;
    let mut s = format!(
        "<h3>First failure: test <code>{}</code> {}</h3>",
        escape(&r.name),
        badge(r.verdict)
    );
    if !r.message.is_empty() {
        let _ = write!(s, "<p>{}</p>", escape(&r.message));
    }
    let _ = write!(
        s,
        r#"<p class="note">CPU {}, wall {}, memory {}</p>"#,
        secs(r.time_ms),
        secs(r.wall_ms),
        mib(r.memory_kib)
    );
    if let Some(svg) = &f.picture {
        let _ = write!(s, r#"<div class="picture">{svg}</div>"#);
    }
    let output = r.output.as_ref();
    let out_text = output.map(|o| String::from_utf8_lossy(&o.bytes).into_owned());
    s.push_str(r#"<div class="files">"#);
    s.push_str(&file_block("input", f.input, f.input.len()));
    s.push_str(&file_block("jury answer", f.answer, f.answer.len()));
    match (&out_text, output) {
        (Some(text), Some(o)) => s.push_str(&file_block("output", text, o.len)),
        _ => s.push_str(r#"<div><h4>output</h4><p class="note">not kept</p></div>"#),
    }
    s.push_str("</div>");
    if f.picture.is_none() && r.verdict == Verdict::WA {
        if let Some(d) = out_text.as_deref().and_then(|o| diff(f.answer, o)) {
            let _ = write!(
                s,
                r#"<h4>diff: jury answer (-) and output (+)</h4>{d}<p class="note">any valid answer is accepted; the checker's message above is what counts</p>"#
            );
        }
    }
    s
}

/// The compile-error section.
pub fn compile_error_section(message: &str) -> String {
    format!(
        "<h3>Compilation failed {}</h3><pre>{}</pre>",
        badge(Verdict::CE),
        escape(message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::OutputHead;

    #[test]
    fn excerpts_cut_long_files_with_a_note() {
        let long: String = (0..1000).map(|i| format!("{i}\n")).collect();
        let (shown, note) = excerpt(&long, long.len());
        assert_eq!(shown.lines().count(), EXCERPT_LINES);
        assert!(note
            .unwrap()
            .starts_with("cut: showing 170 of 3890 bytes (60 of 1000 lines)"));
        let (shown, note) = excerpt("a\nb\n", 4);
        assert_eq!((shown.as_str(), note), ("a\nb\n", None));
        // Cutting never splits a character.
        let wide = "é".repeat(EXCERPT_BYTES);
        let (shown, _) = excerpt(&wide, wide.len());
        assert!(shown.len() <= EXCERPT_BYTES);
    }

    #[test]
    fn diff_marks_deleted_and_inserted_lines() {
        let d = diff("2 7 6\n9 5 1\n", "2 7 6\n1 5 9\n").unwrap();
        assert!(d.contains(r#"<span class="del">- 9 5 1</span>"#), "{d}");
        assert!(d.contains(r#"<span class="ins">+ 1 5 9</span>"#), "{d}");
    }

    #[test]
    fn failure_section_escapes_contestant_output() {
        let r = TestResult {
            name: "t<1>".into(),
            verdict: Verdict::WA,
            time_ms: 1,
            wall_ms: 2,
            memory_kib: 1024,
            message: "token 1 (\"<script>\") is not an integer".into(),
            runs: 1,
            shared: false,
            settled: false,
            output: Some(OutputHead::of(b"<script>alert(1)</script>\n")),
            validator_score: None,
            passes: None,
        };
        let s = failure_section(&Failure {
            result: &r,
            input: "3\n",
            answer: "ok\n",
            picture: None,
        });
        assert!(!s.contains("<script>"), "{s}");
        assert!(s.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(s.contains(r#"<span class="del">- ok</span>"#));
    }
}
