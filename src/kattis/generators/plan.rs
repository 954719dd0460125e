//! The plan: the `data:` tree of `generators.yaml` expanded into folders and test cases, each
//! case with its path under `data/`, its command (arguments split, `{seed}` computed), the
//! files it copies or gives inline, and the solution that makes its answer. Names follow
//! BAPCtools: numbered lists share one counter over the whole file (zero-padded to the
//! width of the number of numbered cases), groups in a numbered list are numbered per
//! folder, `count:` adds `-<value>`; the root folders come in the format's order, other
//! keys in lexicographic order.

use std::collections::BTreeMap;

use yaml_serde::Value;

use super::model::{Case, Children, Dir, FileSpec, Generators, Node, Settings};
use super::seed;

/// The root folders a package may have, in the order BAPCtools makes them.
const ROOT_FOLDERS: [&str; 8] = [
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
    "testing_tool_test",
    "fuzz",
];

#[derive(Debug, Default)]
pub struct Plan {
    /// Every folder (path under `data/`, `""` for `data/` itself), parents first.
    pub dirs: Vec<PlannedDir>,
    pub cases: Vec<Planned>,
    /// Test cases copied into another folder by `include:`: (folder, case path).
    pub includes: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

#[derive(Debug)]
pub struct PlannedDir {
    pub path: String,
    /// The group file to write (`test_group.yaml` / `testdata.yaml`) and its YAML.
    pub group_yaml: Option<(String, Value)>,
}

#[derive(Debug, Clone)]
pub struct Planned {
    /// The path under `data/` without extension: `secret/group/03-max`.
    pub path: String,
    /// The key of the rule in `generators.yaml`, for messages (`data.secret.03-max`).
    pub rule: String,
    pub command: Option<Command>,
    /// Base path relative to the package (`generators/manual/big`): its `.in`, `.ans`, ...
    pub copy: Option<String>,
    pub files: Vec<(String, FileSpec)>,
    /// Path of the solution relative to the package; `None`: answers are not made.
    pub solution: Option<String>,
    /// No `solution:` anywhere above: the package's default one.
    pub default_solution: bool,
    pub retries: u32,
}

impl Planned {
    /// The top folder: `sample`, `secret`, `invalid_input`, ...
    pub fn root(&self) -> &str {
        self.path.split('/').next().unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
pub struct Command {
    /// The command as written (after `{count}` and constants), for messages.
    pub text: String,
    /// The program: a name of the `generators:` dictionary or a path under `generators/`.
    pub program: String,
    /// Arguments with `{name}` and `{count}` replaced; `{seed...}` still in them.
    pub args: Vec<String>,
    pub seed: u32,
}

impl Command {
    /// The arguments with `{seed}` (or `{seed:N}`) replaced by `seed`.
    pub fn args_with_seed(&self, seed: u32) -> Vec<String> {
        self.args
            .iter()
            .map(|a| replace_seed(a, seed).unwrap_or_else(|| a.clone()))
            .collect()
    }

    pub fn uses_seed(&self) -> bool {
        self.args.iter().any(|a| replace_seed(a, 0).is_some())
    }
}

/// The byte range of the first `{seed}` or `{seed:<digits>}` in `arg` from `from` on.
fn find_seed(arg: &str, from: usize) -> Option<(usize, usize)> {
    let mut from = from;
    while let Some(at) = arg[from..].find("{seed").map(|i| i + from) {
        let tail = &arg[at + 5..];
        if tail.starts_with('}') {
            return Some((at, at + 6));
        }
        if let Some(t) = tail.strip_prefix(':') {
            let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && t[digits..].starts_with('}') {
                return Some((at, at + 5 + 1 + digits + 1));
            }
        }
        from = at + 5;
    }
    None
}

/// `arg` with its `{seed}` / `{seed:N}` replaced, or `None` if it has none.
fn replace_seed(arg: &str, seed: u32) -> Option<String> {
    let mut out = String::new();
    let mut from = 0;
    while let Some((start, end)) = find_seed(arg, from) {
        out.push_str(&arg[from..start]);
        out.push_str(&seed.to_string());
        from = end;
    }
    if from == 0 {
        return None;
    }
    out.push_str(&arg[from..]);
    Some(out)
}

/// How many `{seed}` / `{seed:N}` `arg` holds.
fn count_seeds(arg: &str) -> usize {
    let mut n = 0;
    let mut from = 0;
    while let Some((_, end)) = find_seed(arg, from) {
        n += 1;
        from = end;
    }
    n
}

fn valid_name(name: &str) -> bool {
    let file = format!("{name}.in");
    file.len() <= 255
        && file
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
}

#[derive(Clone)]
struct Inherited {
    solution: Option<String>,
    default_solution: bool,
    salt: String,
    retries: u32,
}

impl Inherited {
    fn apply(&self, s: &Settings) -> Inherited {
        let mut next = self.clone();
        if let Some(sol) = &s.solution {
            next.default_solution = false;
            next.solution = sol.as_ref().map(|p| p.trim_start_matches('/').to_string());
        }
        if let Some(salt) = &s.random_salt {
            next.salt = salt.clone();
        }
        if let Some(r) = s.retries {
            next.retries = r.max(1);
        }
        next
    }
}

struct Planner<'a> {
    constants: &'a BTreeMap<String, String>,
    plan: Plan,
    /// Numbered test cases in the whole file, and the next number.
    numbered_total: usize,
    next_number: usize,
    /// Rules by their key, for `include:` (case paths under each).
    known: BTreeMap<String, Vec<Vec<String>>>,
}

/// Expands the model into the plan. `constants` are `problem.yaml`'s, for `{{name}}`.
pub fn expand(g: &Generators, constants: &BTreeMap<String, String>) -> Result<Plan, String> {
    let mut p = Planner {
        constants,
        plan: Plan::default(),
        numbered_total: count_numbered(&g.root),
        next_number: 1,
        known: BTreeMap::new(),
    };
    let top = Inherited {
        solution: None,
        default_solution: true,
        salt: String::new(),
        retries: 1,
    }
    .apply(&g.root.settings);
    p.plan.dirs.push(PlannedDir {
        path: String::new(),
        group_yaml: group_yaml(&g.root),
    });
    let Children::Named(children) = &g.root.data else {
        if matches!(g.root.data, Children::Numbered(_)) {
            return Err("data: the root must be a dictionary".into());
        }
        return Ok(p.plan);
    };
    // The plural root folders of older BAPCtools are the same folders.
    let folder_of = |key: &str| match key {
        "invalid_inputs" | "invalid_answers" | "invalid_outputs" | "valid_outputs" => {
            key[..key.len() - 1].to_string()
        }
        k => k.to_string(),
    };
    for (key, _) in children {
        if !ROOT_FOLDERS.contains(&folder_of(key).as_str()) {
            p.plan.warnings.push(format!(
                "data.{key}: not a folder of the package format ({}); skipped",
                ROOT_FOLDERS.join(", ")
            ));
        }
    }
    for folder in ROOT_FOLDERS {
        for (key, node) in children {
            if folder_of(key) != folder {
                continue;
            }
            let Node::Dir(d) = node else {
                return Err(format!(
                    "data.{key}: must be a group (a dictionary with `data`)"
                ));
            };
            let under = p.dir(folder, folder, d, &top)?;
            p.known.entry(key.clone()).or_default().push(under);
        }
    }
    Ok(p.plan)
}

fn group_yaml(d: &Dir) -> Option<(String, Value)> {
    let (name, value) = d.group_yaml.as_ref()?;
    Some((name.clone(), value.clone()?))
}

/// Numbered test cases in the tree (each `count` value is one).
fn count_numbered(d: &Dir) -> usize {
    let (lists, numbered): (Vec<&Vec<(String, Node)>>, bool) = match &d.data {
        Children::Empty => (Vec::new(), false),
        Children::Named(c) => (vec![c], false),
        Children::Numbered(l) => (l.iter().collect(), true),
    };
    let mut total = 0;
    for list in lists {
        for (_, node) in list {
            match node {
                Node::Case(c) if numbered => total += c.count.len().max(1),
                Node::Case(_) => {}
                Node::Dir(sub) => total += count_numbered(sub),
            }
        }
    }
    total
}

impl Planner<'_> {
    fn dir(
        &mut self,
        key: &str,
        path: &str,
        d: &Dir,
        parent: &Inherited,
    ) -> Result<Vec<String>, String> {
        let at = format!("data.{}", path.replace('/', "."));
        if !valid_name(path.rsplit('/').next().unwrap_or(path)) {
            return Err(format!("{at}: `{key}` is not a valid folder name"));
        }
        let inherited = parent.apply(&d.settings);
        self.plan.dirs.push(PlannedDir {
            path: path.to_string(),
            group_yaml: group_yaml(d),
        });
        let mut under = Vec::new();
        // Included cases first come from earlier keys.
        for inc in &d.include {
            let Some(rules) = self.known.get(inc) else {
                return Err(format!(
                    "{at}: include `{inc}` is no key of an earlier test case or group"
                ));
            };
            if rules.len() != 1 {
                return Err(format!(
                    "{at}: include `{inc}` is ambiguous (the key is used {} times)",
                    rules.len()
                ));
            }
            for case in rules[0].clone() {
                self.plan.includes.push((path.to_string(), case.clone()));
                let name = case.rsplit('/').next().unwrap_or(&case);
                under.push(format!("{path}/{name}"));
            }
        }
        let (lists, numbered): (Vec<&Vec<(String, Node)>>, bool) = match &d.data {
            Children::Empty => (Vec::new(), false),
            Children::Named(c) => (vec![c], false),
            Children::Numbered(l) => (l.iter().collect(), true),
        };
        let groups_total: usize = lists
            .iter()
            .map(|l| l.iter().filter(|(_, n)| matches!(n, Node::Dir(_))).count())
            .sum();
        let mut next_group = 1;
        for list in lists {
            let mut entries: Vec<&(String, Node)> = list.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (child_key, node) in entries {
                if !numbered && child_key.is_empty() {
                    return Err(format!("{at}: a test case or group in a dictionary needs a name (an empty key is only for numbered lists)"));
                }
                match node {
                    Node::Dir(sub) => {
                        let name = if numbered {
                            let n = numbered_name(child_key, next_group, groups_total);
                            next_group += 1;
                            n
                        } else {
                            child_key.clone()
                        };
                        let below =
                            self.dir(child_key, &format!("{path}/{name}"), sub, &inherited)?;
                        self.known
                            .entry(child_key.clone())
                            .or_default()
                            .push(below.clone());
                        under.extend(below);
                    }
                    Node::Case(case) => {
                        let made = self.case(child_key, path, numbered, case, &inherited)?;
                        for m in &made {
                            self.known
                                .entry(child_key.clone())
                                .or_default()
                                .push(vec![m.clone()]);
                        }
                        under.extend(made);
                    }
                }
            }
        }
        Ok(under)
    }

    fn case(
        &mut self,
        key: &str,
        dir: &str,
        numbered: bool,
        case: &Case,
        parent: &Inherited,
    ) -> Result<Vec<String>, String> {
        let inherited = parent.apply(&case.settings);
        let counts: Vec<Option<i64>> = if case.count.is_empty() {
            vec![None]
        } else {
            case.count.iter().copied().map(Some).collect()
        };
        let (lo, hi) = (
            case.count.iter().min().copied().unwrap_or(1),
            case.count.iter().max().copied().unwrap_or(1),
        );
        let consecutive = hi - lo == case.count.len() as i64 - 1;
        let padding = if consecutive {
            case.count
                .iter()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        let mut made = Vec::new();
        for count in counts {
            let mut name = if numbered {
                let n = numbered_name(key, self.next_number, self.numbered_total);
                self.next_number += 1;
                n
            } else {
                key.to_string()
            };
            if let Some(c) = count {
                name.push_str(&format!("-{c:0padding$}"));
            }
            let name = name.strip_suffix(".in").unwrap_or(&name).to_string();
            let path = format!("{dir}/{name}");
            let rule = format!("data.{}", path.replace('/', "."));
            if !valid_name(&name) || name == "test_group" {
                return Err(format!("{rule}: `{name}` is not a valid test case name"));
            }
            if count.is_none()
                && case
                    .generate
                    .as_ref()
                    .is_some_and(|g| g.contains("{count}"))
            {
                self.plan.warnings.push(format!(
                    "{rule}: `{{count}}` in a command without `count:`; left as it is"
                ));
            }
            if self.plan.cases.iter().any(|c| c.path == path) {
                return Err(format!("{rule}: two rules make the test case {path}"));
            }
            let command = match &case.generate {
                None => None,
                Some(text) => Some(self.command(&rule, text, count, &inherited)?),
            };
            for (what, p) in [
                ("copy", case.copy.as_deref()),
                ("solution", inherited.solution.as_deref()),
                ("generator", command.as_ref().map(|c| c.program.as_str())),
            ] {
                if p.is_some_and(|p| p.split('/').any(|part| part == "..")) {
                    return Err(format!(
                        "{rule}: {what} `{}` leaves the package (`..`)",
                        p.unwrap_or_default()
                    ));
                }
            }
            self.plan.cases.push(Planned {
                path: path.clone(),
                rule,
                command,
                copy: match (&case.copy, case.in_data) {
                    (_, true) => Some(format!("data/{path}")),
                    (Some(c), false) => Some(format!("generators/{}", c.trim_start_matches('/'))),
                    (None, false) => None,
                },
                files: case.files.clone(),
                solution: inherited.solution.clone(),
                default_solution: inherited.default_solution,
                retries: inherited.retries,
            });
            made.push(path);
        }
        Ok(made)
    }

    fn command(
        &self,
        rule: &str,
        text: &str,
        count: Option<i64>,
        inherited: &Inherited,
    ) -> Result<Command, String> {
        let mut text = substitute_constants(text, self.constants);
        if let Some(c) = count {
            text = text.replace("{count}", &c.to_string());
        }
        let count_value = count.unwrap_or(1);
        let words = seed::shlex_split(&text).map_err(|e| format!("{rule}: `{text}`: {e}"))?;
        let Some((program, args)) = words.split_first() else {
            return Err(format!("{rule}: an empty command"));
        };
        if program.starts_with('/') {
            return Err(format!(
                "{rule}: `{program}`: a generator is named relative to generators/"
            ));
        }
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("{name}", "testcase"))
            .collect();
        let seeds: usize = args.iter().map(|a| count_seeds(a)).sum();
        if seeds > 1 {
            return Err(format!("{rule}: `{{seed}}` may appear at most once"));
        }
        Ok(Command {
            seed: seed::seed(&inherited.salt, count_value, &text),
            text,
            program: program.clone(),
            args,
        })
    }
}

fn numbered_name(key: &str, number: usize, total: usize) -> String {
    let width = total.to_string().len();
    if key.is_empty() {
        format!("{number:0width$}")
    } else {
        format!("{number:0width$}-{key}")
    }
}

use crate::kattis::programs::substitute_constants;

#[cfg(test)]
mod tests {
    use super::super::model;
    use super::*;

    fn plan(text: &str) -> Plan {
        let (g, _) = model::parse(text).unwrap();
        expand(&g, &BTreeMap::new()).unwrap()
    }

    #[test]
    fn names_follow_bapctools_numbering() {
        let p = plan(
            "data:\n  secret:\n    data:\n      - '': g 1\n      - a: g 2\n      - grp:\n          data:\n            - c: g 3\n      - b: {generate: 'g {count}', count: 2}\n      - '': g 5\n      - '': g 6\n      - '': g 7\n      - '': g 8\n      - '': g 9\n      - '': g 10\n\
             \x20 sample:\n    data:\n      z: {in: '1'}\n      y: {generate: 'g {seed}', count: [7, -3]}\n",
        );
        let names: Vec<&str> = p.cases.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            names,
            [
                "sample/y-7",
                "sample/y--3",
                "sample/z",
                "secret/01",
                "secret/02-a",
                "secret/1-grp/03-c",
                "secret/04-b-1",
                "secret/05-b-2",
                "secret/06",
                "secret/07",
                "secret/08",
                "secret/09",
                "secret/10",
                "secret/11"
            ]
        );
        assert_eq!(p.cases[6].command.as_ref().unwrap().args, ["1"]);
        let y7 = p.cases[0].command.as_ref().unwrap();
        assert_eq!(y7.seed, seed::seed("", 7, "g {seed}"));
        assert_eq!(y7.args_with_seed(42), ["42"]);
    }

    #[test]
    fn older_bapctools_keys_are_read() {
        let p = plan(
            "data:\n  secret:\n    type: directory\n    testdata.yaml: {output_validator_flags: case_sensitive}\n    data:\n      a: {type: testcase, input: gen 1, desc: first}\n      b: {input: manual/b.in}\n  invalid_inputs:\n    data:\n      x: {in: '-1'}\n",
        );
        let paths: Vec<&str> = p.cases.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["secret/a", "secret/b", "invalid_input/x"]);
        assert_eq!(p.cases[0].command.as_ref().unwrap().text, "gen 1");
        assert_eq!(
            p.cases[0].files,
            [(
                "yaml".to_string(),
                FileSpec::Text("description: first\n".into())
            )]
        );
        assert_eq!(p.cases[1].copy.as_deref(), Some("generators/manual/b"));
        let secret = p.dirs.iter().find(|d| d.path == "secret").unwrap();
        assert_eq!(secret.group_yaml.as_ref().unwrap().0, "testdata.yaml");
    }

    #[test]
    fn seeds_and_includes() {
        assert_eq!(replace_seed("x{seed:12}y", 5).as_deref(), Some("x5y"));
        assert_eq!(replace_seed("{seed:}", 5), None);
        assert_eq!(replace_seed("{seed}", 5).as_deref(), Some("5"));
        let p = plan(
            "random_salt: s\ndata:\n  sample:\n    data:\n      '1': {in: '1'}\n  secret:\n    include: [sample]\n    data:\n      r: gen {seed} {name}\n",
        );
        let r = p.cases[1].command.as_ref().unwrap();
        assert_eq!(r.args, ["{seed}", "testcase"]);
        assert_eq!(r.seed, seed::seed("s", 1, "gen {seed} {name}"));
        assert_eq!(p.includes, [("secret".to_string(), "sample/1".to_string())]);
        let (g, _) =
            model::parse("data:\n  secret:\n    data:\n      a: {copy: ../../x}\n").unwrap();
        let e = expand(&g, &BTreeMap::new()).unwrap_err();
        assert!(e.contains("leaves the package"), "{e}");
    }
}
