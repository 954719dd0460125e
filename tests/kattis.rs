//! Kattis / ICPC problem packages end to end, on the fixtures in `tests/packages/`:
//!
//! - `mean`: legacy, C++ input validator, default output validator with a float tolerance,
//!   time limit computed from the accepted submissions;
//! - `pairsum`: 2025-09, Python output validator, nested test groups with per-group input
//!   validator arguments, `submissions.yaml` rules;
//! - `guessnum`: 2025-09 interactive (guess the number), C++ validator;
//! - `divisor`: legacy, a testlib-style checker (`registerTestlibCmd`, exit 0/1/2/3);
//! - `ctdsum`: legacy, a checktestdata input validator (`input_validators/format.ctd`) and
//!   invalid inputs it must reject (its own tests below: no TLE or RTE submissions).
//!
//! Each has accepted, wrong_answer, time_limit_exceeded and run_time_error submissions:
//! `verify` must pass every package and `grade` must give each submission its folder's
//! verdict. Broken copies must fail with one clear line and exit status 2.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::verify_report::{verify_json, VerifyReport};
use common::{assert_clean_error, copy_dir, judge_timed, root, Run};
use serde::Deserialize;

/// The fixture packages; each has its own `verify_passes_the_*` and `grade_gives_each_*` test.
const PACKAGES: [&str; 4] = ["mean", "pairsum", "guessnum", "divisor"];

pub(crate) fn package(name: &str) -> PathBuf {
    root().join("tests/packages").join(name)
}

/// A copy of the fixture package `name` in a temporary folder (kept while the guard lives).
pub(crate) fn package_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&package(name), &dir);
    (tmp, dir)
}

pub(crate) fn rel(p: &Path) -> String {
    p.display().to_string()
}

/// `judge verify` passes the fixture package `name`: no check fails, there is a submission in
/// every verdict folder, each got its folder's verdict, and the time limit was checked.
pub(crate) fn verify_passes(name: &str) {
    let dir = rel(&package(name));
    let (run, report) = verify_json(900, &["--jobs", "2", &dir]);
    assert_eq!(report.problems.len(), 1, "{}", run.stdout);
    for p in &report.problems {
        for c in &p.checks {
            assert_ne!(c.status, "fail", "{}: {}: {}", p.problem, c.name, c.message);
        }
        // Every submission folder is represented and got its folder's verdict.
        let folders: Vec<&str> = p.submissions.iter().map(|s| s.expected.as_str()).collect();
        for v in ["AC", "WA", "TLE", "RE"] {
            assert!(
                folders.contains(&v),
                "{}: no {v} submission in {folders:?}",
                p.problem
            );
        }
        for s in &p.submissions {
            let same = s.expected == s.actual || (s.expected == "RE" && s.actual == "MLE");
            assert!(
                same,
                "{}: {} expected {}, got {}",
                p.problem, s.path, s.expected, s.actual
            );
        }
        assert!(
            p.checks.iter().any(|c| c.name == "time limit"),
            "{}",
            p.problem
        );
    }
    assert!(report.ok && !report.interrupted, "{}", run.stdout);
    run.assert_code(0);
}

#[test]
fn every_fixture_package_has_its_tests() {
    let mut found: Vec<String> = fs::read_dir(root().join("tests/packages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    // `gensum` (data made from generators.yaml) has its tests in tests/generators.rs,
    // `halfcredit` (a custom grader) in tests/scoring.rs, `twopass` and `passcount`
    // (multi-pass) in tests/multipass.rs, `ansdouble` (answer validators) in
    // tests/answers.rs, `selfname` (a generator folder linked to another) in
    // tests/generators.rs; `ioigrader` (legacy include/) and `weighted` (a C++ custom
    // grader) in tests/layouts.rs; `threadecho`, `constdouble` and `included` their own below.
    let mut listed = [
        &PACKAGES[..],
        &[
            "ansdouble",
            "constdouble",
            "ctdsum",
            "gensum",
            "halfcredit",
            "included",
            "ioigrader",
            "passcount",
            "selfname",
            "threadecho",
            "twopass",
            "weighted",
        ],
    ]
    .concat();
    listed.sort();
    assert_eq!(found, listed);
}

// One test per package, so that they run side by side (most of their time is spent waiting
// on time limits).
#[test]
fn verify_passes_the_mean_package() {
    verify_passes("mean");
}

#[test]
fn verify_passes_the_pairsum_package() {
    verify_passes("pairsum");
}

#[test]
fn verify_passes_the_guessnum_package() {
    verify_passes("guessnum");
}

#[test]
fn verify_passes_the_divisor_package() {
    verify_passes("divisor");
}

/// `threadecho`, read as BAPCtools reads real packages: `type: pass-fail interactive` (several
/// types in one string, as the format's examples write it), an interactor that starts a
/// thread (jury programs may), and a `submissions.yaml` glob with spaces inside its braces
/// (`secret/{ 2 }`, trimmed), and a folder submission whose `entrypoint` `submissions.yaml`
/// names (its `main.py` fails). Before, the first was a load error, the second a judge error on
/// every test, the third a rule matching no test, the fourth an RTE.
#[test]
fn verify_passes_threadecho_as_bapctools_reads_it() {
    let dir = rel(&package("threadecho"));
    let (run, report) = verify_json(300, &[&dir]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let got: Vec<(&str, &str, &str)> = p
        .submissions
        .iter()
        .map(|s| (s.path.as_str(), s.expected.as_str(), s.actual.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("submissions/accepted/echo.py", "AC", "AC"),
            ("submissions/accepted/folder", "AC", "AC"),
            ("submissions/wrong_answer/plus_one.py", "WA", "WA"),
        ]
    );
    run.assert_code(0);
}

/// `constdouble`: `problem.yaml`'s `constants:` (2025-09) are substituted into the input
/// validator (`{{MAX}}` is 100: 101 in data/invalid_input is rejected, 100 accepted), not into
/// submissions (one printing `{{MAX}}` as it is gets WA), as BAPCtools does. Before, the
/// validator did not run (`{{MAX}}` is no Python integer) and verify stopped.
#[test]
fn verify_substitutes_constants_into_jury_programs_only() {
    let dir = rel(&package("constdouble"));
    let (run, report) = verify_json(300, &[&dir]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let invalid = p
        .checks
        .iter()
        .find(|c| c.name == "invalid inputs")
        .unwrap();
    assert!(invalid.message.contains("rejected"), "{}", invalid.message);
    let got = p.verdicts();
    assert_eq!(
        got,
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/wrong_answer/literal.py", "WA"),
        ]
    );
    run.assert_code(0);
}

/// `submissions.yaml`'s `language:` names a submission's language (a package-format code,
/// `python3`, or judge's id) over its file name: a Python program in a `.txt` file is run as
/// Python; one naming a language judge does not compile is listed as not checked, saying so.
/// Before, the key was read and ignored: both were "not in a language judge compiles".
#[test]
fn submissions_yaml_names_a_submissions_language() {
    let (_tmp, dir) = package_copy("constdouble");
    fs::write(
        dir.join("submissions/accepted/double.txt"),
        "print(2 * int(input()))\n",
    )
    .unwrap();
    fs::write(dir.join("submissions/accepted/double.cob"), "nothing\n").unwrap();
    fs::write(
        dir.join("submissions/submissions.yaml"),
        "accepted/double.txt:\n  language: python3\naccepted/double.cob:\n  language: cobol\n",
    )
    .unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/accepted/double.txt", "AC"),
            ("submissions/wrong_answer/literal.py", "WA"),
        ]
    );
    assert!(
        run.stdout
            .contains("submissions.yaml gives it language `cobol`, which judge does not compile"),
        "{}",
        run.stdout
    );
    run.assert_code(0);
}

/// `problem.yaml`'s `languages` (2025-09) lists the languages a submission may be in: a jury
/// submission in another is not checked, saying why (as BAPCtools refuses it), and `grade`
/// grades a contestant's all the same with one warning line. Before, the key was ignored
/// (the format's `maximal` lists python3 and cpp and has PHP submissions).
#[test]
fn problem_yaml_languages_leaves_other_languages_out() {
    let (_tmp, dir) = package_copy("constdouble");
    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    fs::write(
        dir.join("problem.yaml"),
        format!("{yaml}languages: [python3]\n"),
    )
    .unwrap();
    let cpp = dir.join("submissions/accepted/double.cpp");
    fs::write(
        &cpp,
        "#include <cstdio>\nint main() { long n; std::scanf(\"%ld\", &n); std::printf(\"%ld\\n\", 2 * n); }\n",
    )
    .unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert_eq!(
        p.verdicts(),
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/wrong_answer/literal.py", "WA"),
        ]
    );
    assert!(
        run.stdout.contains(
            "problem.yaml's `languages` (python3) does not list C++ (`cpp`); not checked"
        ),
        "{}",
        run.stdout
    );
    run.assert_code(0);

    let run = judge_timed(120, &["grade", &rel(&dir), &rel(&cpp), "--json"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "double.cpp: problem.yaml's `languages` (python3) does not list C++ (`cpp`); graded all the same"
        ),
        "{}",
        run.stderr
    );
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "AC", "{}", run.stdout);
}

/// `included`: the files of `include/python3/` are added to every Python submission, those of
/// `include/default/` to a C++ one (no `include/cpp/`), `{{offset}}` replaced by the constant;
/// an included file replaces a folder submission's own of the same name. The accepted
/// submissions need them (the offset is in no submission): jury submissions in `verify`, and
/// a contestant's in `grade`. Before, `include/` was ignored: the Python ones failed to import
/// `offset`, the C++ one did not compile.
#[test]
fn included_files_are_added_to_submissions_in_their_language() {
    let dir = rel(&package("included"));
    let (run, report) = verify_json(300, &[&dir]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let got = p.verdicts();
    assert_eq!(
        got,
        [
            ("submissions/accepted/add.cpp", "AC"),
            ("submissions/accepted/add.py", "AC"),
            ("submissions/accepted/folder", "AC"),
            ("submissions/wrong_answer/six.py", "WA"),
        ]
    );
    run.assert_code(0);

    let tmp = tempfile::tempdir().unwrap();
    let sub = tmp.path().join("contestant.py");
    fs::write(&sub, "import offset\nprint(int(input()) + offset.OFFSET)\n").unwrap();
    let run = judge_timed(120, &["grade", &dir, &rel(&sub), "--json"]);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(r["verdict"], "AC", "{}", run.stdout);
    run.assert_code(0);
}

/// Included files are also in a submission's working folder, as in the Kattis and DOMjudge
/// ones (the format's `maximal` has a PHP submission reading `./data.txt`): a C and a Python
/// submission that read the offset from `data.txt` (in `include/default/` and
/// `include/python3/`, `{{offset}}` replaced) are accepted, in `grade` and in `verify`. The
/// file is the jury's: a submission can neither change nor remove it (the Python one checks
/// both before it answers). Before, the files were only beside the source in the compile
/// folder: both submissions failed to open `data.txt`.
#[test]
fn included_files_are_in_the_working_folder() {
    let (_tmp, dir) = package_copy("included");
    for lang in ["default", "python3"] {
        fs::write(
            dir.join("include").join(lang).join("data.txt"),
            "{{offset}}\n",
        )
        .unwrap();
    }
    let accepted = dir.join("submissions/accepted");
    fs::write(
        accepted.join("reads.c"),
        "#include <stdio.h>\n\
         int main(void) {\n\
             FILE *f = fopen(\"data.txt\", \"r\");\n\
             int n, offset;\n\
             if (!f || fscanf(f, \"%d\", &offset) != 1) return 3;\n\
             if (scanf(\"%d\", &n) != 1) return 1;\n\
             printf(\"%d\\n\", n + offset);\n\
             return 0;\n\
         }\n",
    )
    .unwrap();
    fs::write(
        accepted.join("reads.py"),
        "import os\n\
         offset = int(open('data.txt').read())\n\
         for tamper in (lambda: open('data.txt', 'w').write('0'), lambda: os.remove('data.txt')):\n\
         \x20   try:\n\
         \x20       tamper()\n\
         \x20       raise SystemExit(4)\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         assert int(open('data.txt').read()) == offset\n\
         print(int(input()) + offset)\n",
    )
    .unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let got = p.verdicts();
    assert!(
        got.contains(&("submissions/accepted/reads.c", "AC")),
        "{got:?}"
    );
    assert!(
        got.contains(&("submissions/accepted/reads.py", "AC")),
        "{got:?}"
    );
    run.assert_code(0);
    for sub in ["reads.c", "reads.py"] {
        let run = judge_timed(
            120,
            &["grade", &rel(&dir), &rel(&accepted.join(sub)), "--json"],
        );
        let r: serde_json::Value = serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
        assert_eq!(r["verdict"], "AC", "{sub}: {}", run.stdout);
        run.assert_code(0);
    }
}

/// A package whose only tests are samples (several of BAPCtools' test problems, which
/// BAPCtools runs on them): verify judges the samples, with a `warn` saying so, instead of
/// refusing the package. One with no test at all is still refused.
#[test]
fn a_package_with_samples_only_is_verified_on_them() {
    let (_tmp, dir) = package_copy("constdouble");
    fs::remove_dir_all(dir.join("data/secret")).unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    assert!(
        p.checks.iter().any(|c| c.status == "warn"
            && c.message.contains("the samples are the whole test set")),
        "{}",
        run.stdout
    );
    let got: Vec<&str> = p.submissions.iter().map(|s| s.actual.as_str()).collect();
    assert_eq!(got, ["AC", "WA"]);
    run.assert_code(0);
    fs::remove_dir_all(dir.join("data/sample")).unwrap();
    let run = judge_timed(300, &["verify", &rel(&dir)]);
    assert_clean_error(&run);
    assert!(
        run.stderr.contains("data/secret is missing"),
        "{}",
        run.stderr
    );
}

/// Shell scripts as jury programs and submissions (BAPCtools' `hello` checks its inputs with
/// `validate.sh` and has `.sh` / `.bash` submissions): `constdouble` with a bash input
/// validator (a regex, `{{MAX}}` substituted: 101 in data/invalid_input is rejected) and bash
/// submissions, AC, TLE and RE as their folders say; then an input the validator rejects
/// fails verify, naming the validator and its exit status. Before, the validator was skipped with a package
/// warning and the submissions were not graded.
#[test]
fn shell_scripts_validate_inputs_and_are_graded() {
    let (_tmp, dir) = package_copy("constdouble");
    let subs = dir.join("submissions");
    fs::remove_file(dir.join("input_validators/validate.py")).unwrap();
    fs::write(
        dir.join("input_validators/validate.sh"),
        "# One integer 1..{{MAX}} on one line.\n\
         data=$(cat; echo x)\n\
         data=${data%x}\n\
         [[ $data =~ ^[1-9][0-9]{0,5}$'\\n'$ ]] || exit 43\n\
         (( $(echo \"$data\" | tr -d '\\n') <= {{MAX}} )) || exit 43\n\
         exit 42\n",
    )
    .unwrap();
    fs::write(
        subs.join("accepted/double.sh"),
        "read -r n\necho $((2 * n))\n",
    )
    .unwrap();
    for folder in ["time_limit_exceeded", "run_time_error"] {
        fs::create_dir_all(subs.join(folder)).unwrap();
    }
    fs::write(
        subs.join("time_limit_exceeded/spin.bash"),
        "while :; do :; done\n",
    )
    .unwrap();
    fs::write(
        subs.join("run_time_error/missing.sh"),
        "set -e\nread -r n\ncat /no/such/file\necho $((2 * n))\n",
    )
    .unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let invalid = p.check("invalid inputs");
    assert!(invalid.message.contains("rejected"), "{}", invalid.message);
    let got = p.verdicts();
    assert_eq!(
        got,
        [
            ("submissions/accepted/double.py", "AC"),
            ("submissions/accepted/double.sh", "AC"),
            ("submissions/run_time_error/missing.sh", "RE"),
            ("submissions/time_limit_exceeded/spin.bash", "TLE"),
            ("submissions/wrong_answer/literal.py", "WA"),
        ]
    );
    run.assert_code(0);
    fs::write(dir.join("data/secret/3.in"), "0\n").unwrap();
    fs::write(dir.join("data/secret/3.ans"), "0\n").unwrap();
    let run = judge_timed(300, &["verify", "--no-submissions", &rel(&dir)]);
    run.assert_code(1);
    assert!(
        run.stdout
            .contains("data/secret/3.in: rejected by input_validators/validate.sh (exit 43)"),
        "{}",
        run.stdout
    );
}

/// A program that writes forever is stopped at the output limit (OLE), where BAPCtools,
/// problemtools and DOMjudge let it write on to its time limit (TLE): in a Kattis package's
/// `time_limit_exceeded` folder (BAPCtools' `hello/.../test-fill-stdout.cc`) it meets the
/// expectation, as in `run_time_error`; in `wrong_answer` it does not.
#[test]
fn an_endless_writer_meets_a_time_limit_expectation() {
    let (_tmp, dir) = package_copy("constdouble");
    let flood = "import sys\nwhile True:\n    sys.stdout.write('nonsense\\n' * 1000)\n";
    for folder in ["time_limit_exceeded", "run_time_error"] {
        fs::create_dir_all(dir.join("submissions").join(folder)).unwrap();
        fs::write(dir.join("submissions").join(folder).join("flood.py"), flood).unwrap();
    }
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    for folder in ["time_limit_exceeded", "run_time_error"] {
        let s = p.submission(&format!("{folder}/flood.py"));
        assert_eq!(s.actual, "OLE", "{s:?}");
    }
    run.assert_code(0);
    fs::write(dir.join("submissions/wrong_answer/flood.py"), flood).unwrap();
    let run = judge_timed(300, &["verify", &rel(&dir)]);
    run.assert_code(1);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("wrong_answer/flood.py:"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        line.starts_with("  FAIL") && line.contains("OLE on test `"),
        "{line}"
    );
}

/// What judge cannot check of a package that may be fine is a warning, as BAPCtools runs such
/// packages (its `testexpectations` has no input validator, `hellounix` no accepted
/// submission): `constdouble` with a VIVA input validator only (skipped), so no validator
/// judge runs (its inputs and data/invalid_input not checked), and no accepted submission (its
/// time limit is problem.yaml's) passes with those warnings (its answer validator runs: no
/// warning since answer validators are run); `--strict` fails it on them, as
/// problemtools (which refuses such a package) would; a fault of the package (an unknown key
/// in problem.yaml) fails it either way.
#[test]
fn an_incomplete_package_warns_and_fails_only_with_strict() {
    let (_tmp, dir) = package_copy("constdouble");
    fs::remove_file(dir.join("input_validators/validate.py")).unwrap();
    fs::write(dir.join("input_validators/validate.viva"), "").unwrap();
    fs::remove_dir_all(dir.join("submissions/accepted")).unwrap();
    fs::create_dir_all(dir.join("answer_validators")).unwrap();
    fs::write(dir.join("answer_validators/validate.sh"), "exit 42\n").unwrap();
    let (run, report) = verify_json(300, &[&rel(&dir)]);
    let p = &report.problems[0];
    let warned: Vec<(&str, &str)> = p
        .checks
        .iter()
        .filter(|c| c.status != "ok")
        .map(|c| (c.name.as_str(), c.status.as_str()))
        .collect();
    assert_eq!(
        warned,
        [
            ("package", "warn"),
            ("validator", "warn"),
            ("invalid inputs", "warn"),
            ("submissions", "warn"),
        ],
        "{:#?}",
        p.checks
    );
    assert!(p.check("validator").message.contains("not checked"));
    assert_eq!(
        p.check("answer validator").message,
        "all 3 test answers are valid (1 answer validator)"
    );
    assert!(
        p.checks.iter().any(|c| c.name == "package"
            && c.status == "warn"
            && c.message.contains("validate.viva")),
        "{:#?}",
        p.checks
    );
    assert!(p
        .check("submissions")
        .message
        .contains("holds no submission"));
    assert_eq!(
        p.submission("wrong_answer/literal.py").actual,
        "WA",
        "{:?}",
        p.submissions
    );
    assert!(report.ok && !report.strict, "{}", run.stdout);
    run.assert_code(0);
    assert!(
        run.stderr.contains("no input validator judge can run"),
        "{}",
        run.stderr
    );

    let run = judge_timed(300, &["verify", "--strict", &rel(&dir)]);
    run.assert_code(1);
    assert!(
        run.stdout
            .contains("0 failed (--strict: the warnings fail)"),
        "{}",
        run.stdout
    );
    let run = judge_timed(300, &["verify", "--strict", "--json", &rel(&dir)]);
    let report: VerifyReport = serde_json::from_str(&run.stdout).unwrap();
    assert!(!report.ok && report.strict, "{}", run.stdout);
    run.assert_code(1);

    let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
    fs::write(dir.join("problem.yaml"), format!("{yaml}colour: red\n")).unwrap();
    let run = judge_timed(300, &["verify", "--json", &rel(&dir)]);
    let report: VerifyReport = serde_json::from_str(&run.stdout).unwrap();
    let p = &report.problems[0];
    assert!(
        p.checks
            .iter()
            .any(|c| c.status == "fail" && c.message.contains("unknown key `colour`")),
        "{:#?}",
        p.checks
    );
    run.assert_code(1);
}

#[derive(Debug, Deserialize)]
struct GradeReport {
    submission: String,
    verdict: String,
    tests: Vec<serde_json::Value>,
}

/// Every jury submission of fixture package `name`, graded: the verdict its folder names.
pub(crate) fn grade_gives_each_submission_its_folders_verdict(name: &str) {
    let dir = package(name);
    let mut subs = Vec::new();
    for folder in [
        "accepted",
        "wrong_answer",
        "time_limit_exceeded",
        "run_time_error",
    ] {
        let mut files: Vec<PathBuf> = fs::read_dir(dir.join("submissions").join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        subs.extend(files.into_iter().map(|f| (folder, rel(&f))));
    }
    let d = rel(&dir);
    let mut args = vec!["grade", d.as_str(), "--json", "--jobs", "2"];
    args.extend(subs.iter().map(|(_, s)| s.as_str()));
    let run = judge_timed(900, &args);
    run.assert_code(1);
    let reports: Vec<GradeReport> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(reports.len(), subs.len(), "{}", run.stderr);
    for ((folder, path), r) in subs.iter().zip(&reports) {
        assert_eq!(&r.submission, path);
        let want: &[&str] = match *folder {
            "accepted" => &["AC"],
            "wrong_answer" => &["WA"],
            "time_limit_exceeded" => &["TLE"],
            _ => &["RE", "MLE"],
        };
        assert!(
            want.contains(&r.verdict.as_str()),
            "{name}: {path} got {}: {:?}",
            r.verdict,
            r.tests.last()
        );
    }
    if name == "mean" || name == "divisor" {
        // No limits.time_limit: computed from the accepted submissions first, as the
        // slowest one x 5 rounded up to a whole second.
        let note = run
            .stderr
            .lines()
            .find(|l| l.starts_with("note: time limit "))
            .unwrap_or_else(|| panic!("no time-limit note: {}", run.stderr));
        let limit: f64 = note["note: time limit ".len()..]
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{note}"));
        let slowest: f64 = note
            .split("slowest accepted submission ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{note}"));
        assert_eq!(limit, (slowest * 5.0).ceil().max(1.0), "{note}");
    }
}

#[test]
fn grade_gives_each_mean_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("mean");
}

#[test]
fn grade_gives_each_pairsum_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("pairsum");
}

#[test]
fn grade_gives_each_guessnum_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("guessnum");
}

#[test]
fn an_interactive_submission_is_stopped_once_the_validator_rejected_first() {
    // The validator rejects the first line and exits; the submission then spins without
    // reading. Its verdict is WA whatever it does next, so it is stopped there, not at the
    // 1 s CPU limit on each of the 5 tests.
    let dir = package("guessnum");
    let sub = rel(&dir.join("submissions/wrong_answer/garbage_then_spin.py"));
    let run = judge_timed(
        300,
        &["grade", &rel(&dir), &sub, "--all", "--json", "--jobs", "1"],
    );
    run.assert_code(1);
    let report: GradeReport =
        serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    assert_eq!(report.verdict, "WA", "{}", run.stdout);
    assert_eq!(report.tests.len(), 5, "{}", run.stdout);
    for t in &report.tests {
        assert_eq!(t["verdict"], "WA", "{t}");
        assert!(
            t["message"].as_str().unwrap().contains("no number"),
            "the validator's message: {t}"
        );
        let cpu = t["time_ms"].as_u64().unwrap();
        assert!(cpu < 500, "stopped well before the 1 s limit: {t}");
    }
}

/// The TLEs of `sub` graded on fixture `package` with two jobs: every test's (verdict, runs).
fn graded_runs(package_name: &str, sub: &Path) -> Vec<(String, u64)> {
    let dir = package(package_name);
    let run = judge_timed(
        300,
        &[
            "grade",
            &rel(&dir),
            &rel(sub),
            "--all",
            "--json",
            "--jobs",
            "2",
        ],
    );
    run.assert_code(1);
    let report: GradeReport =
        serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    report
        .tests
        .iter()
        .map(|t| {
            let message = t["message"].as_str().unwrap();
            assert!(message.contains("wall-time backstop"), "{t}");
            (
                t["verdict"].as_str().unwrap().into(),
                t["runs"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_tle_by_the_wall_clock_is_not_run_again_alone_when_every_wait_was_measured() {
    // Stopped by the wall-clock backstop beside another run, with the time spent waiting for
    // a CPU measured and left out (of the submission, and in an interactive run of the
    // validator and the relay it waits on): a run alone would be stopped too, so none is
    // re-run alone (each was, at 2 s a test, before).
    let flush = package("guessnum").join("submissions/time_limit_exceeded/no_flush.cpp");
    let got = graded_runs("guessnum", &flush);
    assert_eq!(got, vec![("TLE".to_string(), 1); 5], "never flushes");
    let sleep = common::programs().join("tle_sleep.c");
    let got = graded_runs("mean", &sleep);
    assert!(got.len() >= 2, "{got:?}");
    assert!(got.iter().all(|g| *g == ("TLE".to_string(), 1)), "{got:?}");
}

#[test]
fn grade_gives_each_divisor_submission_its_folders_verdict() {
    grade_gives_each_submission_its_folders_verdict("divisor");
}

#[test]
fn check_uses_the_default_validator_with_the_packages_float_tolerance() {
    let dir = rel(&package("mean"));
    let input = rel(&package("mean").join("data/sample/1.in"));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    fs::write(&out, "2.3333334\n").unwrap();
    let run = judge_timed(120, &["check", &dir, &input, &rel(&out)]);
    run.assert_code(0);
    assert_eq!(run.stdout, "AC\n");
    fs::write(&out, "2.34\n").unwrap();
    let run = judge_timed(120, &["check", &dir, &input, &rel(&out)]);
    run.assert_code(1);
    assert!(
        run.stdout
            .starts_with("WA: token 1 (line 1): expected `2.3333333333`, got `2.34`"),
        "{}",
        run.stdout
    );
}

#[test]
fn validate_runs_the_input_validators_with_their_group_arguments() {
    let dir = package("pairsum");
    let d = rel(&dir);
    // Valid in the large group, too big for the small group's --max-n 10.
    let big = rel(&dir.join("data/invalid_input/too-big-for-small.in"));
    let run = judge_timed(120, &["validate", &d, &big]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "rejected by input_validators/validate.py (exit 43): n = 11 is not in [2, 10]"
        ),
        "{}",
        run.stdout
    );
    let ok = rel(&dir.join("data/secret/large/01-last.in"));
    judge_timed(120, &["validate", &d, &ok]).assert_code(0);
}

#[test]
fn solve_answers_from_data_or_runs_the_first_accepted_submission() {
    let dir = package("mean");
    let d = rel(&dir);
    let run = judge_timed(
        120,
        &["solve", &d, &rel(&dir.join("data/secret/02-quarter.in"))],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "1.25\n");
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("new.in");
    fs::write(&input, "2\n1 2\n").unwrap();
    let run = judge_timed(120, &["solve", &d, &rel(&input)]);
    run.assert_code(0);
    assert_eq!(run.stdout, "1.500000000\n");
}

#[test]
fn stress_says_a_kattis_package_has_no_generators() {
    let dir = package("mean");
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["stress", &rel(&dir), &sub, "--count", "1"]);
    run.assert_code(2);
    assert_clean_error(&run);
    assert!(run.stderr.contains("has no generators"), "{}", run.stderr);
}

/// `ctdsum`'s checktestdata validator accepts every test input and rejects every invalid one:
/// verify passes and runs the submissions.
#[test]
fn verify_runs_a_checktestdata_input_validator_on_every_input() {
    let (run, report) = verify_json(300, &[&rel(&package("ctdsum"))]);
    let p = &report.problems[0];
    p.assert_no_check_failed();
    let message = |name: &str| {
        p.checks
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.message.clone())
            .unwrap_or_default()
    };
    assert!(
        message("validator").contains("all 3 test inputs are valid"),
        "{}",
        run.stdout
    );
    assert!(
        message("invalid inputs").contains("all 6 files in data/invalid_input are rejected"),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("not supported"), "{}", run.stderr);
    run.assert_code(0);
}

/// What a validator said of a file is remembered: a second verify with nothing changed does
/// not run it again and reports the same, while a changed file, a changed validator or
/// `--fresh` runs it again. The validator sleeps 2 s a run, so whether it ran shows in the
/// verify's static checks time.
#[test]
fn a_validation_is_remembered_until_the_file_or_the_validator_changes() {
    let (_tmp, dir) = package_copy("constdouble");
    let validator = dir.join("input_validators/validate.py");
    let text = fs::read_to_string(&validator).unwrap();
    fs::write(
        &validator,
        text.replacen("import re\n", "import re\nimport time\ntime.sleep(2)\n", 1),
    )
    .unwrap();
    let d = rel(&dir);
    // (static checks ms, the validator's and the invalid inputs' messages)
    let verify = |extra: &[&str]| {
        let mut args = vec!["--no-submissions", d.as_str()];
        args.extend_from_slice(extra);
        let (run, report) = verify_json(300, &args);
        run.assert_code(0);
        let p = &report.problems[0];
        let messages = [p.check("validator"), p.check("invalid inputs")].map(|c| c.message.clone());
        (p.time.static_checks_ms, messages)
    };
    let (first, said) = verify(&[]);
    assert!(first >= 2000, "{first} ms: the validator ran");
    assert!(said[0].contains("all 3 test inputs are valid"), "{said:?}");
    assert!(said[1].contains("rejected"), "{said:?}");
    let (again, same) = verify(&[]);
    assert!(
        again < 2000,
        "{again} ms: remembered, the validator did not run"
    );
    assert_eq!(same, said);
    let (fresh, same) = verify(&["--fresh"]);
    assert!(fresh >= 2000, "{fresh} ms: --fresh runs it again");
    assert_eq!(same, said);
    // A changed input is validated again; a changed validator validates everything again.
    fs::write(dir.join("data/secret/2.in"), "3\n").unwrap();
    fs::write(dir.join("data/secret/2.ans"), "6\n").unwrap();
    let (changed, _) = verify(&[]);
    assert!(changed >= 2000, "{changed} ms: the changed input");
    let (unchanged, _) = verify(&[]);
    assert!(unchanged < 2000, "{unchanged} ms");
    fs::write(
        &validator,
        format!("{}\n# changed\n", fs::read_to_string(&validator).unwrap()),
    )
    .unwrap();
    let (rebuilt, same) = verify(&[]);
    assert!(rebuilt >= 2000, "{rebuilt} ms: the changed validator");
    assert_eq!(same, said);
}

/// `judge validate` with a checktestdata validator names the input's line and column and what
/// the program expected there.
#[test]
fn validate_names_where_a_checktestdata_validator_rejects_an_input() {
    let dir = package("ctdsum");
    let d = rel(&dir);
    for (file, want) in [
        ("minus-zero.in", ":2:1: rejected by input_validators/format.ctd: INT(-1000, 1000, a[i]): `-0` is not an integer"),
        ("leading-zero.in", ":2:1: rejected by input_validators/format.ctd: INT(-1000, 1000, a[i]): integer `01` has leading zeros"),
        ("double-space.in", ":2:3: rejected by input_validators/format.ctd: INT(-1000, 1000, a[i]): expected an integer, found a space"),
        ("too-few.in", ":2:4: rejected by input_validators/format.ctd: SPACE: expected a space, found a newline"),
        ("too-big.in", ":2:1: rejected by input_validators/format.ctd: INT(-1000, 1000, a[i]): integer 1001 is out of range [-1000, 1000]"),
        ("repeated.in", ":3:1: rejected by input_validators/format.ctd: ASSERT(UNIQUE(a)): assertion failed: UNIQUE: (5) occurs more than once, at a[0] and a[1]"),
    ] {
        let input = rel(&dir.join("data/invalid_input").join(file));
        let run = judge_timed(120, &["validate", &d, &input]);
        run.assert_code(1);
        assert!(run.stdout.contains(&format!("{file}{want}")), "{}", run.stdout);
    }
    let ok = rel(&dir.join("data/secret/02-ten.in"));
    judge_timed(120, &["validate", &d, &ok]).assert_code(0);
}

/// An error in the checktestdata program itself is the package's error (file:line:column),
/// found before any input is blamed; so is one found while it runs.
#[test]
fn a_broken_checktestdata_program_is_one_clear_error() {
    let (_t, dir) = broken("ctdsum", |d| {
        fs::write(
            d.join("input_validators/format.ctd"),
            "INT(1, 10, n) NEWLINE\nREP(n SPACE)\n",
        )
        .unwrap()
    });
    let input = rel(&dir.join("data/sample/1.in"));
    let run = judge_timed(120, &["validate", &rel(&dir), &input]);
    assert_package_error(
        &run,
        "input_validators/format.ctd:2:7",
        "expected `)`, found `SPACE`",
    );
    let run = judge_timed(120, &["verify", &rel(&dir), "--no-submissions"]);
    assert_package_error(&run, "input_validators/format.ctd:2:7", "expected `)`");
    fs::write(
        dir.join("input_validators/format.ctd"),
        "INT(1, 10, n) NEWLINE\nASSERT(m == n)\n",
    )
    .unwrap();
    let run = judge_timed(120, &["validate", &rel(&dir), &input]);
    assert_package_error(
        &run,
        "input_validators/format.ctd:2:8",
        "variable m is not set",
    );
}

/// A copy of fixture `name` in a temp folder, broken by `breakit`.
fn broken(name: &str, breakit: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&package(name), &dir);
    breakit(&dir);
    (tmp, dir)
}

/// One `error:` line naming `file`, exit status 2, no panic.
fn assert_package_error(run: &Run, file: &str, what: &str) {
    run.assert_code(2);
    let error = common::the_error_line(run);
    assert!(error.contains(file) && error.contains(what), "{error}");
}

#[test]
fn a_missing_secret_folder_is_one_clear_error() {
    // (With the samples left, verify runs on them: a_package_with_samples_only_is_verified_on_them.)
    let (_t, dir) = broken("mean", |d| {
        fs::remove_dir_all(d.join("data/secret")).unwrap();
        fs::remove_dir_all(d.join("data/sample")).unwrap();
    });
    let run = judge_timed(120, &["verify", &rel(&dir)]);
    assert_package_error(&run, "data/secret", "is missing");
}

#[test]
fn a_validator_that_does_not_compile_is_one_clear_error() {
    let (_t, dir) = broken("mean", |d| {
        fs::write(
            d.join("input_validators/validate.cpp"),
            "int main( { return 42; }\n",
        )
        .unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub]);
    assert_package_error(&run, "input_validators/validate.cpp", "does not build");
    assert!(
        run.stdout.is_empty(),
        "no submission is graded: {}",
        run.stdout
    );
}

#[test]
fn a_validator_exiting_0_instead_of_42_is_one_clear_error() {
    let (_t, dir) = broken("mean", |d| {
        fs::remove_file(d.join("input_validators/validate.cpp")).unwrap();
        fs::write(
            d.join("input_validators/validate.py"),
            "import sys\nsys.exit(0)\n",
        )
        .unwrap();
    });
    let input = rel(&dir.join("data/secret/01-single.in"));
    let run = judge_timed(120, &["validate", &rel(&dir), &input]);
    assert_package_error(&run, "input_validators/validate.py", "exited with status 0");
    let run = judge_timed(120, &["verify", &rel(&dir), "--no-submissions"]);
    assert_package_error(&run, "input_validators/validate.py", "must exit 42");
}

#[test]
fn an_input_without_an_answer_is_one_clear_error() {
    let (_t, dir) = broken("mean", |d| {
        fs::remove_file(d.join("data/secret/02-quarter.ans")).unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/mean.cpp"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub]);
    assert_package_error(&run, "02-quarter.in", "has no answer file");
}

#[test]
fn a_wrong_problem_type_is_one_clear_error() {
    let (_t, dir) = broken("pairsum", |d| {
        let text = fs::read_to_string(d.join("problem.yaml")).unwrap();
        fs::write(d.join("problem.yaml"), format!("{text}type: pass-fale\n")).unwrap();
    });
    let run = judge_timed(120, &["verify", &rel(&dir)]);
    assert_package_error(&run, "problem.yaml", "`pass-fale` is not a problem type");
}

#[test]
fn a_checker_breaking_its_protocol_is_a_judge_error_not_a_wrong_answer() {
    let (_t, dir) = broken("pairsum", |d| {
        fs::write(
            d.join("output_validator/validate.py"),
            "import sys\nsys.exit(0)\n",
        )
        .unwrap()
    });
    let sub = rel(&dir.join("submissions/accepted/hashing.py"));
    let run = judge_timed(120, &["grade", &rel(&dir), &sub, "--json"]);
    run.assert_code(1);
    let r: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(r["verdict"], "JE", "{}", run.stdout);
    let msg = r["tests"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("output_validator") && msg.contains("exited with status 0"),
        "{msg}"
    );
}

/// A submission that is wrong on the sample, right on the large test, wrong again with another
/// message on `secret/small/01`, and, if `crash`, crashes on the last test (`secret/small/02`).
fn mixed_program(crash: bool) -> String {
    let last = if crash {
        "raise SystemExit(1)"
    } else {
        "print(1, 2)"
    };
    format!(
        "n, t = map(int, input().split())\n\
         a = list(map(int, input().split()))\n\
         if n == 4:\n    print('x y')\n\
         elif n == 5:\n    print(1, 2, 3)\n\
         elif n == 2:\n    {last}\n\
         else:\n\
         \x20   where = {{}}\n\
         \x20   for j, x in enumerate(a):\n\
         \x20       if t - x in where:\n\
         \x20           print(where[t - x] + 1, j + 1)\n\
         \x20           break\n\
         \x20       where.setdefault(x, j)\n"
    )
}

/// The accepted `hashing.py` of the pairsum copy `d`, doing `slow` (Python, indented by 4)
/// first on the last test only (`secret/small/02`, the one with n = 2): AC on the tests before
/// it, so verify must run up to that last test to see the time it takes, and the slow runs
/// verify repeats to time it are of one test only.
fn slow_on_the_last_test(d: &Path, slow: &str) -> String {
    format!(
        "import sys, time\n\
         lines = sys.stdin.read().split('\\n')\n\
         if lines[0].split()[0] == '2':\n\
         \x20   {slow}\n\
         lines = iter(lines)\n\
         input = lambda: next(lines)\n\
         {}",
        fs::read_to_string(d.join("submissions/accepted/hashing.py")).unwrap()
    )
}

/// Verify stops running a submission once its rules are decided; that must never change what
/// it reports: a rule met on the first test but broken on the last still fails, a `message`
/// rule sees the messages of later tests, and a must-TLE submission that finishes within the
/// raised limit is still caught (its runs at the raised limit tell both verdicts, by CPU time
/// and by the wall clock of the limit).
#[test]
fn an_early_decision_never_hides_a_later_test() {
    let (_t, dir) = broken("pairsum", |d| {
        let mixed = d.join("submissions/mixed");
        fs::create_dir_all(&mixed).unwrap();
        fs::write(mixed.join("late_crash.py"), mixed_program(true)).unwrap();
        fs::write(mixed.join("late_message.py"), mixed_program(false)).unwrap();
        fs::write(mixed.join("no_such_message.py"), mixed_program(false)).unwrap();
        // Spins 1.2 s of CPU time on the last test, then answers: over the 1 s limit,
        // within 1.5 s.
        fs::write(
            d.join("submissions/time_limit_exceeded/just_over.py"),
            slow_on_the_last_test(d, "while time.process_time() < 1.2:\n        pass"),
        )
        .unwrap();
        // Sleeps 2.3 s on the last test, then answers: killed at the 1 s limit's 2 s wall
        // clock, finished within the raised limit's 3 s (so it is time-limit sensitive, read
        // at the limit).
        fs::write(
            d.join("submissions/time_limit_exceeded/sleeper.py"),
            slow_on_the_last_test(d, "time.sleep(2.3)"),
        )
        .unwrap();
        let yaml = d.join("submissions/submissions.yaml");
        let text = fs::read_to_string(&yaml).unwrap();
        fs::write(
            &yaml,
            text + "mixed/late_crash.py:\n  permitted: [AC, WA]\n  required: [WA]\n\
                    mixed/late_message.py:\n  required: [WA]\n  message: \"got 3 tokens\"\n\
                    mixed/no_such_message.py:\n  required: [WA]\n  message: \"never said\"\n",
        )
        .unwrap();
    });
    let run = judge_timed(600, &["verify", "--json", "--jobs", "2", &rel(&dir)]);
    run.assert_code(1);
    let report: VerifyReport = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr));
    let p = &report.problems[0];
    let expect = |name: &str, status: &str, says: &str| {
        let c = p.check(&format!("submissions/{name}"));
        assert!(c.status == status && c.message.contains(says), "{c:?}");
    };
    expect(
        "mixed/late_crash.py",
        "fail",
        "RE on test `secret/small/02`",
    );
    expect("mixed/late_crash.py", "fail", "permits only AC/WA");
    expect(
        "mixed/late_message.py",
        "ok",
        "WA on test `sample/1`: positions must be integers",
    );
    expect(
        "mixed/no_such_message.py",
        "fail",
        "no checker message contains `never said`",
    );
    expect(
        "time_limit_exceeded/just_over.py",
        "fail",
        "within 1.5 s = the limit x 1.5 (time-limit sensitive)",
    );
    expect(
        "time_limit_exceeded/sleeper.py",
        "fail",
        "time-limit sensitive",
    );
    let s = p.submission("sleeper.py");
    assert_eq!((s.expected.as_str(), s.actual.as_str()), ("TLE", "TLE"));
    let s = p.submission("just_over.py");
    assert_eq!((s.expected.as_str(), s.actual.as_str()), ("TLE", "TLE"));
    assert!(s.timing.as_ref().is_some_and(|t| !t.capped), "{s:?}");
    // The package's own submissions still pass, the must-TLE one with one run at 1.5 s.
    for c in &p.checks {
        let extra = ["late_crash", "no_such_message", "just_over", "sleeper"];
        if !extra.iter().any(|e| c.name.contains(e)) {
            assert_ne!(c.status, "fail", "{c:?}");
        }
    }
    let t = p.submission("all_pairs.py").timing.as_ref().unwrap();
    assert!(t.capped && t.runs == 1 && t.median_ms >= 1500, "{t:?}");
}

/// Expected results as real contest packages state them, on a copy of the legacy `mean`:
/// DOMjudge's `@EXPECTED_RESULTS@` header in a folder with no meaning of its own (any listed
/// verdict allowed), `rejected/` (anything but accepted), and `submissions.yaml`, which
/// BAPCtools reads in any format version. `verify` prints what each got and what it had to
/// get, and fails on a mismatch, naming it.
#[test]
fn expected_results_from_headers_rejected_and_submissions_yaml() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("mean");
    copy_dir(&package("mean"), &pkg);
    let subs = pkg.join("submissions");
    let write = |rel: &str, text: &str| {
        let p = subs.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    let integer_division =
        "n = int(input())\na = list(map(int, input().split()))\nprint(sum(a) // n)\n";
    write(
        "mixed/either.py",
        &format!("# @EXPECTED_RESULTS@: WRONG_ANSWER, TIMELIMIT\n{integer_division}"),
    );
    write("rejected/crash.py", "raise SystemExit(3)\n");
    write(
        "other/claims_correct.py",
        &format!("# @expected_results@: CORRECT\n{integer_division}"),
    );
    write(
        "submissions.yaml",
        "mixed/either.py:\n  message: \"expected\"\n",
    );
    let dir = pkg.display().to_string();
    let run = judge_timed(900, &["verify", "--jobs", "2", &dir]);
    run.assert_code(1);
    let line = |needle: &str| -> String {
        run.stdout
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle}:\n{}", run.stdout))
            .to_string()
    };
    let either = line("submissions/mixed/either.py:");
    assert!(
        either.starts_with("  ok ")
            && either.contains("WA on test `")
            && either.ends_with("(WA/TLE expected)"),
        "{either}"
    );
    let crash = line("submissions/rejected/crash.py:");
    assert!(
        crash.starts_with("  ok ")
            && crash.contains("RE on test `")
            && crash.ends_with("(rejected expected)"),
        "{crash}"
    );
    let wrong = line("submissions/other/claims_correct.py:");
    assert!(
        wrong.starts_with("  FAIL") && wrong.contains("expected AC, got WA on test `"),
        "{wrong}"
    );
    // A header naming no verdict is a fault of the package, named with its file.
    write(
        "mixed/either.py",
        "# @EXPECTED_RESULTS@: SOMETIMES\nprint(1)\n",
    );
    let run = judge_timed(900, &["verify", "--jobs", "2", &dir]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "submissions/mixed/either.py: @EXPECTED_RESULTS@: `SOMETIMES` is not a verdict"
        ),
        "{}",
        run.stdout
    );
}

/// `scripts/real_packages_table.py` (the table of docs/real-packages.md) reads the tools' logs:
/// judge's verify JSON (a submission's check passed or failed, its score), `bt run`'s coloured
/// summary lines (green: met its expectation, red: not) and verifyproblem's submission lines
/// (`OK: AC (40)` or `ERROR ... got WA`), compares the scores, lists a package whose fetched copy
/// lacks files instead of running it, and splices the table between the page's markers, keeping
/// the rest of the page.
#[test]
fn real_packages_table_reads_both_tools_logs() {
    let scratch = tempfile::tempdir().unwrap();
    let s = scratch.path();
    let write = |rel: &str, text: &str| {
        let p = s.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write("packages.txt", "bapctools/demo\npo/scored\npo/big\n");
    write("logs/po--big.incomplete", "big/data/secret/huge.in\n");
    write("judge/po/scored/problem.yaml", "type: scoring\n");
    write("judge/po/scored/data/secret/1.in", "1\n");
    write(
        "logs/po--scored.judge.json",
        r#"{"ok": true, "interrupted": false, "problems": [{"problem": "scored", "checks": [
            {"name": "submissions/accepted/full.py", "status": "ok", "message": "AC on 1 tests, score 100/100"},
            {"name": "submissions/partially_accepted/half.py", "status": "ok", "message": "AC by the package's rules, score 20/100 (partially_accepted expected)"},
            {"name": "submissions/wrong_answer/bad.cc", "status": "fail", "message": "expected WA, got AC"}],
            "submissions": []}]}"#,
    );
    write("logs/po--scored.judge.status", "0 3.0 1.0\n");
    write(
        "logs/po--scored.vp.out",
        "Checking 3 submissions\n   accepted/full.py (Python 3 (w/PyPy3)) OK: AC (100) [CPU: 0.05s]\n   \
         partially_accepted/half.py (Python 3 (w/PyPy3)) OK: AC (40) [CPU: 0.05s]\n\
         ERROR wrong_answer/bad.cc (C++) got AC (100) [CPU: 0.01s]\n\
         scored tested: 1 error, 0 warnings\n",
    );
    write("logs/po--scored.vp.status", "1 9.0 1.0\n");
    write(
        "judge/bapctools/demo/problem.yaml",
        "problem_format_version: 2025-09\n",
    );
    write("judge/bapctools/demo/data/secret/1.in", "1\n");
    write("judge/bapctools/demo/data/secret/1.ans", "1\n");
    let check = |name: &str, status: &str| {
        format!(r#"{{"name": "{name}", "status": "{status}", "message": "m"}}"#)
    };
    let sub = |path: &str, exp: &str, got: &str| {
        format!(r#"{{"path": "{path}", "expected": "{exp}", "actual": "{got}"}}"#)
    };
    write(
        "logs/bapctools--demo.judge.json",
        &format!(
            r#"{{"ok": false, "interrupted": false, "problems": [{{"problem": "demo", "checks": [{}, {}, {}], "submissions": [{}, {}]}}]}}"#,
            check("package", "ok"),
            check("submissions/accepted/a.py", "ok"),
            check("submissions/wrong_answer/b.py", "fail"),
            sub("submissions/accepted/a.py", "AC", "AC"),
            sub("submissions/wrong_answer/b.py", "WA", "AC"),
        ),
    );
    write("logs/bapctools--demo.judge.status", "1 12.5 10.0\n");
    write(
        "logs/bapctools--demo.btrun.out",
        "\x1b[36maccepted/a.py\x1b[0m:     \x1b[32m AC 0.009s\x1b[0m \x1b[2m@ secret/1\x1b[0m\n\
         \x1b[36mwrong_answer/b.py\x1b[0m: \x1b[1m\x1b[31m\x1b[31m AC 0.008s\x1b[0m \x1b[2m@ secret/1\x1b[0m\n",
    );
    write("logs/bapctools--demo.btrun.status", "1 24.0 20.0\n");
    let page = s.join("page.md");
    fs::write(
        &page,
        "# Page\n\nbefore\n\n<!-- table: made by scripts/real-packages from its logs; do not edit by hand -->\nold\n<!-- end of table -->\n\nafter\n",
    )
    .unwrap();
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/real_packages_table.py"))
        .arg(s)
        .arg("--into")
        .arg(&page)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("# Page\n\nbefore\n\n<!-- table:"),
        "{text}"
    );
    assert!(text.ends_with("<!-- end of table -->\n\nafter\n"), "{text}");
    assert!(!text.contains("\nold\n"), "{text}");
    assert!(
        text.contains("| bapctools/demo | committed (1 input) | 1/2 as expected; verify fails | 1/2 as expected; exit 1 | - | 2/2 | 2.5 s | 4.0 s | - |"),
        "{text}"
    );
    assert!(
        text.contains("| bapctools/demo | accepted/a.py | AC | AC ✓ | AC ✓ | yes |"),
        "{text}"
    );
    assert!(
        text.contains("| bapctools/demo | wrong_answer/b.py | WA | AC ✗ | AC ✗ | yes |"),
        "{text}"
    );
    assert!(
        text.contains("| po/scored | committed (1 input) | 2/3 as expected; verify passes | - | 2/3 as expected; 1 error, 0 warnings | 2/3 | 2.0 s | - | 8.0 s |"),
        "{text}"
    );
    assert!(
        text.contains("| po/scored | partially_accepted/half.py | partially_accepted | AC 20 ✓ | AC 40 ✓ | no |"),
        "{text}"
    );
    assert!(
        text.contains("| po/scored | accepted/full.py | AC | AC 100 ✓ | AC 100 ✓ | yes |"),
        "{text}"
    );
    assert!(
        text.contains(
            "lacks files of 4 MiB or more: po/big (1 files, e.g. `big/data/secret/huge.in`)"
        ),
        "{text}"
    );
}

/// A copy of `mean` with a jury side of its own (a file of its own in the package), so that no
/// other test's runs are remembered for the test using it.
fn mean_with_a_jury_side_of_its_own() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, dir) = package_copy("mean");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    fs::write(dir.join("notes.txt"), format!("{nanos}\n")).unwrap();
    (tmp, dir)
}

/// The daily loop: a second verify of an unchanged package takes its runs from the cache
/// (saying how many), a changed test or submission runs again (its new verdict counts, never a
/// remembered one), and `--fresh` runs everything.
#[test]
fn verify_remembers_runs_of_an_unchanged_package_and_reruns_what_changed() {
    let (_tmp, dir) = mean_with_a_jury_side_of_its_own();
    let verify = |extra: &[&str]| {
        let d = rel(&dir);
        let mut args = vec!["verify", "--jobs", "2"];
        args.extend_from_slice(extra);
        args.push(&d);
        judge_timed(600, &args)
    };
    let remembered = |run: &Run| {
        run.stdout
            .lines()
            .find(|l| l.contains("runs remembered"))
            .map(str::to_owned)
    };
    let first = verify(&[]);
    first.assert_code(0);
    assert_eq!(remembered(&first), None, "{}", first.stdout);
    let second = verify(&[]);
    second.assert_code(0);
    let line = remembered(&second).unwrap_or_else(|| panic!("{}", second.stdout));
    assert!(line.ends_with("--fresh runs them again"), "{line}");
    // A changed answer: the accepted submissions now fail on it, however they passed before.
    let ans = dir.join("data/secret/01-single.ans");
    let good = fs::read_to_string(&ans).unwrap();
    fs::write(&ans, "5\n").unwrap();
    // (Only the accepted ones: with none passing, the must-TLE one would run at 40 s.)
    let changed = verify(&["--submissions", "accepted/"]);
    changed.assert_code(1);
    assert!(
        changed
            .stdout
            .contains("submissions/accepted/mean.py: WA on test `secret/01-single`"),
        "{}",
        changed.stdout
    );
    fs::write(&ans, good).unwrap();
    // A changed submission: it runs again and gets its new verdict.
    let py = dir.join("submissions/accepted/mean.py");
    let original = fs::read(&py).unwrap();
    fs::write(
        &py,
        "n = int(input())\na = list(map(int, input().split()))\nprint(sum(a) // n + 1)\n",
    )
    .unwrap();
    let wrong = verify(&[]);
    wrong.assert_code(1);
    assert!(
        wrong
            .stdout
            .contains("submissions/accepted/mean.py: WA on test `"),
        "{}",
        wrong.stdout
    );
    fs::write(&py, original).unwrap();
    let back = verify(&[]);
    back.assert_code(0);
    assert!(remembered(&back).is_some(), "{}", back.stdout);
    let fresh = verify(&["--fresh"]);
    fresh.assert_code(0);
    assert_eq!(remembered(&fresh), None, "{}", fresh.stdout);
}

/// A package with no time limit whose accepted submissions are not selected (or all fail): the
/// time limit check fails and the other submissions are listed as not run, saying why.
/// Before, they ran at the 20 s measuring limit: `recount.c` spent 20 s on `03-big` (and an
/// interactive one that never flushes, a minute a test) to say nothing.
#[test]
fn without_a_time_limit_the_other_submissions_are_not_run() {
    let dir = rel(&package("mean"));
    let run = judge_timed(120, &["verify", "--submissions", "recount.c", &dir]);
    run.assert_code(1);
    assert!(
        run.stdout.contains(
            "FAIL  time limit: no limits.time_limit and no accepted submission selected by --submissions passes to compute it from"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "warn  submissions/time_limit_exceeded/recount.c: not run: there is no time limit to run it at (see the time limit check)"
        ),
        "{}",
        run.stdout
    );
}

/// A randomised jury submission's runs are remembered too, each run with its order of the
/// tests: a second verify of the unchanged package shows the same runs (the same tally of
/// verdicts) without running any, and `--fresh` draws new ones. Before, every verify ran
/// every randomised submission `--random-runs` times again (11 of a warm dodecahedron
/// verify's 12 s).
#[test]
fn randomised_runs_are_remembered_until_fresh() {
    let (_tmp, dir) = mean_with_a_jury_side_of_its_own();
    fs::create_dir_all(dir.join("submissions/rejected")).unwrap();
    // Either a crash or a wrong answer, by a coin the run tosses itself.
    fs::write(
        dir.join("submissions/rejected/coin.py"),
        "# @RANDOMISED@\nimport os, sys\nif os.urandom(1)[0] < 128:\n    sys.exit(3)\nprint(-1)\n",
    )
    .unwrap();
    let verify = |extra: &[&str]| {
        let d = rel(&dir);
        // (An accepted one too: a legacy package's time limit is computed from it.)
        let mut args = vec![
            "verify",
            "--random-runs",
            "8",
            "--submissions",
            "coin",
            "--submissions",
            "accepted/mean.py",
        ];
        args.extend_from_slice(extra);
        args.push(&d);
        let run = judge_timed(300, &args);
        run.assert_code(0);
        let line = |what: &str| {
            run.stdout
                .lines()
                .find(|l| l.contains(what))
                .map(str::to_owned)
        };
        // `randomised: 8 runs, passed every test in 0 (RTE in 3, WA in 5); first failures: ...`
        let runs = line("coin.py: ").unwrap_or_else(|| panic!("{}", run.stdout));
        let tally = runs
            .split("randomised: 8 runs, passed every test in 0 (")
            .nth(1)
            .and_then(|t| t.split(')').next())
            .unwrap_or_else(|| panic!("{runs}"))
            .to_owned();
        (line("runs remembered"), tally)
    };
    let (before, tally) = verify(&[]);
    assert_eq!(before, None, "nothing remembered yet");
    let (again, same) = verify(&[]);
    let again = again.expect("runs remembered");
    let counts: Vec<&str> = again.split(' ').take(3).collect();
    assert!(counts[1] == "of" && counts[0] == counts[2], "{again}");
    assert_eq!(same, tally);
    let (fresh, _) = verify(&["--fresh"]);
    assert_eq!(fresh, None);
}

/// `scripts/bench-three-tools` reads each tool's verdicts from its own output (verifyproblem's
/// result lines, `bt run`'s coloured summary lines: green met the expectation) and its table
/// gives medians, ratios against judge, and names every submission whose verdicts differ.
#[test]
fn bench_three_tools_reads_the_tools_verdicts_and_names_differences() {
    let tmp = tempfile::tempdir().unwrap();
    let s = tmp.path();
    let script = root().join("scripts/bench-three-tools");
    fs::write(
        s.join("pt.log"),
        "Checking 2 submissions\n   accepted/a.py (Python 3) OK: AC [CPU: 0.01s @ testcase secret/1]\n   \
         run_time_error/c.cc (C++) OK: RTE [Exit 42, CPU: 0.00s @ testcase secret/1]\n\
         demo tested: 0 errors, 1 warning\n",
    )
    .unwrap();
    fs::write(
        s.join("bt.log"),
        "\x1b[36maccepted/a.py\x1b[0m:     \x1b[32m AC 0.009s\x1b[0m \x1b[2m@ secret/1\x1b[0m\n\
         \x1b[36mwrong_answer/b.py\x1b[0m: \x1b[1m\x1b[31m\x1b[31m TLE 2.016s\x1b[0m \x1b[2m@ secret/1\x1b[0m\n",
    )
    .unwrap();
    // -B: no __pycache__ in scripts/.
    let parse = std::process::Command::new("python3")
        .args(["-B", "-c"])
        .arg(
            "import importlib.machinery, json, sys\n\
             m = importlib.machinery.SourceFileLoader('bench', sys.argv[1]).load_module()\n\
             print(json.dumps([m.pt_verdicts(sys.argv[2]), m.bt_verdicts(sys.argv[3], 0)], sort_keys=True))",
        )
        .arg(&script)
        .arg(s.join("pt.log"))
        .arg(s.join("bt.log"))
        .output()
        .unwrap();
    let parsed = String::from_utf8_lossy(&parse.stdout);
    assert!(
        parse.status.success(),
        "{parsed}{}",
        String::from_utf8_lossy(&parse.stderr)
    );
    assert_eq!(
        parsed.trim(),
        r#"[[{"accepted/a.py": "AC", "run_time_error/c.cc": "RTE"}, true], [{"accepted/a.py": "AC", "wrong_answer/b.py": "TLE"}, false]]"#
    );
    fs::write(
        s.join("rows.json"),
        r#"{"rows": {
 "pt/demo": {"times": {"judge cold": [10.0, 12.0, 11.0], "judge cold timing": [4.0, 3.0, 5.0], "judge warm": [1.0], "judge changed": [2.0], "other cold": [40.0]},
  "verdicts": {"judge cold": {"accepted/a.py": "AC", "run_time_error/c.cc": "RTE"}, "other": {"accepted/a.py": "AC", "run_time_error/c.cc": "RTE"}},
  "ok": {"judge cold": true, "other": true}, "load": [1.5]},
 "bt/demo": {"times": {"judge cold": [5.0], "judge warm": [0.5], "other cold": [20.0]},
  "verdicts": {"judge cold": {"accepted/a.py": "AC", "wrong_answer/b.py": "WA"}, "other": {"accepted/a.py": "AC", "wrong_answer/b.py": "TLE"}},
  "ok": {"judge cold": true, "other": false}, "load": [2.5]}},
 "rounds": 3, "started": 0, "finished": 600, "versions": ["judge x", "verifyproblem y", "bt z"]}"#,
    )
    .unwrap();
    let out = std::process::Command::new("python3")
        .arg(&script)
        .args(["--table-only", "--work"])
        .arg(s)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        // Without its timing alone, round by round: 6, 9 and 6 s.
        text.contains("| demo (verifyproblem) | 11.0 s | 4.0 s | 1.0 s | 2.0 s | 40.0 s | 40.0 s | 3.6x | 6.7x | 20.0x | same for all 2 run by both |"),
        "{text}"
    );
    assert!(
        text.contains("| demo (bt) | 5.0 s | - | 0.5 s | - | 20.0 s | - | 4.0x | - | - | DIFFER: wrong_answer/b.py: judge WA, bt TLE; not passed: bt |"),
        "{text}"
    );
    assert!(text.contains("Median of 3 round(s)"), "{text}");
}
