//! A built-in package's `statement.md`: the samples it prints, and the statement as a Kattis
//! package carries it (without the title and the printed samples).
//!
//! Samples appear as `### Sample input N` / `### Sample output N` headings, each followed by a
//! fenced code block holding the exact file contents.

/// `(number, input, output)` for every sample in the statement, in order of appearance.
pub fn samples(markdown: &str) -> Result<Vec<(u32, String, String)>, String> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let heading = line.trim();
        let Some(rest) = sample_heading(heading) else {
            continue;
        };
        let (kind, num) = rest
            .split_once(' ')
            .ok_or_else(|| format!("malformed sample heading `{heading}`"))?;
        let num: u32 = num
            .trim()
            .parse()
            .map_err(|_| format!("malformed sample heading `{heading}`"))?;
        let body = fenced_block(&mut lines)
            .ok_or_else(|| format!("`{heading}` is not followed by a ``` block"))?;
        match kind.to_ascii_lowercase().as_str() {
            "input" => inputs.push((num, body)),
            "output" => outputs.push((num, body)),
            _ => return Err(format!("malformed sample heading `{heading}`")),
        }
    }
    let mut out = Vec::new();
    for (num, input) in inputs {
        let output = outputs
            .iter()
            .find(|(n, _)| *n == num)
            .map(|(_, o)| o.clone())
            .ok_or_else(|| format!("sample {num} has an input but no output"))?;
        out.push((num, input, output));
    }
    Ok(out)
}

/// The rest of a sample heading (`input 1` of `### Sample input 1`), if `line` is one.
fn sample_heading(line: &str) -> Option<&str> {
    line.trim().strip_prefix("### Sample ")
}

/// The statement as a Kattis package carries it (`statement/problem.en.md`): without its
/// `# Title` line (the package's name is in `problem.yaml`) and without the printed samples
/// (each sample heading and its fenced block), since problemtools prints `data/sample/`
/// itself (DOMjudge reads the exported `problem.html` instead, which keeps them: see
/// `export::html`). Everything else is kept as written.
pub fn for_package(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut lines = markdown.lines().peekable();
    // The title: the first non-blank line, when it is a level-1 heading.
    while lines.peek().is_some_and(|l| l.trim().is_empty()) {
        lines.next();
    }
    if lines.peek().is_some_and(|l| l.starts_with("# ")) {
        lines.next();
        while lines.peek().is_some_and(|l| l.trim().is_empty()) {
            lines.next();
        }
    }
    while let Some(line) = lines.next() {
        if sample_heading(line).is_some() {
            // The sample's block goes with its heading (a heading without one stays out too).
            if lines
                .peek()
                .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with("```"))
            {
                fenced_block(&mut lines);
            }
            while lines.peek().is_some_and(|l| l.trim().is_empty()) {
                lines.next();
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The contents of the next fenced block (each line with its `\n`), skipping blank lines
/// before it.
fn fenced_block<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Option<String> {
    let open = lines.find(|l| !l.trim().is_empty())?;
    if !open.trim_start().starts_with("```") {
        return None;
    }
    let mut body = String::new();
    for l in lines.by_ref() {
        if l.trim_start().starts_with("```") {
            return Some(body);
        }
        body.push_str(l);
        body.push('\n');
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_numbered_samples() {
        let md =
            "# T\n\n### Sample input 1\n```\n3\n1 2 3\n```\n### Sample output 1\n\n```\n6\n```\n";
        assert_eq!(
            samples(md).unwrap(),
            vec![(1, "3\n1 2 3\n".to_string(), "6\n".to_string())]
        );
        assert!(samples("### Sample input 1\n```\n1\n```\n").is_err());
        assert!(samples("### Sample input x\n```\n1\n```\n").is_err());
        assert!(samples("### Sample input 1\ntext\n").is_err());
    }

    #[test]
    fn the_package_statement_drops_the_title_and_the_printed_samples() {
        let md = "# Magic Square\n\nFind it.\n\n## Samples\n\n### Sample input 1\n```\n3\n```\n\
                  ### Sample output 1\n\n```\n6\n```\n\nIn the first sample, 3.\n";
        assert_eq!(
            for_package(md),
            "Find it.\n\n## Samples\n\nIn the first sample, 3.\n"
        );
        // No title: nothing but the samples goes.
        assert_eq!(for_package("Text.\n"), "Text.\n");
        assert_eq!(for_package("## Input\nx\n"), "## Input\nx\n");
    }

    #[test]
    fn the_shipped_statements_keep_everything_but_title_and_samples() {
        for problem in ["magic-square", "dodecahedron"] {
            let path = format!(
                "{}/problems/{problem}/statement.md",
                env!("CARGO_MANIFEST_DIR")
            );
            let md = std::fs::read_to_string(&path).unwrap();
            let out = for_package(&md);
            assert!(
                !out.contains("### Sample") && !out.contains("```\n"),
                "{problem}: {out}"
            );
            assert!(!out.starts_with('#'), "{problem}: the title is left");
            // Every other line of the statement is still there, in order.
            let printed = samples(&md).unwrap();
            let in_sample = |line: &str| {
                printed
                    .iter()
                    .any(|(_, i, o)| i.lines().chain(o.lines()).any(|s| s == line))
            };
            let mut kept = out.lines();
            for line in md.lines().skip(1).filter(|l| !l.trim().is_empty()) {
                if line.starts_with("### Sample") || line.starts_with("```") || in_sample(line) {
                    continue;
                }
                assert!(kept.any(|l| l == line), "{problem}: lost `{line}`");
            }
        }
    }
}
