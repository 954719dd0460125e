// Accepted: parity check, identical tiles merged into types (up to rotation), the rarest-marked
// type fixed on face 1 in rotation 0 (the solid's 60 rotations act simply transitively on
// face+orientation pairs), then a most-constrained-face-first search with 64-bit masks of
// (type, rotation) options.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <vector>
using namespace std;

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11}};

int nb[12][5], eid[12][5];
int tile[12][5];
int ntypes, typeCount[12], typeRep[12];
int nent, entType[64], entSeq[64][5];
uint64_t typeMask[12], compat[1024];
int edgeMark[30];
int faceEnt[12];
uint64_t avail;

int pattern(int f) {
    int p = 0;
    for (int j = 4; j >= 0; j--) {
        int m = edgeMark[eid[f][j]];
        p = p * 4 + (m < 0 ? 3 : m);
    }
    return p;
}

bool dfs(int placed) {
    if (placed == 12) return true;
    int best = -1, bestCnt = 99;
    uint64_t bestOpts = 0;
    for (int f = 0; f < 12; f++) {
        if (faceEnt[f] >= 0) continue;
        uint64_t o = compat[pattern(f)] & avail;
        int c = __builtin_popcountll(o);
        if (c < bestCnt) {
            bestCnt = c, best = f, bestOpts = o;
            if (c == 0) return false;
        }
    }
    int f = best;
    int setEdges[5], ns = 0;
    for (int j = 0; j < 5; j++)
        if (edgeMark[eid[f][j]] < 0) setEdges[ns++] = j;
    for (uint64_t o = bestOpts; o; o &= o - 1) {
        int e = __builtin_ctzll(o), t = entType[e];
        for (int q = 0; q < ns; q++) edgeMark[eid[f][setEdges[q]]] = entSeq[e][setEdges[q]];
        if (--typeCount[t] == 0) avail &= ~typeMask[t];
        faceEnt[f] = e;
        if (dfs(placed + 1)) return true;
        faceEnt[f] = -1;
        if (typeCount[t]++ == 0) avail |= typeMask[t];
    }
    for (int q = 0; q < ns; q++) edgeMark[eid[f][setEdges[q]]] = -1;
    return false;
}

int main() {
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) nb[i][j] = NB[i][j] - 1;
    int ne = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            int g = nb[i][j];
            if (g > i) {
                eid[i][j] = ne;
                for (int k = 0; k < 5; k++)
                    if (nb[g][k] == i) eid[g][k] = ne;
                ne++;
            }
        }
    int cnt[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (!(cin >> tile[i][j])) return 1;
            cnt[tile[i][j]]++;
        }
    if (cnt[0] % 2 || cnt[1] % 2 || cnt[2] % 2) {
        puts("-1");
        return 0;
    }
    // Canonical form of a tile: its lexicographically smallest rotation, as a base-3 code.
    auto code = [](const int *s, int r) {
        int c = 0;
        for (int j = 0; j < 5; j++) c = c * 3 + s[(j + r) % 5];
        return c;
    };
    int typeCode[12];
    int tileType[12];
    ntypes = 0;
    for (int i = 0; i < 12; i++) {
        int best = 1 << 30;
        for (int r = 0; r < 5; r++) best = min(best, code(tile[i], r));
        int t = 0;
        while (t < ntypes && typeCode[t] != best) t++;
        if (t == ntypes) typeCode[ntypes] = best, typeRep[ntypes] = i, typeCount[ntypes] = 0, ntypes++;
        typeCount[t]++;
        tileType[i] = t;
    }
    // Entries: every distinct rotation k of every type; placed with rotation k, the mark on
    // a face's j-th edge is rep[(j - k) mod 5].
    nent = 0;
    for (int t = 0; t < ntypes; t++) {
        typeMask[t] = 0;
        const int *s = tile[typeRep[t]];
        for (int k = 0; k < 5; k++) {
            bool dup = false;
            for (int e = 0; e < nent && !dup; e++) {
                if (entType[e] != t) continue;
                bool same = true;
                for (int j = 0; j < 5; j++) same &= entSeq[e][j] == s[(j - k + 5) % 5];
                dup = same;
            }
            if (dup) continue;
            entType[nent] = t;
            for (int j = 0; j < 5; j++) entSeq[nent][j] = s[(j - k + 5) % 5];
            typeMask[t] |= 1ULL << nent;
            nent++;
        }
    }
    for (int p = 0; p < 1024; p++) {
        compat[p] = 0;
        for (int e = 0; e < nent; e++) {
            bool ok = true;
            for (int j = 0; j < 5; j++) {
                int v = (p >> (2 * j)) & 3;
                if (v != 3 && v != entSeq[e][j]) ok = false;
            }
            if (ok) compat[p] |= 1ULL << e;
        }
    }
    for (int e = 0; e < 30; e++) edgeMark[e] = -1;
    for (int f = 0; f < 12; f++) faceEnt[f] = -1;
    avail = 0;
    for (int t = 0; t < ntypes; t++) avail |= typeMask[t];
    // Symmetry: the type with the rarest marks (per copy) goes on face 1 in rotation 0; it
    // constrains its neighbours most.
    int t0 = 0;
    double bestScore = -1;
    for (int t = 0; t < ntypes; t++) {
        double sc = 0;
        for (int j = 0; j < 5; j++) sc += 1.0 / cnt[tile[typeRep[t]][j]];
        sc /= typeCount[t];
        if (sc > bestScore) bestScore = sc, t0 = t;
    }
    int e0 = __builtin_ctzll(typeMask[t0]);
    faceEnt[0] = e0;
    for (int j = 0; j < 5; j++) edgeMark[eid[0][j]] = entSeq[e0][j];
    if (--typeCount[t0] == 0) avail &= ~typeMask[t0];
    if (!dfs(1)) {
        puts("-1");
        return 0;
    }
    // Hand out the actual tiles of each type and find each tile's own rotation.
    bool used[12] = {};
    for (int f = 0; f < 12; f++) {
        int e = faceEnt[f], t = entType[e];
        int ti = 0;
        while (used[ti] || tileType[ti] != t) ti++;
        used[ti] = true;
        for (int k = 0; k < 5; k++) {
            bool ok = true;
            for (int j = 0; j < 5; j++) ok &= tile[ti][(j - k + 5) % 5] == entSeq[e][j];
            if (ok) {
                printf("%d %d\n", ti + 1, nb[f][k] + 1);
                break;
            }
        }
    }
    return 0;
}
