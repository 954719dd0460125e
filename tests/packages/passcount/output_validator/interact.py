# The input file holds `p v` (pass p of 3). Sends it, expects v + p back; passes 1 and 2 ask
# for the next pass with `p+1 v+p`. Each pass appends a line to judgemessage.txt.
import sys
from pathlib import Path

feedback = Path(sys.argv[3])
p, v = map(int, Path(sys.argv[1]).read_text().split())


def note(msg):
    with open(feedback / "judgemessage.txt", "a") as f:
        f.write(msg + "\n")


print(p, v, flush=True)
reply = sys.stdin.readline().strip()
if reply != str(v + p):
    note(f"pass {p}: got {reply[:40]!r}, expected {v + p}")
    sys.exit(43)
note(f"pass {p}: ok")
if p < 3:
    (feedback / "nextpass.in").write_text(f"{p + 1} {v + p}\n")
sys.exit(42)
