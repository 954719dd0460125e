# WRONG: prints 0-based tile numbers (faces/neighbours are right)
import sys

NB = [[2, 3, 4, 5, 6], [1, 6, 7, 11, 3], [1, 2, 11, 10, 4], [1, 3, 10, 9, 5],
      [1, 4, 9, 8, 6], [1, 5, 8, 7, 2], [8, 12, 11, 2, 6], [9, 12, 7, 6, 5],
      [10, 12, 8, 5, 4], [11, 12, 9, 4, 3], [7, 12, 10, 3, 2], [7, 8, 9, 10, 11]]


def main():
    v = list(map(int, sys.stdin.buffer.read().split()))
    tiles = [v[5 * i:5 * i + 5] for i in range(12)]
    total = [v.count(c) for c in range(3)]
    if any(x % 2 for x in total):
        print(-1)
        return
    nb = [[x - 1 for x in row] for row in NB]
    back = [[nb[nb[i][j]].index(i) for j in range(5)] for i in range(12)]

    canon = [min(tuple(t[r:] + t[:r]) for r in range(5)) for t in tiles]
    types = sorted(set(canon))
    ntypes = len(types)
    tile_type = [types.index(c) for c in canon]
    count = [tile_type.count(t) for t in range(ntypes)]

    # Entries: each distinct rotation k of each type; on a face, edge j gets seq[(j - k) % 5].
    ent_type, ent_seq, type_mask = [], [], [0] * ntypes
    for t, s in enumerate(types):
        seen = set()
        for k in range(5):
            seq = tuple(s[(j - k) % 5] for j in range(5))
            if seq not in seen:
                seen.add(seq)
                type_mask[t] |= 1 << len(ent_seq)
                ent_type.append(t)
                ent_seq.append(seq)
    compat = [0] * 1024
    for e, seq in enumerate(ent_seq):
        bit = 1 << e
        # every pattern that agrees with seq where known: enumerate subsets of unknowns
        for unk in range(32):
            p = 0
            for j in range(5):
                p |= (3 if unk >> j & 1 else seq[j]) << (2 * j)
            compat[p] |= bit

    pat = [1023] * 12
    face_ent = [-1] * 12
    avail = 0
    for t in range(ntypes):
        avail |= type_mask[t]

    def place(f, e):
        seq = ent_seq[e]
        face_ent[f] = e
        row, brow = nb[f], back[f]
        for j in range(5):
            g = row[j]
            if face_ent[g] < 0:
                pat[g] -= (3 - seq[j]) << (2 * brow[j])

    def unplace(f, e):
        seq = ent_seq[e]
        face_ent[f] = -1
        row, brow = nb[f], back[f]
        for j in range(5):
            g = row[j]
            if face_ent[g] < 0:
                pat[g] += (3 - seq[j]) << (2 * brow[j])

    def dfs(free):
        nonlocal avail
        if not free:
            return True
        best = -1
        bc = 99
        bo = 0
        for f in free:
            o = compat[pat[f]] & avail
            c = o.bit_count()
            if c < bc:
                if c == 0:
                    return False
                bc, best, bo = c, f, o
        f = best
        rest = [g for g in free if g != f]
        while bo:
            low = bo & -bo
            bo ^= low
            e = low.bit_length() - 1
            t = ent_type[e]
            place(f, e)
            count[t] -= 1
            if count[t] == 0:
                avail &= ~type_mask[t]
            if dfs(rest):
                return True
            if count[t] == 0:
                avail |= type_mask[t]
            count[t] += 1
            unplace(f, e)
        return False

    # Fix on face 1 the type whose marks are rarest (it constrains its neighbours most).
    def score(t):
        s = sum(1.0 / total[c] for c in types[t])
        return s / count[t]
    t0 = max(range(ntypes), key=score)
    e0 = (type_mask[t0] & -type_mask[t0]).bit_length() - 1
    place(0, e0)
    count[t0] -= 1
    if count[t0] == 0:
        avail &= ~type_mask[t0]
    if not dfs(list(range(1, 12))):
        print(-1)
        return

    used = [False] * 12
    out = []
    for f in range(12):
        e = face_ent[f]
        seq = ent_seq[e]
        ti = next(i for i in range(12) if not used[i] and tile_type[i] == ent_type[e])
        used[ti] = True
        k = next(k for k in range(5) if all(tiles[ti][(j - k) % 5] == seq[j] for j in range(5)))
        out.append("%d %d" % (ti, nb[f][k] + 1))
    sys.stdout.write("\n".join(out) + "\n")


main()
