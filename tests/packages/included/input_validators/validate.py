#!/usr/bin/env python3
# One integer 1..100 on one line.
import re
import sys

data = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]*\n", data) or int(data) > 100:
    sys.exit(43)
sys.exit(42)
