"""Input validator, Kattis protocol: the input comes on standard input; exit 42 if it is
valid, 43 (with the reason on standard error) if not.

Byte-strict: exactly the format of the statement, with single spaces, one newline at the end
of each line, no leading zeros, no `-0`, nothing else. Every test in data/ must pass it and
every file in data/invalid_input/ must fail it.
"""

import re
import sys

MAX_N = 1000
MAX_A = 10**9
INTEGER = re.compile(r"0|-?[1-9][0-9]*")


def reject(why):
    print(why, file=sys.stderr)
    sys.exit(43)


def integer(token, what, low, high):
    if not INTEGER.fullmatch(token):
        reject(f"{what}: expected an integer, found {token!r}")
    value = int(token)
    if not low <= value <= high:
        reject(f"{what} = {value} is not in [{low}, {high}]")
    return value


data = sys.stdin.buffer.read()
if not data.endswith(b"\n"):
    reject("the input does not end with a newline")
try:
    lines = data.decode("ascii").split("\n")[:-1]
except UnicodeDecodeError:
    reject("the input is not ASCII")
if len(lines) != 2:
    reject(f"expected 2 lines, found {len(lines)}")
n = integer(lines[0], "line 1: n", 1, MAX_N)
if not re.fullmatch(r"[^ ]+( [^ ]+)*", lines[1]):
    reject("line 2: expected numbers separated by single spaces, no space at either end")
tokens = lines[1].split(" ")
if len(tokens) != n:
    reject(f"line 2: expected {n} numbers, found {len(tokens)}")
for i, token in enumerate(tokens, 1):
    integer(token, f"line 2: a_{i}", -MAX_A, MAX_A)
sys.exit(42)
