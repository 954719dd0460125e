//! Reading YAML maps into typed values with clear messages: every key a map holds is either
//! read (`take_*`) or reported as unknown (`unknown_keys`), so a typo is a warning naming the
//! key, and a value of the wrong type is an error naming the key and what was expected.

use yaml_serde::{Mapping, Value};

/// Parses YAML text; an empty file is an empty map.
pub fn parse(text: &str) -> Result<Value, String> {
    let value: Value = yaml_serde::from_str(text).map_err(|e| one_line(&e.to_string()))?;
    Ok(if value.is_null() {
        Value::Mapping(Mapping::new())
    } else {
        value
    })
}

fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A map being read; `prefix` is its dotted path for messages (`limits.`).
pub struct Map<'a> {
    map: Option<&'a Mapping>,
    prefix: String,
    read: Vec<String>,
}

impl<'a> Map<'a> {
    /// The map `value`; an error if it is something else (`what` names it).
    pub fn new(value: &'a Value, prefix: &str, what: &str) -> Result<Map<'a>, String> {
        match value {
            Value::Mapping(m) => Ok(Map {
                map: Some(m),
                prefix: prefix.to_string(),
                read: Vec::new(),
            }),
            Value::Null => Ok(Map::empty(prefix)),
            other => Err(format!("{what} must be a map, found {}", kind(other))),
        }
    }

    /// A map with no keys.
    pub fn empty(prefix: &str) -> Map<'a> {
        Map {
            map: None,
            prefix: prefix.to_string(),
            read: Vec::new(),
        }
    }

    fn get(&mut self, key: &str) -> Option<&'a Value> {
        self.read.push(key.to_string());
        self.map?.get(key).filter(|v| !v.is_null())
    }

    /// The dotted name of `key` for messages.
    pub fn name(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    pub fn take_str(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => scalar_text(v)
                .map(Some)
                .ok_or_else(|| format!("{} must be a string, found {}", self.name(key), kind(v))),
        }
    }

    pub fn take_f64(&mut self, key: &str) -> Result<Option<f64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| format!("{} must be a number, found {}", self.name(key), kind(v))),
        }
    }

    pub fn take_u64(&mut self, key: &str) -> Result<Option<u64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                format!(
                    "{} must be a non-negative integer, found {}",
                    self.name(key),
                    kind(v)
                )
            }),
        }
    }

    pub fn take_bool(&mut self, key: &str) -> Result<Option<bool>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_bool().map(Some).ok_or_else(|| {
                format!(
                    "{} must be true or false, found {}",
                    self.name(key),
                    kind(v)
                )
            }),
        }
    }

    /// A string or a sequence of strings (`type: pass-fail` or `type: [pass-fail, interactive]`).
    pub fn take_strings(&mut self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|v| {
                    scalar_text(v).ok_or_else(|| {
                        format!("{} must hold strings, found {}", self.name(key), kind(v))
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => scalar_text(v).map(|s| Some(vec![s])).ok_or_else(|| {
                format!(
                    "{} must be a string or a list of strings, found {}",
                    self.name(key),
                    kind(v)
                )
            }),
        }
    }

    /// A nested map (empty when absent).
    pub fn take_map(&mut self, key: &str) -> Result<Map<'a>, String> {
        let name = format!("{}.", self.name(key));
        match self.get(key) {
            None => Ok(Map::empty(&name)),
            Some(v) => Map::new(v, &name, &self.name(key)),
        }
    }

    /// Any value, unparsed (for keys that are known but not used).
    pub fn take_any(&mut self, key: &str) -> Option<&'a Value> {
        self.get(key)
    }

    /// Marks keys as known without reading them.
    pub fn known(&mut self, keys: &[&str]) {
        self.read.extend(keys.iter().map(|k| k.to_string()));
    }

    /// Dotted names of keys that were neither read nor marked known.
    pub fn unknown_keys(&self) -> Vec<String> {
        let Some(map) = self.map else {
            return Vec::new();
        };
        map.keys()
            .map(|k| scalar_text(k).unwrap_or_else(|| format!("{k:?}")))
            .filter(|k| !self.read.contains(k))
            .map(|k| self.name(&k))
            .collect()
    }
}

/// A scalar as text: strings as they are, numbers and booleans as written.
pub fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// "a list", "a map", "the number 5", ... for messages.
pub fn kind(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("`{s}`"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a map".into(),
        Value::Tagged(_) => "a tagged value".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_typed_values_and_lists_unknown_keys() {
        let v = parse("name: Hello\nlimits:\n  memory: 512\n  colour: red\ntype: [pass-fail, interactive]\nnmae: x\n").unwrap();
        let mut m = Map::new(&v, "", "problem.yaml").unwrap();
        assert_eq!(m.take_str("name").unwrap().as_deref(), Some("Hello"));
        let mut limits = m.take_map("limits").unwrap();
        assert_eq!(limits.take_u64("memory").unwrap(), Some(512));
        assert_eq!(limits.unknown_keys(), vec!["limits.colour"]);
        assert_eq!(
            m.take_strings("type").unwrap().unwrap(),
            vec!["pass-fail", "interactive"]
        );
        assert_eq!(m.unknown_keys(), vec!["nmae"]);
    }

    #[test]
    fn wrong_types_name_the_key() {
        let v = parse("limits:\n  memory: lots\n").unwrap();
        let mut m = Map::new(&v, "", "problem.yaml").unwrap();
        let mut limits = m.take_map("limits").unwrap();
        assert_eq!(
            limits.take_u64("memory").unwrap_err(),
            "limits.memory must be a non-negative integer, found `lots`"
        );
        assert!(parse("").unwrap().is_mapping());
        assert!(parse("a: [").is_err());
    }
}
