# N=4: fill the eight diagonal cells first (the four corners always sum to S as well), then
# two more free cells fix everything else. Symmetry breaking: the 32 transformations that keep
# 4x4 magic squares magic move any diagonal cell to the top-left corner, so the top-left value
# is the smallest diagonal value, a11 <= a22 and a03 <= a30. N=3: the centre is S/3 and opposite
# cells sum to twice the centre.
import sys


def solve4(a, s):
    cnt = {}
    for x in a:
        cnt[x] = cnt.get(x, 0) + 1
    vals = sorted(cnt)

    def take(v):
        c = cnt.get(v, 0)
        if c:
            cnt[v] = c - 1
            return True
        return False

    for a00 in vals:
        if not take(a00):
            continue
        for a11 in vals:
            if a11 < a00 or not take(a11):
                continue
            for a22 in vals:
                if a22 < a11 or not take(a22):
                    continue
                a33 = s - a00 - a11 - a22
                if a33 >= a00 and take(a33):
                    for a03 in vals:
                        if a03 < a00 or not take(a03):
                            continue
                        a30 = s - a00 - a03 - a33  # the corners sum to S
                        if a30 >= a03 and take(a30):
                            for a12 in vals:
                                if a12 < a00 or not take(a12):
                                    continue
                                a21 = s - a03 - a12 - a30
                                if a21 >= a00 and take(a21):
                                    g = rest(s, cnt, vals, a00, a03, a11, a12, a21, a22, a30, a33)
                                    if g:
                                        return g
                                    cnt[a21] += 1
                                cnt[a12] += 1
                            cnt[a30] += 1
                        cnt[a03] += 1
                    cnt[a33] += 1
                cnt[a22] += 1
            cnt[a11] += 1
        cnt[a00] += 1
    return None


def rest(s, cnt, vals, a00, a03, a11, a12, a21, a22, a30, a33):
    """Completes the square from its diagonals: a01 and a10 are free, the rest is forced."""
    for a01 in vals:
        if not cnt[a01]:
            continue
        cnt[a01] -= 1
        a02 = s - a00 - a01 - a03
        a31 = s - a01 - a11 - a21
        a32 = s - a02 - a12 - a22
        taken = []
        for v in (a02, a31, a32):
            if cnt.get(v, 0):
                cnt[v] -= 1
                taken.append(v)
            else:
                break
        if len(taken) == 3 and a30 + a31 + a32 + a33 == s:
            for a10 in vals:
                if not cnt[a10]:
                    continue
                a13 = s - a10 - a11 - a12
                a20 = s - a00 - a10 - a30
                a23 = s - a20 - a21 - a22
                need = {}
                for v in (a10, a13, a20, a23):
                    need[v] = need.get(v, 0) + 1
                if all(cnt.get(v, 0) >= k for v, k in need.items()) and (
                    a03 + a13 + a23 + a33 == s
                ):
                    return [
                        [a00, a01, a02, a03],
                        [a10, a11, a12, a13],
                        [a20, a21, a22, a23],
                        [a30, a31, a32, a33],
                    ]
        for v in taken:
            cnt[v] += 1
        cnt[a01] += 1
    return None


def solve3(a, s):
    c = s // 3
    rest = sorted(a)
    rest.remove(c)
    for x in set(rest):
        for y in set(rest):
            g = [[x, y, s - x - y], [0, c, 0], [0, 0, 0]]
            g[2][2] = 2 * c - x
            g[2][1] = 2 * c - y
            g[2][0] = 2 * c - g[0][2]
            g[1][0] = s - x - g[2][0]
            g[1][2] = 2 * c - g[1][0]
            if sorted(v for row in g for v in row) == sorted(a):
                return g
    return None


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = [int(x) for x in data[1 : 1 + n * n]]
    s = sum(a) // n
    g = solve3(a, s) if n == 3 else solve4(a, s)
    sys.stdout.write("".join(" ".join(map(str, row)) + "\n" for row in g))


main()
