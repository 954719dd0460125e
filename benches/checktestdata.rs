//! Speed of judge's checktestdata interpreter on a large input, against a Python input
//! validator of the same format in the same run (the usual hand-written validator: split,
//! `int`, range and canonical-form checks), and pyctd (the Python checktestdata that
//! problemtools and BAPCtools run) when `PYCTD_PYTHON` names a Python that has it.
//!
//! `cargo bench --bench checktestdata` (`PYCTD_PYTHON=/path/to/venv/bin/python` for the third
//! column). Input: 1,000,000 integers in [-10^9, 10^9], ten to a line (about 11 MB). Two
//! programs: the format alone, and the format with every value kept in an array and checked
//! by `UNIQUE`. Median of 3 rounds each; the interpreter runs in-process, the others as
//! processes (their start-up, about 20 ms, is included).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use judge::kattis::checktestdata::{Options, Script};

const N: usize = 1_000_000;
const ROUNDS: usize = 3;

const FORMAT: &str = "INT(1, 10^6, n) NEWLINE
REPI(i, n / 10) REPI(j, 10, SPACE) INT(-10^9, 10^9) END NEWLINE END\n";

const UNIQUE: &str = "INT(1, 10^6, n) NEWLINE
REPI(i, n / 10) REPI(j, 10, SPACE) INT(-10^9, 10^9, x[10 * i + j]) END NEWLINE END
ASSERT(UNIQUE(x))\n";

const PYTHON_FORMAT: &str = r#"
import sys
data = sys.stdin.buffer.read().decode("ascii")
lines = data.split("\n")
n = int(lines[0])
assert str(n) == lines[0] and 1 <= n <= 10**6 and n % 10 == 0
assert len(lines) == n // 10 + 2 and lines[-1] == ""
seen = set() if "--unique" in sys.argv else None
for line in lines[1:-1]:
    parts = line.split(" ")
    assert len(parts) == 10
    for t in parts:
        x = int(t)
        assert str(x) == t and -10**9 <= x <= 10**9
        if seen is not None:
            assert x not in seen
            seen.add(x)
sys.exit(42)
"#;

fn input() -> Vec<u8> {
    // Distinct values: a multiplicative walk modulo a prime, shifted into [-10^9, 10^9].
    let mut out = format!("{N}\n").into_bytes();
    let mut v: u64 = 1;
    for k in 0..N {
        v = v * 48_271 % 2_000_000_011;
        let x = v as i64 - 1_000_000_000;
        out.extend_from_slice(x.to_string().as_bytes());
        out.push(if k % 10 == 9 { b'\n' } else { b' ' });
    }
    out
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn time(mut f: impl FnMut()) -> Duration {
    median(
        (0..ROUNDS)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// Runs `argv` with `input` on standard input; its exit status.
fn process(argv: &[&str], input: &[u8]) -> i32 {
    let mut child = Command::new(argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait().unwrap().code().unwrap_or(-1)
}

fn main() {
    let data = input();
    let dir = tempfile::tempdir().unwrap();
    let py = dir.path().join("validate.py");
    std::fs::write(&py, PYTHON_FORMAT).unwrap();
    let pyctd = std::env::var("PYCTD_PYTHON").ok();
    println!(
        "input: {} integers, {:.1} MB; median of {ROUNDS} rounds",
        N,
        data.len() as f64 / 1e6
    );
    println!(
        "{:<8} {:>12} {:>12} {:>12} {:>10} {:>10}",
        "program", "judge ctd", "python", "pyctd", "py/judge", "pyctd/judge"
    );
    for (name, program, flag) in [("format", FORMAT, ""), ("unique", UNIQUE, "--unique")] {
        let script = Script::parse(program.as_bytes()).expect("parses");
        let ours = time(|| {
            script
                .check(&data, &Options::default())
                .expect("the input is valid")
        });
        let mut argv = vec!["python3", py.to_str().unwrap()];
        if !flag.is_empty() {
            argv.push(flag);
        }
        let python = time(|| assert_eq!(process(&argv, &data), 42, "python validator"));
        let theirs = pyctd.as_ref().map(|p| {
            let ctd = dir.path().join(format!("{name}.ctd"));
            std::fs::write(&ctd, program).unwrap();
            let ctd = ctd.to_str().unwrap().to_string();
            time(|| {
                let argv = [p.as_str(), "-m", "checktestdata", ctd.as_str()];
                assert_eq!(process(&argv, &data), 0, "pyctd")
            })
        });
        let secs = |d: Duration| format!("{:.3} s", d.as_secs_f64());
        println!(
            "{name:<8} {:>12} {:>12} {:>12} {:>9.1}x {:>10}",
            secs(ours),
            secs(python),
            theirs.map_or("-".into(), secs),
            python.as_secs_f64() / ours.as_secs_f64(),
            theirs.map_or("-".into(), |t| format!(
                "{:.1}x",
                t.as_secs_f64() / ours.as_secs_f64()
            )),
        );
    }
}
