import re
import sys

line = sys.stdin.read()
if not re.fullmatch(r"-?\d{1,9} -?\d{1,9}\n", line):
    sys.exit(43)
sys.exit(42)
