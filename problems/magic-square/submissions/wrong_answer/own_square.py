# WRONG: builds a textbook magic square with the right magic sum instead of arranging the given numbers
import sys

LO_SHU = [[2, 7, 6], [9, 5, 1], [4, 3, 8]]  # magic sum 15
DURER = [[16, 3, 2, 13], [5, 10, 11, 8], [9, 6, 7, 12], [4, 15, 14, 1]]  # magic sum 34


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    base = LO_SHU if n == 3 else DURER
    k, r = divmod(s - sum(base[0]), n)
    g = [[v + k for v in row] for row in base]
    # The remainder (N=4 only: a 3x3 magic sum is a multiple of 3) goes on a transversal
    # that meets every row, column and diagonal once.
    if n == 4:
        for i, j in enumerate((0, 2, 3, 1)):
            g[i][j] += r
    print("\n".join(" ".join(map(str, row)) for row in g))


main()
