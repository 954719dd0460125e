//! The interpreter on small programs: accepted and rejected inputs, program errors, limits.

use std::time::{Duration, Instant};

use super::{Failure, Options, Script};

fn check_with(program: &str, input: &str, options: &Options) -> Result<(), Failure> {
    let script = Script::parse(program.as_bytes())
        .unwrap_or_else(|e| panic!("program {program:?} does not parse: {e}"));
    script.check(input.as_bytes(), options)
}

fn check(program: &str, input: &str) -> Result<(), Failure> {
    check_with(program, input, &Options::default())
}

#[track_caller]
fn accepts(program: &str, input: &str) {
    if let Err(e) = check(program, input) {
        panic!("{program:?} rejects {input:?}: {e:?}");
    }
}

/// The rejection's line, column and message.
#[track_caller]
fn rejects(program: &str, input: &str) -> (usize, usize, String) {
    match check(program, input) {
        Err(Failure::Rejected {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("{program:?} on {input:?}: {other:?}, not a rejection"),
    }
}

/// The message of a program error found when parsing.
#[track_caller]
fn bad_program(program: &str) -> String {
    match Script::parse(program.as_bytes()) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{program:?} parses"),
    }
}

/// The message of a program error found when running on `input`.
#[track_caller]
fn fails(program: &str, input: &str) -> String {
    match check(program, input) {
        Err(Failure::Program(e)) => e.to_string(),
        other => panic!("{program:?} on {input:?}: {other:?}, not a program error"),
    }
}

#[test]
fn integers_are_strict() {
    let p = "INT(-100, 100) NEWLINE";
    for ok in ["0\n", "-1\n", "100\n", "-100\n", "7\n"] {
        accepts(p, ok);
    }
    for (bad, what) in [
        ("-0\n", "no -0"),
        ("01\n", "leading zeros"),
        ("00\n", "leading zeros"),
        ("-\n", "no -0"),
        ("+1\n", "expected an integer"),
        ("101\n", "out of range [-100, 100]"),
        ("-101\n", "out of range"),
        ("1.0\n", "expected a newline"),
        (" 1\n", "expected an integer, found a space"),
        ("", "found end of file"),
        ("1", "expected a newline, found end of file"),
        ("1\r\n", "Windows"),
        ("99999999999999999999999999\n", "out of range"),
    ] {
        let (_, _, m) = rejects(p, bad);
        assert!(m.contains(what), "{bad:?}: {m}");
        assert!(
            m.starts_with("INT(-100, 100): ") || m.starts_with("NEWLINE: "),
            "{m}"
        );
    }
}

#[test]
fn integers_are_arbitrarily_large() {
    accepts("INT(10^30, 10^30 + 1)", &format!("1{}1", "0".repeat(29)));
    accepts(
        "INT(-2^70, 0, x) ASSERT(x * x == 2^140)",
        "-1180591620717411303424",
    );
    rejects("INT(10^30, 10^30 + 1)", &"9".repeat(30));
    accepts(
        "INT(0, 10^18, x) ASSERT(x + x == 2 * 10^18)",
        "1000000000000000000",
    );
}

#[test]
fn whitespace_is_exact_by_default_and_loose_with_whitespace_ok() {
    let p = "INT(1,9) SPACE INT(1,9) NEWLINE";
    accepts(p, "1 2\n");
    let (line, column, m) = rejects(p, "1  2\n");
    assert_eq!((line, column), (1, 3));
    assert!(m.contains("expected an integer, found a space"), "{m}");
    rejects(p, "1\t2\n");
    rejects(p, "1 2 \n");
    rejects(p, "1 2\n\n");
    let loose = Options {
        whitespace_ok: true,
        ..Options::default()
    };
    for ok in ["1 2\n", " 1 \t 2  \n", "1\t2\n  "] {
        assert_eq!(check_with(p, ok, &loose), Ok(()), "{ok:?}");
    }
    // Still no extra line, and SPACE needs at least one blank.
    assert!(check_with(p, "1 2\n\n", &loose).is_err());
    assert!(check_with(p, "12\n", &loose).is_err());
}

#[test]
fn rejections_name_the_line_and_column_of_the_input() {
    let p = "REP(3) INT(1, 5) NEWLINE END";
    let (line, column, m) = rejects(p, "1\n2\n77\n");
    assert_eq!((line, column), (3, 1));
    assert!(m.contains("integer 77 is out of range [1, 5]"), "{m}");
    let (line, column, m) = rejects(p, "1\n2\n3\n4\n");
    assert_eq!((line, column), (4, 1));
    assert!(m.contains("expected end of file, found `4`"), "{m}");
}

#[test]
fn floats_follow_checktestdata_forms() {
    let p = "FLOAT(-1, 1) NEWLINE";
    for ok in [
        "0\n", "0.5\n", "-0.5\n", "1.0\n", "1e0\n", "5E-1\n", "-1\n", "0.000\n", "-0.0\n",
    ] {
        accepts(p, ok);
    }
    for bad in [
        ".5\n", "1.\n", "00.5\n", "+0.5\n", "1.5\n", "1e\n", "1e01\n", "-.5\n", "0.5e+\n",
    ] {
        rejects(p, bad);
    }
    // Exact comparison at the bounds.
    accepts("FLOAT(0.1, 0.3)", "0.1");
    accepts("FLOAT(0.1, 0.3)", "0.30000000000000000000000000000000");
    rejects("FLOAT(0.1, 0.3)", "0.30000000000000000000000000000001");
    accepts("FLOAT(0, 1)", "1e-100000");
}

#[test]
fn float_options_fixed_and_scientific() {
    accepts("FLOAT(0, 10, x, FIXED)", "2.5");
    let (_, _, m) = rejects("FLOAT(0, 10, x, FIXED)", "2.5e0");
    assert!(m.contains("expected end of file, found `e0`"), "{m}");
    accepts("FLOAT(0, 10, x, SCIENTIFIC)", "2.5e0");
    let (_, _, m) = rejects("FLOAT(0, 10, x, SCIENTIFIC)", "2.5");
    assert!(m.contains("exponent"), "{m}");
}

#[test]
fn floatp_counts_decimals() {
    let p = "FLOATP(0, 100, 1, 2)";
    accepts(p, "1.5");
    accepts(p, "1.25");
    let (_, _, m) = rejects(p, "1.125");
    assert!(m.contains("3 decimals, not in [1, 2]"), "{m}");
    rejects(p, "1");
    accepts("FLOATP(0, 100, 0, 2)", "1");
    accepts("FLOATP(0, 100, 0, 2, x, SCIENTIFIC)", "1.5e1");
    let (_, _, m) = rejects("FLOATP(0, 100, 0, 2, x, SCIENTIFIC)", "15.0e0");
    assert!(m.contains("exactly one non-zero digit"), "{m}");
    rejects("FLOATP(0, 100, 0, 2)", "0.5e1");
}

#[test]
fn strings_and_regexes() {
    accepts("STRING(\"hello\") SPACE STRING(\"world\")", "hello world");
    let (_, _, m) = rejects("STRING(\"hello\")", "help");
    assert!(
        m.contains("expected \"hello\", found \"help\" then end of file"),
        "{m}"
    );
    // Longest match, anchored at the reading position.
    accepts("REGEX(\"a|ab\") STRING(\"c\")", "abc");
    accepts(
        "REGEX(\"[a-z]+\", s) ASSERT(s == \"abc\") INT(0, 9)",
        "abc1",
    );
    rejects("REGEX(\"[a-z]+\")", "1abc");
    // `.` matches a newline; [^\n] does not.
    accepts("REGEX(\"a.b\")", "a\nb");
    rejects("REGEX(\"a[^\\n]b\")", "a\nb");
    accepts("REGEX(\"[[:digit:]]{2,3}\") EOF", "123");
    rejects("REGEX(\"[[:digit:]]{2,3}\") EOF", "1234");
    accepts("REGEX(\"x{,2}\") EOF", "xx");
    accepts("REGEX(\"\\\\.\") EOF", ".");
    rejects("REGEX(\"\\\\.\") EOF", "a");
    accepts("REGEX(\"(ab)*$\")", "abab");
    assert!(fails("REGEX(\"\\\\d\")", "1").contains("unknown escape"));
    assert!(fails("REGEX(\"a**\")", "a").contains("repetition of a repetition"));
    assert!(fails("REGEX(\"(a\")", "a").contains("unclosed"));
    accepts("REGEX(\"[\\\\]a-]+\") EOF", "]a-]");
}

#[test]
fn string_escapes() {
    accepts("STRING(\"a\\tb\\n\\101\\\\\\\"\")", "a\tb\nA\\\"");
    assert_eq!(
        check("STRING(\"x\\qy\")", "x\\qy"),
        Ok(()),
        "an unknown escape is a backslash"
    );
    accepts("SET(s = \"ab\\\ncd\") ASSERT(STRLEN(s) == 4)", "");
}

#[test]
fn loops_with_separators_and_nesting() {
    let p = "INT(1, 10, n) NEWLINE
             REP(n, NEWLINE)
                REPI(i, 3, SPACE) INT(0, 9, x[i]) END
             END NEWLINE";
    accepts(p, "2\n1 2 3\n4 5 6\n");
    rejects(p, "2\n1 2 3 \n4 5 6\n");
    rejects(p, "2\n1 2 3\n4 5 6\n\n");
    accepts("REP(0, SPACE) INT(0, 1) END", "");
    // REPI's variable counts from 0 and ends at the count.
    accepts("REPI(i, 4, SPACE) INT(i, i) END ASSERT(i == 4)", "0 1 2 3");
    // WHILEI with a separator, until end of file.
    let w = "WHILEI(k, !ISEOF, SPACE) INT(1, 100, a[k]) END ASSERT(k == 3 && a[2] == 30)";
    accepts(w, "10 20 30");
    rejects(w, "10 20");
    assert!(matches!(
        check(w, "10 20 30 40"),
        Err(Failure::Rejected { .. })
    ));
}

#[test]
fn while_reads_until_a_condition() {
    let p = "SET(c = 0) WHILE(!ISEOF) INT(0, 10^15) SPACE INT(0, 10^15) NEWLINE SET(c = c + 1) END
             ASSERT(1 <= c && c <= 3)";
    accepts(p, "1 2\n3 4\n");
    let (_, _, m) = rejects(p, "");
    assert!(m.contains("assertion failed"), "{m}");
    rejects(p, "1 2\n3 4\n5 6\n7 8\n");
    accepts(
        "WHILE(MATCH(\"ab\")) REGEX(\"[ab]\") END STRING(\"c\")",
        "abbac",
    );
}

#[test]
fn if_else_and_tests() {
    let p = "INT(0, 1, t) NEWLINE IF(t == 0) STRING(\"zero\") ELSE STRING(\"one\") END";
    accepts(p, "0\nzero");
    accepts(p, "1\none");
    rejects(p, "1\nzero");
    // ! before &&, && before ||.
    accepts("ASSERT(1 == 1 || 1 == 0 && 1 == 0)", "");
    accepts("ASSERT(!(1 == 0) && 1 == 1)", "");
    accepts("ASSERT(!1 == 0 && 1 == 1)", "");
    accepts("ASSERT((1 + 2) * 3 == 9)", "");
    accepts("ASSERT(((1 < 2)))", "");
    accepts("ASSERT(\"abc\" < \"abd\" && \"b\" > \"abc\")", "");
}

#[test]
fn arithmetic() {
    for t in [
        "7 / 2 == 3",
        "-7 / 2 == -3",
        "-7 % 2 == -1",
        "7 % -2 == 1",
        "2^10 == 1024",
        "-2^2 == -4",
        "2^3^2 == 64",
        "7.0 / 2 == 3.5",
        "1 / 3.0 * 3 == 1",
        "0.1 + 0.2 == 0.3",
        "1e3 == 1000",
        "STRLEN(\"abc\") == 3",
        "2 * 3 + 4 * 5 == 26",
        "10 - 2 - 3 == 5",
    ] {
        accepts(&format!("ASSERT({t})"), "");
    }
    assert!(fails("ASSERT(1 / 0 == 1)", "").contains("division by zero"));
    assert!(fails("ASSERT(1.5 % 1 == 1)", "").contains("modulo"));
    assert!(fails("ASSERT(2 ^ -1 == 1)", "").contains("unsigned long"));
    assert!(fails("ASSERT(2 ^ 0.5 == 1)", "").contains("integer exponents"));
    assert!(fails("ASSERT(\"a\" == 1)", "").contains("cannot compare"));
    assert!(fails("ASSERT(\"a\" + 1 == 1)", "").contains("cannot compute"));
    assert!(fails("ASSERT(2 ^ 100000000 > 0)", "").contains("too large"));
    // Bases 0, 1 and -1 stay small.
    accepts("ASSERT((-1) ^ 100000000001 == -1)", "");
}

#[test]
fn arrays_with_several_indices() {
    let p = "INT(1, 3, n) NEWLINE
             REPI(i, n) REPI(j, n, SPACE) INT(0, 9, g[i, j]) END NEWLINE END
             REPI(i, n) ASSERT(g[i, i] == 1) END";
    accepts(p, "2\n1 0\n0 1\n");
    rejects(p, "2\n1 0\n0 2\n");
    assert!(fails("SET(a[1, 2] = 3) ASSERT(a[2, 1] == 3)", "").contains("a[2,1] is not set"));
    assert!(fails("ASSERT(x == 1)", "").contains("1:8: variable x is not set"));
    assert!(fails("SET(a[1.5] = 3)", "").contains("indices of a must be integers"));
}

#[test]
fn unique_and_inarray() {
    let p = "INT(1, 5, n) NEWLINE REPI(i, n, SPACE) INT(1, 9, x[i]) END NEWLINE ASSERT(UNIQUE(x))";
    accepts(p, "3\n1 2 3\n");
    let (_, _, m) = rejects(p, "3\n1 2 1\n");
    assert!(
        m.contains("assertion failed: UNIQUE: (1) occurs more than once, at x[0] and x[2]"),
        "{m}"
    );
    let pairs = "REPI(i, 3) INT(0, 9, x[i]) SPACE INT(0, 9, y[i]) NEWLINE END ASSERT(UNIQUE(x, y))";
    accepts(pairs, "1 1\n1 2\n2 1\n");
    rejects(pairs, "1 1\n1 2\n1 1\n");
    accepts("SET(x[1] = 1, y[1] = 1) ASSERT(!UNIQUE(x) || 1 == 1)", "");
    let (_, _, m) = rejects("SET(x[1] = 1, y[2] = 1) ASSERT(UNIQUE(x, y))", "");
    assert!(m.contains("different indices"), "{m}");
    let perm = "REPI(i, 3, SPACE) INT(1, 3, p[i]) END REPI(i, 3) ASSERT(INARRAY(i + 1, p)) END";
    accepts(perm, "3 1 2");
    rejects(perm, "3 1 1");
    // Overwritten values leave the array; UNSET empties it.
    accepts(
        "SET(a[0] = 5) SET(a[0] = 6) ASSERT(!INARRAY(5, a) && INARRAY(6, a))",
        "",
    );
    assert!(fails("SET(a = 1) UNSET(a) ASSERT(INARRAY(1, a))", "").contains("not set"));
    // An integer and a float of the same value are different values.
    accepts("SET(a[0] = 1.0) ASSERT(!INARRAY(1, a))", "");
}

#[test]
fn explicit_eof_and_iseof() {
    accepts("INT(0, 9) EOF", "5");
    rejects("INT(0, 9) EOF", "5\n");
    accepts("IF(ISEOF) ELSE INT(0, 9) END", "");
    accepts("IF(ISEOF) ELSE INT(0, 9) END", "4");
}

#[test]
fn program_errors_name_line_and_column() {
    for (p, want) in [
        (
            "INT(1, 2",
            "1:9: expected `)`, found the end of the program",
        ),
        ("INT(1 2)", "1:7: expected `,`, found `2`"),
        ("SPACE\n  FOO", "2:3: unknown keyword `FOO`"),
        ("REP(2) SPACE", "a block not closed by END"),
        ("SPACE END", "1:7: END without a block to close"),
        ("ELSE", "1:1: ELSE outside an IF block"),
        ("REP(1) SPACE ELSE END", "ELSE outside an IF block"),
        ("REP(2, REP(1) END) END", "a separator is one plain command"),
        ("STRING(\"abc", "unterminated string"),
        ("INT(1, 2) @", "1:11: unexpected character `@`"),
        ("ASSERT(1)", "expected a comparison"),
        ("INARRAY(1, x)", "expected a command"),
        ("ASSERT(INARRAY(1, x[0]))", "without indices"),
        ("SET(x = 1e999999)", "exponent"),
        ("STRING(\"\\777\")", "bad escape"),
    ] {
        let m = bad_program(p);
        assert!(m.contains(want), "{p:?}: {m}");
    }
    let deep = format!("ASSERT({}1{} == 1)", "(".repeat(500), ")".repeat(500));
    assert!(bad_program(&deep).contains("nested more than"));
    assert!(fails("INT(1.5, 2)", "2").contains("INT's bounds must be integers"));
    assert!(fails("REP(-1) END", "").contains("negative"));
    assert!(fails("STRING(5)", "5").contains("takes a string"));
}

#[test]
fn comments_and_keyword_spacing() {
    accepts("# a comment\nINT(1,2)# another\n  NEWLINE # last", "1\n");
    accepts("REPI(x1,2,SPACE)INT(0,9)END", "1 2");
}

#[test]
fn an_endless_loop_stops_at_the_deadline() {
    let options = Options {
        deadline: Some(Instant::now() + Duration::from_millis(50)),
        ..Options::default()
    };
    let r = check_with("WHILE(1 == 1) SET(x = 1) END", "", &options);
    assert!(
        matches!(r, Err(Failure::Limit(ref m)) if m.contains("time limit")),
        "{r:?}"
    );
}

#[test]
fn variables_are_bounded_by_the_memory_limit() {
    let options = Options {
        memory_bytes: 1 << 20,
        ..Options::default()
    };
    let r = check_with("REPI(i, 10^9) SET(a[i] = i) END", "", &options);
    assert!(
        matches!(r, Err(Failure::Limit(ref m)) if m.contains("memory")),
        "{r:?}"
    );
}

/// Every program of DOMjudge/checktestdata's own `tests/` folder on its inputs: `*_data.in*`
/// accepted, `*_data.err*` refused, `*_prog.err*` failing on the first input.
#[test]
#[ignore = "needs DOMjudge/checktestdata's tests/ folder: CHECKTESTDATA_TESTS=/path/to/tests"]
fn checktestdata_own_tests() {
    let dir = std::path::PathBuf::from(
        std::env::var("CHECKTESTDATA_TESTS").expect("CHECKTESTDATA_TESTS"),
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut problems = Vec::new();
    let mut runs = 0;
    for prog in names
        .iter()
        .filter(|n| n.contains("_prog.in") && n.starts_with("test"))
    {
        let base = &prog[..prog.find("_prog").unwrap()];
        if base.starts_with("testgenerate") || base.starts_with("testpreset") {
            continue;
        }
        let options = Options {
            whitespace_ok: base.starts_with("testws"),
            ..Options::default()
        };
        let src = std::fs::read(dir.join(prog)).unwrap();
        let script = match Script::parse(&src) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{prog}: does not parse: {e}"));
                continue;
            }
        };
        for data in names
            .iter()
            .filter(|n| n.starts_with(&format!("{base}_data.")))
        {
            let input = std::fs::read(dir.join(data)).unwrap();
            let r = script.check(&input, &options);
            runs += 1;
            let want_ok = data.contains("_data.in");
            if r.is_ok() != want_ok {
                problems.push(format!("{prog} on {data}: {r:?}"));
            }
        }
        for bad in names
            .iter()
            .filter(|n| n.starts_with(&format!("{base}_prog.err")))
        {
            let src = std::fs::read(dir.join(bad)).unwrap();
            let input = std::fs::read(dir.join(format!("{base}_data.in"))).unwrap_or_default();
            runs += 1;
            if let Ok(s) = Script::parse(&src) {
                if s.check(&input, &options).is_ok() {
                    problems.push(format!("{bad} accepts {base}_data.in"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(runs > 100, "only {runs} runs");
    eprintln!("{runs} runs as checktestdata's tests expect");
}
