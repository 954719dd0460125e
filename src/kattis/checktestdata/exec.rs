//! Running a parsed program on one input: commands in order, blocks, variables (plain and
//! indexed by any number of integers), and the limits a jury program runs under (a deadline
//! checked every few thousand steps, and a bound on the memory its variables take).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::time::Instant;

use super::input::{mismatch, Mismatch, Reader};
use super::lex::Pos;
use super::parse::{Cmd, Expr, FloatForm, Parsed, Stmt, Test, VarId, VarRef};
use super::regex::Compiled;
use super::value::{show, Int, Value};
use super::ProgramError;

/// Why a run stopped early.
pub enum Stop {
    /// The input does not match the program.
    Mismatch(Mismatch),
    /// The program is wrong (a type error, an unset variable, ...).
    Program(ProgramError),
    /// The run went over its time or memory budget.
    Limit(String),
}

impl From<Mismatch> for Stop {
    fn from(m: Mismatch) -> Stop {
        Stop::Mismatch(m)
    }
}

fn program<T>(pos: Pos, message: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Program(ProgramError {
        pos,
        message: message.into(),
    }))
}

/// The Fx hash (rustc's): variables are keyed by small integers, which SipHash makes several
/// times slower to store and look up. The inputs are the jury's own test data.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
type Set<K> = HashSet<K, BuildHasherDefault<Fx>>;

/// A variable's index: none for a plain variable, one or more integers for an array element.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Key {
    Plain,
    One(Int),
    Many(Vec<Int>),
}

#[derive(Default)]
struct Var {
    values: Map<Key, Value>,
    /// How often each value occurs (kept only for variables some `INARRAY` searches).
    counts: Option<Map<Value, usize>>,
}

pub struct Exec<'a> {
    parsed: &'a Parsed,
    pub input: Reader<'a>,
    vars: Vec<Var>,
    regexes: Map<Arc<[u8]>, Compiled>,
    steps: u64,
    deadline: Option<Instant>,
    memory: u64,
    memory_limit: u64,
    /// Why the last `UNIQUE` was false, for the message of a failed `ASSERT`.
    note: Option<String>,
}

impl<'a> Exec<'a> {
    pub fn new(
        parsed: &'a Parsed,
        input: Reader<'a>,
        deadline: Option<Instant>,
        memory_limit: u64,
    ) -> Exec<'a> {
        let vars = (0..parsed.vars.len())
            .map(|i| Var {
                values: Map::default(),
                counts: parsed.searched[i].then(Map::default),
            })
            .collect();
        Exec {
            parsed,
            input,
            vars,
            regexes: Map::default(),
            steps: 0,
            deadline,
            memory: 0,
            memory_limit,
            note: None,
        }
    }

    pub fn run(&mut self) -> Result<(), Stop> {
        if self.input.whitespace_ok {
            self.input.skip_blanks();
        }
        self.block(&self.parsed.body)?;
        if !self.input.eof() {
            let at = self.input.pos;
            return Err(mismatch::<()>(
                at,
                format!("expected end of file, found {}", self.input.found(at)),
            )
            .unwrap_err()
            .into());
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Stop> {
        self.steps += 1;
        if self.steps.is_multiple_of(4096) {
            if let Some(d) = self.deadline {
                if Instant::now() > d {
                    return Err(Stop::Limit(
                        "ran over the validation time limit (a loop that does not end?)".into(),
                    ));
                }
            }
        }
        Ok(())
    }

    fn block(&mut self, body: &'a [Stmt]) -> Result<(), Stop> {
        body.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &'a Stmt) -> Result<(), Stop> {
        self.tick()?;
        let tag = |m: Mismatch| {
            Stop::Mismatch(Mismatch {
                at: m.at,
                message: format!("{}: {}", s.text, m.message),
            })
        };
        match &s.cmd {
            Cmd::Space => self.input.space().map_err(tag),
            Cmd::Newline => self.input.newline().map_err(tag),
            Cmd::Eof => match self.input.eof() {
                true => Ok(()),
                false => {
                    let at = self.input.pos;
                    let found = self.input.found(at);
                    Err(tag(Mismatch {
                        at,
                        message: format!("expected end of file, found {found}"),
                    }))
                }
            },
            Cmd::Int(lo, hi, var) => {
                let lo = self.int_of(lo, s.pos, "INT's bounds")?;
                let hi = self.int_of(hi, s.pos, "INT's bounds")?;
                let start = self.input.int().map_err(tag)?;
                let text = &self.input.data[start..self.input.pos];
                let digits = text.len() - usize::from(text[0] == b'-');
                // A number of more than 19 digits is outside bounds that fit in an i64.
                let small = matches!((&lo, &hi), (Int::Small(_), Int::Small(_)));
                let x = match small && digits > 19 {
                    true => None,
                    false => Some(Int::parse(text)).filter(|x| lo <= *x && *x <= hi),
                };
                let Some(x) = x else {
                    let shown = String::from_utf8_lossy(&text[..text.len().min(40)]).into_owned();
                    return Err(tag(Mismatch {
                        at: start,
                        message: format!("integer {shown} is out of range [{lo}, {hi}]"),
                    }));
                };
                match var {
                    Some(v) => self.set(v, Value::Int(x), s.pos),
                    None => Ok(()),
                }
            }
            Cmd::Float {
                lo,
                hi,
                decimals,
                var,
                form,
            } => self.float(s, lo, hi, decimals.as_ref(), var.as_ref(), *form),
            Cmd::Str(e) => {
                let want = self.string_of(e, s.pos, "STRING")?;
                let rest = self.input.rest();
                if !rest.starts_with(&want) {
                    let at = self.input.pos;
                    let got = &rest[..rest.len().min(want.len())];
                    let message = format!(
                        "expected \"{}\", found \"{}\"{}",
                        super::value::escape(&want),
                        super::value::escape(got),
                        if got.len() < want.len() {
                            " then end of file"
                        } else {
                            ""
                        }
                    );
                    return Err(tag(Mismatch { at, message }));
                }
                self.input.pos += want.len();
                Ok(())
            }
            Cmd::Regex(e, var) => {
                let pattern = self.string_of(e, s.pos, "REGEX")?;
                if !self.regexes.contains_key(&pattern) {
                    let c = Compiled::new(&pattern).map_err(|m| {
                        Stop::Program(ProgramError {
                            pos: s.pos,
                            message: m,
                        })
                    })?;
                    self.regexes.insert(pattern.clone(), c);
                }
                let re = self.regexes.get_mut(&pattern).expect("just inserted");
                let n = re.longest(self.input.rest()).map_err(Stop::Limit)?;
                let Some(n) = n else {
                    let at = self.input.pos;
                    let found = self.input.found(at);
                    return Err(tag(Mismatch {
                        at,
                        message: format!("no match, found {found}"),
                    }));
                };
                let matched: Arc<[u8]> = Arc::from(&self.input.rest()[..n]);
                self.input.pos += n;
                match var {
                    Some(v) => self.set(v, Value::Str(matched), s.pos),
                    None => Ok(()),
                }
            }
            Cmd::Assert(t) => {
                self.note = None;
                if self.test(t)? {
                    return Ok(());
                }
                let why = self
                    .note
                    .take()
                    .map(|n| format!(": {n}"))
                    .unwrap_or_default();
                let at = self.input.pos;
                Err(tag(Mismatch {
                    at,
                    message: format!("assertion failed{why}"),
                }))
            }
            Cmd::Set(list) => list.iter().try_for_each(|(v, e)| {
                let value = self.eval(e)?;
                self.set(v, value, s.pos)
            }),
            Cmd::Unset(ids) => {
                for &id in ids {
                    let var = &mut self.vars[id];
                    var.values = Map::default();
                    if let Some(c) = &mut var.counts {
                        *c = Map::default();
                    }
                }
                Ok(())
            }
            Cmd::Loop {
                var,
                count,
                cond,
                sep,
                body,
            } => {
                let mut i: u64 = 0;
                if let Some(v) = var {
                    self.set(v, Value::Int(Int::Small(0)), s.pos)?;
                }
                let times = match count {
                    Some(c) => {
                        let n = self.int_of(c, s.pos, "a REP count")?;
                        match n.to_u64() {
                            Some(n) => n,
                            None => {
                                return program(
                                    s.pos,
                                    format!("REP count {n} is negative or too large"),
                                )
                            }
                        }
                    }
                    None => u64::MAX,
                };
                loop {
                    let more = match cond {
                        Some(t) => self.test(t)?,
                        None => i < times,
                    };
                    if !more {
                        return Ok(());
                    }
                    if i > 0 {
                        if let Some(sep) = sep {
                            self.stmt(sep)?;
                        }
                    }
                    self.block(body)?;
                    i += 1;
                    if let Some(v) = var {
                        self.set(v, Value::Int(Int::from_big(i.into())), s.pos)?;
                    }
                }
            }
            Cmd::If(t, then, other) => match self.test(t)? {
                true => self.block(then),
                false => other.as_ref().map_or(Ok(()), |b| self.block(b)),
            },
        }
    }

    fn float(
        &mut self,
        s: &Stmt,
        lo: &Expr,
        hi: &Expr,
        decimals: Option<&(Expr, Expr)>,
        var: Option<&VarRef>,
        form: FloatForm,
    ) -> Result<(), Stop> {
        let number = |this: &mut Self, e: &Expr| match this.eval(e)?.as_float() {
            Some(f) => Ok(f),
            None => program(s.pos, "a FLOAT bound must be a number"),
        };
        let lo = number(self, lo)?;
        let hi = number(self, hi)?;
        let decimals = match decimals {
            None => None,
            Some((a, b)) => {
                let mut d = [0u64; 2];
                for (slot, e) in d.iter_mut().zip([a, b]) {
                    let n = self.int_of(e, s.pos, "FLOATP's decimals")?;
                    *slot = match n.to_u64().filter(|n| *n < i32::MAX as u64) {
                        Some(n) => n,
                        None => {
                            return program(s.pos, format!("FLOATP's decimals {n} out of range"))
                        }
                    };
                }
                if d[0] > d[1] {
                    return program(
                        s.pos,
                        format!("FLOATP's decimals range [{}, {}] is empty", d[0], d[1]),
                    );
                }
                Some((d[0], d[1]))
            }
        };
        let tag = |m: Mismatch| Mismatch {
            at: m.at,
            message: format!("{}: {}", s.text, m.message),
        };
        let (x, start) = self.input.float(form, decimals).map_err(tag)?;
        if x < lo || x > hi {
            let text = String::from_utf8_lossy(&self.input.data[start..self.input.pos]);
            let text: String = text.chars().take(40).collect();
            return Err(Stop::Mismatch(tag(Mismatch {
                at: start,
                message: format!(
                    "float {text} is out of range [{}, {}]",
                    show(&Value::float(lo)),
                    show(&Value::float(hi))
                ),
            })));
        }
        match var {
            Some(v) => self.set(v, Value::float(x), s.pos),
            None => Ok(()),
        }
    }

    fn int_of(&mut self, e: &Expr, pos: Pos, what: &str) -> Result<Int, Stop> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            v => program(
                pos,
                format!("{what} must be integers, not a {} ({})", v.kind(), show(&v)),
            ),
        }
    }

    fn string_of(&mut self, e: &Expr, pos: Pos, what: &str) -> Result<Arc<[u8]>, Stop> {
        match self.eval(e)? {
            Value::Str(s) => Ok(s),
            v => program(
                pos,
                format!("{what} takes a string, not a {} ({})", v.kind(), show(&v)),
            ),
        }
    }

    fn key(&mut self, v: &VarRef, pos: Pos) -> Result<Key, Stop> {
        let mut index = Vec::with_capacity(v.indices.len());
        for e in &v.indices {
            let name = &self.parsed.vars[v.id];
            index.push(self.int_of(e, pos, &format!("the indices of {name}"))?);
        }
        Ok(match index.len() {
            0 => Key::Plain,
            1 => Key::One(index.pop().expect("one index")),
            _ => Key::Many(index),
        })
    }

    fn set(&mut self, v: &VarRef, value: Value, pos: Pos) -> Result<(), Stop> {
        let key = self.key(v, pos)?;
        let var = &mut self.vars[v.id];
        if let Some(counts) = &mut var.counts {
            *counts.entry(value.clone()).or_insert(0) += 1;
            if let Some(old) = var.values.get(&key) {
                if let Some(n) = counts.get_mut(old) {
                    *n -= 1;
                    if *n == 0 {
                        counts.remove(old);
                    }
                }
            }
        }
        let size = 64 + 24 * v.indices.len() as u64 + value_size(&value);
        if var.values.insert(key, value).is_none() {
            self.memory += size;
            if self.memory > self.memory_limit {
                return Err(Stop::Limit(format!(
                    "its variables take more than the validation memory limit ({} MiB)",
                    self.memory_limit >> 20
                )));
            }
        }
        Ok(())
    }

    fn eval(&mut self, e: &Expr) -> Result<Value, Stop> {
        match e {
            Expr::Const(v) => Ok(v.clone()),
            Expr::Var(v, pos) => {
                let key = self.key(v, *pos)?;
                match self.vars[v.id].values.get(&key) {
                    Some(value) => Ok(value.clone()),
                    None => program(
                        *pos,
                        format!("variable {} is not set", self.describe(v.id, &key)),
                    ),
                }
            }
            Expr::Neg(a, pos) => {
                let a = self.eval(a)?;
                a.neg().or_else(|m| program(*pos, m))
            }
            Expr::Bin(op, a, b, pos) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                let r = match op {
                    b'^' => Value::pow(&a, &b),
                    _ => Value::arith(*op, &a, &b),
                };
                r.or_else(|m| program(*pos, m))
            }
            Expr::Strlen(a, pos) => match self.eval(a)? {
                Value::Str(s) => Ok(Value::Int(Int::Small(s.len() as i64))),
                v => program(*pos, format!("STRLEN takes a string, not a {}", v.kind())),
            },
        }
    }

    fn describe(&self, id: VarId, key: &Key) -> String {
        let name = &self.parsed.vars[id];
        match key {
            Key::Plain => name.clone(),
            Key::One(i) => format!("{name}[{i}]"),
            Key::Many(v) => {
                let parts: Vec<String> = v.iter().map(|i| i.to_string()).collect();
                format!("{name}[{}]", parts.join(","))
            }
        }
    }

    fn test(&mut self, t: &Test) -> Result<bool, Stop> {
        Ok(match t {
            Test::Not(a) => !self.test(a)?,
            Test::And(a, b) => self.test(a)? && self.test(b)?,
            Test::Or(a, b) => self.test(a)? || self.test(b)?,
            Test::Cmp(op, a, b, pos) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                let o = Value::compare(&a, &b).or_else(|m| program(*pos, m))?;
                match *op {
                    "<" => o.is_lt(),
                    ">" => o.is_gt(),
                    "<=" => o.is_le(),
                    ">=" => o.is_ge(),
                    "==" => o.is_eq(),
                    _ => o.is_ne(),
                }
            }
            Test::IsEof => self.input.eof(),
            Test::Match(e, pos) => {
                let chars = self.string_of(e, *pos, "MATCH")?;
                self.input.peek().is_some_and(|c| chars.contains(&c))
            }
            Test::Unique(ids, pos) => self.unique(ids, *pos)?,
            Test::InArray(e, id, pos) => {
                let value = self.eval(e)?;
                let var = &self.vars[*id];
                if var.values.is_empty() {
                    return program(
                        *pos,
                        format!("variable {} is not set", self.parsed.vars[*id]),
                    );
                }
                var.counts.as_ref().is_some_and(|c| c.contains_key(&value))
            }
        })
    }

    /// `UNIQUE(a, b, ...)`: the arrays have the same indices, and the tuples of their values at
    /// each index are distinct.
    fn unique(&mut self, ids: &[VarId], pos: Pos) -> Result<bool, Stop> {
        let name = |id: VarId| self.parsed.vars[id].clone();
        if let Some(&id) = ids.iter().find(|&&id| self.vars[id].values.is_empty()) {
            return program(pos, format!("variable {} is not set", name(id)));
        }
        let first = &self.vars[ids[0]].values;
        for &id in &ids[1..] {
            let other = &self.vars[id].values;
            if other.len() != first.len() || first.keys().any(|k| !other.contains_key(k)) {
                return mismatch(
                    self.input.pos,
                    format!(
                        "UNIQUE: {} and {} have different indices",
                        name(ids[0]),
                        name(id)
                    ),
                )
                .map_err(Stop::from);
            }
        }
        let tuple = |key: &Key| -> Vec<&Value> {
            ids.iter().map(|&id| &self.vars[id].values[key]).collect()
        };
        // One array (the usual case) without a tuple per index.
        let repeated = match ids.len() {
            1 => {
                let mut seen: Set<&Value> =
                    Set::with_capacity_and_hasher(first.len(), Default::default());
                first.values().find(|v| !seen.insert(v)).map(|v| vec![v])
            }
            _ => {
                let mut seen: Set<Vec<&Value>> =
                    Set::with_capacity_and_hasher(first.len(), Default::default());
                first.keys().find(|k| !seen.insert(tuple(k))).map(tuple)
            }
        };
        let Some(repeated) = repeated else {
            return Ok(true);
        };
        // The two first indices holding it, in order (the map's order is arbitrary).
        let mut at: Vec<&Key> = first.keys().filter(|k| tuple(k) == repeated).collect();
        at.sort();
        let shown: Vec<String> = repeated.iter().map(|v| show(v)).collect();
        let note = format!(
            "UNIQUE: ({}) occurs more than once, at {} and {}",
            shown.join(", "),
            self.describe(ids[0], at[0]),
            self.describe(ids[0], at[1])
        );
        self.note = Some(note);
        Ok(false)
    }
}

fn value_size(v: &Value) -> u64 {
    match v {
        Value::Int(Int::Small(_)) => 0,
        Value::Int(Int::Big(b)) => b.bits() / 8,
        Value::Float(f) => (f.numer().bits() + f.denom().bits()) / 8 + 32,
        Value::Str(s) => s.len() as u64,
    }
}
