# Input: n (1..100), then n integers in [-1000, 1000] on one line, single spaces.
# `--small` (input_validator_args of a group) also asks for n <= 5.
import re
import sys

def reject(why):
    print(why, file=sys.stderr)
    sys.exit(43)

data = sys.stdin.buffer.read().decode("ascii", "replace")
m = re.fullmatch(r"(0|[1-9][0-9]*)\n(-?[0-9]+(?: -?[0-9]+)*)\n", data)
if not m:
    reject("expected n, a newline, numbers separated by single spaces, a newline")
n = int(m.group(1))
a = [int(x) for x in m.group(2).split(" ")]
if not 1 <= n <= 100:
    reject(f"n = {n} is not in [1, 100]")
if len(a) != n:
    reject(f"{len(a)} numbers, expected {n}")
if any(not -1000 <= x <= 1000 or str(x) != t for x, t in zip(a, m.group(2).split(" "))):
    reject("a number outside [-1000, 1000] or not in canonical form")
if "--small" in sys.argv[1:] and n > 5:
    reject(f"n = {n} > 5 in a group of small tests")
sys.exit(42)
