# The first line of the input says what to do: ac, re, tle or mle (graded with --lang pypy3).
import sys

mode = sys.stdin.readline().strip()
if mode == "ac":
    print("ok")
elif mode == "re":
    raise ValueError("contestant bug")
elif mode == "tle":
    x = 0
    while x >= 0:
        x += 1
elif mode == "mle":
    big = [1] * (1 << 28)
    print(len(big))
