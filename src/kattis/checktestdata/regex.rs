//! `REGEX`: POSIX extended regular expressions, matched as checktestdata matches them
//! (`std::regex::extended`): anchored at the reading position, the longest match (POSIX
//! leftmost-longest, not the first alternative that matches), `.` matching any byte including
//! a newline, bytes rather than characters. The expression is parsed here into
//! `regex-syntax`'s tree and run by `regex-automata`'s lazy DFA, which takes time linear in
//! the input (std::regex backtracks).
//!
//! Syntax: `|`, `( )`, `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, `{,m}`, `.`, `^` (the reading
//! position), `$` (the end of the input), bracket expressions with ranges, negation and
//! `[:alpha:]`-style classes, and `\` before any special character to take it literally (also
//! inside a bracket expression, as pyctd does). `\d`, `\w` and other Perl escapes are errors,
//! as in POSIX.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, Look, Repetition};

/// A compiled expression and the lazy DFA's cache for it.
pub struct Compiled {
    dfa: DFA,
    cache: Cache,
}

impl Compiled {
    pub fn new(pattern: &[u8]) -> Result<Compiled, String> {
        let mut p = EreParser { s: pattern, at: 0 };
        let hir = p.alternation()?;
        if p.at < pattern.len() {
            return Err(p.error("unmatched `)`"));
        }
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .which_captures(WhichCaptures::None),
            )
            .build_from_hir(&hir)
            .map_err(|e| format!("regex `{}`: {e}", show(pattern)))?;
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .minimum_cache_clear_count(None),
            )
            .build_from_nfa(nfa)
            .map_err(|e| format!("regex `{}`: {e}", show(pattern)))?;
        let cache = dfa.create_cache();
        Ok(Compiled { dfa, cache })
    }

    /// The length of the longest match at the start of `rest` (the unread input), if any.
    pub fn longest(&mut self, rest: &[u8]) -> Result<Option<usize>, String> {
        let input = Input::new(rest).anchored(Anchored::Yes);
        self.dfa
            .try_search_fwd(&mut self.cache, &input)
            .map(|m| m.map(|m| m.offset()))
            .map_err(|e| format!("regex search failed: {e}"))
    }
}

fn show(pattern: &[u8]) -> String {
    super::value::escape(pattern)
}

struct EreParser<'a> {
    s: &'a [u8],
    at: usize,
}

impl EreParser<'_> {
    fn error(&self, what: &str) -> String {
        format!(
            "regex `{}`: {what} at position {}",
            show(self.s),
            self.at + 1
        )
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn alternation(&mut self) -> Result<Hir, String> {
        let mut branches = vec![self.branch()?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            branches.push(self.branch()?);
        }
        Ok(Hir::alternation(branches))
    }

    fn branch(&mut self) -> Result<Hir, String> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'|' || c == b')' {
                break;
            }
            let atom = self.atom()?;
            pieces.push(self.quantified(atom)?);
        }
        Ok(Hir::concat(pieces))
    }

    fn atom(&mut self) -> Result<Hir, String> {
        let c = self.peek().unwrap_or(0);
        self.at += 1;
        Ok(match c {
            b'(' => {
                let inner = self.alternation()?;
                if self.peek() != Some(b')') {
                    return Err(self.error("unclosed `(`"));
                }
                self.at += 1;
                inner
            }
            b'[' => self.bracket()?,
            b'.' => Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(0, 255)]))),
            b'^' => Hir::look(Look::Start),
            b'$' => Hir::look(Look::End),
            b'*' | b'+' | b'?' | b'{' => {
                self.at -= 1;
                return Err(self.error("nothing to repeat"));
            }
            b'\\' => match self.peek() {
                Some(e) if b"^.[]$()|*+?{}\\/-".contains(&e) => {
                    self.at += 1;
                    Hir::literal(vec![e])
                }
                Some(e) => {
                    return Err(self.error(&format!(
                        "unknown escape `\\{}` (POSIX regular expressions have no such escapes; write a bracket expression such as [0-9])",
                        char::from(e)
                    )))
                }
                None => return Err(self.error("trailing `\\`")),
            },
            _ => Hir::literal(vec![c]),
        })
    }

    fn quantified(&mut self, atom: Hir) -> Result<Hir, String> {
        let (min, max) = match self.peek() {
            Some(b'*') => (0, None),
            Some(b'+') => (1, None),
            Some(b'?') => (0, Some(1)),
            Some(b'{') => {
                self.at += 1;
                let min = self.number()?;
                let max = match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        self.number()?
                    }
                    _ if min.is_none() => return Err(self.error("expected a count in `{}`")),
                    _ => min,
                };
                if self.peek() != Some(b'}') {
                    return Err(self.error("expected `}`"));
                }
                let min = min.unwrap_or(0);
                if max.is_some_and(|m| m < min) {
                    return Err(
                        self.error(&format!("bad repetition {{{min},{}}}", max.unwrap_or(0)))
                    );
                }
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        if matches!(self.peek(), Some(b'*' | b'+' | b'?' | b'{')) {
            return Err(self.error("repetition of a repetition"));
        }
        Ok(Hir::repetition(Repetition {
            min,
            max,
            greedy: true,
            sub: Box::new(atom),
        }))
    }

    fn number(&mut self) -> Result<Option<u32>, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&self.s[start..self.at]);
        match text.parse::<u32>() {
            Ok(n) if n <= 10_000 => Ok(Some(n)),
            _ => Err(self.error("repetition count over 10000")),
        }
    }

    /// A bracket expression, after its `[`.
    fn bracket(&mut self) -> Result<Hir, String> {
        let negated = self.peek() == Some(b'^');
        self.at += usize::from(negated);
        let mut ranges: Vec<ClassBytesRange> = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("unclosed `[`"));
            };
            if c == b']' && !first {
                self.at += 1;
                break;
            }
            first = false;
            if c == b'[' && self.s.get(self.at + 1) == Some(&b':') {
                let rest = &self.s[self.at + 2..];
                let Some(end) = rest.windows(2).position(|w| w == b":]") else {
                    return Err(self.error("unclosed `[:`"));
                };
                let name = String::from_utf8_lossy(&rest[..end]).into_owned();
                ranges.extend(
                    posix_class(&name).ok_or_else(|| {
                        self.error(&format!("unknown character class `[:{name}:]`"))
                    })?,
                );
                self.at += 2 + end + 2;
                continue;
            }
            if c == b'[' && matches!(self.s.get(self.at + 1), Some(b'=' | b'.')) {
                return Err(
                    self.error("collating elements and equivalence classes are not supported")
                );
            }
            let lo = self.bracket_byte();
            let dash = self.peek() == Some(b'-');
            let hi = match dash && !matches!(self.s.get(self.at + 1), Some(b']') | None) {
                true => {
                    self.at += 1;
                    self.bracket_byte()
                }
                false => lo,
            };
            if hi < lo {
                return Err(self.error(&format!(
                    "bad range {}-{}",
                    char::from(lo),
                    char::from(hi)
                )));
            }
            ranges.push(ClassBytesRange::new(lo, hi));
        }
        let mut class = ClassBytes::new(ranges);
        if negated {
            class.negate();
        }
        Ok(Hir::class(Class::Bytes(class)))
    }

    fn bracket_byte(&mut self) -> u8 {
        let mut c = self.peek().unwrap_or(0);
        if c == b'\\' && self.s.get(self.at + 1).is_some() {
            self.at += 1;
            c = self.s[self.at];
        }
        self.at += 1;
        c
    }
}

fn posix_class(name: &str) -> Option<Vec<ClassBytesRange>> {
    let r = |a: u8, b: u8| ClassBytesRange::new(a, b);
    Some(match name {
        "alpha" => vec![r(b'a', b'z'), r(b'A', b'Z')],
        "digit" => vec![r(b'0', b'9')],
        "alnum" => vec![r(b'a', b'z'), r(b'A', b'Z'), r(b'0', b'9')],
        "upper" => vec![r(b'A', b'Z')],
        "lower" => vec![r(b'a', b'z')],
        "space" => vec![r(b' ', b' '), r(b'\t', b'\r')],
        "blank" => vec![r(b' ', b' '), r(b'\t', b'\t')],
        "punct" => vec![r(b'!', b'/'), r(b':', b'@'), r(b'[', b'`'), r(b'{', b'~')],
        "print" => vec![r(b' ', b'~')],
        "graph" => vec![r(b'!', b'~')],
        "cntrl" => vec![r(0, 31), r(127, 127)],
        "xdigit" => vec![r(b'0', b'9'), r(b'a', b'f'), r(b'A', b'F')],
        _ => return None,
    })
}
