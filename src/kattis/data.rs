//! The test data of a Kattis package: `data/sample` and `data/secret` (nested folders in
//! lexicographic order), `data/invalid_input`, `data/invalid_answer`, and the per-folder
//! (`testdata.yaml`, `test_group.yaml`) and per-test (`<case>.yaml`) settings that matter for
//! pass-fail judging: the validators' arguments.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::yaml::{self, Map};
use crate::fsutil::beneath;

/// Arguments for the input (or answer) validators: the same for all, or per validator name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputArgs {
    All(Vec<String>),
    PerValidator(BTreeMap<String, Vec<String>>),
}

impl Default for InputArgs {
    fn default() -> Self {
        InputArgs::All(Vec::new())
    }
}

impl InputArgs {
    /// The arguments for the validator named `name`.
    pub fn for_validator(&self, name: &str) -> &[String] {
        match self {
            InputArgs::All(a) => a,
            InputArgs::PerValidator(m) => m.get(name).map(Vec::as_slice).unwrap_or(&[]),
        }
    }
}

/// The validator arguments a test gets from its folders and its own `.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestArgs {
    pub input_validator: InputArgs,
    /// `answer_validator_args` (BAPCtools): the answer validators' arguments, after the
    /// input file.
    pub answer_validator: InputArgs,
    /// Appended to `problem.yaml`'s legacy `validator_flags`.
    pub output_validator: Vec<String>,
}

/// One test case: `data/<name>.in` and `.ans`.
#[derive(Debug, Clone)]
pub struct Case {
    /// The path under `data/` without `.in`: `sample/1`, `secret/group1/03-max`.
    pub name: String,
    pub input: PathBuf,
    /// `None` only for `data/invalid_input` cases.
    pub answer: Option<PathBuf>,
    pub args: TestArgs,
}

/// Everything under `data/` that judging uses.
#[derive(Debug, Default)]
pub struct Data {
    /// Samples, then secret tests, in the order they are judged.
    pub tests: Vec<Case>,
    pub invalid_inputs: Vec<Case>,
    /// `data/invalid_answer`: valid inputs whose answers the answer validators (or the
    /// output validator) must reject.
    pub invalid_answers: Vec<Case>,
    pub warnings: Vec<String>,
    /// What is not a fault of the package but changes what is judged (no secret test).
    pub notes: Vec<String>,
}

/// Reads `dir/data`. `Err` names the file and what to do.
pub fn load(dir: &Path) -> Result<Data, String> {
    load_folder(&dir.join("data"))
}

/// Reads the data folder `data` (a package's `data/`, or test data made from its
/// `generators/generators.yaml`).
pub fn load_folder(data: &Path) -> Result<Data, String> {
    let data = data.to_path_buf();
    let secret = data.join("secret");
    let mut out = Data::default();
    let root = read_group_config(&data, &data, &TestArgs::default(), &mut out.warnings)?;
    for part in ["sample", "secret"] {
        let sub = data.join(part);
        if sub.is_dir() {
            walk(
                &data,
                &sub,
                &root,
                true,
                &mut out.tests,
                &mut out.warnings,
                &mut out.notes,
            )?;
        }
    }
    for (folder, answers, cases) in [
        ("invalid_input", false, &mut out.invalid_inputs),
        ("invalid_answer", true, &mut out.invalid_answers),
    ] {
        let dir = data.join(folder);
        if dir.is_dir() {
            walk(
                &data,
                &dir,
                &root,
                answers,
                cases,
                &mut out.warnings,
                &mut out.notes,
            )?;
        }
    }
    top_level_not_read(&data, &mut out.notes);
    if !out.tests.iter().any(|t| t.name.starts_with("secret/")) {
        if !out.tests.is_empty() {
            // BAPCtools runs such a package on its samples; the format asks for a secret test.
            out.notes.push(format!(
                "{} holds no test: the samples are the whole test set (the format asks for a secret test)",
                secret.display()
            ));
        } else if !secret.is_dir() {
            return Err(format!(
                "{} is missing: a package needs its secret tests there (data/secret/<name>.in and .ans)",
                secret.display()
            ));
        } else {
            return Err(format!(
                "{} holds no test (.in with .ans): a package needs at least one secret test",
                secret.display()
            ));
        }
    }
    Ok(out)
}

/// A warning for each entry of `data/` itself that judge does not read, so that nothing there
/// goes unchecked without a word: only `sample/`, `secret/`, `invalid_input/`,
/// `invalid_answer/` and the group files hold what judge checks. Notes of the package, as
/// [`not_graded`] says.
fn top_level_not_read(data: &Path, notes: &mut Vec<String>) {
    const READ: [&str; 6] = [
        "sample",
        "secret",
        "invalid_input",
        "invalid_answer",
        "testdata.yaml",
        "test_group.yaml",
    ];
    let Ok(entries) = std::fs::read_dir(data) else {
        return;
    };
    let mut names: Vec<std::ffi::OsString> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .filter(|n| !crate::fsutil::is_tool_litter(n))
        .filter(|n| !n.to_str().is_some_and(|n| READ.contains(&n)))
        .collect();
    names.sort();
    let shown_dir = data.strip_prefix(package_of(data)).unwrap_or(data);
    for name in names {
        let why = match name.to_str() {
            Some("invalid_output" | "valid_output") => {
                "judge does not check the output validator against this folder yet"
            }
            _ => "tests are read from data/sample and data/secret only",
        };
        notes.push(not_graded(shown_dir, &name, why));
    }
}

/// The validator arguments of the test `name` (`secret/group/1`) of the data folder `data`,
/// from the group files of its folders and its own `.yaml`.
pub fn args_of(data: &Path, name: &str) -> Result<TestArgs, String> {
    let mut warnings = Vec::new();
    let mut args = read_group_config(data, data, &TestArgs::default(), &mut warnings)?;
    let mut dir = data.to_path_buf();
    let parts: Vec<&str> = name.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        dir.push(part);
        args = read_group_config(data, &dir, &args, &mut warnings)?;
    }
    let case_yaml = data.join(format!("{name}.yaml"));
    if case_yaml.is_file() {
        args = read_args(data, &case_yaml, &args, true, &mut warnings)?;
    }
    Ok(args)
}

/// Whether a file name is one the package format allows (`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`,
/// at most 255 bytes): only such `.in` files are tests. problemtools would take any `*.in`,
/// BAPCtools restricts names as the format does; judge grades none of the others and warns
/// about each ([`walk`]), so no test goes ungraded without a word.
fn allowed_name(name: &[u8]) -> bool {
    name.len() <= 255
        && name.first().is_some_and(|&b| b != b'.' && b != b'-')
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
}

/// `name` under `dir` as shown in a message (escaped when it holds odd characters).
fn shown(dir: &Path, name: &std::ffi::OsStr) -> String {
    beneath::shown(&dir.join(name))
}

/// A file of a data folder that is not graded, and why: a note of the package, which verify
/// shows as a warning (an error under `--strict`).
fn not_graded(dir: &Path, name: &std::ffi::OsStr, why: &str) -> String {
    format!("{}: not graded: {why}", shown(dir, name))
}

const NAME_RULE: &str = "a test's name is letters, digits, `_`, `.` and `-`, not first `.` or `-` (the package format's rule)";

/// The package folder a data folder belongs to (links in it must stay inside).
fn package_of(data: &Path) -> &Path {
    data.parent().unwrap_or(data)
}

/// What `path` (under the data folder `data`) is, resolved under the package's rule.
fn kind(data: &Path, path: &Path) -> Result<beneath::Kind, String> {
    let pkg = package_of(data);
    let rel = path.strip_prefix(pkg).unwrap_or(path);
    beneath::kind_beneath(pkg, rel, "the package")
        .map(|(_, k)| k)
        .map_err(|e| e.to_string())
}

fn walk(
    data: &Path,
    dir: &Path,
    parent: &TestArgs,
    answers: bool,
    out: &mut Vec<Case>,
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let config = read_group_config(data, dir, parent, warnings)?;
    let mut names: Vec<std::ffi::OsString> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    names.sort();
    let rel = |dir: &Path| {
        dir.strip_prefix(package_of(data))
            .unwrap_or(dir)
            .to_path_buf()
    };
    let shown_dir = rel(dir);
    let kept = names
        .iter()
        .filter_map(|n| n.to_str())
        .filter(|n| allowed_name(n.as_bytes()));
    notes.extend(super::portable::notes(kept, |n| {
        shown(&shown_dir, std::ffi::OsStr::new(n))
    }));
    for os_name in &names {
        let bytes = os_name.as_bytes();
        let test_like = bytes.ends_with(b".in") || bytes.ends_with(b".ans");
        if bytes.starts_with(b".") && !test_like {
            // Hidden files (`.gitkeep`, `.DS_Store`): not the package's data.
            continue;
        }
        let path = dir.join(os_name);
        let kind = kind(data, &path)?;
        let Some(name) = os_name.to_str().filter(|_| allowed_name(bytes)) else {
            notes.push(not_graded(&shown_dir, os_name, NAME_RULE));
            continue;
        };
        match kind {
            beneath::Kind::Folder => {
                if path.with_extension("in").is_file() && !name.contains('.') {
                    return Err(format!(
                        "{} is both a folder and a test case ({}.in): rename one",
                        path.display(),
                        path.display()
                    ));
                }
                walk(data, &path, &config, answers, out, warnings, notes)?;
                continue;
            }
            beneath::Kind::Other(what) if test_like => {
                return Err(format!(
                    "{}: not a regular file ({what})",
                    shown(&shown_dir, os_name)
                ));
            }
            beneath::Kind::Other(what) => {
                notes.push(not_graded(&shown_dir, os_name, what));
                continue;
            }
            beneath::Kind::File => {}
        }
        if let Some(stem) = name.strip_suffix(".ans") {
            // (verify names those of data/sample and data/secret themselves.)
            let top = dir.parent() == Some(data);
            if !top && !dir.join(format!("{stem}.in")).exists() {
                notes.push(not_graded(
                    &shown_dir,
                    os_name,
                    "an answer without its input",
                ));
            }
            continue;
        }
        let Some(stem) = name.strip_suffix(".in") else {
            continue;
        };
        let answer = path.with_file_name(format!("{stem}.ans"));
        let answer = if answers {
            match kind_or_missing(data, &answer)? {
                Some(beneath::Kind::File) => Some(answer),
                Some(beneath::Kind::Folder | beneath::Kind::Other(_)) | None => {
                    return Err(format!(
                        "{} has no answer file {}: add it (or remove the input)",
                        path.display(),
                        answer.display()
                    ));
                }
            }
        } else {
            None
        };
        let rel = path
            .strip_prefix(data)
            .unwrap_or(&path)
            .with_extension("")
            .to_string_lossy()
            .into_owned();
        let case_yaml = path.with_file_name(format!("{stem}.yaml"));
        let args = if case_yaml.is_file() {
            read_args(data, &case_yaml, &config, true, warnings)?
        } else {
            config.clone()
        };
        out.push(Case {
            name: rel,
            input: path,
            answer,
            args,
        });
    }
    Ok(())
}

/// [`kind`], `None` when there is no such file.
fn kind_or_missing(data: &Path, path: &Path) -> Result<Option<beneath::Kind>, String> {
    let pkg = package_of(data);
    let rel = path.strip_prefix(pkg).unwrap_or(path);
    match beneath::kind_beneath(pkg, rel, "the package") {
        Ok((_, k)) => Ok(Some(k)),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// The settings of folder `dir`: its `testdata.yaml` / `test_group.yaml` over `parent`.
fn read_group_config(
    data: &Path,
    dir: &Path,
    parent: &TestArgs,
    warnings: &mut Vec<String>,
) -> Result<TestArgs, String> {
    let legacy = dir.join("testdata.yaml");
    let current = dir.join("test_group.yaml");
    match (legacy.is_file(), current.is_file()) {
        (true, true) => Err(format!(
            "{} and {} both exist: keep one (test_group.yaml in 2025-09, testdata.yaml in legacy)",
            legacy.display(),
            current.display()
        )),
        (true, false) => read_args(data, &legacy, parent, false, warnings),
        (false, true) => read_args(data, &current, parent, false, warnings),
        (false, false) => Ok(parent.clone()),
    }
}

/// The text of the file `path` of the package `pkg`, read under the package's rule
/// ([`beneath`]): a link leading outside the package, a FIFO or a device is an error.
pub(crate) fn read_package_text(pkg: &Path, path: &Path) -> Result<String, String> {
    let rel = path.strip_prefix(pkg).unwrap_or(path);
    beneath::read_text_beneath(pkg, rel, beneath::SMALL_CAP, "the package")
        .map_err(|e| e.to_string())
}

/// Reads the validator arguments of a group or test-case YAML file over `parent`.
fn read_args(
    data: &Path,
    path: &Path,
    parent: &TestArgs,
    case: bool,
    warnings: &mut Vec<String>,
) -> Result<TestArgs, String> {
    let text = read_package_text(package_of(data), path)?;
    let at = |e: String| format!("{}: {e}", path.display());
    let (value, duplicates) = yaml::parse(&text).map_err(at)?;
    warnings.extend(duplicates.iter().map(|k| at(yaml::duplicate_warning(k))));
    let mut m = Map::new(&value, "", "the file").map_err(at)?;
    let mut args = parent.clone();
    // Legacy flags are one string; 2025-09 arguments are lists.
    if let Some(flags) = m.take_str("output_validator_flags").map_err(at)? {
        args.output_validator = split(&flags);
    }
    if let Some(list) = m.take_strings("output_validator_args").map_err(at)? {
        args.output_validator = list;
    }
    for key in ["input_validator_flags", "input_validator_args"] {
        if let Some(a) = validator_args(&mut m, key).map_err(at)? {
            args.input_validator = a;
        }
    }
    if let Some(a) = validator_args(&mut m, "answer_validator_args").map_err(at)? {
        args.answer_validator = a;
    }
    if let Some(submission_args) = m.take_strings("args").map_err(at)? {
        if !submission_args.is_empty() {
            warnings.push(format!(
                "{}: `args` for submissions are not supported; they are not passed",
                path.display()
            ));
        }
    }
    let known_group = [
        "on_reject",
        "grading",
        "grader_flags",
        "accept_score",
        "reject_score",
        "range",
        "max_score",
        "score_aggregation",
        "scoring",
        "static_validation_score",
        "require_pass",
        "static_validator_args",
        "input_visualizer_args",
        "output_visualizer_args",
        "full_feedback",
    ];
    let known_case = [
        "input_visualizer_args",
        "output_visualizer_args",
        "full_feedback",
        "hint",
        "description",
    ];
    m.known(if case { &known_case } else { &known_group });
    for key in m.unknown_keys() {
        warnings.push(format!("{}: unknown key `{key}`", path.display()));
    }
    Ok(args)
}

/// The validator arguments under `key`: a string, a list, or a map from validator name to
/// either.
fn validator_args(m: &mut Map, key: &str) -> Result<Option<InputArgs>, String> {
    Ok(Some(match m.take_any(key) {
        None => return Ok(None),
        Some(yaml_serde::Value::Mapping(per)) => {
            let mut map = BTreeMap::new();
            for (k, v) in per {
                let name = yaml::scalar_text(k).unwrap_or_default();
                let list = match v {
                    yaml_serde::Value::Sequence(items) => {
                        items.iter().filter_map(yaml::scalar_text).collect()
                    }
                    other => yaml::scalar_text(other)
                        .map(|s| split(&s))
                        .unwrap_or_default(),
                };
                map.insert(name, list);
            }
            InputArgs::PerValidator(map)
        }
        Some(yaml_serde::Value::Sequence(items)) => {
            InputArgs::All(items.iter().filter_map(yaml::scalar_text).collect())
        }
        Some(v) => {
            let s = yaml::scalar_text(v)
                .ok_or_else(|| format!("{key} must be a string, a list or a map"))?;
            InputArgs::All(split(&s))
        }
    }))
}

fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    #[test]
    fn nested_groups_in_lexicographic_order_with_inherited_args() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        write(r, "data/sample/1.in", "1\n");
        write(r, "data/sample/1.ans", "1\n");
        write(
            r,
            "data/secret/test_group.yaml",
            "output_validator_args: [float_tolerance, '1e-6']\n",
        );
        write(r, "data/secret/b/02.in", "");
        write(r, "data/secret/b/02.ans", "");
        write(
            r,
            "data/secret/b/test_group.yaml",
            "input_validator_args: [--small]\n",
        );
        write(r, "data/secret/a.in", "");
        write(r, "data/secret/a.ans", "");
        write(r, "data/secret/b/01.in", "");
        write(r, "data/secret/b/01.ans", "");
        write(
            r,
            "data/secret/b/01.yaml",
            "output_validator_args: [case_sensitive]\n",
        );
        write(r, "data/secret/.gitkeep", "");
        write(r, "data/invalid_input/bad.in", "x\n");
        let data = load(r).unwrap();
        let names: Vec<_> = data.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["sample/1", "secret/a", "secret/b/01", "secret/b/02"]
        );
        assert_eq!(
            data.tests[1].args.output_validator,
            ["float_tolerance", "1e-6"]
        );
        assert_eq!(data.tests[2].args.output_validator, ["case_sensitive"]);
        assert_eq!(
            data.tests[3].args.input_validator,
            InputArgs::All(vec!["--small".into()])
        );
        assert_eq!(data.tests[0].args, TestArgs::default());
        assert_eq!(data.invalid_inputs.len(), 1);
        assert!(data.invalid_inputs[0].answer.is_none());
        assert!(data.warnings.is_empty(), "{:?}", data.warnings);
    }

    /// `data/invalid_answer` cases (with their answers) and `answer_validator_args`, a list
    /// or per validator, inherited down the folders as the input validators' are.
    #[test]
    fn invalid_answers_and_answer_validator_args() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        write(r, "data/secret/1.in", "");
        write(r, "data/secret/1.ans", "");
        write(
            r,
            "data/test_group.yaml",
            "answer_validator_args: [--strict]\n",
        );
        write(
            r,
            "data/invalid_answer/g/test_group.yaml",
            "answer_validator_args:\n  format: [--forbid_abcd]\n",
        );
        write(r, "data/invalid_answer/g/x.in", "1\n");
        write(r, "data/invalid_answer/g/x.ans", " 1\n");
        let data = load(r).unwrap();
        assert!(data.warnings.is_empty(), "{:?}", data.warnings);
        assert_eq!(
            data.tests[0].args.answer_validator,
            InputArgs::All(vec!["--strict".into()])
        );
        let bad = &data.invalid_answers[0];
        assert_eq!(bad.name, "invalid_answer/g/x");
        assert_eq!(
            bad.answer.as_deref(),
            Some(r.join("data/invalid_answer/g/x.ans").as_path())
        );
        assert_eq!(
            bad.args.answer_validator.for_validator("format"),
            ["--forbid_abcd"]
        );
        assert!(bad.args.answer_validator.for_validator("other").is_empty());
        // An invalid answer needs its answer.
        std::fs::remove_file(r.join("data/invalid_answer/g/x.ans")).unwrap();
        assert!(load(r).unwrap_err().contains("x.in has no answer file"));
    }

    #[test]
    fn legacy_flags_are_strings_and_per_validator_maps_work() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        write(
            r,
            "data/testdata.yaml",
            "output_validator_flags: case_sensitive space_change_sensitive\non_reject: continue\n",
        );
        write(
            r,
            "data/secret/g/testdata.yaml",
            "input_validator_flags:\n  validator: nFive=1\ngrader_flags: min\n",
        );
        write(r, "data/secret/g/1.in", "");
        write(r, "data/secret/g/1.ans", "");
        let data = load(r).unwrap();
        let t = &data.tests[0];
        assert_eq!(
            t.args.output_validator,
            ["case_sensitive", "space_change_sensitive"]
        );
        assert_eq!(
            t.args.input_validator.for_validator("validator"),
            ["nFive=1"]
        );
        assert!(t.args.input_validator.for_validator("other").is_empty());
    }

    #[test]
    fn bad_data_is_one_clear_error() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        assert!(load(r).unwrap_err().contains("data/secret is missing"));
        write(r, "data/secret/1.in", "");
        let e = load(r).unwrap_err();
        assert!(
            e.contains("1.in has no answer file") && e.contains("1.ans"),
            "{e}"
        );
        write(r, "data/secret/1.ans", "");
        write(
            r,
            "data/secret/test_group.yaml",
            "output_validator_args: [a]\ncolour: red\n",
        );
        let data = load(r).unwrap();
        assert_eq!(data.warnings.len(), 1);
        assert!(
            data.warnings[0].ends_with("unknown key `colour`"),
            "{:?}",
            data.warnings
        );
    }

    /// A key of a `testdata.yaml` given twice (po2024 golvyta's `input_validator_flags`) takes
    /// the last value, as problemtools reads it, with a warning naming the file and the key.
    #[test]
    fn a_testdata_key_given_twice_takes_the_last_value() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        write(r, "data/secret/group1/1.in", "");
        write(r, "data/secret/group1/1.ans", "");
        write(
            r,
            "data/secret/group1/testdata.yaml",
            "input_validator_flags: n=1\naccept_score: 10\ninput_validator_flags: n=2\n",
        );
        let data = load(r).unwrap();
        assert_eq!(
            data.tests[0].args.input_validator,
            InputArgs::All(vec!["n=2".into()])
        );
        assert_eq!(data.warnings.len(), 1, "{:?}", data.warnings);
        let w = &data.warnings[0];
        assert!(
            w.contains(
                "data/secret/group1/testdata.yaml: key `input_validator_flags` is given twice"
            ),
            "{w}"
        );
        assert!(yaml::is_duplicate_warning(w), "{w}");
    }
}
