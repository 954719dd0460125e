//! Pictures for `judge show magic-square`: the square of an answer with every row, column and
//! diagonal sum beside it (wrong sums in red), and numbers that are not in the input or used
//! too often marked; with the input alone, the numbers and the sum every line needs.
//!
//! Files are read leniently (whatever parses is drawn); what is wrong with them is said by the
//! validator and the checker.

use std::collections::BTreeMap;

use super::{checker, solver, validator};
use crate::problems::Judgement;
use crate::show::palette::{BAD, BAD_FILL, DIM, EMPTY_FILL, FILL, GOOD, INK};
use crate::show::svg::{Anchor, Font, Paint, Svg};
use crate::show::term::{Style, Text};
use crate::show::{DrawError, Finding, Picture};

/// The input as far as it parses.
struct LooseInput {
    n: usize,
    /// The numbers in input order (`None`: not an integer).
    values: Vec<Option<i64>>,
}

impl LooseInput {
    /// The sum every line needs, when the numbers parse and their total divides by N.
    fn target(&self) -> Option<i128> {
        let total = self.total()?;
        (total % self.n as i128 == 0).then(|| total / self.n as i128)
    }

    fn total(&self) -> Option<i128> {
        self.values
            .iter()
            .map(|v| v.map(i128::from))
            .sum::<Option<i128>>()
    }
}

/// Why a cell is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CellMark {
    Fine,
    /// The token is missing or not an integer.
    Unreadable,
    /// The value is not in the input.
    NotInInput,
    /// The value is used more often than the input has it.
    TooOften,
}

/// One line of the square (row, column or diagonal) and its sum.
struct LineSum {
    /// `None` when a cell of the line is unreadable.
    sum: Option<i128>,
    ok: bool,
}

/// An answer as far as it parses.
struct SquareView {
    n: usize,
    cells: Vec<Option<i128>>,
    marks: Vec<CellMark>,
    /// Rows, columns, main diagonal, anti-diagonal ([`solver::lines`] order).
    sums: Vec<LineSum>,
    notes: Vec<String>,
}

/// The picture of `input` and, when given, `output`.
pub fn draw(input: &[u8], output: Option<&[u8]>) -> Result<Picture, DrawError> {
    let loose = loose_input(input)?;
    let input_finding = validator::validate(input)
        .err()
        .map(|v| Finding::InvalidInput(v.to_string()));
    let Some(output) = output else {
        let finding = input_finding.unwrap_or(Finding::ValidInput);
        return Ok(input_picture(&loose, &finding));
    };
    let finding = input_finding.unwrap_or_else(|| judge(input, output));
    let view = square_view(&loose, output)?;
    Ok(Picture {
        text: square_text(&loose, &view),
        svg: square_svg(&loose, &view, &finding),
        finding,
    })
}

fn judge(input: &[u8], output: &[u8]) -> Finding {
    let Ok(text) = std::str::from_utf8(input) else {
        return Finding::InvalidInput("the input is not UTF-8".into());
    };
    let answer = checker::parse_input(text)
        .and_then(|(n, v)| solver::solve(&v).map(|sq| solver::format_square(n, &sq)))
        .unwrap_or_default();
    match checker::check(text, &answer, output) {
        Judgement::Accepted => Finding::Accepted,
        Judgement::Rejected(why) => Finding::Rejected(why),
        Judgement::JudgeError(why) => Finding::JudgeError(why),
    }
}

fn loose_input(input: &[u8]) -> Result<LooseInput, DrawError> {
    let text = String::from_utf8_lossy(input);
    let mut tokens = text.split_ascii_whitespace();
    let n = match tokens.next().map(str::parse::<usize>) {
        Some(Ok(n @ (3 | 4))) => n,
        _ => {
            return Err(DrawError::Input(
                "expected N (3 or 4) and then N*N integers".into(),
            ))
        }
    };
    let values = tokens.take(n * n).map(|t| t.parse().ok()).collect();
    Ok(LooseInput { n, values })
}

fn parse_cell(token: &str) -> Option<i128> {
    // The checker's limit: longer tokens are not numbers it reads.
    if token.len() > 31 {
        return None;
    }
    token.parse().ok()
}

fn times(k: usize) -> String {
    match k {
        1 => "once".into(),
        2 => "twice".into(),
        k => format!("{k} times"),
    }
}

fn square_view(input: &LooseInput, output: &[u8]) -> Result<SquareView, DrawError> {
    let n = input.n;
    let text = String::from_utf8_lossy(output);
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    let cells: Vec<Option<i128>> = (0..n * n)
        .map(|i| tokens.get(i).and_then(|t| parse_cell(t)))
        .collect();
    if cells.iter().all(Option::is_none) {
        let values: Vec<i64> = input.values.iter().flatten().copied().collect();
        let why = checker::judge_square(n, &values, output)
            .err()
            .unwrap_or_else(|| "no number in the output".into());
        return Err(DrawError::Output(why));
    }
    let mut have: BTreeMap<i128, usize> = BTreeMap::new();
    for v in input.values.iter().flatten() {
        *have.entry(i128::from(*v)).or_default() += 1;
    }
    let mut used: BTreeMap<i128, usize> = BTreeMap::new();
    for v in cells.iter().flatten() {
        *used.entry(*v).or_default() += 1;
    }
    let mut notes = Vec::new();
    for (&v, &u) in &used {
        match have.get(&v).copied().unwrap_or(0) {
            0 => notes.push(format!("{v} is not in the input (*)")),
            h if u > h => notes.push(format!(
                "{v} is used {} but the input has it {} (*)",
                times(u),
                times(h)
            )),
            _ => {}
        }
    }
    let marks: Vec<CellMark> = cells
        .iter()
        .map(|c| match c {
            None => CellMark::Unreadable,
            Some(v) => match have.get(v).copied().unwrap_or(0) {
                0 => CellMark::NotInInput,
                h if used[v] > h => CellMark::TooOften,
                _ => CellMark::Fine,
            },
        })
        .collect();
    let missing: Vec<String> = (0..n * n)
        .filter(|&i| cells[i].is_none())
        .map(|i| format!("row {} column {}", i / n + 1, i % n + 1))
        .collect();
    if !missing.is_empty() {
        notes.push(format!("no number read at {} (?)", missing.join(", ")));
    }
    if tokens.len() > n * n {
        notes.push(format!(
            "{} more token{} after the square",
            tokens.len() - n * n,
            if tokens.len() - n * n == 1 { "" } else { "s" }
        ));
    }
    let target = input.target();
    let sums = solver::lines(n)
        .iter()
        .map(|line| {
            let sum: Option<i128> = line.iter().map(|&c| cells[c]).sum();
            LineSum {
                sum,
                ok: sum.is_some() && sum == target,
            }
        })
        .collect();
    Ok(SquareView {
        n,
        cells,
        marks,
        sums,
        notes,
    })
}

fn target_line(input: &LooseInput) -> String {
    match (input.total(), input.target()) {
        (Some(total), Some(t)) => format!(
            "N = {}, every line must sum to {t} (total {total} / {})",
            input.n, input.n
        ),
        (Some(total), None) => format!(
            "N = {}: the total {total} does not divide by {}, so no line sum works",
            input.n, input.n
        ),
        (None, _) => format!("N = {}: some numbers of the input do not parse", input.n),
    }
}

fn opt(v: Option<i128>) -> String {
    v.map_or_else(|| "?".into(), |v| v.to_string())
}

fn cell_text(v: &SquareView, i: usize) -> String {
    let mark = match v.marks[i] {
        CellMark::NotInInput | CellMark::TooOften => "*",
        CellMark::Fine | CellMark::Unreadable => "",
    };
    format!("{}{mark}", opt(v.cells[i]))
}

fn sum_text(s: &LineSum) -> String {
    let flag = if s.ok || s.sum.is_none() { "" } else { " ✗" };
    format!("{}{flag}", opt(s.sum))
}

fn sum_style(s: &LineSum) -> Style {
    match (s.sum, s.ok) {
        (None, _) => Style::Dim,
        (Some(_), true) => Style::Good,
        (Some(_), false) => Style::Bad,
    }
}

fn square_text(input: &LooseInput, v: &SquareView) -> Text {
    let n = v.n;
    // Every number right-aligned in `w` columns, then one column for its marker (`*`, `✗`).
    let w = v
        .cells
        .iter()
        .map(|c| opt(*c).len())
        .chain(v.sums.iter().map(|s| opt(s.sum).len()))
        .max()
        .unwrap_or(1);
    let cell = |value: String, marker: char| format!("  {value:>w$}{marker}");
    let sum_marker = |s: &LineSum| if s.ok || s.sum.is_none() { ' ' } else { '✗' };
    let left = w + 5;
    let mut text = Text::new();
    text.line(Style::Bold, format!("magic-square: {}", target_line(input)));
    for r in 0..n {
        text.newline();
        text.push(Style::Plain, " ".repeat(left));
        for c in 0..n {
            let i = r * n + c;
            let (style, marker) = match v.marks[i] {
                CellMark::Fine => (Style::Plain, ' '),
                CellMark::Unreadable => (Style::Dim, ' '),
                CellMark::NotInInput | CellMark::TooOften => (Style::Bad, '*'),
            };
            text.push(style, cell(opt(v.cells[i]), marker));
        }
        text.push(Style::Dim, " │ ");
        text.push(sum_style(&v.sums[r]), sum_text(&v.sums[r]));
    }
    text.line(
        Style::Dim,
        format!(
            "{}{}─┼{}",
            " ".repeat(left),
            "─".repeat(n * (w + 3)),
            "─".repeat(w + 4)
        ),
    );
    let anti = &v.sums[2 * n + 1];
    let main = &v.sums[2 * n];
    text.newline();
    let anti_text = format!("{} ↙", sum_text(anti));
    text.push(
        sum_style(anti),
        format!(
            "{}{anti_text}",
            " ".repeat(left.saturating_sub(anti_text.chars().count()))
        ),
    );
    for c in 0..n {
        let s = &v.sums[n + c];
        text.push(sum_style(s), cell(opt(s.sum), sum_marker(s)));
    }
    text.push(Style::Dim, " │ ");
    text.push(sum_style(main), format!("↘ {}", sum_text(main)));
    for note in &v.notes {
        text.line(Style::Bad, note.clone());
    }
    text
}

const MARGIN: f64 = 24.0;
const TITLE: f64 = 56.0;

fn font(size: f64, colour: &str, bold: bool, anchor: Anchor) -> Font<'_> {
    Font {
        size,
        colour,
        bold,
        anchor,
    }
}

fn svg_header(svg: &mut Svg, input: &LooseInput, finding: &Finding) {
    svg.text(
        (MARGIN, 18.0),
        &format!("magic-square: {}", target_line(input)),
        font(15.0, INK, true, Anchor::Start),
        "title",
    );
    let colour = if finding.is_ok() { GOOD } else { BAD };
    svg.text(
        (MARGIN, 38.0),
        &finding.line(),
        font(14.0, colour, false, Anchor::Start),
        "finding",
    );
}

/// Width in pixels of a number of `chars` characters at `size` (DejaVu Sans digits ~0.64 em).
fn text_width(chars: usize, size: f64) -> f64 {
    chars as f64 * size * 0.64
}

fn square_svg(input: &LooseInput, v: &SquareView, finding: &Finding) -> String {
    let n = v.n;
    let chars = |s: String| s.chars().count();
    let longest_cell = (0..n * n)
        .map(|i| chars(cell_text(v, i)))
        .max()
        .unwrap_or(1);
    let longest_sum = v.sums.iter().map(|s| chars(sum_text(s))).max().unwrap_or(1);
    // Numbers up to 10^9 and sums up to 4 * 10^9: smaller type for long ones.
    let size = if longest_cell > 7 { 14.0 } else { 17.0 };
    let sum_size = if longest_sum > 7 { 13.0 } else { 15.0 };
    let cell = (text_width(longest_cell, size) + 18.0)
        .max(text_width(longest_sum, sum_size) + 10.0)
        .max(52.0);
    let side = cell * n as f64;
    let sum_w = text_width(longest_sum + 2, sum_size) + 12.0;
    let title_w = text_width(target_line(input).len() + 14, 15.0 * 0.9);
    let notes_w = v
        .notes
        .iter()
        .map(|s| text_width(s.len(), 12.0))
        .fold(0.0, f64::max);
    let (gx, gy) = (MARGIN + sum_w, MARGIN + TITLE);
    let width = (gx + side + sum_w + MARGIN)
        .max(title_w + 2.0 * MARGIN)
        .max(notes_w + 2.0 * MARGIN);
    let height = gy + side + 44.0 + 20.0 * v.notes.len() as f64 + MARGIN;
    let mut svg = Svg::new(width, height, "magic-square");
    svg_header(&mut svg, input, finding);
    for r in 0..n {
        for c in 0..n {
            let i = r * n + c;
            let (x, y) = (gx + c as f64 * cell, gy + r as f64 * cell);
            let (fill, colour, class) = match v.marks[i] {
                CellMark::Fine => (FILL, INK, "cell"),
                CellMark::Unreadable => (EMPTY_FILL, DIM, "cell unknown"),
                CellMark::NotInInput | CellMark::TooOften => (BAD_FILL, BAD, "cell bad"),
            };
            let tip = match v.marks[i] {
                CellMark::Fine => None,
                CellMark::Unreadable => Some("no number here".to_string()),
                CellMark::NotInInput => Some(format!("{} is not in the input", opt(v.cells[i]))),
                CellMark::TooOften => Some(format!("{} is used too often", opt(v.cells[i]))),
            };
            svg.rect(
                (x, y),
                (cell, cell),
                Paint {
                    fill,
                    ..Paint::stroke(INK, 1.0)
                },
                class,
                tip.as_deref(),
            );
            svg.text(
                (x + cell / 2.0, y + cell / 2.0),
                &cell_text(v, i),
                font(size, colour, v.marks[i] != CellMark::Fine, Anchor::Middle),
                "number",
            );
        }
    }
    let sum = |svg: &mut Svg, at: (f64, f64), text: String, s: &LineSum, anchor: Anchor| {
        let (colour, class) = match (s.sum, s.ok) {
            (None, _) => (DIM, "sum unknown"),
            (Some(_), true) => (GOOD, "sum"),
            (Some(_), false) => (BAD, "sum bad"),
        };
        svg.text(at, &text, font(sum_size, colour, !s.ok, anchor), class);
    };
    for r in 0..n {
        let y = gy + (r as f64 + 0.5) * cell;
        sum(
            &mut svg,
            (gx + side + 12.0, y),
            sum_text(&v.sums[r]),
            &v.sums[r],
            Anchor::Start,
        );
    }
    let below = gy + side + 22.0;
    for c in 0..n {
        let x = gx + (c as f64 + 0.5) * cell;
        sum(
            &mut svg,
            (x, below),
            sum_text(&v.sums[n + c]),
            &v.sums[n + c],
            Anchor::Middle,
        );
    }
    let main = &v.sums[2 * n];
    sum(
        &mut svg,
        (gx + side + 12.0, below),
        format!("↘ {}", sum_text(main)),
        main,
        Anchor::Start,
    );
    let anti = &v.sums[2 * n + 1];
    sum(
        &mut svg,
        (gx - 12.0, below),
        format!("{} ↙", sum_text(anti)),
        anti,
        Anchor::End,
    );
    let mut y = below + 28.0;
    for note in &v.notes {
        svg.text(
            (MARGIN, y),
            note,
            font(12.0, BAD, false, Anchor::Start),
            "note",
        );
        y += 20.0;
    }
    svg.finish()
}

fn input_picture(input: &LooseInput, finding: &Finding) -> Picture {
    let shown: Vec<String> = input
        .values
        .iter()
        .map(|v| v.map_or_else(|| "?".into(), |v| v.to_string()))
        .collect();
    let mut text = Text::new();
    text.line(Style::Bold, format!("magic-square: {}", target_line(input)));
    text.newline();
    text.push(Style::Dim, format!("{} numbers: ", shown.len()));
    for (s, v) in shown.iter().zip(&input.values) {
        text.push(
            if v.is_some() {
                Style::Plain
            } else {
                Style::Bad
            },
            format!("{s} "),
        );
    }
    let per_row = 8;
    let longest = shown.iter().map(String::len).max().unwrap_or(1);
    let chip = (text_width(longest, 16.0) + 16.0).max(44.0);
    let rows = shown.len().div_ceil(per_row).max(1);
    let width = (MARGIN * 2.0 + (chip + 8.0) * per_row.min(shown.len().max(1)) as f64)
        .max(2.0 * MARGIN + text_width(target_line(input).len() + 14, 13.5));
    let mut svg = Svg::new(
        width,
        MARGIN + TITLE + rows as f64 * (chip * 0.7 + 8.0) + MARGIN,
        "magic-square-input",
    );
    svg_header(&mut svg, input, finding);
    for (k, (s, v)) in shown.iter().zip(&input.values).enumerate() {
        let x = MARGIN + (k % per_row) as f64 * (chip + 8.0);
        let y = MARGIN + TITLE + (k / per_row) as f64 * (chip * 0.7 + 8.0);
        let (fill, colour, class) = match v {
            Some(_) => (FILL, INK, "number"),
            None => (BAD_FILL, BAD, "number bad"),
        };
        svg.rect(
            (x, y),
            (chip, chip * 0.7),
            Paint {
                fill,
                ..Paint::stroke(DIM, 1.0)
            },
            class,
            None,
        );
        svg.text(
            (x + chip / 2.0, y + chip * 0.35),
            s,
            font(16.0, colour, false, Anchor::Middle),
            "value",
        );
    }
    Picture {
        text,
        svg: svg.finish(),
        finding: finding.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "3\n5 1 9 3 7 2 8 4 6\n";

    #[test]
    fn a_magic_square_has_only_green_sums() {
        let p = draw(INPUT.as_bytes(), Some(b"2 7 6\n9 5 1\n4 3 8\n")).unwrap();
        assert_eq!(p.finding, Finding::Accepted);
        assert_eq!(p.svg.matches(r#"class="sum""#).count(), 8);
        assert!(!p.svg.contains("sum bad"));
        let t = p.text.plain();
        assert!(
            t.contains("every line must sum to 15 (total 45 / 3)"),
            "{t}"
        );
        assert!(t.contains("15 ↙") && t.contains("↘ 15"), "{t}");
    }

    #[test]
    fn wrong_sums_are_red_and_the_checker_names_the_first() {
        // The middle row mirrored: columns 1 and 3 are off, the diagonals still fine.
        let p = draw(INPUT.as_bytes(), Some(b"2 7 6\n1 5 9\n4 3 8\n")).unwrap();
        assert_eq!(
            p.finding,
            Finding::Rejected("column 1 sums to 7, expected 15".into())
        );
        assert!(p.svg.contains(r#"class="sum bad""#));
        assert!(p.svg.contains(&format!(r#"fill="{BAD}""#)));
        let t = p.text.plain();
        assert!(t.contains("7✗"), "{t}");
        assert!(
            p.text.render(true).contains("\x1b[1;31m7✗"),
            "{:?}",
            p.text.render(true)
        );
    }

    #[test]
    fn numbers_not_in_the_input_or_used_too_often_are_marked() {
        let p = draw(INPUT.as_bytes(), Some(b"2 7 6\n9 5 1\n4 3 2\n12\n")).unwrap();
        assert!(matches!(p.finding, Finding::Rejected(_)));
        assert_eq!(p.svg.matches(r#"class="cell bad""#).count(), 2);
        let t = p.text.plain();
        assert!(
            t.contains("2 is used twice but the input has it once (*)"),
            "{t}"
        );
        assert!(t.contains("1 more token after the square"), "{t}");
        let p = draw(INPUT.as_bytes(), Some(b"2 7 6\n9 5 1\n4 3 80\n")).unwrap();
        assert!(p.text.plain().contains("80 is not in the input (*)"));
    }

    #[test]
    fn missing_numbers_leave_unknown_sums() {
        let p = draw(INPUT.as_bytes(), Some(b"2 7 6\n9 x 1\n")).unwrap();
        assert_eq!(
            p.finding,
            Finding::Rejected("expected 9 numbers, found \"x\" at line 2".into())
        );
        assert_eq!(p.svg.matches(r#"class="cell unknown""#).count(), 4);
        assert!(p.svg.contains(r#"class="sum unknown""#));
        assert!(p.text.plain().contains("no number read at row 2 column 2"));
    }

    #[test]
    fn the_input_alone_shows_numbers_and_target() {
        let p = draw(INPUT.as_bytes(), None).unwrap();
        assert_eq!(p.finding, Finding::ValidInput);
        assert_eq!(p.svg.matches(r#"class="number""#).count(), 9);
        let bad = draw(b"3\n5 1 9 3 7 2 8 4\n", None).unwrap();
        assert!(matches!(bad.finding, Finding::InvalidInput(_)));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(matches!(draw(b"hello", None), Err(DrawError::Input(_))));
        assert!(matches!(
            draw(INPUT.as_bytes(), Some(b"no numbers here")),
            Err(DrawError::Output(_))
        ));
    }

    #[test]
    fn huge_numbers_widen_the_cells() {
        let input = "3\n-1000000000 -1000000000 -1000000000 -1000000000 -1000000000 -1000000000 -1000000000 -1000000000 -1000000000\n";
        let out = "-1000000000 -1000000000 -1000000000\n".repeat(3);
        let p = draw(input.as_bytes(), Some(out.as_bytes())).unwrap();
        assert_eq!(p.finding, Finding::Accepted);
        assert!(p.text.plain().contains("-3000000000"));
    }
}
