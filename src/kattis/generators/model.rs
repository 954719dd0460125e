//! `generators/generators.yaml` as typed values: read with serde, one node at a time, since a
//! node is a test case or a directory by the keys it holds (as BAPCtools decides it). Unknown
//! keys are warnings naming the node and the key; a value of the wrong type is an error.
//!
//! Read as BAPCtools reads it (`doc/generators.yaml`, `generate.py`), including the keys of
//! its older versions that real packages still use: `type: directory` / `type: testcase`,
//! `input:` for `generate:`, `testdata.yaml`, `desc:` / `hint:`, a bare `path.in` for
//! `copy: path`, and the deprecated plural root folders (`invalid_inputs`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use yaml_serde::{Mapping, Value};

/// The whole file.
#[derive(Debug, Default)]
pub struct Generators {
    /// The root `generators:` dictionary: a program name → its files, relative to
    /// `generators/` (the first is the entry point).
    pub programs: BTreeMap<String, Vec<String>>,
    /// The root directory, which is `data/`.
    pub root: Dir,
    /// Things judge does not do, each said once (visualizers, `match` patterns, ...).
    pub unsupported: Vec<String>,
}

/// What a directory or a test case may set for itself and what it holds.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `Some(None)`: `solution:` set empty, no answers are made.
    pub solution: Option<Option<String>>,
    pub random_salt: Option<String>,
    pub retries: Option<u32>,
}

#[derive(Debug, Default)]
pub struct Dir {
    pub settings: Settings,
    /// `test_group.yaml` (or legacy `testdata.yaml`) to write into the folder: the file name
    /// and its content (`None`: set empty, no file).
    pub group_yaml: Option<(String, Option<Value>)>,
    pub include: Vec<String>,
    pub data: Children,
}

/// The `data:` of a directory.
#[derive(Debug, Default)]
pub enum Children {
    /// A dictionary: named children, in the file's order.
    #[default]
    Empty,
    Named(Vec<(String, Node)>),
    /// A list of dictionaries: children numbered in list order (a key may be empty).
    Numbered(Vec<Vec<(String, Node)>>),
}

#[derive(Debug)]
pub enum Node {
    Dir(Dir),
    Case(Box<Case>),
}

#[derive(Debug, Clone, Default)]
pub struct Case {
    pub settings: Settings,
    pub generate: Option<String>,
    /// A base path relative to `generators/`, without extension.
    pub copy: Option<String>,
    /// An empty entry of older BAPCtools: the case's files are in `data/` already.
    pub in_data: bool,
    /// `count:` values; empty without `count`.
    pub count: Vec<i64>,
    /// Files given in the YAML itself, by extension (`in`, `ans`, `in.statement`, `yaml`).
    pub files: Vec<(String, FileSpec)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FileSpec {
    Text(String),
    /// `{link: in}`: the same bytes as the case's file of that extension.
    Link(String),
}

/// The extensions of test case files a rule may write or a generator may leave, in
/// BAPCtools' order (`KNOWN_DATA_EXTENSIONS`).
pub const EXTENSIONS: [&str; 13] = [
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
    "png",
    "jpg",
    "svg",
    "pdf",
];

/// The extensions a case may give inline (`KNOWN_TEXT_DATA_EXTENSIONS`): the text ones, the
/// first nine of [`EXTENSIONS`].
const TEXT_EXTENSIONS: &[&str] = EXTENSIONS.split_at(9).0;

/// Keys that make a dictionary a test case.
const CASE_KEYS: [&str; 4] = ["copy", "generate", "count", "match"];

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Deserialize)]
struct RawDir {
    #[serde(rename = "test_group.yaml", default, deserialize_with = "present")]
    test_group: Option<Value>,
    #[serde(rename = "testdata.yaml", default, deserialize_with = "present")]
    testdata: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    solution: Option<Value>,
    random_salt: Option<Value>,
    retries: Option<u32>,
    #[serde(default, deserialize_with = "present")]
    data: Option<Value>,
    include: Option<Vec<Value>>,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(flatten)]
    rest: Mapping,
}

#[derive(Deserialize)]
struct RawCase {
    generate: Option<Value>,
    /// The name of `generate` before 2023.
    input: Option<Value>,
    copy: Option<String>,
    /// The name of `copy` in mid-2023.
    path: Option<String>,
    count: Option<Value>,
    #[serde(rename = "match")]
    patterns: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    solution: Option<Value>,
    random_salt: Option<Value>,
    retries: Option<u32>,
    /// Before 2025: the case's description and hint, now `yaml: {description, hint}`.
    desc: Option<String>,
    hint: Option<String>,
    visualizer: Option<Value>,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(flatten)]
    rest: Mapping,
}

/// True if `value` is a test case rather than a directory (BAPCtools' `is_test_case`).
fn is_case(value: &Value) -> bool {
    match value {
        Value::Null | Value::String(_) => true,
        Value::Mapping(m) => {
            if let Some(kind) = m.get("type").and_then(Value::as_str) {
                return kind == "testcase";
            }
            m.keys()
                .filter_map(Value::as_str)
                .any(|k| CASE_KEYS.contains(&k) || TEXT_EXTENSIONS.contains(&k) || k == "input")
        }
        _ => false,
    }
}

/// A YAML key as text: strings, and `~` as the empty key of numbered lists.
fn key_text(key: &Value) -> Option<String> {
    match key {
        Value::String(s) => Some(s.clone()),
        Value::Null => Some(String::new()),
        _ => None,
    }
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "True" } else { "False" }.into()),
        _ => None,
    }
}

struct Reader {
    warnings: Vec<String>,
    unsupported: BTreeMap<&'static str, String>,
}

impl Reader {
    fn unknown(&mut self, at: &str, rest: &Mapping) {
        for key in rest.keys() {
            let k = scalar(key).unwrap_or_else(|| format!("{key:?}"));
            self.warnings.push(format!("{at}: unknown key `{k}`"));
        }
    }

    fn note(&mut self, what: &'static str, text: String) {
        self.unsupported.entry(what).or_insert(text);
    }

    fn settings(
        &mut self,
        at: &str,
        solution: Option<Value>,
        salt: Option<Value>,
        retries: Option<u32>,
    ) -> Result<Settings, String> {
        let solution = match solution {
            None => None,
            Some(Value::Null) => Some(None),
            Some(Value::String(s)) if s.is_empty() => Some(None),
            Some(Value::String(s)) => Some(Some(s)),
            Some(_) => return Err(format!("{at}: `solution` must be a path (a string)")),
        };
        let random_salt = match salt {
            None => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => {
                return Err(format!(
                    "{at}: `random_salt` must be a string (quote it: \"1.0\")"
                ))
            }
        };
        Ok(Settings {
            solution,
            random_salt,
            retries,
        })
    }

    fn dir(&mut self, at: &str, value: Value, root: bool) -> Result<Dir, String> {
        let raw: RawDir = yaml_serde::from_value(value).map_err(|e| format!("{at}: {e}"))?;
        if raw.kind.as_deref().is_some_and(|k| k != "directory") {
            return Err(format!("{at}: `type` must be `directory` or `testcase`"));
        }
        self.unknown(at, &raw.rest);
        let settings = self.settings(at, raw.solution, raw.random_salt, raw.retries)?;
        let group_yaml = match (raw.test_group, raw.testdata) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "{at}: both `test_group.yaml` and `testdata.yaml`: keep one"
                ))
            }
            (Some(v), None) => Some(("test_group.yaml".to_string(), Some(v))),
            (None, Some(v)) => Some(("testdata.yaml".to_string(), Some(v))),
            (None, None) => None,
        }
        .map(|(name, v)| (name, v.filter(|v| !v.is_null())));
        let mut include = Vec::new();
        for item in raw.include.unwrap_or_default() {
            match item {
                Value::String(s) if !s.contains('/') => include.push(s),
                other => {
                    return Err(format!(
                        "{at}: `include` entries must be keys of earlier test cases or groups, found {other:?}"
                    ))
                }
            }
        }
        let data = match raw.data {
            None | Some(Value::Null) => Children::Empty,
            Some(Value::Mapping(m)) => Children::Named(self.children(at, m)?),
            Some(Value::Sequence(_)) if root => {
                return Err(format!(
                    "{at}: the root `data` must be a dictionary, not a list"
                ));
            }
            Some(Value::Sequence(items)) => {
                let mut lists = Vec::new();
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::Mapping(m) if m.len() == 1 => {
                            lists.push(self.children(at, m)?)
                        }
                        Value::Mapping(_) => {
                            return Err(format!(
                                "{at}.data[{i}]: a numbered entry must have exactly one key (to give `generate`, `count`, ... indent them one level more)"
                            ))
                        }
                        _ => {
                            return Err(format!(
                                "{at}.data[{i}]: expected a dictionary with one key"
                            ))
                        }
                    }
                }
                Children::Numbered(lists)
            }
            Some(_) => return Err(format!("{at}: `data` must be a dictionary or a list")),
        };
        Ok(Dir {
            settings,
            group_yaml,
            include,
            data,
        })
    }

    fn children(&mut self, at: &str, map: Mapping) -> Result<Vec<(String, Node)>, String> {
        let mut out = Vec::new();
        for (key, value) in map {
            let Some(name) = key_text(&key) else {
                self.warnings.push(format!(
                    "{at}: key {key:?} is not a string; skipped (quote it)"
                ));
                continue;
            };
            let child_at = format!("{at}.{}", if name.is_empty() { "\"\"" } else { &name });
            let node = if is_case(&value) {
                Node::Case(Box::new(self.case(&child_at, value)?))
            } else if value.is_mapping() {
                Node::Dir(self.dir(&child_at, value, false)?)
            } else {
                return Err(format!(
                    "{child_at}: neither a test case (a command, or a dictionary with `generate`, `copy`, `in`, ...) nor a group (a dictionary)"
                ));
            };
            out.push((name, node));
        }
        Ok(out)
    }

    fn case(&mut self, at: &str, value: Value) -> Result<Case, String> {
        let value = match value {
            // Before 2023.07, an empty entry was a case whose files are in data/ already.
            Value::Null => {
                return Ok(Case {
                    in_data: true,
                    ..Case::default()
                })
            }
            Value::String(s) => {
                // Before `copy:`, a path ending in .in named a manual case.
                return Ok(match s.strip_suffix(".in") {
                    Some(base) if !s.trim().contains(char::is_whitespace) => Case {
                        copy: Some(base.to_string()),
                        ..Case::default()
                    },
                    _ => Case {
                        generate: Some(s),
                        ..Case::default()
                    },
                });
            }
            v => v,
        };
        let mut raw: RawCase = yaml_serde::from_value(value).map_err(|e| format!("{at}: {e}"))?;
        if raw.kind.as_deref().is_some_and(|k| k != "testcase") {
            return Err(format!("{at}: `type` must be `directory` or `testcase`"));
        }
        let mut files = Vec::new();
        for &ext in TEXT_EXTENSIONS {
            let Some(v) = raw.rest.remove(ext) else {
                continue;
            };
            let spec = match v {
                Value::String(s) => FileSpec::Text(if s.is_empty() || s.ends_with('\n') {
                    s
                } else {
                    s + "\n"
                }),
                Value::Mapping(m) if ext == "yaml" => FileSpec::Text(yaml_text(&Value::Mapping(m))),
                Value::Mapping(m)
                    if m.len() == 1 && m.get("link").is_some_and(Value::is_string) =>
                {
                    let target = m["link"].as_str().unwrap_or_default().to_string();
                    if !EXTENSIONS.contains(&target.as_str()) {
                        return Err(format!("{at}.{ext}: unknown link target `{target}`"));
                    }
                    FileSpec::Link(target)
                }
                Value::Null => continue,
                _ => {
                    return Err(format!(
                        "{at}.{ext}: must be a string (quote numbers: \"1\") or {{link: <ext>}}"
                    ))
                }
            };
            files.push((ext.to_string(), spec));
        }
        let mut legacy_yaml = Mapping::new();
        if let Some(d) = raw.desc.take() {
            legacy_yaml.insert("description".into(), d.into());
        }
        if let Some(h) = raw.hint.take() {
            legacy_yaml.insert("hint".into(), h.into());
        }
        if !legacy_yaml.is_empty() && !files.iter().any(|(e, _)| e == "yaml") {
            files.push((
                "yaml".into(),
                FileSpec::Text(yaml_text(&Value::Mapping(legacy_yaml))),
            ));
        }
        self.unknown(at, &raw.rest);
        if raw.visualizer.is_some() {
            self.note(
                "visualizer",
                "visualizers are not run (`visualizer:` in generators.yaml); no pictures are made"
                    .into(),
            );
        }
        if raw.patterns.is_some() {
            self.note("match", "`match:` patterns are not checked".into());
        }
        let command = |v: Value, key: &str| match v {
            Value::String(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(format!(
                "{at}: `{key}` must be a non-empty command (a string)"
            )),
        };
        let mut generate = raw.generate.map(|v| command(v, "generate")).transpose()?;
        let mut copy = raw
            .copy
            .or(raw.path)
            .map(|c| c.trim_end_matches(".in").to_string());
        if let Some(input) = raw.input.map(|v| command(v, "input")).transpose()? {
            match input.strip_suffix(".in") {
                Some(base) if !input.contains(char::is_whitespace) => {
                    copy = copy.or(Some(base.to_string()))
                }
                _ => generate = generate.or(Some(input)),
            }
        }
        let count = match raw.count {
            None => Vec::new(),
            Some(v) => count_values(&v).map_err(|e| format!("{at}.count: {e}"))?,
        };
        let settings = self.settings(at, raw.solution, raw.random_salt, raw.retries)?;
        if generate.is_none() && copy.is_none() && files.is_empty() {
            return Err(format!(
                "{at}: a test case needs `generate`, `copy` or `in`"
            ));
        }
        Ok(Case {
            settings,
            generate,
            copy,
            count,
            files,
            in_data: false,
        })
    }
}

/// `count: 3` (1, 2, 3), `count: [7, -3]`, `count: 10..=12`; at most 100 values.
fn count_values(v: &Value) -> Result<Vec<i64>, String> {
    let list: Vec<i64> = match v {
        Value::Number(n) => {
            let n = n
                .as_i64()
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| format!("invalid count {n}; must be between 1 and 100"))?;
            (1..=n).collect()
        }
        Value::Sequence(items) => {
            let mut list = Vec::new();
            for item in items {
                let x = item.as_i64().ok_or_else(|| {
                    format!("invalid count list; found {item:?}, expected integers")
                })?;
                if list.contains(&x) {
                    return Err(format!("invalid count list; duplicate element {x}"));
                }
                list.push(x);
            }
            list
        }
        Value::String(s) => {
            let (lo, hi) = s
                .split_once("..=")
                .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
                .ok_or_else(|| format!("invalid count expression {s}; expected `1..=5`"))?;
            if lo > hi || hi - lo + 1 > 100 {
                return Err(format!("invalid count range {s} (at most 100 values)"));
            }
            (lo..=hi).collect()
        }
        _ => return Err("must be an integer, a list of integers or a range `1..=5`".into()),
    };
    if list.is_empty() || list.len() > 100 {
        return Err("must give 1 to 100 values".into());
    }
    Ok(list)
}

/// YAML text of a value, as written into `test_group.yaml` or `<case>.yaml`: block
/// mappings indented by 2, lists of plain values in flow style (`[--small]`, as package
/// authors write argument lists; BAPCtools keeps the style of the source), other lists as
/// block lists with the dash indented by 2 (BAPCtools' `indent(mapping=2, sequence=4,
/// offset=2)`).
pub fn yaml_text(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Mapping(m) if !m.is_empty() => emit_map(m, 0, &mut out),
        other => out.push_str(&format!(
            "{}\n",
            inline(other).unwrap_or_else(|| block(other))
        )),
    }
    out
}

fn is_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)
    )
}

/// A scalar as YAML writes it (quoted when plain text would read as something else).
fn scalar_yaml(v: &Value) -> String {
    yaml_serde::to_string(v)
        .unwrap_or_default()
        .trim_end_matches('\n')
        .to_string()
}

/// A scalar inside `[...]`: text that cannot stay plain (a flow indicator `,[]{}:#`, or
/// text YAML would read as a number, a boolean, empty) is double-quoted, as argument lists
/// are usually written (`[float_tolerance, "1e-6"]`, `["", "gen {seed}"]`).
fn flow_scalar(v: &Value) -> String {
    let text = scalar_yaml(v);
    let Value::String(s) = v else {
        return text;
    };
    let quoted = text.starts_with('\'') || text.starts_with('"');
    if quoted || text.contains([',', '[', ']', '{', '}', ':', '#']) {
        let escaped: String = s
            .chars()
            .flat_map(|c| match c {
                '"' => vec!['\\', '"'],
                '\\' => vec!['\\', '\\'],
                '\n' => vec!['\\', 'n'],
                '\t' => vec!['\\', 't'],
                c => vec![c],
            })
            .collect();
        format!("\"{escaped}\"")
    } else {
        text
    }
}

/// A value on one line, if it is a scalar or a list of scalars.
fn inline(v: &Value) -> Option<String> {
    match v {
        v if is_scalar(v) => Some(scalar_yaml(v)),
        Value::Sequence(items) if items.iter().all(is_scalar) => Some(format!(
            "[{}]",
            items.iter().map(flow_scalar).collect::<Vec<_>>().join(", ")
        )),
        Value::Mapping(m) if m.is_empty() => Some("{}".into()),
        _ => None,
    }
}

fn block(v: &Value) -> String {
    yaml_serde::to_string(v)
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

fn emit_map(m: &Mapping, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for (k, v) in m {
        let key = inline(k).unwrap_or_else(|| block(k));
        if let Some(text) = inline(v) {
            out.push_str(&format!("{pad}{key}: {text}\n"));
            continue;
        }
        out.push_str(&format!("{pad}{key}:\n"));
        match v {
            Value::Mapping(sub) => emit_map(sub, indent + 2, out),
            Value::Sequence(items) => {
                for item in items {
                    match (item, inline(item)) {
                        (_, Some(text)) => out.push_str(&format!("{pad}  - {text}\n")),
                        (Value::Mapping(sub), None) => {
                            let mut inner = String::new();
                            emit_map(sub, indent + 4, &mut inner);
                            out.push_str(&format!("{pad}  - {}", &inner[indent + 4..]));
                        }
                        (other, None) => out.push_str(&format!("{pad}  - {}\n", block(other))),
                    }
                }
            }
            other => out.push_str(&format!("{pad}  {}\n", block(other))),
        }
    }
}

/// Parses the text of `generators.yaml`: the model and warnings.
pub fn parse(text: &str) -> Result<(Generators, Vec<String>), String> {
    let (value, duplicates) = crate::kattis::yaml::parse(text)?;
    let mut map = match value {
        Value::Null => Mapping::new(),
        Value::Mapping(m) => m,
        _ => return Err("the file must be a dictionary".into()),
    };
    let mut r = Reader {
        warnings: duplicates
            .iter()
            .map(|k| crate::kattis::yaml::duplicate_warning(k))
            .collect(),
        unsupported: BTreeMap::new(),
    };
    let mut programs = BTreeMap::new();
    if let Some(g) = map.remove("generators") {
        let g = match g {
            Value::Null => Mapping::new(),
            Value::Mapping(m) => m,
            _ => return Err("`generators` must be a dictionary: name → list of files".into()),
        };
        for (name, files) in g {
            let Some(name) = name.as_str().map(str::to_string) else {
                continue;
            };
            let files: Vec<String> = match files {
                Value::Sequence(items) => items.iter().filter_map(scalar).collect(),
                _ => Vec::new(),
            };
            // BAPCtools documents names without `.`, but reads any file name (older
            // packages name entries `main.py`).
            if files.is_empty() || name.contains('/') || name.starts_with('.') {
                r.warnings.push(format!(
                    "generators.{name}: a generator is a name (no `/`) with a list of files; skipped"
                ));
                continue;
            }
            programs.insert(name, files);
        }
    }
    for key in ["version", "gitignore_generated", "parallel"] {
        map.remove(key);
    }
    if map.remove("visualizer").is_some() {
        r.note(
            "visualizer",
            "visualizers are not run (`visualizer:` in generators.yaml); no pictures are made"
                .into(),
        );
    }
    let root = r.dir("data", Value::Mapping(map), true)?;
    let unsupported = r.unsupported.into_values().collect();
    Ok((
        Generators {
            programs,
            root,
            unsupported,
        },
        r.warnings,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_and_groups_are_told_apart_by_their_keys() {
        let (g, warnings) = parse(
            "solution: /submissions/accepted/a.py\n\
             generators:\n  tree: [tree.py, lib.py]\n\
             data:\n  sample:\n    data:\n      '1': {in: '1 2', ans: '3'}\n      '2': manual/two.in\n\
             \x20 secret:\n    type: directory\n    colour: red\n    test_group.yaml: {input_validator_args: [--max]}\n\
             \x20   data:\n      - a: tree {seed}\n      - b: {generate: 'tree {count}', count: 2..=3}\n",
        )
        .unwrap();
        assert_eq!(g.programs["tree"], ["tree.py", "lib.py"]);
        assert_eq!(
            g.root.settings.solution,
            Some(Some("/submissions/accepted/a.py".into()))
        );
        assert_eq!(warnings, ["data.secret: unknown key `colour`"]);
        let Children::Named(top) = &g.root.data else {
            panic!()
        };
        let Node::Dir(sample) = &top[0].1 else {
            panic!()
        };
        let Children::Named(s) = &sample.data else {
            panic!()
        };
        let Node::Case(one) = &s[0].1 else { panic!() };
        assert_eq!(
            one.files,
            [
                ("in".to_string(), FileSpec::Text("1 2\n".into())),
                ("ans".to_string(), FileSpec::Text("3\n".into()))
            ]
        );
        let Node::Case(two) = &s[1].1 else { panic!() };
        assert_eq!(two.copy.as_deref(), Some("manual/two"));
        let Node::Dir(secret) = &top[1].1 else {
            panic!()
        };
        assert_eq!(secret.group_yaml.as_ref().unwrap().0, "test_group.yaml");
        let Children::Numbered(list) = &secret.data else {
            panic!()
        };
        let Node::Case(b) = &list[1][0].1 else {
            panic!()
        };
        assert_eq!(b.count, [2, 3]);
    }

    #[test]
    fn yaml_is_written_as_package_authors_write_it() {
        let v: Value = yaml_serde::from_str(
            "output_validator_args: [float_tolerance, '1e-6']\nhint: two words\nsub:\n  a: [{x: 1}]\n  e: []\nargs: ['', 'g {seed}', 'a,b', 'x\"y']\n",
        )
        .unwrap();
        assert_eq!(
            yaml_text(&v),
            "output_validator_args: [float_tolerance, \"1e-6\"]\nhint: two words\nsub:\n  a:\n    - x: 1\n  e: []\nargs: [\"\", \"g {seed}\", \"a,b\", x\"y]\n"
        );
    }

    #[test]
    fn wrong_types_are_errors_naming_the_node() {
        let e = parse("data:\n  secret:\n    data:\n      x: {in: 5}\n").unwrap_err();
        assert!(e.starts_with("data.secret.x.in: must be a string"), "{e}");
        let e = parse("data:\n  secret:\n    data:\n      x: {generate: g, random_salt: 1.0}\n")
            .unwrap_err();
        assert!(e.contains("random_salt"), "{e}");
        assert!(count_values(&Value::from(101)).is_err());
        assert_eq!(count_values(&Value::from("-1..=1")).unwrap(), [-1, 0, 1]);
    }
}
