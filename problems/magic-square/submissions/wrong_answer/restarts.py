# WRONG: random restarts of a greedy descent: shuffles the tiles, swaps two cells whenever that
# brings the line sums closer to the magic sum, and starts afresh when no swap helps; after
# 0.4 s of CPU it prints the best square it saw, magic or not
# @RANDOMISED@ (Python's random module seeds itself from os.urandom: every run differs)
# On inputs with many squares a descent reaches one; on inputs with few squares most descents
# end in a local minimum, and in Python few restarts fit in the budget.
import random
import sys
import time


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    m = n * n
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines.append([k * n + k for k in range(n)])
    lines.append([k * n + n - 1 - k for k in range(n)])
    on = [[l for l, line in enumerate(lines) if i in line] for i in range(m)]

    def cost(g):
        return sum(abs(sum(g[i] for i in line) - s) for line in lines)

    best, best_cost = a[:], cost(a)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    start = time.process_time()
    while best_cost and time.process_time() - start < 0.4:
        g = a[:]
        random.shuffle(g)
        sums = [sum(g[i] for i in line) for line in lines]
        cur = sum(abs(x - s) for x in sums)
        improved = True
        while improved and cur:
            improved = False
            random.shuffle(pairs)
            for i, j in pairs:
                d = g[j] - g[i]
                if d == 0:
                    continue
                touched = set(on[i]) ^ set(on[j])
                delta = 0
                for l in touched:
                    x = sums[l] + (d if l in on[i] else -d)
                    delta += abs(x - s) - abs(sums[l] - s)
                if delta < 0:
                    for l in touched:
                        sums[l] += d if l in on[i] else -d
                    g[i], g[j] = g[j], g[i]
                    cur += delta
                    improved = True
                    break
        if cur < best_cost:
            best, best_cost = g[:], cur
    out = [" ".join(map(str, best[r * n : r * n + n])) for r in range(n)]
    sys.stdout.write("\n".join(out) + "\n")


main()
