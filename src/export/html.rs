//! `problem.html`: the statement as DOMjudge shows it. DOMjudge's importer reads a statement
//! only from `problem_statement/problem.{pdf,html,txt}` or `problem.{pdf,html,txt}` (its own
//! extension of the format) and ignores `statement/problem.en.md`, so the package carries the
//! statement a second time, rendered here from `statement.md`.
//!
//! The renderer knows the Markdown the built-in statements use (headings, paragraphs, `-` and
//! `1.` lists, pipe tables, fenced blocks, `code`, `*emphasis*`, `**strong**`) and a subset
//! of TeX for `$...$` math (sub- and superscripts, `\le`, `\cdot`, `\ldots`, ...), written as
//! plain HTML: the page needs no script, so it reads the same on a contest machine without
//! network. Anything else is kept as written (escaped), never dropped.

use super::markdown::{self, Align, Block, Inline};
use crate::show::svg::escape;

/// The page's style: readable line length, bordered tables, shaded code blocks.
const STYLE: &str =
    "body{font-family:sans-serif;max-width:48em;margin:2em auto;padding:0 1em;line-height:1.45}\
pre{background:#f4f4f4;padding:.5em;overflow-x:auto}\
table{border-collapse:collapse}th,td{border:1px solid #999;padding:.2em .6em}\
.math{font-family:serif;white-space:nowrap}";

/// The HTML page of the statement `markdown` (`statement.md`) of the problem titled `title`.
/// A leading `# Title` line of the Markdown is replaced by `title`.
pub fn statement(title: &str, markdown: &str) -> String {
    let mut lines: Vec<&str> = markdown.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    if let Some(i) = first.filter(|&i| lines[i].starts_with("# ")) {
        lines.drain(..=i);
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n{}</body>\n</html>\n",
        blocks(&lines),
        t = escape(title),
    )
}

/// A table row's cells as `<th>`/`<td>` elements.
fn row(cells: &[Vec<Inline>], aligns: &[Align], cell: &str) -> String {
    let mut out = String::from("<tr>");
    for (k, c) in cells.iter().enumerate() {
        let a = match aligns.get(k) {
            Some(Align::Center) => " style=\"text-align:center\"",
            Some(Align::Right) => " style=\"text-align:right\"",
            _ => "",
        };
        out.push_str(&format!("<{cell}{a}>{}</{cell}>", inline(c)));
    }
    out.push_str("</tr>\n");
    out
}

/// The block structure of `lines` as HTML.
fn blocks(lines: &[&str]) -> String {
    let mut out = String::new();
    for block in markdown::blocks(lines) {
        match block {
            Block::Code(body) => {
                out.push_str(&format!("<pre><code>{}</code></pre>\n", escape(&body)))
            }
            Block::Heading(level, text) => {
                out.push_str(&format!("<h{level}>{}</h{level}>\n", inline(&text)))
            }
            Block::Table {
                aligns,
                header,
                rows,
            } => {
                out.push_str("<table>\n");
                out.push_str(&row(&header, &aligns, "th"));
                for r in &rows {
                    out.push_str(&row(r, &aligns, "td"));
                }
                out.push_str("</table>\n");
            }
            Block::List { ordered, items } => {
                let tag = if ordered { "ol" } else { "ul" };
                out.push_str(&format!("<{tag}>\n"));
                for item in &items {
                    out.push_str(&format!("<li>{}</li>\n", inline(item)));
                }
                out.push_str(&format!("</{tag}>\n"));
            }
            Block::Paragraph(text) => out.push_str(&format!("<p>{}</p>\n", inline(&text))),
        }
    }
    out
}

/// Inline content as HTML: code spans, math, strong, emphasis; text escaped.
fn inline(parts: &[Inline]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            Inline::Text(t) => out.push_str(&escape(t)),
            Inline::Code(c) => out.push_str(&format!("<code>{}</code>", escape(c))),
            Inline::Math(m) => out.push_str(&format!("<span class=\"math\">{}</span>", math(m))),
            Inline::Emphasis(i) => out.push_str(&format!("<em>{}</em>", inline(i))),
            Inline::Strong(i) => out.push_str(&format!("<strong>{}</strong>", inline(i))),
        }
    }
    out
}

/// The symbol of a TeX command, for the commands statements use.
fn symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "cdot" => "\u{22C5}",
        "times" => "\u{00D7}",
        "le" | "leq" => "\u{2264}",
        "ge" | "geq" => "\u{2265}",
        "ne" | "neq" => "\u{2260}",
        "lt" => "&lt;",
        "gt" => "&gt;",
        "ldots" | "dots" => "\u{2026}",
        "cdots" => "\u{22EF}",
        "pm" => "\u{00B1}",
        "infty" => "\u{221E}",
        "to" | "rightarrow" => "\u{2192}",
        "in" => "\u{2208}",
        "sum" => "\u{2211}",
        "mid" => "|",
        "bmod" | "mod" => " mod ",
        "," | ";" | " " | "quad" => " ",
        "{" => "{",
        "}" => "}",
        "%" => "%",
        "$" => "$",
        "_" => "_",
        _ => return None,
    })
}

/// TeX math as HTML: letters in italics, `_`/`^` as sub- and superscripts, known commands as
/// symbols; an unknown command is kept as written.
fn math(tex: &str) -> String {
    let chars: Vec<char> = tex.chars().collect();
    let mut pos = 0;
    math_seq(&chars, &mut pos, false)
}

/// One `{...}` group or single token after `_`/`^`.
fn math_arg(chars: &[char], pos: &mut usize) -> String {
    while chars.get(*pos).is_some_and(|c| c.is_whitespace()) {
        *pos += 1;
    }
    match chars.get(*pos) {
        Some('{') => {
            *pos += 1;
            math_seq(chars, pos, true)
        }
        Some(_) => {
            let start = *pos;
            math_token(chars, pos).unwrap_or_else(|| {
                *pos = start + 1;
                escape(&chars[start].to_string())
            })
        }
        None => String::new(),
    }
}

/// A command (`\le`) at `pos`, if there is one; advances past it.
fn math_token(chars: &[char], pos: &mut usize) -> Option<String> {
    if chars[*pos] != '\\' {
        let c = chars[*pos];
        *pos += 1;
        return Some(if c.is_alphabetic() {
            format!("<i>{c}</i>")
        } else {
            escape(&c.to_string())
        });
    }
    let start = *pos + 1;
    let mut end = start;
    while chars.get(end).is_some_and(|c| c.is_ascii_alphabetic()) {
        end += 1;
    }
    if end == start && start < chars.len() {
        end = start + 1; // a one-symbol command: `\,`, `\{`
    }
    let name: String = chars[start..end].iter().collect();
    *pos = end;
    if name == "text" || name == "mathrm" || name == "textrm" {
        while chars.get(*pos).is_some_and(|c| c.is_whitespace()) {
            *pos += 1;
        }
        if chars.get(*pos) == Some(&'{') {
            let open = *pos + 1;
            let close = (open..chars.len()).find(|&k| chars[k] == '}')?;
            *pos = close + 1;
            return Some(escape(&chars[open..close].iter().collect::<String>()));
        }
    }
    Some(match symbol(&name) {
        Some(s) => s.to_string(),
        None => escape(&format!("\\{name}")),
    })
}

/// Math up to the end (or the `}` closing a group when `group`).
fn math_seq(chars: &[char], pos: &mut usize, group: bool) -> String {
    let mut out = String::new();
    while *pos < chars.len() {
        match chars[*pos] {
            '}' if group => {
                *pos += 1;
                return out;
            }
            '{' => {
                *pos += 1;
                out.push_str(&math_seq(chars, pos, true));
            }
            '_' | '^' => {
                let tag = if chars[*pos] == '_' { "sub" } else { "sup" };
                *pos += 1;
                out.push_str(&format!("<{tag}>{}</{tag}>", math_arg(chars, pos)));
            }
            _ => {
                if let Some(t) = math_token(chars, pos) {
                    out.push_str(&t);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_becomes_plain_html() {
        assert_eq!(math(r"3 \le N \le 4"), "3 \u{2264} <i>N</i> \u{2264} 4");
        assert_eq!(
            math(r"a_1, \ldots, a_{N \cdot N}"),
            "<i>a</i><sub>1</sub>, \u{2026}, <i>a</i><sub><i>N</i> \u{22C5} <i>N</i></sub>"
        );
        assert_eq!(math(r"10^{10}"), "10<sup>10</sup>");
        assert_eq!(math(r"x < \frob"), "<i>x</i> &lt; \\frob");
    }

    #[test]
    fn inline_markup() {
        let inline = |t: &str| inline(&markdown::inline(t));
        assert_eq!(
            inline("a *reference edge*, `0 <1>` and $N$ **b**"),
            "a <em>reference edge</em>, <code>0 &lt;1&gt;</code> and \
             <span class=\"math\"><i>N</i></span> <strong>b</strong>"
        );
        assert_eq!(inline("5 * 3 costs $"), "5 * 3 costs $");
    }

    #[test]
    fn blocks_of_a_statement() {
        let md = "# Title\n\nSome text\nmore.\n\n## Input\n\n- one\n- two\n  cont\n\n\
                  | a | b |\n|--:|---|\n| 1 | 2 |\n\n### Sample input 1\n```\n1 2\n```\n";
        let html = statement("T & U", md);
        assert!(html.contains("<title>T &amp; U</title>"), "{html}");
        assert!(!html.contains("Title"), "{html}");
        assert!(html.contains("<p>Some text\nmore.</p>"), "{html}");
        assert!(
            html.contains("<ul>\n<li>one</li>\n<li>two\ncont</li>\n</ul>"),
            "{html}"
        );
        assert!(html.contains(
            "<tr><th style=\"text-align:right\">a</th><th>b</th></tr>\n\
             <tr><td style=\"text-align:right\">1</td><td>2</td></tr>"
        ));
        assert!(html.contains("<h3>Sample input 1</h3>\n<pre><code>1 2\n</code></pre>"));
    }
}
