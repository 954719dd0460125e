# WRONG: random restarts of a capped backtracking search: each restart lays the faces in order
# trying the tiles in a fresh random order, gives up after 3000 placements and starts afresh;
# after 0.4 s of CPU it prints -1
# @RANDOMISED@ (Python's random module seeds itself from os.urandom: every run differs)
# Odd mark counts are answered at once. Random restarts find a tiling of most solvable inputs
# within a few restarts, but a tiling that a random order reaches only after a long search
# (few tilings, many near misses) is seldom found, and the input is then declared unsolvable.
# Rejected by secret-restarts-stall-1 and -2 in every run: there the in-order search needs of
# the order of 10^5 placements whatever the tile order, and no restart of 3000 reaches a tiling
# (found by `judge hunt dodecahedron --solver restarts`, which models this search).
import random
import sys
import time

NB = [
    [2, 3, 4, 5, 6], [1, 6, 7, 11, 3], [1, 2, 11, 10, 4], [1, 3, 10, 9, 5],
    [1, 4, 9, 8, 6], [1, 5, 8, 7, 2], [8, 12, 11, 2, 6], [9, 12, 7, 6, 5],
    [10, 12, 8, 5, 4], [11, 12, 9, 4, 3], [7, 12, 10, 3, 2], [7, 8, 9, 10, 11],
]
CAP = 3000
BUDGET = 0.4


class Restart(Exception):
    pass


def main():
    nums = list(map(int, sys.stdin.read().split()))
    tiles = [nums[5 * i : 5 * i + 5] for i in range(12)]
    if any(sum(t.count(k) for t in tiles) % 2 for k in range(3)):
        print(-1)
        return
    back = [[NB[NB[f][k] - 1].index(f + 1) for k in range(5)] for f in range(12)]
    on, rot, used = [0] * 12, [0] * 12, [False] * 12
    nodes = [0]

    def mark(f, k):
        return tiles[on[f]][(k - rot[f]) % 5]

    def dfs(f, order):
        if f == 12:
            return True
        for t in order[f]:
            if used[t]:
                continue
            for r in range(5):
                nodes[0] += 1
                if nodes[0] > CAP:
                    raise Restart
                on[f], rot[f] = t, r
                if all(
                    NB[f][k] - 1 > f or mark(f, k) == mark(NB[f][k] - 1, back[f][k])
                    for k in range(5)
                ):
                    used[t] = True
                    if dfs(f + 1, order):
                        return True
                    used[t] = False
        return False

    start = time.process_time()
    while time.process_time() - start < BUDGET:
        order = [random.sample(range(12), 12) for _ in range(12)]
        nodes[0] = 0
        for t in range(12):
            used[t] = False
        try:
            if dfs(0, order):
                print("\n".join(f"{on[f] + 1} {NB[f][rot[f]]}" for f in range(12)))
                return
        except Restart:
            pass
    print(-1)


main()
