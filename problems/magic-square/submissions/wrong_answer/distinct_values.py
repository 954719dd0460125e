# WRONG: assumes the numbers are distinct (keeps the unused ones in a set), so repeated values are lost
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    unused = set(a)

    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    if n == 3:
        order = [(0, 0), (0, 1), (0, 2), (1, 1), (2, 2), (2, 0), (1, 0), (1, 2), (2, 1)]
    else:
        order = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (2, 2), (3, 3), (1, 2),
                 (2, 1), (3, 0), (1, 0), (1, 3), (2, 0), (2, 3), (3, 1), (3, 2)]
    order = [r * n + c for r, c in order]

    # For each step: the other cells of the line that forces it (or None), and the other
    # cells of every further line it completes (those must then sum to s as well).
    steps = []
    placed = set()
    for cell in order:
        placed.add(cell)
        done = [[c for c in l if c != cell] for l in lines if cell in l and all(c in placed for c in l)]
        steps.append((cell, done[0] if done else None, done[1:]))

    grid = [0] * (n * n)
    cells = n * n

    def place(k):
        if k == cells:
            return True
        cell, force, checks = steps[k]
        if force is not None:
            v = s - sum(grid[c] for c in force)
            if v not in unused:
                return False
            cands = (v,)
        else:
            cands = list(unused)
        for v in cands:
            ok = True
            for other in checks:
                if sum(grid[c] for c in other) + v != s:
                    ok = False
                    break
            if not ok:
                continue
            grid[cell] = v
            unused.remove(v)
            if place(k + 1):
                return True
            unused.add(v)
        return False

    place(0)
    out = []
    for r in range(n):
        out.append(" ".join(str(grid[r * n + c]) for c in range(n)))
    sys.stdout.write("\n".join(out) + "\n")


main()
