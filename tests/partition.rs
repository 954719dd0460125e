//! Sharing the work: `--partition K/N | auto` on grade and stress, and `judge report merge`.
//! The parts merged must equal one run's report, except the timing fields docs/scale-out.md lists.
//! Contestant programs run only through judge's sandbox, each `judge` under an outer `timeout`.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{Report, Run};
use serde_json::Value;

/// Environment variables `--partition auto` reads; removed so the host's never leak in.
const AUTO_VARS: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
    "JUDGE_PARTITION_COUNT",
];

/// `judge args...` in the repository root under `timeout`, with `env` set and the partition
/// variables of the host removed.
fn judge_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new("timeout");
    cmd.arg("300")
        .arg(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env("JUDGE_CACHE_DIR", common::cache_dir())
        .env("CI", "1")
        .env_remove("JUDGE_PROBLEMS_DIR")
        .current_dir(common::root());
    for v in AUTO_VARS {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("spawn timeout judge");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

fn judge(args: &[&str]) -> Run {
    judge_env(args, &[])
}

fn jury(path: &str) -> String {
    format!("problems/magic-square/submissions/{path}")
}

/// An accepted, a wrong (fails on a test of part 2 of 2 while part 1 goes on to a later
/// failure) and a non-compiling submission.
fn submissions() -> Vec<String> {
    vec![
        jury("accepted/rows.c"),
        jury("wrong_answer/only_n3.c"),
        "tests/programs/ce.c".into(),
    ]
}

/// Every JSON value of `text` (JSON lines or one pretty-printed object).
fn values(text: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The report without the fields that depend on timing or on the machine (docs/scale-out.md,
/// "Merging").
fn untimed(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("a report is an object");
    if let Some(c) = o.get_mut("compile").and_then(Value::as_object_mut) {
        c.remove("time_ms");
        c.remove("cached");
    }
    if let Some(tests) = o.get_mut("tests").and_then(Value::as_array_mut) {
        for t in tests {
            let t = t.as_object_mut().expect("a test is an object");
            for k in ["time_ms", "wall_ms", "memory_kib", "runs"] {
                t.remove(k);
            }
        }
    }
    for k in ["tests_run", "elapsed_ms"] {
        o.remove(k);
    }
    if let Some(f) = o.get_mut("failure").and_then(Value::as_object_mut) {
        f.remove("saved");
    }
    v
}

/// Writes `text` to `dir/name` and returns the path as a string.
fn save(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The partial-report contract, strictly: one run's fields plus `partition`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PartialReport {
    problem: String,
    submission: String,
    language: String,
    runtime: Option<String>,
    verdict: Option<String>,
    compile: Option<common::Compile>,
    tests: Vec<common::TestRow>,
    tests_total: usize,
    limits: common::Limits,
    interrupted: bool,
    partition: GradePartition,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GradePartition {
    index: u32,
    count: u32,
    all: bool,
    plan: Vec<String>,
}

/// Grades with `extra`, in one run and in `n` parts merged; both reports, untimed.
fn grade_split(n: u32, extra: &[&str]) -> (Vec<Value>, Vec<Value>, i32, i32) {
    let dir = tempfile::tempdir().unwrap();
    let subs = submissions();
    let mut args: Vec<&str> = vec!["grade", "magic-square", "--json", "-j", "2"];
    args.extend(subs.iter().map(String::as_str));
    args.extend(extra);
    let single = judge(&args);
    let mut files = Vec::new();
    let mut seen = Vec::new();
    for k in 1..=n {
        let part = format!("{k}/{n}");
        let mut a = args.clone();
        a.extend(["--partition", part.as_str()]);
        let run = judge(&a);
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        for line in run.stdout.lines() {
            let r: PartialReport =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert_eq!((r.partition.index, r.partition.count), (k, n));
            assert_eq!(r.tests_total, r.partition.plan.len());
            assert_eq!(r.partition.all, extra.contains(&"--all"));
            seen.extend(r.tests.into_iter().map(|t| (r.submission.clone(), t.name)));
        }
        files.push(save(dir.path(), &format!("part{k}.json"), &run.stdout));
    }
    // Every test ran in one part at most.
    let count = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), count, "a test ran in two parts");
    files.reverse(); // Any order.
    let mut merge = vec!["report", "merge", "--json"];
    merge.extend(files.iter().map(String::as_str));
    let merged = judge(&merge);
    // The merged report has exactly one run's fields (no `partition`).
    for line in merged.stdout.lines() {
        let _: Report = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    (
        values(&single.stdout).into_iter().map(untimed).collect(),
        values(&merged.stdout).into_iter().map(untimed).collect(),
        single.code,
        merged.code,
    )
}

#[test]
fn grade_parts_merged_equal_one_run() {
    let (single, merged, single_code, merged_code) = grade_split(2, &[]);
    assert_eq!(single.len(), 3);
    assert_eq!(merged, single);
    assert_eq!((single_code, merged_code), (1, 1));
    // The wrong submission stops at its first failure, as in one run.
    let wrong = &merged[1];
    assert_eq!(wrong["verdict"], "WA");
    let names: Vec<&str> = wrong["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(merged[2]["verdict"], "CE");
}

#[test]
fn grade_parts_with_all_merged_equal_one_run() {
    let (single, merged, _, merged_code) = grade_split(3, &["--all"]);
    assert_eq!(merged, single);
    assert_eq!(merged_code, 1);
    assert_eq!(merged[0]["tests"].as_array().unwrap().len(), 74);
}

#[test]
fn an_accepted_merge_exits_0_and_renders_the_table_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let sub = jury("accepted/rows.c");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let run = judge(&["grade", "magic-square", &sub, "--json", "--partition", k]);
        run.assert_code(0);
        files.push(save(dir.path(), &k.replace('/', "of"), &run.stdout));
    }
    let html = dir.path().join("merged.html");
    let run = judge(&[
        "report",
        "merge",
        &files[0],
        &files[1],
        "--html",
        html.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("AC  74/74 tests passed"),
        "{}",
        run.stdout
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("judge grade: magic-square"), "{page}");
}

#[test]
fn stress_parts_merged_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    for (sub, code) in [("wrong_answer/only_n3.c", 1), ("accepted/rows.c", 0)] {
        let sub = jury(sub);
        let base = [
            "stress",
            "magic-square",
            sub.as_str(),
            "--json",
            "--count",
            "12",
            "--seed",
            "1",
            "-j",
            "2",
        ];
        let single = judge(&[&base[..], &["--out", &out("single")]].concat());
        single.assert_code(code);
        let mut files = Vec::new();
        for k in 1..=3 {
            let part = format!("{k}/3");
            let folder = out(&format!("part{k}"));
            let run = judge(&[&base[..], &["--partition", &part, "--out", &folder]].concat());
            assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
            let v = values(&run.stdout);
            assert_eq!(v[0]["partition"]["index"], k);
            assert_eq!(v[0]["partition"]["tests"], 12);
            files.push(save(dir.path(), &format!("stress{k}.json"), &run.stdout));
        }
        let merged = judge(&["report", "merge", "--json", &files[2], &files[0], &files[1]]);
        merged.assert_code(code);
        let single = untimed(values(&single.stdout).remove(0));
        let merged = untimed(values(&merged.stdout).remove(0));
        assert_eq!(merged, single, "{sub}");
    }
}

#[test]
fn verify_parts_merged_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "verify",
        "magic-square",
        "dodecahedron",
        "--no-submissions",
        "--json",
    ];
    let single = judge(&base);
    single.assert_code(0);
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let run = judge(&[&base[..], &["--partition", k]].concat());
        run.assert_code(0);
        let v = values(&run.stdout).remove(0);
        assert_eq!(v["problems"].as_array().unwrap().len(), 1);
        assert_eq!(v["partition"]["plan"][1], "dodecahedron");
        files.push(save(dir.path(), &k.replace('/', "of"), &run.stdout));
    }
    let merged = judge(&["report", "merge", "--json", &files[1], &files[0]]);
    merged.assert_code(0);
    // No jury submissions ran: only where the time went depends on timing.
    let without_time = |text: &str| {
        let mut v = values(text).remove(0);
        for p in v["problems"].as_array_mut().unwrap() {
            let spent = p.as_object_mut().unwrap().remove("time").expect("time");
            assert!(
                spent["total_ms"].is_u64() && spent["runs_ms"] == 0,
                "{spent}"
            );
        }
        v
    };
    assert_eq!(without_time(&merged.stdout), without_time(&single.stdout));
}

#[test]
fn auto_reads_slurm_and_kubernetes_indexed_jobs() {
    let sub = jury("accepted/rows.c");
    let args = [
        "grade",
        "magic-square",
        sub.as_str(),
        "--json",
        "--partition",
        "auto",
    ];
    let partition_of = |run: &Run| {
        run.assert_code(0);
        let v = values(&run.stdout).remove(0);
        (
            v["partition"]["index"].clone(),
            v["partition"]["count"].clone(),
        )
    };
    let slurm = judge_env(
        &args,
        &[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ],
    );
    assert_eq!(partition_of(&slurm), (3.into(), 3.into()));
    let k8s = judge_env(
        &args,
        &[
            ("JOB_COMPLETION_INDEX", "0"),
            ("JUDGE_PARTITION_COUNT", "4"),
        ],
    );
    assert_eq!(partition_of(&k8s), (1.into(), 4.into()));
    let flag = judge_env(
        &[&args[..], &["--partition-count", "2"]].concat(),
        &[("JOB_COMPLETION_INDEX", "1")],
    );
    assert_eq!(partition_of(&flag), (2.into(), 2.into()));
}

#[test]
fn bad_partitions_exit_2_with_one_error_line() {
    let sub = jury("accepted/rows.c");
    let grade = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["grade", "magic-square", sub.as_str()];
        args.extend(extra);
        judge_env(&args, env)
    };
    let cases: Vec<(Run, &str)> = vec![
        (grade(&["--partition", "0/2"], &[]), "between 1 and 2"),
        (grade(&["--partition", "3/2"], &[]), "between 1 and 2"),
        (grade(&["--partition", "1/0"], &[]), "at least 1"),
        (grade(&["--partition", "half"], &[]), "expected `K/N`"),
        (
            grade(&["--partition", "auto"], &[]),
            "no SLURM_ARRAY_TASK_ID",
        ),
        (
            grade(&["--partition", "auto"], &[("JOB_COMPLETION_INDEX", "0")]),
            "JUDGE_PARTITION_COUNT",
        ),
        (
            grade(
                &["--partition", "auto", "--partition-count", "2"],
                &[("JOB_COMPLETION_INDEX", "2")],
            ),
            "part 3 of 2, out of range",
        ),
        (
            grade(&["--partition", "1/2", "--partition-count", "2"], &[]),
            "goes with `--partition auto` only",
        ),
    ];
    for (run, message) in cases {
        run.assert_code(2);
        let error = common::the_error_line(&run);
        assert!(error.contains(message), "{}", run.stderr);
    }
    let stress = judge(&[
        "stress",
        "magic-square",
        &sub,
        "--seconds",
        "1",
        "--partition",
        "1/2",
    ]);
    stress.assert_code(2);
    assert!(stress.stderr.contains("needs --count"), "{}", stress.stderr);
}

#[test]
fn mismatched_reports_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rows = jury("accepted/rows.c");
    let forced = jury("accepted/forced.cpp");
    let part = |sub: &str, k: &str| {
        let run = judge(&["grade", "magic-square", sub, "--json", "--partition", k]);
        run.assert_code(0);
        run.stdout
    };
    let p1 = save(dir.path(), "p1.json", &part(&rows, "1/2"));
    let p2 = save(dir.path(), "p2.json", &part(&rows, "2/2"));
    let p2_of_3 = save(dir.path(), "p2of3.json", &part(&rows, "2/3"));
    let other = save(dir.path(), "other.json", &part(&forced, "2/2"));
    let single = judge(&["grade", "magic-square", &rows, "--json"]);
    let single = save(dir.path(), "single.json", &single.stdout);
    let missing = dir.path().join("missing.json").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![&p1], "partition 2/2 is missing"),
        (vec![&p1, &p2, &p2], "partition 2/2 is given twice"),
        (vec![&p1, &p2_of_3], "partition counts differ"),
        (vec![&p1, &other], "differ in submission"),
        (vec![&p1, &single], "not a partial report"),
        (vec![&p1, &missing], "cannot read"),
    ];
    for (files, message) in cases {
        let mut args = vec!["report", "merge"];
        args.extend(files);
        let run = judge(&args);
        run.assert_code(2);
        common::assert_clean_error(&run);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(message), "{}", run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
}
