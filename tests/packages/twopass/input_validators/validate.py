import re, sys
text = sys.stdin.read()
m = re.fullmatch(r"encode\n([1-9]\d*)\n", text)
if not m or not 1 <= int(m.group(1)) <= 10**9:
    sys.exit(43)
sys.exit(42)
