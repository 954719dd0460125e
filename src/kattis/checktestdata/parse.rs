//! The checktestdata grammar (doc/format-spec.md of DOMjudge/checktestdata) into a tree of
//! commands. Blocks (`REP`, `REPI`, `WHILE`, `WHILEI`, `IF` ... `ELSE` ... `END`) nest; a loop's
//! separator is one plain command. Tests read `!` tighter than `&&`, and `&&` tighter than
//! `||`, as pyctd (which problemtools and BAPCtools run) does. Constant subexpressions are
//! computed once here.

use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Pow;

use super::input::MAX_EXPONENT;
use super::lex::{Pos, Tok, Token};
use super::value::{Int, Value};
use super::ProgramError;

/// Programs nest expressions and blocks at most this deep (the parser and the interpreter
/// recurse).
const MAX_DEPTH: usize = 200;

pub type VarId = usize;

#[derive(Debug)]
pub struct VarRef {
    pub id: VarId,
    pub indices: Vec<Expr>,
}

#[derive(Debug)]
pub enum Expr {
    Const(Value),
    Var(VarRef, Pos),
    Neg(Box<Expr>, Pos),
    Bin(u8, Box<Expr>, Box<Expr>, Pos),
    Strlen(Box<Expr>, Pos),
}

#[derive(Debug)]
pub enum Test {
    Not(Box<Test>),
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
    Cmp(&'static str, Expr, Expr, Pos),
    IsEof,
    Match(Expr, Pos),
    Unique(Vec<VarId>, Pos),
    InArray(Expr, VarId, Pos),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatForm {
    Any,
    Fixed,
    Scientific,
}

#[derive(Debug)]
pub enum Cmd {
    Space,
    Newline,
    Eof,
    Int(Expr, Expr, Option<VarRef>),
    Float {
        lo: Expr,
        hi: Expr,
        decimals: Option<(Expr, Expr)>,
        var: Option<VarRef>,
        form: FloatForm,
    },
    Str(Expr),
    Regex(Expr, Option<VarRef>),
    Assert(Test),
    Set(Vec<(VarRef, Expr)>),
    Unset(Vec<VarId>),
    /// `REP`/`REPI` (count) and `WHILE`/`WHILEI` (condition).
    Loop {
        var: Option<VarRef>,
        count: Option<Expr>,
        cond: Option<Test>,
        sep: Option<Box<Stmt>>,
        body: Vec<Stmt>,
    },
    If(Test, Vec<Stmt>, Option<Vec<Stmt>>),
}

/// A command with where it is and its text, for messages.
#[derive(Debug)]
pub struct Stmt {
    pub cmd: Cmd,
    pub pos: Pos,
    pub text: String,
}

/// A parsed program: its commands and its variables' names (indexed by `VarId`).
#[derive(Debug)]
pub struct Parsed {
    pub body: Vec<Stmt>,
    pub vars: Vec<String>,
    /// Variables some `INARRAY` looks into: only these keep a count of their values.
    pub searched: Vec<bool>,
}

pub fn parse(src: &[u8], tokens: Vec<Token>) -> Result<Parsed, ProgramError> {
    let mut p = Parser {
        src,
        toks: tokens,
        at: 0,
        vars: HashMap::new(),
        names: Vec::new(),
        searched: Vec::new(),
        depth: 0,
    };
    let body = p.block()?;
    if let Some(t) = p.toks.get(p.at) {
        let what = match t.tok {
            Tok::Word("END") => "END without a block to close",
            Tok::Word("ELSE") => "ELSE outside an IF block",
            _ => "expected a command",
        };
        return Err(p.error_at(p.at, what));
    }
    Ok(Parsed {
        body,
        vars: p.names,
        searched: p.searched,
    })
}

struct Parser<'a> {
    src: &'a [u8],
    toks: Vec<Token>,
    at: usize,
    vars: HashMap<String, VarId>,
    names: Vec<String>,
    searched: Vec<bool>,
    depth: usize,
}

impl Parser<'_> {
    fn pos(&self) -> Pos {
        match self.toks.get(self.at).or(self.toks.last()) {
            Some(t) => t.pos,
            None => Pos { line: 1, column: 1 },
        }
    }

    fn error_at(&self, at: usize, what: &str) -> ProgramError {
        let (pos, found) = match self.toks.get(at) {
            Some(t) => (
                t.pos,
                format!("`{}`", String::from_utf8_lossy(&self.src[t.start..t.end])),
            ),
            None => (self.end_pos(), "the end of the program".to_string()),
        };
        ProgramError {
            pos,
            message: format!("{what}, found {found}"),
        }
    }

    fn end_pos(&self) -> Pos {
        let line = 1 + self.src.iter().filter(|&&c| c == b'\n').count();
        let last = self
            .src
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        Pos {
            line,
            column: self.src.len() - last + 1,
        }
    }

    fn error(&self, what: &str) -> ProgramError {
        self.error_at(self.at, what)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let yes = matches!(self.peek(), Some(Tok::Op(o)) if *o == op);
        self.at += usize::from(yes);
        yes
    }

    fn expect(&mut self, op: &str) -> Result<(), ProgramError> {
        match self.eat_op(op) {
            true => Ok(()),
            false => Err(self.error(&format!("expected `{op}`"))),
        }
    }

    fn deeper(&mut self) -> Result<(), ProgramError> {
        self.depth += 1;
        match self.depth > MAX_DEPTH {
            true => Err(self.error(&format!("nested more than {MAX_DEPTH} deep"))),
            false => Ok(()),
        }
    }

    /// Commands up to `END`, `ELSE` or the end of the program (not consumed).
    fn block(&mut self) -> Result<Vec<Stmt>, ProgramError> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if matches!(t, Tok::Word("END" | "ELSE")) {
                break;
            }
            out.push(self.stmt(true)?);
        }
        Ok(out)
    }

    fn stmt(&mut self, blocks: bool) -> Result<Stmt, ProgramError> {
        let first = self.at;
        let pos = self.pos();
        let Some(Tok::Word(word)) = self.peek().cloned() else {
            return Err(self.error("expected a command"));
        };
        self.at += 1;
        let cmd = match word {
            "SPACE" => Cmd::Space,
            "NEWLINE" => Cmd::Newline,
            "EOF" => Cmd::Eof,
            "INT" => {
                self.expect("(")?;
                let lo = self.expr()?;
                self.expect(",")?;
                let hi = self.expr()?;
                let var = self.optional_var()?;
                self.expect(")")?;
                Cmd::Int(lo, hi, var)
            }
            "FLOAT" | "FLOATP" => {
                self.expect("(")?;
                let lo = self.expr()?;
                self.expect(",")?;
                let hi = self.expr()?;
                let mut decimals = None;
                if word == "FLOATP" {
                    self.expect(",")?;
                    let min = self.expr()?;
                    self.expect(",")?;
                    decimals = Some((min, self.expr()?));
                }
                let var = self.optional_var()?;
                let mut form = FloatForm::Any;
                if var.is_some() && self.eat_op(",") {
                    form = match self.peek() {
                        Some(Tok::Word("FIXED")) => FloatForm::Fixed,
                        Some(Tok::Word("SCIENTIFIC")) => FloatForm::Scientific,
                        _ => return Err(self.error("expected FIXED or SCIENTIFIC")),
                    };
                    self.at += 1;
                }
                self.expect(")")?;
                Cmd::Float {
                    lo,
                    hi,
                    decimals,
                    var,
                    form,
                }
            }
            "STRING" => {
                self.expect("(")?;
                let v = self.value()?;
                self.expect(")")?;
                Cmd::Str(v)
            }
            "REGEX" => {
                self.expect("(")?;
                let v = self.value()?;
                let var = self.optional_var()?;
                self.expect(")")?;
                Cmd::Regex(v, var)
            }
            "ASSERT" => {
                self.expect("(")?;
                let t = self.test()?;
                self.expect(")")?;
                Cmd::Assert(t)
            }
            "SET" => {
                self.expect("(")?;
                let mut list = Vec::new();
                loop {
                    let v = self.variable()?;
                    self.expect("=")?;
                    list.push((v, self.expr()?));
                    if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect(")")?;
                Cmd::Set(list)
            }
            "UNSET" => {
                self.expect("(")?;
                let names = self.varnames()?;
                self.expect(")")?;
                Cmd::Unset(names)
            }
            "REP" | "REPI" | "WHILE" | "WHILEI" | "IF" if blocks => self.block_stmt(word)?,
            "REP" | "REPI" | "WHILE" | "WHILEI" | "IF" => {
                return Err(self.error_at(first, "a separator is one plain command, not a block"))
            }
            _ => return Err(self.error_at(first, "expected a command")),
        };
        let text = String::from_utf8_lossy(
            &self.src[self.toks[first].start..self.toks[first.max(self.at - 1)].end],
        );
        let mut text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if matches!(cmd, Cmd::Loop { .. } | Cmd::If(..)) {
            text = word.to_string();
        }
        Ok(Stmt { cmd, pos, text })
    }

    fn block_stmt(&mut self, word: &str) -> Result<Cmd, ProgramError> {
        self.deeper()?;
        self.expect("(")?;
        let var = match word {
            "REPI" | "WHILEI" => {
                let v = self.variable()?;
                self.expect(",")?;
                Some(v)
            }
            _ => None,
        };
        let (mut count, mut cond) = (None, None);
        match word {
            "REP" | "REPI" => count = Some(self.expr()?),
            _ => cond = Some(self.test()?),
        }
        let sep = match word != "IF" && self.eat_op(",") {
            true => Some(Box::new(self.stmt(false)?)),
            false => None,
        };
        self.expect(")")?;
        let body = self.block()?;
        let mut other = None;
        if word == "IF" && matches!(self.peek(), Some(Tok::Word("ELSE"))) {
            self.at += 1;
            other = Some(self.block()?);
        }
        if !matches!(self.peek(), Some(Tok::Word("END"))) {
            let what = match self.peek() {
                Some(Tok::Word("ELSE")) => "ELSE outside an IF block",
                _ => "a block not closed by END",
            };
            return Err(self.error(what));
        }
        self.at += 1;
        self.depth -= 1;
        Ok(match word {
            "IF" => Cmd::If(cond.unwrap_or(Test::IsEof), body, other),
            _ => Cmd::Loop {
                var,
                count,
                cond,
                sep,
                body,
            },
        })
    }

    fn optional_var(&mut self) -> Result<Option<VarRef>, ProgramError> {
        match self.eat_op(",") {
            true => Ok(Some(self.variable()?)),
            false => Ok(None),
        }
    }

    fn var_id(&mut self, name: &str) -> VarId {
        if let Some(&id) = self.vars.get(name) {
            return id;
        }
        self.names.push(name.to_string());
        self.searched.push(false);
        self.vars.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    fn varname(&mut self) -> Result<VarId, ProgramError> {
        match self.peek().cloned() {
            Some(Tok::Var(name)) => {
                self.at += 1;
                Ok(self.var_id(&name))
            }
            _ => Err(self.error("expected a variable name")),
        }
    }

    fn varnames(&mut self) -> Result<Vec<VarId>, ProgramError> {
        let mut names = vec![self.varname()?];
        while self.eat_op(",") {
            names.push(self.varname()?);
        }
        Ok(names)
    }

    fn variable(&mut self) -> Result<VarRef, ProgramError> {
        let id = self.varname()?;
        let mut indices = Vec::new();
        if self.eat_op("[") {
            indices.push(self.expr()?);
            while self.eat_op(",") {
                indices.push(self.expr()?);
            }
            self.expect("]")?;
        }
        Ok(VarRef { id, indices })
    }

    /// A literal, a variable or a function call (what STRING, REGEX, MATCH and STRLEN take).
    fn value(&mut self) -> Result<Expr, ProgramError> {
        let pos = self.pos();
        let lit = |t: &Tok| -> Option<Value> {
            Some(match t {
                Tok::Int(d) => Value::Int(Int::parse(d)),
                Tok::Float(f) => Value::float(float_literal(f)?),
                Tok::Str(s) => Value::Str(Arc::from(s.as_slice())),
                _ => return None,
            })
        };
        match self.peek().cloned() {
            Some(t @ (Tok::Int(_) | Tok::Float(_) | Tok::Str(_))) => match lit(&t) {
                Some(v) => {
                    self.at += 1;
                    Ok(Expr::Const(v))
                }
                None => Err(self.error(&format!(
                    "a float literal's exponent must be at most {MAX_EXPONENT}"
                ))),
            },
            Some(Tok::Var(_)) => Ok(Expr::Var(self.variable()?, pos)),
            Some(Tok::Word("STRLEN")) => {
                self.at += 1;
                self.expect("(")?;
                let v = self.value()?;
                self.expect(")")?;
                Ok(fold(Expr::Strlen(Box::new(v), pos)))
            }
            _ => Err(self.error("expected a value")),
        }
    }

    fn expr(&mut self) -> Result<Expr, ProgramError> {
        self.deeper()?;
        let mut e = self.term()?;
        loop {
            let pos = self.pos();
            let op = match self.peek() {
                Some(Tok::Op("+")) => b'+',
                Some(Tok::Op("-")) => b'-',
                _ => break,
            };
            self.at += 1;
            e = fold(Expr::Bin(op, Box::new(e), Box::new(self.term()?), pos));
        }
        self.depth -= 1;
        Ok(e)
    }

    fn term(&mut self) -> Result<Expr, ProgramError> {
        let mut e = self.factor()?;
        loop {
            let pos = self.pos();
            let op = match self.peek() {
                Some(Tok::Op("*")) => b'*',
                Some(Tok::Op("/")) => b'/',
                Some(Tok::Op("%")) => b'%',
                _ => break,
            };
            self.at += 1;
            e = fold(Expr::Bin(op, Box::new(e), Box::new(self.factor()?), pos));
        }
        Ok(e)
    }

    /// `-factor`, or a power: `^` binds tighter than a leading minus and groups to the left.
    fn factor(&mut self) -> Result<Expr, ProgramError> {
        let pos = self.pos();
        if self.eat_op("-") {
            self.deeper()?;
            let e = self.factor()?;
            self.depth -= 1;
            return Ok(fold(Expr::Neg(Box::new(e), pos)));
        }
        let mut e = self.primary()?;
        loop {
            let pos = self.pos();
            if !self.eat_op("^") {
                return Ok(e);
            }
            let rhs = match self.eat_op("-") {
                true => Expr::Neg(Box::new(self.primary()?), pos),
                false => self.primary()?,
            };
            e = fold(Expr::Bin(b'^', Box::new(e), Box::new(fold(rhs)), pos));
        }
    }

    fn primary(&mut self) -> Result<Expr, ProgramError> {
        if self.eat_op("(") {
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        self.value()
    }

    fn test(&mut self) -> Result<Test, ProgramError> {
        self.deeper()?;
        let mut t = self.and_test()?;
        while self.eat_op("||") {
            t = Test::Or(Box::new(t), Box::new(self.and_test()?));
        }
        self.depth -= 1;
        Ok(t)
    }

    fn and_test(&mut self) -> Result<Test, ProgramError> {
        let mut t = self.not_test()?;
        while self.eat_op("&&") {
            t = Test::And(Box::new(t), Box::new(self.not_test()?));
        }
        Ok(t)
    }

    fn not_test(&mut self) -> Result<Test, ProgramError> {
        if self.eat_op("!") {
            self.deeper()?;
            let t = self.not_test()?;
            self.depth -= 1;
            return Ok(Test::Not(Box::new(t)));
        }
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Word("ISEOF")) => {
                self.at += 1;
                return Ok(Test::IsEof);
            }
            Some(Tok::Word("MATCH")) => {
                self.at += 1;
                self.expect("(")?;
                let v = self.value()?;
                self.expect(")")?;
                return Ok(Test::Match(v, pos));
            }
            Some(Tok::Word("UNIQUE")) => {
                self.at += 1;
                self.expect("(")?;
                let names = self.varnames()?;
                self.expect(")")?;
                return Ok(Test::Unique(names, pos));
            }
            Some(Tok::Word("INARRAY")) => {
                self.at += 1;
                self.expect("(")?;
                let e = self.expr()?;
                self.expect(",")?;
                let id = self.varname()?;
                if matches!(self.peek(), Some(Tok::Op("["))) {
                    return Err(self.error("INARRAY takes an array's name, without indices"));
                }
                self.searched[id] = true;
                self.expect(")")?;
                return Ok(Test::InArray(e, id, pos));
            }
            // `(` opens a test or an expression: try the test first.
            Some(Tok::Op("(")) => {
                let (at, depth) = (self.at, self.depth);
                self.at += 1;
                match self.test().and_then(|t| self.expect(")").map(|_| t)) {
                    Ok(t) if !matches!(self.peek(), Some(Tok::Op(o)) if is_arith_or_cmp(o)) => {
                        return Ok(t)
                    }
                    _ => (self.at, self.depth) = (at, depth),
                }
            }
            _ => {}
        }
        let lhs = self.expr()?;
        let pos = self.pos();
        let op = match self.peek() {
            Some(Tok::Op(o @ ("<" | ">" | "<=" | ">=" | "==" | "!="))) => *o,
            _ => return Err(self.error("expected a comparison (< > <= >= == !=)")),
        };
        self.at += 1;
        Ok(Test::Cmp(op, lhs, self.expr()?, pos))
    }
}

fn is_arith_or_cmp(op: &str) -> bool {
    matches!(
        op,
        "+" | "-" | "*" | "/" | "%" | "^" | "<" | ">" | "<=" | ">=" | "==" | "!="
    )
}

/// A float literal (`1.5`, `2.`, `1e-3`, `3.0E+2`) as an exact rational; `None` when its
/// exponent is beyond [`MAX_EXPONENT`].
pub fn float_literal(text: &str) -> Option<BigRational> {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    if exp.abs() > MAX_EXPONENT {
        return None;
    }
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let (neg, digits) = match digits.strip_prefix('-') {
        Some(d) => (true, d.to_string()),
        None => (false, digits),
    };
    let m = BigInt::parse_bytes(digits.as_bytes(), 10).unwrap_or_default();
    let m = if neg { -m } else { m };
    Some(scaled(m, exp - frac.len() as i64))
}

/// `m * 10^e` exactly.
pub fn scaled(m: BigInt, e: i64) -> BigRational {
    let p: BigInt = Pow::pow(BigInt::from(10), e.unsigned_abs());
    match e >= 0 {
        true => BigRational::from_integer(m * p),
        false => BigRational::new(m, p),
    }
}

/// The expression with constant operands computed now (left as it is if that fails: the
/// error then comes when, and if, the program runs it).
fn fold(e: Expr) -> Expr {
    let folded = match &e {
        Expr::Neg(a, _) => match &**a {
            Expr::Const(v) => v.neg().ok(),
            _ => None,
        },
        Expr::Bin(op, a, b, _) => match (&**a, &**b) {
            (Expr::Const(x), Expr::Const(y)) => match op {
                b'^' => Value::pow(x, y).ok(),
                _ => Value::arith(*op, x, y).ok(),
            },
            _ => None,
        },
        Expr::Strlen(a, _) => match &**a {
            Expr::Const(Value::Str(s)) => Some(Value::Int(Int::Small(s.len() as i64))),
            _ => None,
        },
        _ => None,
    };
    match folded {
        Some(v) => Expr::Const(v),
        None => e,
    }
}
