# WRONG: only makes every row sum to S (a partition into rows); columns and diagonals are never checked
import sys
from itertools import combinations


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    groups = [c for c in combinations(range(n * n), n) if sum(a[i] for i in c) == s]

    def split(free, rows):
        if not free:
            return rows
        low = min(free)
        for g in groups:
            if g[0] == low and free.issuperset(g):
                found = split(free - set(g), rows + [g])
                if found:
                    return found
        return None

    rows = split(set(range(n * n)), [])
    print("\n".join(" ".join(str(a[i]) for i in sorted(g, key=lambda i: a[i])) for g in rows))


main()
