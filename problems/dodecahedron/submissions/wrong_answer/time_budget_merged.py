# WRONG: backtracking with identical tiles merged that gives up after 0.4 s of CPU and prints -1
# Faces in order, each kind of tile (equal up to rotation) tried once per rotation, a tile of
# the first kind fixed on face 1 (rotating the solid puts one there), odd mark counts answered
# at once. Unsolvable inputs are searched out quickly or given up on (right either way); a
# solvable input whose tilings this order reaches only after millions of placements is
# answered -1 (data/secret/budget-sparse-*).
import sys
import time

NB = [
    [2, 3, 4, 5, 6], [1, 6, 7, 11, 3], [1, 2, 11, 10, 4], [1, 3, 10, 9, 5],
    [1, 4, 9, 8, 6], [1, 5, 8, 7, 2], [8, 12, 11, 2, 6], [9, 12, 7, 6, 5],
    [10, 12, 8, 5, 4], [11, 12, 9, 4, 3], [7, 12, 10, 3, 2], [7, 8, 9, 10, 11],
]
BUDGET = 0.4


class GaveUp(Exception):
    pass


def main():
    nums = list(map(int, sys.stdin.read().split()))
    tiles = [nums[5 * i : 5 * i + 5] for i in range(12)]
    if any(sum(t.count(k) for t in tiles) % 2 for k in range(3)):
        print(-1)
        return
    back = [[NB[NB[f][k] - 1].index(f + 1) for k in range(5)] for f in range(12)]
    kinds, kind_of = [], []
    for t in tiles:
        for i, k in enumerate(kinds):
            if any(t[r:] + t[:r] == k for r in range(5)):
                kind_of.append(i)
                break
        else:
            kind_of.append(len(kinds))
            kinds.append(t)
    left = [kind_of.count(i) for i in range(len(kinds))]
    on, rot = [0] * 12, [0] * 12

    def mark(f, k):
        return kinds[on[f]][(k - rot[f]) % 5]

    start = time.process_time()
    nodes = [0]

    def dfs(f):
        if f == 12:
            return True
        for t in range(len(kinds)):
            if not left[t]:
                continue
            for r in range(5):
                nodes[0] += 1
                if nodes[0] % 1000 == 0 and time.process_time() - start > BUDGET:
                    raise GaveUp
                on[f], rot[f] = t, r
                if all(
                    NB[f][k] - 1 > f or mark(f, k) == mark(NB[f][k] - 1, back[f][k])
                    for k in range(5)
                ):
                    left[t] -= 1
                    if dfs(f + 1):
                        return True
                    left[t] += 1
        return False

    left[0] -= 1
    try:
        found = dfs(1)
    except GaveUp:
        found = False
    if not found:
        print(-1)
        return
    given = [False] * 12
    out = []
    for f in range(12):
        k = kinds[on[f]]
        for i in range(12):
            if given[i] or kind_of[i] != on[f]:
                continue
            off = next(o for o in range(5) if tiles[i][o:] + tiles[i][:o] == k)
            given[i] = True
            out.append(f"{i + 1} {NB[f][(rot[f] - off) % 5]}")
            break
    print("\n".join(out))


main()
