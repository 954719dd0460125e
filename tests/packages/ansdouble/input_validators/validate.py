#!/usr/bin/env python3
# One integer 1..1000 on one line.
import re
import sys

data = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]*\n", data) or int(data) > 1000:
    sys.exit(43)
sys.exit(42)
