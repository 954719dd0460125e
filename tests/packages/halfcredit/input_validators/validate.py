"""Input validator: one integer 0 <= n <= 10^9 on a line; exit 42 if valid, else 43."""
import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"(0|[1-9]\d*)\n", text) or int(text) > 10**9:
    print("expected one integer 0 <= n <= 10^9 on a line", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
