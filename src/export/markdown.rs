//! The Markdown the built-in statements use, parsed once for the renderers of the export
//! ([`super::html`] for DOMjudge's `problem.html`, [`super::tex`] for the LaTeX statement of
//! the formats whose readers want one): headings, paragraphs, `-` and `1.` lists, pipe tables,
//! fenced blocks; inline `code`, `$math$` (TeX, kept as written), `*emphasis*`, `**strong**`.
//! Anything else is text, kept as written, never dropped.

/// A column's alignment in a pipe table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// One block of a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `## Text` (level 2).
    Heading(usize, Vec<Inline>),
    Paragraph(Vec<Inline>),
    /// A fenced block's text, each line with its `\n`.
    Code(String),
    List {
        ordered: bool,
        items: Vec<Vec<Inline>>,
    },
    Table {
        aligns: Vec<Align>,
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
}

/// Inline content.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    /// Plain text (Markdown escapes resolved; line breaks inside a block are `\n`).
    Text(String),
    /// `` `code` ``.
    Code(String),
    /// `$tex$` (or `$$tex$$`): the TeX between the dollars.
    Math(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
}

/// A list item marker: `- `, `* ` (unordered) or `12. ` (ordered); the item's text.
fn list_item(line: &str) -> Option<(bool, &str)> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        if let Some(rest) = t[digits..].strip_prefix(". ") {
            return Some((true, rest));
        }
    }
    None
}

/// The cells of a pipe-table row (`| a | b |`).
fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::trim).collect()
}

/// The alignments of a table's separator row (`|---|:--:|--:|`), if `line` is one.
fn separator(line: &str) -> Option<Vec<Align>> {
    if !line.trim_start().starts_with('|') {
        return None;
    }
    cells(line)
        .into_iter()
        .map(|c| {
            let dashes = c.trim_matches(':');
            if dashes.is_empty() || !dashes.bytes().all(|b| b == b'-') {
                return None;
            }
            Some(match (c.starts_with(':'), c.ends_with(':')) {
                (true, true) => Align::Center,
                (false, true) => Align::Right,
                _ => Align::Left,
            })
        })
        .collect()
}

fn is_heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    (1..=6)
        .contains(&level)
        .then(|| line[level..].strip_prefix(' '))
        .flatten()
        .map(|text| (level, text.trim()))
}

/// The alignments of the table starting at `lines[i]`, if a table starts there: a `|` row
/// followed by a separator row.
fn table_at(lines: &[&str], i: usize) -> Option<Vec<Align>> {
    if !lines[i].trim_start().starts_with('|') {
        return None;
    }
    lines.get(i + 1).and_then(|l| separator(l))
}

fn row(line: &str) -> Vec<Vec<Inline>> {
    cells(line).into_iter().map(inline).collect()
}

/// The blocks of `lines`.
pub fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() {
            i += 1;
        } else if trimmed.starts_with("```") {
            let mut body = String::new();
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                body.push_str(lines[i]);
                body.push('\n');
                i += 1;
            }
            i += 1; // the closing fence
            out.push(Block::Code(body));
        } else if let Some((level, text)) = is_heading(line) {
            out.push(Block::Heading(level, inline(text)));
            i += 1;
        } else if let Some(aligns) = table_at(lines, i) {
            let header = row(line);
            let mut rows = Vec::new();
            i += 2;
            while i < lines.len() && lines[i].trim_start().starts_with('|') {
                rows.push(row(lines[i]));
                i += 1;
            }
            out.push(Block::Table {
                aligns,
                header,
                rows,
            });
        } else if let Some((ordered, _)) = list_item(line) {
            let mut items = Vec::new();
            while let Some((_, text)) = lines
                .get(i)
                .and_then(|l| list_item(l))
                .filter(|(o, _)| *o == ordered)
            {
                let mut item = text.to_string();
                i += 1;
                // Continuation lines: indented, not a new item.
                while i < lines.len()
                    && lines[i].starts_with([' ', '\t'])
                    && !lines[i].trim().is_empty()
                    && list_item(lines[i]).is_none()
                {
                    item.push('\n');
                    item.push_str(lines[i].trim());
                    i += 1;
                }
                items.push(inline(&item));
            }
            out.push(Block::List { ordered, items });
        } else {
            let mut text = trimmed.to_string();
            i += 1;
            while i < lines.len() {
                let t = lines[i].trim();
                if t.is_empty()
                    || t.starts_with("```")
                    || is_heading(lines[i]).is_some()
                    || list_item(lines[i]).is_some()
                    || table_at(lines, i).is_some()
                {
                    break;
                }
                text.push('\n');
                text.push_str(t);
                i += 1;
            }
            out.push(Block::Paragraph(inline(&text)));
        }
    }
    out
}

/// The inline Markdown of one block: code spans, `$math$`, `**strong**`, `*emphasis*`; the
/// rest text.
pub fn inline(text: &str) -> Vec<Inline> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut plain = String::new();
    let flush = |plain: &mut String, out: &mut Vec<Inline>| {
        if !plain.is_empty() {
            out.push(Inline::Text(std::mem::take(plain)));
        }
    };
    let find = |from: usize, pat: &[char]| {
        (from..chars.len().saturating_sub(pat.len() - 1)).find(|&k| chars[k..].starts_with(pat))
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let span = |open: usize, close: usize| chars[open..close].iter().collect::<String>();
        if c == '\\' && i + 1 < chars.len() && "\\`*_$|#[]".contains(chars[i + 1]) {
            plain.push(chars[i + 1]);
            i += 2;
        } else if c == '`' {
            match find(i + 1, &['`']) {
                Some(end) => {
                    flush(&mut plain, &mut out);
                    out.push(Inline::Code(span(i + 1, end)));
                    i = end + 1;
                }
                None => {
                    plain.push(c);
                    i += 1;
                }
            }
        } else if c == '$' {
            let display = chars.get(i + 1) == Some(&'$');
            let (open, pat): (usize, &[char]) = if display {
                (i + 2, &['$', '$'])
            } else {
                (i + 1, &['$'])
            };
            match find(open, pat).filter(|&end| end > open) {
                Some(end) => {
                    flush(&mut plain, &mut out);
                    out.push(Inline::Math(span(open, end)));
                    i = end + pat.len();
                }
                None => {
                    plain.push(c);
                    i += 1;
                }
            }
        } else if c == '*' {
            let strong = chars.get(i + 1) == Some(&'*');
            let (open, pat): (usize, &[char]) = if strong {
                (i + 2, &['*', '*'])
            } else {
                (i + 1, &['*'])
            };
            let opens = chars.get(open).is_some_and(|c| !c.is_whitespace());
            match find(open, pat).filter(|&end| opens && end > open) {
                Some(end) => {
                    flush(&mut plain, &mut out);
                    let inner = inline(&span(open, end));
                    out.push(if strong {
                        Inline::Strong(inner)
                    } else {
                        Inline::Emphasis(inner)
                    });
                    i = end + pat.len();
                }
                None => {
                    plain.push(c);
                    i += 1;
                }
            }
        } else {
            plain.push(c);
            i += 1;
        }
    }
    flush(&mut plain, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markup() {
        assert_eq!(
            inline("a *b*, `<c>` $N$ **d** \\*e"),
            vec![
                Inline::Text("a ".into()),
                Inline::Emphasis(vec![Inline::Text("b".into())]),
                Inline::Text(", ".into()),
                Inline::Code("<c>".into()),
                Inline::Text(" ".into()),
                Inline::Math("N".into()),
                Inline::Text(" ".into()),
                Inline::Strong(vec![Inline::Text("d".into())]),
                Inline::Text(" *e".into()),
            ]
        );
        assert_eq!(
            inline("5 * 3 costs $"),
            vec![Inline::Text("5 * 3 costs $".into())]
        );
    }

    #[test]
    fn blocks_of_a_statement() {
        let md = "Some text\nmore.\n\n## Input\n\n- one\n- two\n  cont\n\n\
                  | a | b |\n|--:|---|\n| 1 | 2 |\n\n```\n1 2\n```\n";
        let lines: Vec<&str> = md.lines().collect();
        let b = blocks(&lines);
        let text = |s: &str| vec![Inline::Text(s.into())];
        assert_eq!(
            b,
            vec![
                Block::Paragraph(text("Some text\nmore.")),
                Block::Heading(2, text("Input")),
                Block::List {
                    ordered: false,
                    items: vec![text("one"), text("two\ncont")]
                },
                Block::Table {
                    aligns: vec![Align::Right, Align::Left],
                    header: vec![text("a"), text("b")],
                    rows: vec![vec![text("1"), text("2")]],
                },
                Block::Code("1 2\n".into()),
            ]
        );
    }
}
