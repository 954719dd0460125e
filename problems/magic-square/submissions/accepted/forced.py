# Cell-by-cell backtracking in an order where most cells are forced by an already complete
# line (value = S - the other three); free cells try each distinct remaining value once.
# For N = 4 the lines include four sums every 4x4 magic square has as well (they follow from
# the rows, columns and diagonals): the corners, the centre 2x2, the middle two cells of the
# top and bottom rows, and of the left and right columns. With them 7 cells are free, the
# dimension of the 4x4 squares with a given sum, instead of 8; with the corners and the
# centre first, about 30 times fewer nodes than the row-first order without them on the hardest
# inputs found.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    cnt = {}
    for x in a:
        cnt[x] = cnt.get(x, 0) + 1

    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    if n == 4:
        lines += [[0, 3, 12, 15], [5, 6, 9, 10], [1, 2, 13, 14], [4, 8, 7, 11]]
    if n == 3:
        order = [(0, 0), (0, 1), (0, 2), (1, 1), (2, 2), (2, 0), (1, 0), (1, 2), (2, 1)]
    else:
        # Corners, centre and diagonals first: the centre's sum is checked after 5 free cells.
        order = [(0, 0), (0, 3), (3, 3), (3, 0), (1, 1), (2, 2), (1, 2), (2, 1),
                 (0, 1), (0, 2), (3, 1), (3, 2), (1, 0), (1, 3), (2, 0), (2, 3)]
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
            if not cnt.get(v):
                return False
            cands = (v,)
        else:
            cands = [v for v, c in cnt.items() if c]
        for v in cands:
            ok = True
            for other in checks:
                if sum(grid[c] for c in other) + v != s:
                    ok = False
                    break
            if not ok:
                continue
            grid[cell] = v
            cnt[v] -= 1
            if place(k + 1):
                return True
            cnt[v] += 1
        return False

    place(0)
    out = []
    for r in range(n):
        out.append(" ".join(str(grid[r * n + c]) for c in range(n)))
    sys.stdout.write("\n".join(out) + "\n")


main()
