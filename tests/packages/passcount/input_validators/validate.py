import re, sys
text = sys.stdin.read()
m = re.fullmatch(r"1 ([1-9]\d*)\n", text)
if not m or not 1 <= int(m.group(1)) <= 1000:
    sys.exit(43)
sys.exit(42)
