# N=3: the centre is S/3 and opposite cells sum to 2*centre, so two choices fix the square.
# N=4: split into four rows summing to S, then order the rows and each row's entries,
# matching the top and bottom halves on column sums. The output is deliberately sloppy:
# blank lines between and after the rows and trailing spaces, which a whitespace-tolerant
# checker must accept.
import sys
from itertools import combinations, permutations


def solve3(a, s):
    c = s // 3
    rest = list(a)
    rest.remove(c)
    for x in set(rest):
        for y in set(rest):
            g = [[x, y, s - x - y], [0, c, 0], [0, 0, 0]]
            g[2][2] = 2 * c - x
            g[2][0] = 2 * c - g[0][2]
            g[2][1] = 2 * c - y
            g[1][0] = s - x - g[2][0]
            g[1][2] = 2 * c - g[1][0]
            flat = [v for row in g for v in row]
            if sorted(flat) == sorted(a) and all(sum(r) == s for r in g) and all(
                sum(g[r][k] for r in range(3)) == s for k in range(3)
            ):
                return g
    return None


def solve4(a, s):
    idx = range(16)
    groups = [c for c in combinations(idx, 4) if sum(a[i] for i in c) == s]

    def partitions(free, chosen):
        if not free:
            yield list(chosen)
            return
        low = min(free)
        # Rows with the same values leave the same values behind: one of them is enough
        # (without this, nine equal values made it try every way to place them).
        tried = set()
        for g in groups:
            if g[0] == low and free.issuperset(g):
                values = tuple(sorted(a[i] for i in g))
                if values in tried:
                    continue
                tried.add(values)
                chosen.append(g)
                yield from partitions(free - set(g), chosen)
                chosen.pop()

    for part in partitions(set(idx), []):
        rows = [[a[i] for i in g] for g in part]
        # Only which rows sit on the outside (0, 3) and which inside (1, 2) matters.
        for ro in ((0, 2, 3, 1), (0, 1, 3, 2), (0, 1, 2, 3)):
            r = [rows[i] for i in ro]
            # Meet in the middle on the column sums: rows 2 and 3 must add up to
            # S - (row 0 + row 1) in every column.
            bottom = {}
            for p2 in set(permutations(r[2])):
                for p3 in set(permutations(r[3])):
                    key = tuple(p2[k] + p3[k] for k in range(4))
                    bottom.setdefault(key, []).append((p2, p3))
            for p0 in set(permutations(r[0])):
                for p1 in set(permutations(r[1])):
                    key = tuple(s - p0[k] - p1[k] for k in range(4))
                    for p2, p3 in bottom.get(key, ()):
                        if (
                            p0[0] + p1[1] + p2[2] + p3[3] == s
                            and p0[3] + p1[2] + p2[1] + p3[0] == s
                        ):
                            return [list(p0), list(p1), list(p2), list(p3)]
    return None


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    g = solve3(a, s) if n == 3 else solve4(a, s)
    out = []
    for row in g:
        out.append("  ".join(map(str, row)) + "   \n\n")
    sys.stdout.write("".join(out) + "\n \n")


main()
