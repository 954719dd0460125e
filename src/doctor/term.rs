//! The terminal reporter: one row per check (its id, status and what was found), the impact
//! of each check that is not ok under its row, the sandbox's warning as a grade prints it,
//! and the conclusion. Colour only when asked (see [`crate::terminal::colour`]); the
//! words say the same without it.

use super::{Overall, Report, Status};
use crate::show::term::{Style, Text};

fn status_style(status: Status) -> Style {
    match status {
        Status::Ok => Style::Good,
        Status::Degraded | Status::Missing => Style::Warn,
        Status::Error => Style::Bad,
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Ok => "ok",
        Status::Degraded => "degraded",
        Status::Missing => "missing",
        Status::Error => "error",
    }
}

/// The table and the conclusion, with ANSI colours when `colour`.
pub fn render(report: &Report, colour: bool) -> String {
    let mut t = Text::new();
    let s = &report.sandbox;
    let who = if s.root {
        "root".to_string()
    } else {
        format!("uid {}", s.uid)
    };
    let kernel = s.kernel.as_deref().unwrap_or("unknown");
    t.line(
        Style::Bold,
        format!("judge doctor: what a grade gets here (Linux {kernel}, as {who})"),
    );
    t.newline();
    let width = report
        .checks
        .iter()
        .map(|c| c.id.chars().count())
        .max()
        .unwrap_or(5)
        .max("CHECK".len());
    const STATUS_WIDTH: usize = 8;
    t.line(
        Style::Bold,
        format!("{:width$}  {:STATUS_WIDTH$}  FOUND", "CHECK", "STATUS"),
    );
    for c in &report.checks {
        t.newline()
            .push(Style::Plain, format!("{:width$}  ", c.id))
            .push(
                status_style(c.status),
                format!("{:STATUS_WIDTH$}", status_word(c.status)),
            )
            .push(Style::Plain, format!("  {}", c.summary));
        if let Some(impact) = &c.impact {
            let indent = " ".repeat(width + STATUS_WIDTH + 4);
            t.line(Style::Dim, format!("{indent}-> {impact}"));
        }
    }
    t.newline();
    if let Some(w) = &report.warning {
        t.line(Style::Plain, "A grade here prints:");
        t.line(Style::Warn, format!("  warning: {w}"));
    }
    let not_ok = |wanted: &[Status]| -> String {
        report
            .checks
            .iter()
            .filter(|c| wanted.contains(&c.status))
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (style, conclusion) = match report.status {
        Overall::Ok => (Style::Good, "exact".to_string()),
        Overall::Degraded => (
            Style::Warn,
            format!(
                "works, degraded by: {}",
                not_ok(&[Status::Degraded, Status::Missing])
            ),
        ),
        Overall::Error => (
            Style::Bad,
            format!("impossible because of: {}", not_ok(&[Status::Error])),
        ),
    };
    t.newline()
        .push(Style::Bold, "Grading here: ")
        .push(style, conclusion)
        .push(Style::Plain, format!(" (exit status {})", report.exit_code));
    t.render(colour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::{CgroupFacts, Check, Folder, SandboxFacts};

    fn report(checks: Vec<Check>) -> Report {
        let status = Overall::of(&checks);
        Report {
            status,
            exit_code: status.exit_code(),
            warning: Some("not root: no per-slot uid, fresh network namespace per run".into()),
            checks,
            sandbox: SandboxFacts {
                kernel: Some("6.1.0".into()),
                root: false,
                uid: 65534,
                user_namespaces: true,
                cgroups: CgroupFacts {
                    backend: "none".into(),
                    controllers: Vec::new(),
                    dirs: Vec::new(),
                    cpu_time: String::new(),
                    peak_memory: String::new(),
                    peak_memory_exact: false,
                    why_not: Some("no".into()),
                },
                seccomp: true,
                landlock_abi: Some(7),
                run_uids: vec![65534],
                fs_view: true,
                fs_view_why_not: None,
                setup_error: None,
                trial_run: None,
            },
            cache: Folder {
                dir: None,
                error: None,
                sandbox_reached: None,
            },
            work_dir: Folder {
                dir: None,
                error: None,
                sandbox_reached: None,
            },
            languages: Vec::new(),
        }
    }

    fn check(id: &str, status: Status, impact: Option<&str>) -> Check {
        Check {
            id: id.into(),
            status,
            summary: format!("{id} found"),
            impact: impact.map(str::to_string),
        }
    }

    #[test]
    fn rows_impacts_warning_and_conclusion_without_colour() {
        let r = report(vec![
            check("seccomp", Status::Ok, None),
            check("sandbox-user", Status::Degraded, Some("not root")),
            check("language:java", Status::Missing, Some("install it")),
        ]);
        let text = render(&r, false);
        assert!(!text.contains('\x1b'), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "judge doctor: what a grade gets here (Linux 6.1.0, as uid 65534)"
        );
        assert_eq!(lines[2], "CHECK          STATUS    FOUND");
        assert_eq!(lines[3], "seccomp        ok        seccomp found");
        assert_eq!(lines[4], "sandbox-user   degraded  sandbox-user found");
        assert_eq!(lines[5], "                         -> not root");
        assert_eq!(lines[6], "language:java  missing   language:java found");
        assert!(text
            .contains("\n  warning: not root: no per-slot uid, fresh network namespace per run\n"));
        assert!(text.ends_with(
            "Grading here: works, degraded by: sandbox-user, language:java (exit status 1)\n"
        ));
    }

    #[test]
    fn colour_marks_the_status_words() {
        let r = report(vec![
            check("seccomp", Status::Ok, None),
            check("trial-run", Status::Error, Some("nothing runs")),
        ]);
        let text = render(&r, true);
        assert!(text.contains("\x1b[32mok"), "{text:?}");
        assert!(text.contains("\x1b[1;31merror"), "{text:?}");
        assert!(
            text.contains("impossible because of: trial-run"),
            "{text:?}"
        );
    }
}
