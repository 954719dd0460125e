import re, sys
text = sys.stdin.read()
if re.fullmatch(r"[1-9]\d*\n", text) and 2 <= int(text) <= 10**12:
    sys.exit(42)
sys.exit(43)
