import re, sys
text = sys.stdin.read()
if not re.fullmatch(r"[1-9]\d*\n", text) or not 1 <= int(text) <= 1000:
    sys.exit(43)
sys.exit(42)
