//! Reading YAML maps into typed values with clear messages: every key a map holds is either
//! read (`take_*`) or reported as unknown (`unknown_keys`), so a typo is a warning naming the
//! key, and a value of the wrong type is an error naming the key and what was expected.
//!
//! Every YAML file judge reads from a package goes through [`parse`], which first checks its
//! size and nesting depth in linear time ([`check_limits`]): the parser takes time quadratic in
//! the depth of flow collections (`[[[[...]]]]`), so a deep file would hold judge for minutes.

use std::mem::MaybeUninit;

use libyaml_rs as sys;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use yaml_serde::value::{Tag, TaggedValue};
use yaml_serde::{Mapping, Value};

/// The largest YAML file judge reads (generators.yaml of the largest public archives is well
/// under 1 MiB).
pub const MAX_BYTES: usize = 16 << 20;

/// The deepest nesting of lists and maps judge reads (the formats need at most 8 or so).
pub const MAX_DEPTH: usize = 64;

/// Parses YAML text; an empty file is an empty map. Files over [`MAX_BYTES`] or nested over
/// [`MAX_DEPTH`] are errors, found before any value is built.
///
/// A key a map gives twice is read as PyYAML (and so problemtools) reads it: the last value,
/// in the place of the first. The second part names each such key by its dotted path
/// (`limits.memory`, `data[2].in`); the reader of the file warns with [`duplicate_warning`].
pub fn parse(text: &str) -> Result<(Value, Vec<String>), String> {
    check_limits(text)?;
    let mut duplicates = Vec::new();
    let seed = Lenient {
        path: String::new(),
        duplicates: &mut duplicates,
    };
    let value = seed
        .deserialize(yaml_serde::Deserializer::from_str(text))
        .map_err(|e| parse_error(&e.to_string()))?;
    let value = if value.is_null() {
        Value::Mapping(Mapping::new())
    } else {
        value
    };
    Ok((value, duplicates))
}

/// [`parse`] without the keys given twice, for a file whose own reader warns of them (a
/// second reading of `problem.yaml`, of a `testdata.yaml`, ...).
pub fn parse_value(text: &str) -> Result<Value, String> {
    parse(text).map(|(value, _)| value)
}

/// How the warning about a duplicate key ends ([`is_duplicate_warning`] looks for it).
const DUPLICATE_TAIL: &str = "is given twice; the last value is used (as problemtools reads it)";

/// The warning that a file gives `key` twice (a key of [`parse`]'s second part), for the
/// reader to put after the file's name.
pub fn duplicate_warning(key: &str) -> String {
    format!("key `{key}` {DUPLICATE_TAIL}")
}

/// Whether a load warning is a [`duplicate_warning`]: read as problemtools reads it, so a
/// warning of `verify` (a failure with `--strict`), not a fault that fails it.
pub fn is_duplicate_warning(warning: &str) -> bool {
    warning.ends_with(DUPLICATE_TAIL)
}

/// Builds a [`Value`] as `Value`'s own `Deserialize` does, but a key given twice takes the last
/// value (and is noted in `duplicates`) where that one fails the parse.
struct Lenient<'a> {
    /// The dotted path of the value being read, for the note.
    path: String,
    duplicates: &'a mut Vec<String>,
}

impl Lenient<'_> {
    fn at(&mut self, path: String) -> Lenient<'_> {
        Lenient {
            path,
            duplicates: self.duplicates,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Lenient<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Lenient<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        // As `Value`'s own: `parse_error` rewrites messages that end in it.
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let path = format!("{}[{}]", self.path, items.len());
            match seq.next_element_seed(self.at(path))? {
                Some(item) => items.push(item),
                None => return Ok(Value::Sequence(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut mapping = Mapping::new();
        loop {
            let key_path = self.path.clone();
            let Some(key) = map.next_key_seed(self.at(key_path))? else {
                return Ok(Value::Mapping(mapping));
            };
            let name = scalar_text(&key).unwrap_or_else(|| kind(&key));
            let path = match self.path.as_str() {
                "" => name,
                parent => format!("{parent}.{name}"),
            };
            let value = map.next_value_seed(self.at(path.clone()))?;
            if mapping.insert(key, value).is_some() {
                self.duplicates.push(path);
            }
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(mut self, data: A) -> Result<Value, A::Error> {
        let (tag, contents): (String, _) = data.variant()?;
        if tag.is_empty() {
            return Err(de::Error::custom("empty YAML tag is not allowed"));
        }
        let path = self.path.clone();
        let value = contents.newtype_variant_seed(self.at(path))?;
        Ok(Value::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        })))
    }
}

/// Checks that `text` is at most [`MAX_BYTES`] long and nests lists and maps at most
/// [`MAX_DEPTH`] deep, in time linear in its length: the parser's events are counted and the
/// parse stops at the first one too deep (the parser looks at most about 1 KiB ahead of its
/// events, so that is soon). Syntax errors are left to the parse that builds the values.
pub fn check_limits(text: &str) -> Result<(), String> {
    if text.len() > MAX_BYTES {
        return Err(format!("larger than {} MiB", MAX_BYTES >> 20));
    }
    match deeper_than(text, MAX_DEPTH) {
        true => Err(format!("nested deeper than {MAX_DEPTH} levels")),
        false => Ok(()),
    }
}

/// The parser's message on one line; an integer too large for 64 bits (which `yaml_serde`
/// reports as a u128 it cannot hold) is said to be too large.
fn parse_error(message: &str) -> String {
    let mut s = one_line(message);
    for wide in ["u128", "i128"] {
        let tail = format!(" as {wide}, expected any YAML value");
        if s.contains(&tail) {
            s = s
                .replace(&tail, " is too large")
                .replace("invalid type: integer", "the integer");
        }
    }
    s
}

/// The largest score, or score bound, a package may give (scores of real problems are at most
/// a few thousand; beyond this sums lose their units digit).
pub const MAX_SCORE: f64 = 1e9;

/// `v` as a finite number in `lo..=hi`: a YAML number, or a string holding one (as legacy
/// `testdata.yaml` files write them). The error names `key` and the range.
pub fn number_in(v: &Value, key: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let x = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    x.filter(|x| x.is_finite() && (lo..=hi).contains(x))
        .ok_or_else(|| out_of_range(key, lo, hi, &kind(v)))
}

/// `text` as a finite number in `lo..=hi` (a word of a `range:`); the error names `key`.
pub fn text_number_in(text: &str, key: &str, lo: f64, hi: f64) -> Result<f64, String> {
    text.trim_start_matches('+')
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && (lo..=hi).contains(x))
        .ok_or_else(|| out_of_range(key, lo, hi, &format!("`{text}`")))
}

fn out_of_range(key: &str, lo: f64, hi: f64, found: &str) -> String {
    format!("{key} must be a number from {lo} to {hi}, found {found}")
}

/// An initialised libyaml parser, deleted on drop.
struct EventParser(Box<MaybeUninit<sys::yaml_parser_t>>);

impl Drop for EventParser {
    fn drop(&mut self) {
        // SAFETY: the parser was initialised by `yaml_parser_initialize` (an `EventParser` is
        // only made after it succeeded) and is deleted once, here.
        unsafe { sys::yaml_parser_delete(self.0.as_mut_ptr()) }
    }
}

/// Whether `text` has lists or maps nested more than `limit` deep (false when it does not
/// parse before that depth: the real parse reports the error).
fn deeper_than(text: &str, limit: usize) -> bool {
    let mut boxed = Box::new(MaybeUninit::<sys::yaml_parser_t>::uninit());
    // SAFETY: the pointer is to memory for one parser, which `yaml_parser_initialize` fills in.
    if unsafe { sys::yaml_parser_initialize(boxed.as_mut_ptr()) }.fail {
        return false;
    }
    let mut parser = EventParser(boxed);
    let p = parser.0.as_mut_ptr();
    // SAFETY: `p` is an initialised parser; `text` outlives it (it is dropped at the end of
    // this function) and is UTF-8, as `yaml_serde` tells libyaml too.
    unsafe {
        sys::yaml_parser_set_encoding(p, sys::YAML_UTF8_ENCODING);
        sys::yaml_parser_set_input_string(p, text.as_ptr(), text.len() as u64);
    }
    let mut depth = 0usize;
    loop {
        let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
        // SAFETY: `p` is an initialised parser with its input set, `event` is memory for one
        // event; when the parse succeeds the event is initialised, read once and deleted.
        let kind = unsafe {
            if sys::yaml_parser_parse(p, event.as_mut_ptr()).fail {
                return false;
            }
            let kind = (*event.as_ptr()).type_;
            sys::yaml_event_delete(event.as_mut_ptr());
            kind
        };
        match kind {
            sys::YAML_SEQUENCE_START_EVENT | sys::YAML_MAPPING_START_EVENT => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            sys::YAML_SEQUENCE_END_EVENT | sys::YAML_MAPPING_END_EVENT => {
                depth = depth.saturating_sub(1)
            }
            sys::YAML_STREAM_END_EVENT => return false,
            _ => {}
        }
    }
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

    /// A finite number in `lo..=hi` (see [`number_in`]).
    pub fn take_number_in(&mut self, key: &str, lo: f64, hi: f64) -> Result<Option<f64>, String> {
        let name = self.name(key);
        self.get(key)
            .map(|v| number_in(v, &name, lo, hi))
            .transpose()
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
        let v = parse_value("name: Hello\nlimits:\n  memory: 512\n  colour: red\ntype: [pass-fail, interactive]\nnmae: x\n").unwrap();
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
        let v = parse_value("limits:\n  memory: lots\n").unwrap();
        let mut m = Map::new(&v, "", "problem.yaml").unwrap();
        let mut limits = m.take_map("limits").unwrap();
        assert_eq!(
            limits.take_u64("memory").unwrap_err(),
            "limits.memory must be a non-negative integer, found `lots`"
        );
        assert!(parse_value("").unwrap().is_mapping());
        assert!(parse_value("a: [").is_err());
    }

    #[test]
    fn numbers_are_finite_and_in_range() {
        let v = parse_value("a: 5\nb: .inf\nc: 1e400\nd: .nan\ne: '7.5'\nf: -1\ng: x\n").unwrap();
        let mut m = Map::new(&v, "", "f").unwrap();
        assert_eq!(m.take_number_in("a", 0.0, 10.0).unwrap(), Some(5.0));
        assert_eq!(m.take_number_in("e", 0.0, 10.0).unwrap(), Some(7.5));
        assert_eq!(m.take_number_in("zz", 0.0, 10.0).unwrap(), None);
        for (key, found) in [
            ("b", "the number .inf"),
            ("c", "`1e400`"),
            ("d", "the number .nan"),
            ("f", "the number -1"),
            ("g", "`x`"),
        ] {
            assert_eq!(
                m.take_number_in(key, 0.0, 10.0).unwrap_err(),
                format!("{key} must be a number from 0 to 10, found {found}")
            );
        }
        assert_eq!(text_number_in("+3", "range", 0.0, 10.0), Ok(3.0));
        assert!(text_number_in("inf", "range", 0.0, MAX_SCORE).is_err());
        assert!(text_number_in("1e308", "range", 0.0, MAX_SCORE).is_err());
    }

    #[test]
    fn a_key_given_twice_takes_the_last_value_and_is_named() {
        let text = "input_validator_flags: a\nrange: 0 10\ninput_validator_flags: b\n\
                    limits:\n  memory: 1\n  memory: 2\ndata:\n  - {x: 1, x: 2}\n";
        let (v, duplicates) = parse(text).unwrap();
        assert_eq!(
            duplicates,
            ["input_validator_flags", "limits.memory", "data[0].x"]
        );
        let mut m = Map::new(&v, "", "f").unwrap();
        assert_eq!(
            m.take_str("input_validator_flags").unwrap().as_deref(),
            Some("b")
        );
        assert_eq!(
            m.take_map("limits").unwrap().take_u64("memory").unwrap(),
            Some(2)
        );
        // The key keeps its first place, as in PyYAML's dict.
        let keys: Vec<String> = v
            .as_mapping()
            .unwrap()
            .keys()
            .filter_map(scalar_text)
            .collect();
        assert_eq!(keys, ["input_validator_flags", "range", "limits", "data"]);
        assert_eq!(v["data"][0]["x"].as_u64(), Some(2));
        // No duplicates, no notes; the value is the one `Value`'s own parse gives.
        let plain = "a: [1, 2.5, x, null, true]\nb: !tag {c: d}\n'1': one\n1: two\n";
        let (v, duplicates) = parse(plain).unwrap();
        assert!(duplicates.is_empty(), "{duplicates:?}");
        assert_eq!(v, yaml_serde::from_str::<Value>(plain).unwrap());
        let w = duplicate_warning("limits.memory");
        assert_eq!(
            w,
            "key `limits.memory` is given twice; the last value is used (as problemtools reads it)"
        );
        assert!(is_duplicate_warning(&format!("problem.yaml: {w}")));
        assert!(!is_duplicate_warning("problem.yaml: unknown key `colour`"));
    }

    #[test]
    fn depth_and_size_are_limited_before_values_are_built() {
        let nested = |n: usize| format!("a: {}{}\n", "[".repeat(n), "]".repeat(n));
        assert!(parse_value(&nested(MAX_DEPTH - 1)).is_ok());
        assert_eq!(
            parse_value(&nested(MAX_DEPTH)).unwrap_err(),
            "nested deeper than 64 levels"
        );
        // Block nesting counts too: `- - - x` is three lists inside a map.
        let block = format!("a:\n{}x\n", "- ".repeat(MAX_DEPTH));
        assert_eq!(
            parse_value(&block).unwrap_err(),
            "nested deeper than 64 levels"
        );
        // Deep input costs no more than a few milliseconds: the parse stops at the limit.
        let start = std::time::Instant::now();
        for deep in [nested(200_000), format!("{}\n", "{a: ".repeat(200_000))] {
            assert_eq!(
                parse_value(&deep).unwrap_err(),
                "nested deeper than 64 levels"
            );
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        // Wide is fine, and a syntax error is still the parser's message.
        let wide = format!("a: [{}]\n", "[1], ".repeat(10_000));
        assert!(parse_value(&wide).is_ok());
        assert!(parse_value("a: [[[\n").unwrap_err().contains("line"));
        assert_eq!(
            parse_value("limits:\n  memory: 12345678901234567890123456\n").unwrap_err(),
            "limits.memory: the integer `12345678901234567890123456` is too large at line 2 column 11"
        );
        let big = "#".repeat(MAX_BYTES + 1);
        assert_eq!(parse_value(&big).unwrap_err(), "larger than 16 MiB");
    }
}
