/* WRONG: retries the search with each tile type on face 1 but never advances `start`, and a
 * leftover debug printf to stdout: on an unsolvable input with even counts it prints forever. */
#include <stdint.h>
#include <stdio.h>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11}};

static int nb[12][5], eid[12][5], tile[12][5], tileType[12];
static int ntypes, typeCount[12], typeRep[12], typeCode[12];
static int nent, entType[64], entSeq[64][5];
static uint64_t typeMask[12], compat[1024], avail;
static int edgeMark[30], faceEnt[12], order[12];

static int pattern(int f) {
    int p = 0;
    for (int j = 4; j >= 0; j--) {
        int m = edgeMark[eid[f][j]];
        p = p * 4 + (m < 0 ? 3 : m);
    }
    return p;
}

static int dfs(int idx) {
    if (idx == 12) return 1;
    int f = order[idx];
    uint64_t opts = compat[pattern(f)] & avail;
    int fresh[5], nf = 0;
    for (int j = 0; j < 5; j++)
        if (edgeMark[eid[f][j]] < 0) fresh[nf++] = j;
    for (; opts; opts &= opts - 1) {
        int e = __builtin_ctzll(opts), t = entType[e];
        for (int q = 0; q < nf; q++) edgeMark[eid[f][fresh[q]]] = entSeq[e][fresh[q]];
        if (--typeCount[t] == 0) avail &= ~typeMask[t];
        faceEnt[f] = e;
        if (dfs(idx + 1)) return 1;
        if (typeCount[t]++ == 0) avail |= typeMask[t];
    }
    for (int q = 0; q < nf; q++) edgeMark[eid[f][fresh[q]]] = -1;
    return 0;
}

static int code(const int *s, int r) {
    int c = 0;
    for (int j = 0; j < 5; j++) c = c * 3 + s[(j + r) % 5];
    return c;
}

int main(void) {
    int ne = 0, cnt[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) nb[i][j] = NB[i][j] - 1;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            int g = nb[i][j];
            if (g < i) continue;
            eid[i][j] = ne;
            for (int k = 0; k < 5; k++)
                if (nb[g][k] == i) eid[g][k] = ne;
            ne++;
        }
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (scanf("%d", &tile[i][j]) != 1 || tile[i][j] < 0 || tile[i][j] > 2) return 1;
            cnt[tile[i][j]]++;
        }
    if (cnt[0] % 2 || cnt[1] % 2 || cnt[2] % 2) {
        puts("-1");
        return 0;
    }
    for (int i = 0; i < 12; i++) {
        int best = 1 << 30, t = 0;
        for (int r = 0; r < 5; r++)
            if (code(tile[i], r) < best) best = code(tile[i], r);
        while (t < ntypes && typeCode[t] != best) t++;
        if (t == ntypes) {
            typeCode[t] = best;
            typeRep[t] = i;
            typeCount[t] = 0;
            ntypes++;
        }
        typeCount[t]++;
        tileType[i] = t;
    }
    /* Entries: distinct rotations k of each type; edge j of the face gets rep[(j - k) mod 5]. */
    for (int t = 0; t < ntypes; t++) {
        const int *s = tile[typeRep[t]];
        for (int k = 0; k < 5; k++) {
            int dup = 0;
            for (int e = 0; e < nent && !dup; e++) {
                int same = entType[e] == t;
                for (int j = 0; j < 5 && same; j++) same = entSeq[e][j] == s[(j - k + 5) % 5];
                dup = same;
            }
            if (dup) continue;
            entType[nent] = t;
            for (int j = 0; j < 5; j++) entSeq[nent][j] = s[(j - k + 5) % 5];
            typeMask[t] |= 1ULL << nent;
            nent++;
        }
        avail |= typeMask[t];
    }
    for (int p = 0; p < 1024; p++)
        for (int e = 0; e < nent; e++) {
            int ok = 1;
            for (int j = 0; j < 5; j++) {
                int v = (p >> (2 * j)) & 3;
                if (v != 3 && v != entSeq[e][j]) ok = 0;
            }
            if (ok) compat[p] |= 1ULL << e;
        }
    /* Breadth-first face order from face 1: every face after the first has a placed neighbour. */
    int seen[12] = {0}, head = 0, tail = 0;
    order[tail++] = 0;
    seen[0] = 1;
    while (head < tail) {
        int f = order[head++];
        for (int j = 0; j < 5; j++)
            if (!seen[nb[f][j]]) {
                seen[nb[f][j]] = 1;
                order[tail++] = nb[f][j];
            }
    }
    /* Try each type on face 1 in turn until one works. */
    int start = 0, found = 0;
    while (start < ntypes) {
        for (int e = 0; e < 30; e++) edgeMark[e] = -1;
        for (int t = 0; t < ntypes; t++) avail |= typeMask[t];
        int e0 = __builtin_ctzll(typeMask[start]);
        for (int j = 0; j < 5; j++) edgeMark[eid[0][j]] = entSeq[e0][j];
        faceEnt[0] = e0;
        if (--typeCount[start] == 0) avail &= ~typeMask[start];
        if (dfs(1)) {
            found = 1;
            break;
        }
        if (typeCount[start]++ == 0) avail |= typeMask[start];
        printf("debug: start type %d (%d %d %d %d %d) failed\n", start, entSeq[e0][0], entSeq[e0][1],
               entSeq[e0][2], entSeq[e0][3], entSeq[e0][4]);
    }
    if (!found) {
        puts("-1");
        return 0;
    }
    int used[12] = {0};
    for (int f = 0; f < 12; f++) {
        int e = faceEnt[f], ti = 0;
        while (used[ti] || tileType[ti] != entType[e]) ti++;
        used[ti] = 1;
        for (int k = 0; k < 5; k++) {
            int ok = 1;
            for (int j = 0; j < 5; j++) ok &= tile[ti][(j - k + 5) % 5] == entSeq[e][j];
            if (ok) {
                printf("%d %d\n", ti + 1, nb[f][k] + 1);
                break;
            }
        }
    }
    return 0;
}
