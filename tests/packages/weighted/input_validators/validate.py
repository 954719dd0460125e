import re
import sys

if not re.fullmatch(r"\d{1,6}\n", sys.stdin.read()):
    sys.exit(43)
sys.exit(42)
