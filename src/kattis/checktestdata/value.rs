//! checktestdata's values: arbitrary-precision integers (an `i64` fast path, a `BigInt`
//! beyond it), floats as exact rationals (checktestdata uses 256-bit GMP floats; pyctd, the
//! Python port problemtools and BAPCtools run, uses exact fractions, as here), and byte
//! strings; the arithmetic and comparisons between them.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The largest result of `^`, in bits: a bigger one is a program error, not an hour of work.
const MAX_POW_BITS: u64 = 1 << 24;

/// An integer: `Small` whenever it fits in an `i64` (so equal values are equal variants).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    /// Boxed: an `Int` (and so a variable's key and value) stays two words.
    Big(Box<BigInt>),
}

impl Int {
    pub fn from_big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(s) => Int::Small(s),
            None => Int::Big(Box::new(b)),
        }
    }

    pub fn to_big(&self) -> BigInt {
        match self {
            Int::Small(s) => BigInt::from(*s),
            Int::Big(b) => (**b).clone(),
        }
    }

    /// Parses `-?[0-9]+` (already checked by the caller).
    pub fn parse(digits: &[u8]) -> Int {
        if digits.len() <= 18 {
            let (neg, d) = match digits.first() {
                Some(b'-') => (true, &digits[1..]),
                _ => (false, digits),
            };
            let v = d.iter().fold(0i64, |v, c| v * 10 + i64::from(c - b'0'));
            return Int::Small(if neg { -v } else { v });
        }
        Int::from_big(BigInt::parse_bytes(digits, 10).unwrap_or_default())
    }

    pub fn to_u64(&self) -> Option<u64> {
        match self {
            Int::Small(s) => u64::try_from(*s).ok(),
            Int::Big(b) => b.to_u64(),
        }
    }

    fn op(
        a: &Int,
        b: &Int,
        small: fn(i64, i64) -> Option<i64>,
        big: fn(BigInt, BigInt) -> BigInt,
    ) -> Int {
        if let (Int::Small(x), Int::Small(y)) = (a, b) {
            if let Some(r) = small(*x, *y) {
                return Int::Small(r);
            }
        }
        Int::from_big(big(a.to_big(), b.to_big()))
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Int::Small(s) => write!(f, "{s}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

/// A value of a checktestdata expression or variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(Int),
    /// Boxed, as `Int::Big`.
    Float(Box<BigRational>),
    Str(Arc<[u8]>),
}

impl Value {
    pub fn float(f: BigRational) -> Value {
        Value::Float(Box::new(f))
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
        }
    }

    fn rational(&self) -> Option<BigRational> {
        match self {
            Value::Int(i) => Some(BigRational::from_integer(i.to_big())),
            Value::Float(f) => Some((**f).clone()),
            Value::Str(_) => None,
        }
    }

    /// The value as a float (integers are cast, as checktestdata does); `None` for a string.
    pub fn as_float(&self) -> Option<BigRational> {
        self.rational()
    }

    /// `a <op> b` for `+ - * / %`; `Err` names the program error.
    pub fn arith(op: u8, a: &Value, b: &Value) -> Result<Value, String> {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            let zero = |y: &Int| *y == Int::Small(0);
            return Ok(Value::Int(match op {
                b'+' => Int::op(x, y, i64::checked_add, |a, b| a + b),
                b'-' => Int::op(x, y, i64::checked_sub, |a, b| a - b),
                b'*' => Int::op(x, y, i64::checked_mul, |a, b| a * b),
                b'/' if zero(y) => return Err(format!("division by zero: {x} / 0")),
                b'%' if zero(y) => return Err(format!("modulo by zero: {x} % 0")),
                // Truncating, as GMP's `/` and `%` (the remainder has the dividend's sign).
                b'/' => Int::op(x, y, i64::checked_div, |a, b| a / b),
                _ => Int::op(x, y, i64::checked_rem, |a, b| a % b),
            }));
        }
        let cannot = || {
            format!(
                "cannot compute {} {} {}",
                a.kind(),
                char::from(op),
                b.kind()
            )
        };
        if op == b'%' {
            return Err(format!("{}: modulo is for integers only", cannot()));
        }
        let (Some(x), Some(y)) = (a.rational(), b.rational()) else {
            return Err(cannot());
        };
        Ok(Value::float(match op {
            b'+' => x + y,
            b'-' => x - y,
            b'*' => x * y,
            _ if y.is_zero() => return Err(format!("division by zero: {} / 0", show(a))),
            _ => x / y,
        }))
    }

    pub fn neg(&self) -> Result<Value, String> {
        Value::arith(b'-', &Value::Int(Int::Small(0)), self)
    }

    /// `a ^ b`: `b` a non-negative integer that fits in an unsigned long.
    pub fn pow(a: &Value, b: &Value) -> Result<Value, String> {
        let Value::Int(e) = b else {
            return Err(format!(
                "only integer exponents are allowed, not a {}",
                b.kind()
            ));
        };
        let Some(e) = e.to_u64() else {
            return Err(format!("exponent {e} does not fit in an unsigned long"));
        };
        let exp = |x: &BigInt| -> Result<BigInt, String> {
            let bits = x.magnitude().bits();
            // Bases 0, 1 and -1 have small powers whatever the exponent.
            if bits <= 1 {
                return Ok(match (x.sign(), e) {
                    (_, 0) => BigInt::one(),
                    (Sign::NoSign, _) => BigInt::zero(),
                    (Sign::Minus, _) if e % 2 == 1 => -BigInt::one(),
                    _ => BigInt::one(),
                });
            }
            if bits.saturating_mul(e) > MAX_POW_BITS {
                return Err(format!(
                    "{} ^ {e} is too large (more than {MAX_POW_BITS} bits)",
                    show(a)
                ));
            }
            Ok(num_traits::pow::Pow::pow(x, e))
        };
        match a {
            Value::Int(i) => Ok(Value::Int(Int::from_big(exp(&i.to_big())?))),
            Value::Float(f) => Ok(Value::float(BigRational::new(
                exp(f.numer())?,
                exp(f.denom())?,
            ))),
            Value::Str(_) => Err("a string cannot be raised to a power".into()),
        }
    }

    /// Compares two values: numbers with numbers, strings with strings (byte order).
    pub fn compare(a: &Value, b: &Value) -> Result<Ordering, String> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => Ok(x.cmp(y)),
            (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
            _ => match (a.rational(), b.rational()) {
                (Some(x), Some(y)) => Ok(x.cmp(&y)),
                _ => Err(format!("cannot compare a {} with a {}", a.kind(), b.kind())),
            },
        }
    }
}

/// A value for messages: integers in full, floats in decimal (rounded when they do not end),
/// strings quoted with escapes.
pub fn show(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => show_float(f),
        Value::Str(s) => format!("\"{}\"", escape(s)),
    }
}

fn show_float(f: &BigRational) -> String {
    if f.is_integer() {
        return format!("{}", f.numer());
    }
    // Up to 30 decimals; exact when the expansion ends before.
    let neg = f.is_negative();
    let abs = f.abs();
    let (int, mut rem) = abs.numer().div_rem(abs.denom());
    let mut digits = String::new();
    let ten = BigInt::from(10);
    while !rem.is_zero() && digits.len() < 30 {
        rem *= &ten;
        let (d, r) = rem.div_rem(abs.denom());
        digits.push_str(&d.to_string());
        rem = r;
    }
    let approx = if rem.is_zero() { "" } else { "..." };
    format!("{}{int}.{digits}{approx}", if neg { "-" } else { "" })
}

/// Bytes as text for messages: printable ASCII as is, the rest escaped.
pub fn escape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s
}
