//! Languages as contests run them, end to end: Python 3 as PyPy3 without flags that change
//! the language (`exit()` works), C++ at C++20 or later, a current Kotlin (`readln()`), and a
//! problemtools-format `languages.yaml` (given with `--languages`, beside a package, or in
//! the contest folder above it) changing how a language runs. A test whose runtime is missing
//! is skipped with a note, except under CI, where that fails it (`.ci/run` installs them).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Report;
use judge::compile::{Language, LanguageTable};

/// A package `dir/<name>` whose one test's input is `21` and answer `answer`.
fn package(dir: &Path, name: &str, answer: &str) -> PathBuf {
    let pkg = dir.join(name);
    let secret = pkg.join("data/secret");
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(
        pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Contest languages\n\
         uuid: 5d0c8e3a-2b7f-4f61-8a94-1e6b3c9d7a20\nsource: judge test fixtures\n\
         license: cc0\nlimits:\n  time_limit: 2.0\n  memory: 512\n",
    )
    .unwrap();
    std::fs::write(secret.join("one.in"), "21\n").unwrap();
    std::fs::write(secret.join("one.ans"), format!("{answer}\n")).unwrap();
    pkg
}

/// `judge grade <pkg> <source> --json [extra]` under an outer timeout: the report and stderr.
fn grade(pkg: &Path, source: &Path, extra: &[&str]) -> (Report, String) {
    let out = Command::new("timeout")
        .arg("300")
        .arg(env!("CARGO_BIN_EXE_judge"))
        .arg("grade")
        .arg(pkg)
        .arg(source)
        .arg("--json")
        .args(extra)
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .current_dir(pkg)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{stdout}\n{stderr}"
    );
    let line = stdout.lines().next().unwrap_or_else(|| panic!("{stderr}"));
    let report = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}\n{stderr}"));
    (report, stderr)
}

/// A source file `name` in `dir` holding `text`.
fn source(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Whether `id`'s compiler and runtime are installed (a note, or a failure under CI).
fn installed(id: &str) -> bool {
    let table = LanguageTable::builtin().unwrap();
    let missing = judge::compile::missing_toolchain(&table, Language::named(id).unwrap());
    common::require(
        missing.is_none(),
        &format!(
            "{id}: {}",
            missing.map(|e| e.to_string()).unwrap_or_default()
        ),
    )
}

#[test]
fn a_python_program_ending_with_exit_is_accepted_under_pypy3_and_cpython() {
    if !installed("python") || !installed("cpython") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path(), "p", "42 pypy");
    let py = source(
        dir.path(),
        "exits.py",
        "import sys\nn = int(input())\nprint(n * 2, sys.implementation.name)\nexit()\n",
    );
    // `.py` is Python 3 as contests run it: PyPy3, with `site` (so `exit()` exists).
    let (report, stderr) = grade(&pkg, &py, &[]);
    assert_eq!(report.language, "python");
    assert_eq!(report.verdict(), "AC", "{report:#?}\n{stderr}");
    // CPython by name: `exit()` works there too; it prints `cpython`, so the answer differs.
    let (report, stderr) = grade(&pkg, &py, &["--lang", "cpython"]);
    assert_eq!(report.language, "cpython");
    assert_eq!(report.verdict(), "WA", "{report:#?}\n{stderr}");
}

#[test]
fn a_cpp20_program_is_accepted() {
    if !installed("cpp") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path(), "p", "42");
    // Designated initializers, <=>, ranges, std::span, concepts: C++20 (not in gnu++17).
    let cpp = source(
        dir.path(),
        "modern.cpp",
        "#include <bits/stdc++.h>\n\
         struct P { int x; int y; auto operator<=>(const P&) const = default; };\n\
         template <std::integral T> T twice(T v) { return v * 2; }\n\
         int sum(std::span<const int> s) { return std::accumulate(s.begin(), s.end(), 0); }\n\
         int main() {\n\
           int n; std::cin >> n;\n\
           P a{.x = n, .y = 0}, b{.x = n, .y = 1};\n\
           std::vector<int> v{n, n};\n\
           auto r = v | std::views::transform([](int x) { return x; });\n\
           std::vector<int> w(r.begin(), r.end());\n\
           if (!(a < b) || std::ranges::count(w, n) != 2) return 1;\n\
           std::cout << (sum(w) == twice(n) ? twice(n) : -1) << '\\n';\n\
         }\n",
    );
    let (report, stderr) = grade(&pkg, &cpp, &[]);
    assert_eq!(
        report.verdict(),
        "AC",
        "{:?}\n{stderr}",
        report.compile.as_ref().map(|c| &c.message)
    );
}

#[test]
fn a_kotlin_program_using_readln_is_accepted() {
    // A current kotlinc (npm's kotlin-compiler, which judge takes before PATH's): Debian 12's
    // 1.3 has no `readln()`.
    let current = ["/usr/local/lib", "/usr/lib"].iter().any(|p| {
        Path::new(p)
            .join("node_modules/kotlin-compiler/bin/kotlinc")
            .is_file()
    });
    if !common::require(current, "kotlin: npm's kotlin-compiler is not installed")
        || !installed("kotlin")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path(), "p", "42");
    let kt = source(
        dir.path(),
        "Twice.kt",
        "fun main() {\n    val n = readln().trim().toInt()\n    println(n * 2)\n}\n",
    );
    let (report, stderr) = grade(&pkg, &kt, &[]);
    assert_eq!(report.language, "kotlin");
    assert_eq!(
        report.verdict(),
        "AC",
        "{:?}\n{stderr}",
        report.compile.as_ref().map(|c| &c.message)
    );
}

/// A contest's table as problemtools writes it: Python 3 as CPython here, and languages judge
/// has no entry for.
const CONTEST_TABLE: &str = "\
# A contest's languages
python3:
    name: 'Python 3 (CPython)'
    priority: 850
    files: '*.py *.py3'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 \"{mainfile}\"'
cobol:
    name: 'Cobol'
    priority: 50
    files: '*.cob'
    compile: 'cobc -o {binary} -x {files}'
    run: '{binary}'
";

#[test]
fn a_problemtools_languages_yaml_changes_how_a_language_runs() {
    if !installed("python") || !installed("cpython") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    std::fs::create_dir(&contest).unwrap();
    let pkg = package(&contest, "p", "cpython");
    let py = source(
        dir.path(),
        "which.py",
        "import sys\ninput()\nprint(sys.implementation.name)\n",
    );
    // Without a table: PyPy3, so the answer is wrong.
    let (report, _) = grade(&pkg, &py, &[]);
    assert_eq!(report.verdict(), "WA", "{report:#?}");

    // Given with --languages (anywhere).
    let table = source(dir.path(), "contest-languages.yaml", CONTEST_TABLE);
    let (report, stderr) = grade(&pkg, &py, &["--languages", &table.display().to_string()]);
    assert_eq!(report.verdict(), "AC", "{report:#?}\n{stderr}");
    assert_eq!(report.language, "python");
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("cobol")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].starts_with("warning: ") && warnings[0].contains("no judge language for cobol"),
        "{stderr}"
    );

    // In the contest folder above the package, then beside it: found, with a note.
    for place in [&contest, &pkg] {
        let found = place.join("languages.yaml");
        std::fs::write(&found, CONTEST_TABLE).unwrap();
        let (report, stderr) = grade(&pkg, &py, &[]);
        assert_eq!(report.verdict(), "AC", "{place:?}: {report:#?}\n{stderr}");
        assert!(
            stderr.contains(&format!(
                "note: languages from {}",
                found.canonicalize().unwrap().display()
            )),
            "{stderr}"
        );
        std::fs::remove_file(&found).unwrap();
    }

    // A broken table is one error line naming the file, exit status 2.
    let bad = source(
        dir.path(),
        "bad.yaml",
        "python3:\n  run: 'pypy3 \"{mainfile}'\n",
    );
    let run = common::judge(&[
        "grade",
        &pkg.display().to_string(),
        &py.display().to_string(),
        "--languages",
        &bad.display().to_string(),
    ]);
    run.assert_code(2);
    let line = common::the_error_line(&run);
    assert!(
        line.contains("bad.yaml") && line.contains("unbalanced"),
        "{line}"
    );
}
