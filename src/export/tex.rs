//! `problem.en.tex`: the statement as LaTeX, for the formats whose readers want one (legacy:
//! problemtools reads only `problem_statement/problem.<lang>.tex`; 2025-09: BAPCtools reads
//! only `statement/problem.<lang>.tex`). Rendered from the statement's Markdown
//! ([`super::markdown`]) in the plain LaTeX that problemtools' class (LuaLaTeX for the PDF,
//! plasTeX for the HTML) and BAPCtools' build: `\problemname`, `\section*`, `itemize` /
//! `enumerate`, `tabular`, `verbatim`, `\texttt`, `\emph`, `\textbf`. Math is TeX already and
//! is kept as written. The samples are not written: both tools print `data/sample/` after the
//! statement.

use super::markdown::{self, Align, Block, Inline};

/// The LaTeX statement of the problem titled `title` whose body (title and printed samples
/// removed) is `markdown`.
pub fn statement(title: &str, markdown: &str) -> String {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = format!(
        "% Written by `judge export` from statement.md.\n\\problemname{{{}}}\n\n",
        text(title)
    );
    for block in markdown::blocks(&lines) {
        out.push_str(&self::block(&block));
        out.push('\n');
    }
    out
}

fn block(b: &Block) -> String {
    match b {
        Block::Heading(level, t) => {
            let command = match level {
                1 | 2 => "section",
                3 => "subsection",
                _ => "subsubsection",
            };
            format!("\\{command}*{{{}}}\n", inline(t))
        }
        Block::Paragraph(t) => format!("{}\n", inline(t)),
        Block::Code(body) => format!("\\begin{{verbatim}}\n{body}\\end{{verbatim}}\n"),
        Block::List { ordered, items } => {
            let env = if *ordered { "enumerate" } else { "itemize" };
            let mut out = format!("\\begin{{{env}}}\n");
            for item in items {
                out.push_str(&format!("\\item {}\n", inline(item)));
            }
            out.push_str(&format!("\\end{{{env}}}\n"));
            out
        }
        Block::Table {
            aligns,
            header,
            rows,
        } => {
            let columns: String = aligns
                .iter()
                .map(|a| match a {
                    Align::Left => "l|",
                    Align::Center => "c|",
                    Align::Right => "r|",
                })
                .collect();
            let row = |cells: &[Vec<Inline>]| {
                let cells: Vec<String> = cells.iter().map(|c| inline(c)).collect();
                format!("{} \\\\ \\hline\n", cells.join(" & "))
            };
            let mut out = format!("\\begin{{tabular}}{{|{columns}}}\n\\hline\n");
            out.push_str(&row(header));
            for r in rows {
                out.push_str(&row(r));
            }
            out.push_str("\\end{tabular}\n");
            out
        }
    }
}

fn inline(parts: &[Inline]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            Inline::Text(t) => out.push_str(&text(t)),
            Inline::Code(c) => out.push_str(&format!("\\texttt{{{}}}", text(c))),
            Inline::Math(m) => out.push_str(&format!("${m}$")),
            Inline::Emphasis(i) => out.push_str(&format!("\\emph{{{}}}", inline(i))),
            Inline::Strong(i) => out.push_str(&format!("\\textbf{{{}}}", inline(i))),
        }
    }
    out
}

/// Text with LaTeX's special characters written as commands.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '%' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_characters_are_escaped_and_math_is_kept() {
        assert_eq!(
            inline(&markdown::inline("50% of a_1 & `x{y}` $a_1 \\le 10^9$ *e*")),
            "50\\% of a\\_1 \\& \\texttt{x\\{y\\}} $a_1 \\le 10^9$ \\emph{e}"
        );
        assert_eq!(text("<a|b>~^\\"), "\\textless{}a\\textbar{}b\\textgreater{}\\textasciitilde{}\\textasciicircum{}\\textbackslash{}");
    }

    #[test]
    fn a_statement_as_latex() {
        let md = "Text.\n\n## Input\n\n- one\n- two\n\n| a | b |\n|--:|---|\n| 1 | 2 |\n\n```\n1 2\n```\n";
        let tex = statement("Magic & Square", md);
        assert!(tex.contains("\\problemname{Magic \\& Square}\n"), "{tex}");
        assert!(tex.contains("Text.\n\n\\section*{Input}\n\n\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n"), "{tex}");
        assert!(tex.contains("\\begin{tabular}{|r|l|}\n\\hline\na & b \\\\ \\hline\n1 & 2 \\\\ \\hline\n\\end{tabular}\n"), "{tex}");
        assert!(
            tex.contains("\\begin{verbatim}\n1 2\n\\end{verbatim}\n"),
            "{tex}"
        );
    }
}
