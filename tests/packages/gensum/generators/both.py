# both.py NAME: writes NAME.in and NAME.ans itself ({name} is `testcase`); no solution runs.
import sys

name = sys.argv[1]
with open(f"{name}.in", "w") as f:
    f.write("2\n40 2\n")
with open(f"{name}.ans", "w") as f:
    f.write("42\n")
