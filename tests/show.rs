//! End-to-end tests of `judge show`: pictures in the terminal and as SVG, exit statuses, and
//! clean errors for files with nothing to draw.

use crate::common;

use common::{assert_clean_error, judge, judge_in, root};

const DODE_IN: &str = "problems/dodecahedron/data/sample/1.in";
const DODE_ANS: &str = "problems/dodecahedron/data/sample/1.ans";
const SQUARE_IN: &str = "problems/magic-square/data/sample/1.in";

/// The sample answer with the tiles of faces 1 and 2 swapped.
fn swapped() -> String {
    let ans = std::fs::read_to_string(root().join(DODE_ANS)).unwrap();
    let mut lines: Vec<&str> = ans.lines().collect();
    lines.swap(0, 1);
    let (t1, n1) = lines[0].split_once(' ').unwrap();
    let (t2, n2) = lines[1].split_once(' ').unwrap();
    // Keep each face's reference neighbour, swap only the tiles.
    format!("{t1} {n2}\n{t2} {n1}\n{}\n", lines[2..].join("\n"))
}

#[test]
fn a_correct_answer_is_drawn_on_the_net_and_accepted() {
    let run = judge(&["show", "dodecahedron", DODE_IN, DODE_ANS]);
    run.assert_code(0);
    assert!(
        run.stdout
            .starts_with("dodecahedron: the answer on the net"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("\nAC\n"), "{}", run.stdout);
    // Piped: no colour codes, and braille lines are there.
    assert!(!run.stdout.contains('\x1b'));
    assert!(run
        .stdout
        .chars()
        .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
}

#[test]
fn a_wrong_tiling_names_the_checker_reason_and_draws_red_edges() {
    let run = judge_in(
        &root(),
        &["show", "dodecahedron", DODE_IN, "-"],
        swapped().as_bytes(),
    );
    run.assert_code(1);
    assert!(
        run.stdout
            .contains("edges where the marks disagree (red): faces 1-"),
        "{}",
        run.stdout
    );
    let last = run.stdout.lines().last().unwrap();
    assert!(last.starts_with("WA: faces 1 and "), "{last}");

    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("net.svg");
    let run = judge_in(
        &root(),
        &[
            "show",
            "dodecahedron",
            DODE_IN,
            "-",
            "--svg",
            svg.to_str().unwrap(),
        ],
        swapped().as_bytes(),
    );
    run.assert_code(1);
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(doc.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(doc.contains(r##"class="edge bad""##) && doc.contains(r##"stroke="#d62728""##));
    assert!(run.stderr.contains("wrote "), "{}", run.stderr);
    // Only the SVG file is in the folder (written through a temporary file and a rename).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn the_input_alone_shows_the_tiles_or_the_numbers() {
    let run = judge(&["show", "dodecahedron", DODE_IN]);
    run.assert_code(0);
    assert!(run.stdout.contains("t12") && run.stdout.ends_with("valid input\n"));
    let run = judge(&["show", "magic-square", SQUARE_IN]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("every line must sum to 15 (total 45 / 3)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_wrong_square_shows_every_sum_and_the_first_wrong_one() {
    let run = judge_in(
        &root(),
        &["show", "magic-square", SQUARE_IN, "-"],
        b"2 7 6\n1 5 9\n4 3 8\n",
    );
    run.assert_code(1);
    assert!(
        run.stdout.contains("7✗") && run.stdout.contains("23✗"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .ends_with("WA: column 1 sums to 7, expected 15\n"));
    let run = judge_in(
        &root(),
        &["show", "magic-square", SQUARE_IN, "-", "--svg", "-"],
        b"2 7 6\n1 5 9\n4 3 8\n",
    );
    run.assert_code(1);
    assert!(run.stdout.starts_with("<svg ") && run.stdout.contains(r#"class="sum bad""#));
    assert!(run.stderr.contains("WA: column 1"), "{}", run.stderr);
}

#[test]
fn an_invalid_input_is_drawn_as_far_as_it_parses() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.in");
    std::fs::write(&bad, "3\n5 1 9 3 7 2 8 4\n").unwrap();
    let run = judge(&["show", "magic-square", bad.to_str().unwrap()]);
    run.assert_code(1);
    assert!(
        run.stdout.contains("invalid input: line 2"),
        "{}",
        run.stdout
    );
}

#[test]
fn files_with_nothing_to_draw_are_one_error_line() {
    let run = judge(&["show", "dodecahedron", "Cargo.toml"]);
    run.assert_code(2);
    assert_clean_error(&run);
    assert!(
        run.stderr
            .contains("Cargo.toml: the input has nothing to draw"),
        "{}",
        run.stderr
    );
    let run = judge(&["show", "magic-square", SQUARE_IN, "Cargo.toml"]);
    run.assert_code(1);
    assert_clean_error(&run);
    assert!(
        run.stderr.contains("the output has nothing to draw"),
        "{}",
        run.stderr
    );
    let run = judge(&["show", "magic-square", "/nonexistent.in"]);
    run.assert_code(2);
    assert_clean_error(&run);
    let run = judge(&[
        "show",
        "magic-square",
        SQUARE_IN,
        "--svg",
        "/nonexistent/dir/x.svg",
    ]);
    run.assert_code(2);
    assert_clean_error(&run);
}
