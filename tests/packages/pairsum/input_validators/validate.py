"""Input validator: exit 42 if the input is valid, 43 if not. --max-n N bounds n."""
import re
import sys

max_n = 200000
args = sys.argv[1:]
if args[:1] == ["--max-n"]:
    max_n = int(args[1])

def reject(why):
    print(why, file=sys.stderr)
    sys.exit(43)

text = sys.stdin.read()
m = re.fullmatch(r"(\d+) (-?\d+)\n(-?\d+(?: -?\d+)*)\n", text)
if not m:
    reject("expected 'n t' on the first line and the numbers on the second")
n, t = int(m.group(1)), int(m.group(2))
a = [int(x) for x in m.group(3).split()]
if not 2 <= n <= max_n:
    reject(f"n = {n} is not in [2, {max_n}]")
if len(a) != n:
    reject(f"{len(a)} numbers for n = {n}")
if abs(t) > 2 * 10**9 or any(abs(x) > 10**9 for x in a):
    reject("value out of range")
seen = set()
if not any((t - x) in seen or seen.add(x) for x in a):
    reject("no pair sums to t")
sys.exit(42)
