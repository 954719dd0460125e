# WRONG: random restarts without backtracking: fills the rows with random unused numbers (each
# row's last cell forced by the magic sum, the last row by the columns) and starts afresh at the
# first dead end or failed diagonal; after 0.1 s of CPU it prints the last square it tried
# @RANDOMISED@ (Python's random module seeds itself from os.urandom: every run differs)
# Squares with many repeated numbers come out in a few restarts, as do the N = 3 ones; an N = 4
# input of distinct numbers has a few dozen squares among about 10^9 ways to pick the free
# cells, which the tens of thousands of restarts that fit its budget almost never hit.
import random
import sys
import time


def attempt(a, n, s):
    left = a[:]
    random.shuffle(left)
    g = []
    for r in range(n - 1):
        row = [left.pop() for _ in range(n - 1)]
        last = s - sum(row)
        if last not in left:
            return None
        left.remove(last)
        g.append(row + [last])
    row = []
    for c in range(n):
        v = s - sum(g[r][c] for r in range(n - 1))
        if v not in left:
            return None
        left.remove(v)
        row.append(v)
    g.append(row)
    ok = sum(row) == s
    ok = ok and sum(g[i][i] for i in range(n)) == s
    ok = ok and sum(g[i][n - 1 - i] for i in range(n)) == s
    return g if ok else None


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    start = time.process_time()
    g = None
    while g is None and time.process_time() - start < 0.1:
        for _ in range(100):
            g = attempt(a, n, s)
            if g is not None:
                break
    if g is None:
        g = [a[r * n : r * n + n] for r in range(n)]
    sys.stdout.write("".join(" ".join(map(str, row)) + "\n" for row in g))


main()
