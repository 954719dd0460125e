//! Scoring problems end to end (`type: scoring`): a scoring copy of the legacy `mean` fixture
//! (default grader, subtasks), `tests/packages/halfcredit` (a custom grader in `graders/`),
//! and what a broken scoring part does: a package error is one line and exit 2 before
//! anything runs; a grader or an output validator breaking the score protocol during a run
//! is a judge error (JE) of that run, with one line naming it.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{copy_dir, judge_timed};

fn package(name: &str) -> PathBuf {
    common::root().join("tests/packages").join(name)
}

fn rel(p: &Path) -> String {
    p.display().to_string()
}

/// A scoring copy of the legacy `mean`, laid out as problemtools' `oddecho`: samples worth
/// nothing, `easy` (30 points) and `hard` (70) subtasks scored by their minimum, `secret`
/// accepted if any subtask is, the root ignoring the samples.
fn scoring_mean(tmp: &Path) -> PathBuf {
    let pkg = tmp.join("mean");
    copy_dir(&package("mean"), &pkg);
    let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    fs::write(pkg.join("problem.yaml"), format!("{yaml}type: scoring\n")).unwrap();
    let data = pkg.join("data");
    let secret = data.join("secret");
    for (group, cases) in [
        ("easy", ["01-single", "02-quarter"].as_slice()),
        ("hard", &["03-big"]),
    ] {
        fs::create_dir_all(secret.join(group)).unwrap();
        for c in cases {
            for ext in ["in", "ans"] {
                fs::rename(
                    secret.join(format!("{c}.{ext}")),
                    secret.join(group).join(format!("{c}.{ext}")),
                )
                .unwrap();
            }
        }
    }
    let write = |rel: &str, text: &str| fs::write(data.join(rel), text).unwrap();
    write(
        "testdata.yaml",
        "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
    );
    write(
        "sample/testdata.yaml",
        "accept_score: 0\nrange: 0 0\ngrader_flags: first_error\n",
    );
    write(
        "secret/testdata.yaml",
        "range: 0 100\ngrader_flags: first_error accept_if_any_accepted\n",
    );
    write(
        "secret/easy/testdata.yaml",
        "on_reject: break\naccept_score: 30\nrange: 0 30\ngrader_flags: min\n",
    );
    write(
        "secret/hard/testdata.yaml",
        "on_reject: break\naccept_score: 70\nrange: 0 70\ngrader_flags: min\n",
    );
    // As in oddecho, only accepted and partially accepted submissions: with
    // `accept_if_any_accepted`, a wrong submission that passes one subtask is AC by the rules.
    for folder in ["wrong_answer", "run_time_error", "time_limit_exceeded"] {
        fs::remove_dir_all(pkg.join("submissions").join(folder)).unwrap();
    }
    let partial = pkg.join("submissions/partially_accepted");
    fs::create_dir_all(&partial).unwrap();
    // Right for short lists only: the hard subtask's 1000 numbers get 0.
    fs::write(
        partial.join("short_lists.py"),
        "n = int(input())\na = list(map(int, input().split()))\nprint(sum(a) / n if n < 100 else 0)\n",
    )
    .unwrap();
    pkg
}

/// `grade` of a scoring package: every test runs, and the report gives the score, each
/// group's with its aggregation, and each test's, in the terminal and in the JSON contract;
/// `verify` checks accepted = full score and partially accepted strictly between, as
/// problemtools does.
#[test]
fn a_scoring_package_grades_with_group_scores_and_verifies_partial_submissions() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    let dir = pkg.display().to_string();
    let partial = pkg.join("submissions/partially_accepted/short_lists.py");
    let run = judge_timed(600, &["grade", "--json", &dir, &rel(&partial)]);
    let report: common::Report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(
        report.tests.len(),
        report.tests_total,
        "a score needs every test"
    );
    let score = report
        .score
        .as_ref()
        .expect("a scoring problem's report has a score");
    assert_eq!(
        (score.score, score.max, score.verdict.as_str()),
        (30.0, Some(100.0), "AC")
    );
    let group = |g: &str| score.groups.iter().find(|x| x.group == g).unwrap();
    assert_eq!(
        (
            group("secret/easy").score,
            group("secret/easy").aggregation.as_str()
        ),
        (30.0, "worst_error min")
    );
    assert_eq!(
        (
            group("secret/hard").score,
            group("secret/hard").verdict.as_str()
        ),
        (0.0, "WA")
    );
    assert_eq!(score.groups.last().unwrap().group, "");
    let points: Vec<(&str, f64)> = score
        .tests
        .iter()
        .map(|t| (t.test.as_str(), t.score))
        .collect();
    assert!(
        points.contains(&("secret/hard/03-big", 0.0))
            && points.contains(&("secret/easy/01-single", 30.0)),
        "{points:?}"
    );
    // The terminal: the score and a line per group.
    let text = judge_timed(600, &["grade", &dir, &rel(&partial)]);
    assert!(
        text.stdout
            .contains("score 30/100 (AC by the package's rules)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("secret/hard") && l.contains("WA")),
        "{}",
        text.stdout
    );
    // The HTML matrix: a column per subtask, then the score.
    let html = tmp.path().join("report.html");
    judge_timed(600, &["grade", &dir, &rel(&partial), "--html", &rel(&html)]).assert_code(1);
    let page = fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(r#"<th class="group" title="easy">easy</th>"#)
            && page.contains("<b>30/100</b>"),
        "{page}"
    );

    let run = judge_timed(900, &["verify", "--jobs", "2", &dir]);
    run.assert_code(0);
    let line = |needle: &str| {
        run.stdout
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle}:\n{}", run.stdout))
            .to_string()
    };
    assert!(
        line("submissions/accepted/mean.py:").contains("score 100/100"),
        "{}",
        run.stdout
    );
    let p = line("submissions/partially_accepted/short_lists.py:");
    assert!(
        p.starts_with("  ok ") && p.contains("score 30/100 (partially_accepted expected)"),
        "{p}"
    );
    assert!(
        !run.stdout.contains("graded as pass-fail"),
        "{}",
        run.stdout
    );

    // A partially accepted submission that gets everything fails, naming what was expected;
    // so does a wrong answer that the rules accept (problemtools: "got AC (70)").
    fs::copy(
        pkg.join("submissions/accepted/mean.py"),
        pkg.join("submissions/partially_accepted/full.py"),
    )
    .unwrap();
    let wrong = pkg.join("submissions/wrong_answer");
    fs::create_dir_all(&wrong).unwrap();
    fs::copy(
        package("mean").join("submissions/wrong_answer/integer_division.cpp"),
        wrong.join("integer_division.cpp"),
    )
    .unwrap();
    let run = judge_timed(900, &["verify", "--jobs", "2", &dir]);
    run.assert_code(1);
    // The full score for a legacy partially accepted one is a warning, as in problemtools.
    assert!(
        run.stdout.contains("  warn  submissions/partially_accepted/full.py: expected a score strictly between 0 and 100, accepted, got 100/100 (AC) (a warning in a legacy package"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("submissions/wrong_answer/integer_division.cpp: expected WA by the package's rules, got 70/100 (AC)"),
        "{}",
        run.stdout
    );
}

/// Broken scoring files: one clear line naming the file, exit 2, before anything runs.
#[test]
fn a_broken_scoring_file_is_one_error_line() {
    for (file, text, says) in [
        (
            "secret/easy/testdata.yaml",
            "range: 10\n",
            "range `10` is not two numbers",
        ),
        (
            "secret/hard/testdata.yaml",
            "grader_flags: median\n",
            "grader_flags: unknown flag `median`",
        ),
        (
            "secret/testdata.yaml",
            "on_reject: maybe\n",
            "on_reject must be break or continue",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = scoring_mean(tmp.path());
        fs::write(pkg.join("data").join(file), text).unwrap();
        let run = judge_timed(120, &["verify", &pkg.display().to_string()]);
        run.assert_code(2);
        let line = common::the_error_line(&run);
        assert!(line.contains(says) && line.contains(file), "{line}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    fs::create_dir_all(pkg.join("data/secret/empty")).unwrap();
    fs::write(
        pkg.join("data/secret/empty/testdata.yaml"),
        "accept_score: 5\n",
    )
    .unwrap();
    let run = judge_timed(120, &["verify", &pkg.display().to_string()]);
    run.assert_code(2);
    assert!(common::the_error_line(&run).contains("data/secret/empty: a test group with no tests"));
}

/// `halfcredit`'s custom grader gives a group all its points when every test passes, half
/// when at least half do: verify passes with both partially accepted submissions (40 and 70,
/// as problemtools' verifyproblem gives them), and the report names the grader's groups.
#[test]
fn a_custom_grader_scores_its_groups() {
    let dir = package("halfcredit");
    let run = judge_timed(900, &["verify", "--jobs", "2", &rel(&dir)]);
    run.assert_code(0);
    for (sub, score) in [
        ("accepted/double.py", "score 100/100"),
        ("partially_accepted/all_but_the_largest.py", "score 70/100"),
        ("partially_accepted/small_only.py", "score 40/100"),
        ("wrong_answer/negates.py", "score 0/100"),
    ] {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.starts_with("  ok ") && l.contains(sub) && l.contains(score)),
            "{sub}: {score}\n{}",
            run.stdout
        );
    }
    let partial = dir.join("submissions/partially_accepted/all_but_the_largest.py");
    let run = judge_timed(600, &["grade", "--json", &rel(&dir), &rel(&partial)]);
    let report: common::Report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    let score = report.score.expect("a score");
    let group = |g: &str| score.groups.iter().find(|x| x.group == g).unwrap();
    assert_eq!((score.score, score.verdict.as_str()), (70.0, "AC"));
    let large = group("secret/large");
    assert_eq!(
        (
            large.score,
            large.verdict.as_str(),
            large.aggregation.as_str()
        ),
        (30.0, "AC", "custom 60")
    );
    assert_eq!(group("secret/small").score, 40.0);
    assert!(score.error.is_none());
}

/// A copy of `halfcredit` with a fixed time limit and 1 s for jury programs.
fn halfcredit(tmp: &Path) -> PathBuf {
    let pkg = tmp.join("halfcredit");
    copy_dir(&package("halfcredit"), &pkg);
    let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    fs::write(
        pkg.join("problem.yaml"),
        format!("{yaml}limits:\n  time_limit: 1\n  validation_time: 1\n"),
    )
    .unwrap();
    pkg
}

/// A grader that crashes, runs forever, exits non-zero or prints something else than
/// `VERDICT SCORE`: the run's verdict and score are JE, with one line naming the grader and
/// what it did; judge goes on (the grader runs under the validation limits).
#[test]
fn a_broken_grader_is_a_judge_error_of_the_run() {
    for (program, says) in [
        (
            "raise SystemExit(3)",
            "graders/halve.py: exited with status 3; a grader must exit 0",
        ),
        (
            "import os\nos.kill(os.getpid(), 11)",
            "graders/halve.py: killed by SIGSEGV",
        ),
        (
            "while True:\n    pass",
            "graders/halve.py: ran over its CPU time limit of 1.0 s",
        ),
        (
            "print('seventy')",
            "graders/halve.py: printed `seventy`, not one `VERDICT SCORE` line",
        ),
        ("print('JE 0')", "the custom grader said JE"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = halfcredit(tmp.path());
        fs::write(pkg.join("graders/halve.py"), format!("{program}\n")).unwrap();
        let sub = pkg.join("submissions/accepted/double.py");
        let run = judge_timed(300, &["grade", "--json", &rel(&pkg), &rel(&sub)]);
        run.assert_code(1);
        let report: common::Report = serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
        assert_eq!(report.verdict.as_deref(), Some("JE"), "{program}");
        let score = report.score.expect("a score");
        assert_eq!(score.verdict, "JE");
        let error = score.error.unwrap_or_default();
        assert!(
            error.starts_with("group `secret/large`: ") && error.contains(says),
            "{program}: {error}"
        );
        // The terminal's summary table names it too, on one line.
        let text = judge_timed(300, &["grade", &rel(&pkg), &rel(&sub), &rel(&sub)]);
        assert!(
            text.stdout
                .lines()
                .any(|l| l.contains(" JE ") && l.contains("judge error while scoring: group")),
            "{}",
            text.stdout
        );
    }
}

/// A grading setup judge cannot run is a package error: one line, exit 2, nothing run.
#[test]
fn a_missing_or_unbuildable_grader_is_a_package_error() {
    type Breaks<'a> = &'a dyn Fn(&Path);
    let cases: [(&str, Breaks, &str); 3] = [
        (
            "no grader",
            &|p| fs::remove_dir_all(p.join("graders")).unwrap(),
            "a group says `grading: custom`, but",
        ),
        (
            "two graders",
            &|p| fs::write(p.join("graders/other.py"), "print('AC 1')\n").unwrap(),
            "graders/ holds 2 programs; a package has one grader",
        ),
        (
            "does not compile",
            &|p| {
                fs::remove_file(p.join("graders/halve.py")).unwrap();
                fs::write(p.join("graders/halve.cpp"), "int main( {\n").unwrap();
            },
            "graders/halve.cpp does not build",
        ),
    ];
    for (what, breakit, says) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = halfcredit(tmp.path());
        breakit(&pkg);
        let sub = pkg.join("submissions/accepted/double.py");
        let run = judge_timed(300, &["grade", &rel(&pkg), &rel(&sub)]);
        run.assert_code(2);
        let line = common::the_error_line(&run);
        assert!(line.contains(says), "{what}: {line}");
        assert!(run.stdout.is_empty(), "{what}: {}", run.stdout);
    }
}

/// An output validator's score file that is not one non-negative number, is past judge's
/// bound on a score (1e308 would make every sum infinite), cannot be read, or puts a group
/// out of its range: the run is JE, naming the file or the group.
#[test]
fn a_bad_score_file_is_a_judge_error_of_the_run() {
    for (writes, says) in [
        (
            "open(fb + 'score.txt', 'w').write('lots')",
            "wrote score.txt holding `lots`, not a number",
        ),
        (
            "open(fb + 'score.txt', 'w').write('-2')",
            "wrote score.txt holding -2, not a non-negative number",
        ),
        (
            "open(fb + 'score.txt', 'w').write('1e308')",
            "wrote score.txt holding 1e308, over judge's bound on a score (1e9)",
        ),
        (
            "os.mkdir(fb + 'score.txt')",
            "wrote score.txt: not a regular file (a folder)",
        ),
        (
            "open(fb + 'score.txt', 'w').write('500')",
            "group `sample` scored 500, outside its range 0 0",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = scoring_mean(tmp.path());
        let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
        fs::write(
            pkg.join("problem.yaml"),
            format!(
                "validation: custom\n{}",
                yaml.replace("limits:\n", "limits:\n  time_limit: 2\n")
            ),
        )
        .unwrap();
        fs::create_dir_all(pkg.join("output_validators")).unwrap();
        fs::write(
            pkg.join("output_validators/scores.py"),
            format!("import os, sys\nfb = sys.argv[3]\n{writes}\nsys.exit(42)\n"),
        )
        .unwrap();
        let sub = pkg.join("submissions/accepted/mean.py");
        let run = judge_timed(300, &["grade", "--json", &rel(&pkg), &rel(&sub)]);
        let report: common::Report = serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
        assert_eq!(report.verdict.as_deref(), Some("JE"), "{writes}");
        let said = match report.tests.iter().find(|t| t.verdict == "JE") {
            Some(t) => t.message.clone(),
            None => report.score.and_then(|s| s.error).unwrap_or_default(),
        };
        assert!(said.contains(says), "{writes}: {said}");
    }
}

/// `submissions.yaml` scores per test group (2025-09: a group's `score` bounds its aggregated
/// score): the fixture's hold (`a_custom_grader_scores_its_groups`); a wrong one fails
/// verify naming the rule and the group, and so does a glob that names no group.
#[test]
fn group_scores_of_submissions_yaml_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = halfcredit(tmp.path());
    fs::write(
        pkg.join("submissions/submissions.yaml"),
        "partially_accepted/small_only.py:\n  secret/large:\n    score: 60\n\
         partially_accepted/all_but_the_largest.py:\n  secret/huge:\n    score: [0, 1]\n",
    )
    .unwrap();
    let run = judge_timed(600, &["verify", "--jobs", "2", &rel(&pkg)]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "FAIL  submissions/partially_accepted/small_only.py: submissions.yaml: \
             partially_accepted/small_only.py / secret/large: expected score 60 for group \
             `secret/large`, got 0/60"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "FAIL  submissions/partially_accepted/all_but_the_largest.py: submissions.yaml: \
             partially_accepted/all_but_the_largest.py / secret/huge: `secret/huge` names no \
             scored test group"
        ),
        "{}",
        run.stdout
    );
}

/// `judge report merge` of a scoring problem's partial reports: each part carries the rules
/// (`partition.scoring`) and the validator's scores (`validator_score`) but no score of its
/// own; the merged reports have the score, the groups' and the tests' of one whole run (the
/// strict JSON contract), and the terminal table its group columns.
#[test]
fn merged_reports_keep_the_scores_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    fs::write(
        pkg.join("problem.yaml"),
        format!(
            "validation: custom\n{}",
            yaml.replace("limits:\n", "limits:\n  time_limit: 2\n")
        ),
    )
    .unwrap();
    // Accepts every output; the test of 4 numbers scores 12 (score.txt), the easy group's
    // minimum then.
    fs::create_dir_all(pkg.join("output_validators")).unwrap();
    fs::write(
        pkg.join("output_validators/scores.py"),
        "import sys\nif open(sys.argv[1]).readline().strip() == '4':\n    \
         open(sys.argv[3] + 'score.txt', 'w').write('12')\nsys.exit(42)\n",
    )
    .unwrap();
    let dir = rel(&pkg);
    let subs = [
        rel(&pkg.join("submissions/partially_accepted/short_lists.py")),
        rel(&pkg.join("submissions/accepted/mean.py")),
    ];
    let grade = |extra: &[&str]| {
        let mut args = vec!["grade", "--json", &dir, &subs[0], &subs[1]];
        args.extend(extra);
        judge_timed(600, &args)
    };
    let whole: Vec<common::Report> = grade(&[])
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let mut files = Vec::new();
    for k in 1..=2 {
        let run = grade(&["--partition", &format!("{k}/2")]);
        let first: serde_json::Value =
            serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
        assert!(first.get("score").is_none(), "a part has no score: {first}");
        assert!(
            first["partition"]["scoring"]["legacy"].is_object(),
            "{first}"
        );
        let file = tmp.path().join(format!("part-{k}.json"));
        fs::write(&file, &run.stdout).unwrap();
        files.push(rel(&file));
    }
    let run = judge_timed(60, &["report", "merge", "--json", &files[0], &files[1]]);
    let merged: Vec<common::Report> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    type Scores = (f64, Vec<(String, f64)>, usize);
    let scores = |reports: &[common::Report]| -> Vec<Scores> {
        reports
            .iter()
            .map(|r| {
                let s = r.score.as_ref().expect("a score");
                let groups = s
                    .groups
                    .iter()
                    .map(|g| (g.group.clone(), g.score))
                    .collect();
                (s.score, groups, s.tests.len())
            })
            .collect()
    };
    assert_eq!(scores(&merged), scores(&whole));
    assert_eq!(merged[1].score.as_ref().unwrap().score, 82.0);
    let quarter = merged[1]
        .tests
        .iter()
        .find(|t| t.name == "secret/easy/02-quarter")
        .unwrap();
    assert_eq!(
        quarter.validator_score,
        Some(common::ValidatorScoreRow {
            score: Some(12.0),
            multiplier: None
        })
    );
    let text = judge_timed(60, &["report", "merge", &files[0], &files[1]]);
    let header = text.stdout.lines().next().unwrap_or_default();
    assert!(
        header.contains("easy") && header.contains("hard") && header.contains("SCORE"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .lines()
            .any(|l| l.contains("accepted/mean.py") && l.contains(" 82 ")),
        "{}",
        text.stdout
    );

    // A custom grader is not run by a merge: no score, and a note says why.
    let pkg = halfcredit(tmp.path());
    let sub = rel(&pkg.join("submissions/accepted/double.py"));
    let mut files = Vec::new();
    for k in 1..=2 {
        let part = format!("{k}/2");
        let run = judge_timed(
            300,
            &["grade", "--json", &rel(&pkg), &sub, "--partition", &part],
        );
        let file = tmp.path().join(format!("custom-{k}.json"));
        fs::write(&file, &run.stdout).unwrap();
        files.push(rel(&file));
    }
    let run = judge_timed(60, &["report", "merge", "--json", &files[0], &files[1]]);
    run.assert_code(0);
    let merged: common::Report = serde_json::from_str(run.stdout.trim()).unwrap();
    assert!(merged.score.is_none());
    assert!(
        run.stderr
            .contains("note: the merged reports have no score: the package's custom grader"),
        "{}",
        run.stderr
    );
}

/// An interactive scoring problem's validator writes its score into the feedback folder
/// too (problemtools: `validation: custom score interactive`): a copy of `guessnum` whose
/// validator gives every accepted interaction half its points.
#[test]
fn an_interactive_validators_score_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("guessnum");
    copy_dir(&package("guessnum"), &pkg);
    let yaml = fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    fs::write(
        pkg.join("problem.yaml"),
        yaml.replace("type: interactive", "type: [interactive, scoring]"),
    )
    .unwrap();
    let validator = pkg.join("output_validator/validate.cpp");
    let source = fs::read_to_string(&validator).unwrap();
    let half = "{ std::FILE* f = std::fopen((std::string(argv[3]) + \"/score_multiplier.txt\").c_str(), \"w\"); std::fputs(\"0.5\\n\", f); std::fclose(f); }\n            verdict(42, \"found in \"";
    assert!(source.contains("verdict(42, \"found in \""));
    fs::write(
        &validator,
        source.replace("verdict(42, \"found in \"", half),
    )
    .unwrap();
    let sub = pkg.join("submissions/accepted/binary_search.cpp");
    let run = judge_timed(600, &["grade", "--json", &rel(&pkg), &rel(&sub)]);
    let report: common::Report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    let score = report.score.expect("a score");
    assert_eq!((score.score, score.max), (50.0, Some(100.0)), "{score:?}");
    for t in report
        .tests
        .iter()
        .filter(|t| t.name.starts_with("secret/"))
    {
        assert_eq!(
            t.validator_score,
            Some(common::ValidatorScoreRow {
                score: None,
                multiplier: Some(0.5)
            }),
            "{}",
            t.name
        );
    }
}

/// A scoring package's runs are remembered as a pass-fail one's: a second verify with nothing
/// changed runs nothing and gives the same scores.
#[test]
fn a_scoring_packages_runs_are_remembered() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    let dir = rel(&pkg);
    let verify = || {
        let run = judge_timed(900, &["verify", "--jobs", "2", &dir]);
        run.assert_code(0);
        run.stdout
    };
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("submissions/"))
            .map(|l| l.to_string())
            .collect()
    };
    let first = verify();
    let second = verify();
    let remembered = second
        .lines()
        .find(|l| l.contains("runs remembered from an earlier verify"))
        .unwrap_or_else(|| panic!("nothing remembered:\n{second}"));
    let (recalled, total) = remembered
        .split_once(" of ")
        .map(|(a, b)| (a.to_string(), b.split(' ').next().unwrap().to_string()))
        .unwrap();
    assert_eq!(recalled, total, "{remembered}");
    assert_eq!(lines(&first), lines(&second));
    assert!(
        second.contains("score 30/100 (partially_accepted expected)"),
        "{second}"
    );
}

/// A legacy scoring package's rejected submission is checked as problemtools checks it: on the
/// verdict its graders give the whole, not on its first failing test. `mixed.py` crashes on the
/// sample (RTE), answers the easy subtask wrong (WA) and loops on the hard one (TLE): the root
/// ignores the sample, `secret` takes the first error of its subtasks, so the verdict is WA.
/// verifyproblem accepts it in wrong_answer/ and rejects it in time_limit_exceeded/; so must
/// verify, with the JSON giving WA as its verdict in both.
#[test]
fn a_legacy_scoring_rejected_submission_is_checked_on_its_graded_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    let mixed = "import sys\n\
                 n = int(input())\n\
                 if n == 3:\n    sys.exit(1)\n\
                 if n < 100:\n    print(0)\n\
                 else:\n    while True:\n        pass\n";
    for folder in ["wrong_answer", "time_limit_exceeded"] {
        let dir = pkg.join("submissions").join(folder);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("mixed.py"), mixed).unwrap();
    }
    let dir = rel(&pkg);
    let (run, report) = common::verify_report::verify_json(600, &[&dir]);
    run.assert_code(1);
    let p = &report.problems[0];
    let wa = p.check("submissions/wrong_answer/mixed.py");
    assert_eq!(wa.status, "ok", "{wa:?}");
    assert!(
        wa.message.starts_with("WA by the package's rules, score 0/100 (WA expected); first rejected: RE on test `sample/1`"),
        "{wa:?}"
    );
    let tle = p.check("submissions/time_limit_exceeded/mixed.py");
    assert_eq!(
        (tle.status.as_str(), tle.message.as_str()),
        (
            "fail",
            "expected TLE by the package's rules, got 0/100 (WA)"
        )
    );
    for (path, expected) in [
        ("wrong_answer/mixed.py", "WA"),
        ("time_limit_exceeded/mixed.py", "TLE"),
    ] {
        let s = p.submission(path);
        assert_eq!(
            (s.expected.as_str(), s.actual.as_str()),
            (expected, "WA"),
            "{s:?}"
        );
    }
    // Every other check passes: the accepted and partially accepted ones are unchanged.
    let failed: Vec<&str> = p
        .checks
        .iter()
        .filter(|c| c.status == "fail")
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failed, ["submissions/time_limit_exceeded/mixed.py"]);

    // The terminal says the same (the runs are remembered).
    let run = judge_timed(600, &["verify", &dir]);
    run.assert_code(1);
    assert!(
        run.stdout.lines().any(|l| l
            .starts_with("  ok    submissions/wrong_answer/mixed.py: WA by the package's rules")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.lines().any(|l| l
            == "  FAIL  submissions/time_limit_exceeded/mixed.py: expected TLE by the package's rules, got 0/100 (WA)"),
        "{}",
        run.stdout
    );

    // Without it in time_limit_exceeded/, the package verifies. `flood.py` there prints
    // without end on the easy subtask (judge ends the run at the output limit: OLE) and
    // loops on the hard one (TLE): OLE by the rules, but problemtools, which lets a run go
    // on past the output limit, times it out, and so gets TLE: a warning.
    fs::remove_file(pkg.join("submissions/time_limit_exceeded/mixed.py")).unwrap();
    fs::write(
        pkg.join("submissions/time_limit_exceeded/flood.py"),
        "n = int(input())\n\
         if n == 3:\n    print(2)\n\
         elif n < 100:\n    while True:\n        print('1' * 1000)\n\
         else:\n    while True:\n        pass\n",
    )
    .unwrap();
    let (run, report) = common::verify_report::verify_json(600, &[&dir]);
    run.assert_code(0);
    let flood = report.problems[0].check("submissions/time_limit_exceeded/flood.py");
    assert_eq!(flood.status, "warn", "{flood:?}");
    assert!(
        flood
            .message
            .starts_with("expected TLE by the package's rules, got 0/100 (OLE); but problemtools")
            && flood
                .message
                .contains("gives TLE by the package's rules if the runs"),
        "{flood:?}"
    );
}

/// A key a `testdata.yaml` gives twice (po2024 golvyta's `input_validator_flags`) is read as
/// problemtools (PyYAML) reads it: the last value, here the easy subtask's 30 points (with the
/// first, 5, the accepted submissions would not get the full 100). The package loads, with a
/// warning naming the file and the key; `--strict` fails it.
#[test]
fn a_yaml_key_given_twice_takes_the_last_value_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = scoring_mean(tmp.path());
    let file = pkg.join("data/secret/easy/testdata.yaml");
    fs::write(
        &file,
        "on_reject: break\naccept_score: 5\nrange: 0 30\ngrader_flags: min\naccept_score: 30\n",
    )
    .unwrap();
    let dir = rel(&pkg);
    let warning = format!(
        "{}: key `accept_score` is given twice; the last value is used (as problemtools reads it)",
        file.display()
    );
    let (run, report) = common::verify_report::verify_json(600, &[&dir]);
    run.assert_code(0);
    assert!(report.ok && !report.strict, "{}", run.stdout);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert!(
        p.checks
            .iter()
            .any(|c| c.name == "package" && c.status == "warn" && c.message == warning),
        "{:#?}",
        p.checks
    );
    assert!(
        p.check("submissions/accepted/mean.py")
            .message
            .contains("score 100/100"),
        "{:#?}",
        p.checks
    );
    assert!(
        run.stderr
            .lines()
            .any(|l| l == format!("warning: {warning}")),
        "{}",
        run.stderr
    );

    let run = judge_timed(600, &["verify", "--strict", &dir]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(&format!("  warn  package: {warning}")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("(--strict: the warnings fail)"),
        "{}",
        run.stdout
    );
}
