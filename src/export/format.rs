//! The package format versions `judge export` writes, and what differs between them, as data
//! ([`Layout`]): where the statement and the output validator go, which `problem.yaml` keys
//! say what, which folders exist. Each is written as the tool that reads it reads it:
//!
//! | | legacy (default) | 2023-07 | 2025-09 |
//! |---|---|---|---|
//! | read by | problemtools (fully), DOMjudge | problemtools (in part: "2023-07-draft"), DOMjudge | BAPCtools, judge, DOMjudge 10 |
//! | `problem_format_version` | `legacy` | `2023-07-draft` | `2025-09` |
//! | statement | `problem_statement/problem.en.tex` | `statement/problem.en.md` | `statement/problem.en.tex` |
//! | output validator | `output_validators/checker/` + `validation: custom` | `output_validator/checker/` | `output_validator/` (the folder is the program) |
//! | time limit | `.timelimit` | `limits.time_limit` and `.timelimit` | `limits.time_limit` |
//! | `data/invalid_input/` | no | no (problemtools refuses it) | yes |
//!
//! Every version gets `submissions/submissions.yaml` (see [`super::SUBMISSION_RULES_HEADER`]).
//!
//! The sources: problemtools 1.20260907 (`formatversion.py`, `metadata.py`,
//! `checks/testdata.py`), DOMjudge's `ImportProblemService.php` (which reads no
//! `problem_format_version`: `validation`, `type`, `limits`, `.timelimit`,
//! `output_validators/` or `output_validator/`, a statement in `problem.{pdf,html,txt}`) and
//! BAPCtools 2026.10.0 (`problem.py`: 2025-09 only; `export.py --legacy`: the legacy mapping
//! above).

/// A package format version `judge export --format` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// The version problemtools reads fully and DOMjudge imports (the default).
    #[default]
    #[value(name = "legacy")]
    Legacy,
    /// 2023-07-draft, as problemtools reads it (partly): no data/invalid_input/.
    #[value(name = "2023-07", alias = "2023-07-draft")]
    V2023_07,
    /// The current version (BAPCtools, judge): data/invalid_input/, output_validator/.
    #[value(name = "2025-09")]
    V2025_09,
}

/// How the statement is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatementKind {
    /// `statement.md` without its title and printed samples.
    Markdown,
    /// The same rendered as LaTeX (`\problemname`, `\section*`, ...).
    Tex,
}

/// What a format version's package looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// `problem_format_version` in `problem.yaml`.
    pub version: &'static str,
    /// Where the statement goes, and as what.
    pub statement: (&'static str, StatementKind),
    /// The output validator's program folder.
    pub output_validator: &'static str,
    /// Legacy `validation: custom` names the custom output validator (later versions: its
    /// presence does).
    pub validation_key: bool,
    /// `limits.time_limit` in `problem.yaml` (legacy has no such key).
    pub time_limit_key: bool,
    /// `.timelimit` at the root: the time limit DOMjudge (9.0 and later) and problemtools'
    /// statement macros read; BAPCtools calls it deprecated in 2025-09.
    pub timelimit_file: bool,
    /// `data/invalid_input/`.
    pub invalid_inputs: bool,
    /// The tools that read the version, for notes and docs.
    pub readers: &'static str,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Legacy, Format::V2023_07, Format::V2025_09];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Legacy => "legacy",
            Format::V2023_07 => "2023-07",
            Format::V2025_09 => "2025-09",
        }
    }

    pub fn layout(self) -> Layout {
        match self {
            Format::Legacy => Layout {
                version: "legacy",
                statement: ("problem_statement/problem.en.tex", StatementKind::Tex),
                output_validator: "output_validators/checker",
                validation_key: true,
                time_limit_key: false,
                timelimit_file: true,
                invalid_inputs: false,
                readers: "problemtools and DOMjudge",
            },
            Format::V2023_07 => Layout {
                version: "2023-07-draft",
                statement: ("statement/problem.en.md", StatementKind::Markdown),
                output_validator: "output_validator/checker",
                validation_key: false,
                time_limit_key: true,
                timelimit_file: true,
                invalid_inputs: false,
                readers: "problemtools (in part) and DOMjudge",
            },
            Format::V2025_09 => Layout {
                version: "2025-09",
                statement: ("statement/problem.en.tex", StatementKind::Tex),
                output_validator: "output_validator",
                validation_key: false,
                time_limit_key: true,
                timelimit_file: false,
                invalid_inputs: true,
                readers: "BAPCtools, judge and DOMjudge 10",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_format_is_named_as_clap_parses_it() {
        for f in Format::ALL {
            assert_eq!(Format::from_str(f.name(), false), Ok(f));
        }
        assert_eq!(Format::value_variants(), Format::ALL);
        assert_eq!(Format::default(), Format::Legacy);
    }
}
