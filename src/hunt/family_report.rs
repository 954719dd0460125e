//! Renderers for `judge hunt --family`: the terminal table and the `--json` object. Pure
//! functions of a [`FamilyReport`].

use serde::Serialize;

use super::family::{Hardest, Kind, Row};

/// Everything `--family` reports (the `--json` root object; field names are stable).
#[derive(Debug, Clone, Serialize)]
pub struct FamilyReport {
    pub problem: String,
    pub seed: u64,
    pub cap: u64,
    /// Random inputs measured.
    pub sample: u64,
    /// Each hunt's budget: `"<n> s"` or `"<n> runs"`.
    pub hunt_budget: String,
    pub jobs: usize,
    pub elapsed_ms: u64,
    pub rows: Vec<Row>,
    /// Every row within 10 %.
    pub all_within: bool,
}

fn nodes(h: &Option<Hardest>) -> String {
    match h {
        None => "-".into(),
        Some(h) if h.capped => format!(">={}", h.nodes),
        Some(h) => h.nodes.to_string(),
    }
}

/// The human-readable table, then where the inputs the test set lacks come from.
pub fn render_text(r: &FamilyReport) -> String {
    let mut s = format!(
        "{}: the hardest input per solver, in search nodes (cap {}; sample {} inputs; hunts {} each, {} chain{}; seed {}; {:.0} s)\n",
        r.problem,
        r.cap,
        r.sample,
        r.hunt_budget,
        r.jobs,
        if r.jobs == 1 { "" } else { "s" },
        r.seed,
        r.elapsed_ms as f64 / 1000.0
    );
    let header = [
        "SOLVER",
        "KIND",
        "TEST SET",
        "SAMPLE",
        "HUNT",
        "TEST/BEST",
        "",
    ];
    let mut table: Vec<[String; 7]> = vec![header.map(String::from)];
    for row in &r.rows {
        table.push([
            row.solver.clone(),
            if row.kind == Kind::All {
                "-".into()
            } else {
                row.kind.name().into()
            },
            nodes(&row.test_set),
            nodes(&row.sample),
            nodes(&row.hunt),
            format!("{:.2}", row.ratio),
            if row.within { "ok" } else { "LOW" }.into(),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| table.iter().map(|t| t[c].len()).max().unwrap_or(0))
        .collect();
    for t in &table {
        let mut line = String::from(" ");
        for (c, cell) in t.iter().enumerate() {
            if (2..=5).contains(&c) {
                line.push_str(&format!(" {cell:>w$}", w = widths[c]));
            } else {
                line.push_str(&format!(" {cell:<w$}", w = widths[c]));
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    for row in r.rows.iter().filter(|row| !row.within) {
        s.push_str(&format!(
            "{} ({}): test set {}; hardest found {}\n",
            row.solver,
            row.kind.name(),
            row.test_set
                .as_ref()
                .map_or("none".into(), |h| h.from.clone()),
            match (&row.sample, &row.hunt) {
                (Some(a), Some(b)) if a.nodes > b.nodes => format!("in the sample: {}", a.from),
                (_, Some(b)) => format!("by the hunt ({}): {}", b.from, row.reproduce),
                (Some(a), None) => format!("in the sample: {}", a.from),
                (None, None) => "none".into(),
            }
        ));
    }
    let low = r.rows.iter().filter(|row| !row.within).count();
    if low == 0 {
        s.push_str("every solver: the test set is within 10 % of the hardest input found\n");
    } else {
        s.push_str(&format!(
            "{low} of {} rows: the test set is more than 10 % below the hardest input found\n",
            r.rows.len()
        ));
    }
    s
}

/// The report as one JSON object on one line.
pub fn render_json(r: &FamilyReport) -> String {
    serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hardest(nodes: u64, capped: bool) -> Option<Hardest> {
        Some(Hardest {
            nodes,
            capped,
            from: format!("from-{nodes}"),
            input: "0\n".into(),
        })
    }

    #[test]
    fn the_table_marks_rows_below_the_hardest_found() {
        let row = |solver: &str, t: u64, h: u64, ratio: f64| Row {
            solver: solver.into(),
            description: String::new(),
            kind: Kind::Solvable,
            test_set: hardest(t, false),
            sample: hardest(5, false),
            hunt: hardest(h, h == 1000),
            hunt_runs: 40,
            reproduce: "judge hunt p --solver x".into(),
            ratio,
            within: ratio >= 0.9,
        };
        let r = FamilyReport {
            problem: "p".into(),
            seed: 1,
            cap: 1000,
            sample: 10,
            hunt_budget: "40 runs".into(),
            jobs: 2,
            elapsed_ms: 1500,
            rows: vec![row("fixed", 950, 1000, 0.95), row("mcf", 10, 100, 0.1)],
            all_within: false,
        };
        let t = render_text(&r);
        assert!(
            t.contains("  fixed  solvable      950      5 >=1000      0.95 ok\n"),
            "{t}"
        );
        assert!(
            t.contains("  mcf    solvable       10      5    100      0.10 LOW\n"),
            "{t}"
        );
        assert!(t.contains("mcf (solvable): test set from-10; hardest found by the hunt (from-100): judge hunt p --solver x\n"), "{t}");
        assert!(
            t.ends_with(
                "1 of 2 rows: the test set is more than 10 % below the hardest input found\n"
            ),
            "{t}"
        );
        let v: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap();
        assert_eq!(v["rows"][1]["kind"], "solvable");
        assert_eq!(v["rows"][0]["hunt"]["capped"], true);
    }
}
