# Pass 1 (`encode N`): the output must be an integer other than N; N is kept in the feedback
# folder and pass 2 gets `decode M`. Pass 2: the output must be N. judgemessage.txt is
# appended to by both passes.
import re, sys
from pathlib import Path

feedback = Path(sys.argv[3])
words = Path(sys.argv[1]).read_text().split()


def note(msg):
    with open(feedback / "judgemessage.txt", "a") as f:
        f.write(msg + "\n")


def wrong(msg):
    note(msg)
    sys.exit(43)


out = sys.stdin.read()
if not re.fullmatch(r"-?\d+\n?", out):
    wrong(f"{words[0]}: expected one integer, got {out[:40]!r}")
value = int(out)
if words[0] == "encode":
    n = int(words[1])
    if value == n:
        wrong(f"encode: {n} encoded as itself")
    (feedback / "number").write_text(f"{n}\n")
    note(f"encode: {n} became {value}")
    (feedback / "nextpass.in").write_text(f"decode\n{value}\n")
    sys.exit(42)
n = int((feedback / "number").read_text())
if value != n:
    wrong(f"decode: got {value}, expected {n}")
note("decode: ok")
sys.exit(42)
