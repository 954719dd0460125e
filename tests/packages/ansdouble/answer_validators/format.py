#!/usr/bin/env python3
# answer_validator testcase.in [answer_validator_args] < testcase.ans
# The answer is one integer on one line, no leading space, at most twice the input's n;
# with --even, an even one.
import re
import sys

n = int(open(sys.argv[1]).read())
answer = sys.stdin.read()
if answer.startswith(" "):
    print("the answer starts with a space", file=sys.stderr)
    sys.exit(43)
if not re.fullmatch(r"-?[0-9]+\n", answer):
    print("not one integer on one line", file=sys.stderr)
    sys.exit(43)
if int(answer) > 2 * n:
    print(f"{int(answer)} is more than twice n = {n}", file=sys.stderr)
    sys.exit(43)
if "--even" in sys.argv[2:] and int(answer) % 2:
    print(f"{int(answer)} is odd", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
