//! End-to-end tests of the reports of `grade`: the summary table of several submissions and
//! the HTML report.

use crate::common;

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn several_submissions_end_with_one_summary_table() {
    let tests = common::lo_shu_tests();
    let (ac, wa, ce) = (
        common::programs().join("ac.c"),
        common::programs().join("wa.c"),
        common::programs().join("ce.c"),
    );
    let run = common::judge_timed(
        120,
        &[
            "grade",
            "magic-square",
            path(&ac),
            path(&wa),
            path(&ce),
            "--tests",
            path(tests.path()),
        ],
    );
    run.assert_code(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert!(lines[0].starts_with("SUBMISSION") && lines[0].ends_with("FIRST FAILURE"));
    let row = |needle: &str| {
        *lines
            .iter()
            .find(|l| l.starts_with(&format!("{}", common::programs().join(needle).display())))
            .unwrap_or_else(|| panic!("no row for {needle}: {}", run.stdout))
    };
    let cols = |l: &str| {
        l.split_whitespace()
            .skip(1)
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(cols(row("ac.c")), "AC 1/1");
    assert_eq!(cols(row("wa.c")), "WA 0/1");
    assert!(row("wa.c").contains("  1: "), "{}", row("wa.c"));
    assert_eq!(cols(row("ce.c")), "CE 0/1");
    assert!(row("ce.c").contains("compilation failed: "));
    assert_eq!(lines[4], "3 submissions: 1 AC, 2 not accepted (WA 1, CE 1)");
}

#[test]
fn grade_html_is_one_self_contained_file_with_matrix_failures_and_pictures() {
    let tests = common::lo_shu_tests();
    let out = tempfile::tempdir().unwrap();
    let html = out.path().join("report.html");
    let (ac, wa, ce) = (
        common::programs().join("ac.c"),
        common::programs().join("wa.c"),
        common::programs().join("ce.c"),
    );
    let run = common::judge_timed(
        120,
        &[
            "grade",
            "magic-square",
            path(&ac),
            path(&wa),
            path(&ce),
            "--tests",
            path(tests.path()),
            "--json",
            "--html",
            path(&html),
        ],
    );
    run.assert_code(1);
    // --json output is unchanged by --html: one object per submission.
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(run.stderr.contains(&format!("wrote {}", html.display())));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches(r#"<td class="cell v-AC""#).count(), 1);
    assert_eq!(page.matches(r#"<td class="cell v-WA""#).count(), 1);
    // wa.c prints the Lo Shu square with two rows swapped: its picture has red sums.
    assert!(page.contains(r#"<div class="picture"><svg"#));
    assert!(page.contains(r#"class="sum bad""#));
    assert!(
        page.contains("undefined_variable"),
        "compiler message missing"
    );
    assert!(!page.contains("<script") && !page.contains("https:"));
    // Written atomically: the folder holds the report only.
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 1);
}

#[test]
fn grade_html_into_a_missing_folder_fails_before_grading() {
    let run = common::judge_timed(
        60,
        &[
            "grade",
            "magic-square",
            path(&common::programs().join("ac.c")),
            "--html",
            "/nonexistent/folder/r.html",
        ],
    );
    run.assert_code(2);
    common::assert_clean_error(&run);
    assert!(run
        .stderr
        .contains("the folder /nonexistent/folder does not exist"));
    assert!(run.stdout.is_empty(), "graded anyway: {}", run.stdout);
}

#[test]
fn verify_html_has_the_checks_the_jury_matrix_and_the_timing_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("magic-square");
    common::copy_dir(&common::root().join("problems/magic-square"), &pkg);
    let _ = std::fs::remove_dir_all(pkg.join("submissions"));
    for (folder, file, from) in [
        ("accepted", "fast.cpp", common::accepted_cpp("magic-square")),
        ("wrong_answer", "swapped.c", common::programs().join("wa.c")),
    ] {
        std::fs::create_dir_all(pkg.join("submissions").join(folder)).unwrap();
        std::fs::copy(from, pkg.join("submissions").join(folder).join(file)).unwrap();
    }
    let html = tmp.path().join("verify.html");
    // Once with every run made now, once with them remembered: a remembered failure keeps its
    // output, so its picture is drawn too (before, the second report had none).
    for fresh in [true, false] {
        let mut args = vec!["verify", path(&pkg), "--html", path(&html)];
        if fresh {
            args.push("--fresh");
        }
        let run = common::judge_timed(300, &args);
        run.assert_code(0);
        assert_eq!(
            run.stdout
                .contains("runs remembered from an earlier verify"),
            !fresh,
            "{}",
            run.stdout
        );
        // The terminal output ends each problem with the table of its jury submissions.
        assert!(
            run.stdout
                .lines()
                .any(|l| l.starts_with("  submissions/wrong_answer/swapped.c")
                    && l.contains("WA")
                    && l.contains("sample-1: ")),
            "{}",
            run.stdout
        );
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains(r#"<td class="status ok">ok</td><td><code>checker</code></td>"#));
        assert!(page.contains(r#"<table class="matrix">"#));
        assert_eq!(page.matches(r#"<td class="cell v-WA""#).count(), 1);
        // The timed runs of the accepted submission (3 that agree far from the limit, else
        // 5), and its limit.
        let runs = page.matches(r#"class="run""#).count();
        assert!(runs == 3 || runs == 5, "{runs} runs");
        assert!(page.contains(r#"class="limit""#) && page.contains("suggested "));
        // The expected failure with its picture.
        assert!(
            page.contains("as expected (WA)") && page.contains(r#"class="sum bad""#),
            "fresh: {fresh}"
        );
    }
}
