# WRONG: random restarts without backtracking: lays the faces in order, each with a random one
# of the (tile, rotation) pairs that fit its placed neighbours, starts afresh at the first face
# nothing fits, and prints -1 after 0.1 s of CPU without a tiling
# @RANDOMISED@ (Python's random module seeds itself from os.urandom: every run differs)
# Odd mark counts are answered at once. Inputs with many tilings (few mark values, many equal
# tiles) come out in a few restarts; an input with a single tiling up to rotating the solid is
# reached by a random walk only with tiny probability, and is then declared unsolvable.
import random
import sys
import time

NB = [
    [2, 3, 4, 5, 6], [1, 6, 7, 11, 3], [1, 2, 11, 10, 4], [1, 3, 10, 9, 5],
    [1, 4, 9, 8, 6], [1, 5, 8, 7, 2], [8, 12, 11, 2, 6], [9, 12, 7, 6, 5],
    [10, 12, 8, 5, 4], [11, 12, 9, 4, 3], [7, 12, 10, 3, 2], [7, 8, 9, 10, 11],
]


def main():
    nums = list(map(int, sys.stdin.read().split()))
    tiles = [nums[5 * i : 5 * i + 5] for i in range(12)]
    if any(sum(t.count(k) for t in tiles) % 2 for k in range(3)):
        print(-1)
        return
    back = [[NB[NB[f][k] - 1].index(f + 1) for k in range(5)] for f in range(12)]
    on, rot = [0] * 12, [0] * 12

    def mark(f, k):
        return tiles[on[f]][(k - rot[f]) % 5]

    def attempt():
        free = set(range(12))
        for f in range(12):
            fits = []
            for t in free:
                on[f] = t
                for r in range(5):
                    rot[f] = r
                    if all(
                        NB[f][k] - 1 > f or mark(f, k) == mark(NB[f][k] - 1, back[f][k])
                        for k in range(5)
                    ):
                        fits.append((t, r))
            if not fits:
                return False
            on[f], rot[f] = random.choice(fits)
            free.remove(on[f])
        return True

    start = time.process_time()
    while time.process_time() - start < 0.1:
        if attempt():
            print("\n".join(f"{on[f] + 1} {NB[f][rot[f]]}" for f in range(12)))
            return
    print(-1)


main()
