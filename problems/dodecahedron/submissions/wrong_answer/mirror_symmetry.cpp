// WRONG: breaks symmetry as if tiles could be flipped (mirror images), so it misses the only tiling of some inputs
// Besides fixing a tile on face 1 (a rotation of the solid) it demands kind(face 3) <= kind(face 6),
// because the mirror through faces 1 and 2 swaps those faces; but a mirrored tiling uses mirrored
// tiles, which the statement forbids. Most-constrained face first, identical tiles merged.
#include <cstdio>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11},
};

int tile[12][5], back[12][5];
int type[12][5], typeOf[12], cnt[12], types = 0;  // tile kinds up to rotation
int onType[12], rot[12];

int markOn(int f, int k) { return type[onType[f]][(k - rot[f] + 5) % 5]; }

bool sameUpToRotation(const int *a, const int *b, int r) {
    for (int j = 0; j < 5; j++)
        if (a[j] != b[(j + r) % 5]) return false;
    return true;
}

bool filled[12];

// A tile with all marks equal looks the same in every rotation: try rotation 0 only.
bool plain(int t) {
    for (int j = 1; j < 5; j++)
        if (type[t][j] != type[t][0]) return false;
    return true;
}

bool fits(int f, int t, int r) {
    if (r > 0 && plain(t)) return false;
    // The mirror through faces 1 and 2 swaps faces 3 and 6: keep kind(3) <= kind(6).
    if (f == 2 && filled[5] && t > onType[5]) return false;
    if (f == 5 && filled[2] && t < onType[2]) return false;
    onType[f] = t; rot[f] = r;
    for (int k = 0; k < 5; k++) {
        int g = NB[f][k] - 1;
        if (filled[g] && markOn(f, k) != markOn(g, back[f][k])) return false;
    }
    return true;
}

// Most constrained empty face first.
bool dfs(int left) {
    if (left == 0) return true;
    int best = -1, bestCount = 1000;
    for (int f = 0; f < 12; f++) {
        if (filled[f]) continue;
        int c = 0;
        for (int t = 0; t < types; t++)
            if (cnt[t])
                for (int r = 0; r < 5; r++) c += fits(f, t, r);
        if (c < bestCount) { bestCount = c; best = f; }
    }
    if (bestCount == 0) return false;
    int f = best;
    for (int t = 0; t < types; t++) {
        if (cnt[t] == 0) continue;
        for (int r = 0; r < 5; r++) {
            if (!fits(f, t, r)) continue;
            filled[f] = true; cnt[t]--;
            if (dfs(left - 1)) return true;
            filled[f] = false; cnt[t]++;
        }
    }
    onType[f] = 0;
    return false;
}

int main() {
    int count[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (scanf("%d", &tile[i][j]) != 1) return 0;
            count[tile[i][j]]++;
        }
    for (int f = 0; f < 12; f++)
        for (int k = 0; k < 5; k++)
            for (int j = 0; j < 5; j++)
                if (NB[NB[f][k] - 1][j] == f + 1) back[f][k] = j;
    if (count[0] % 2 || count[1] % 2 || count[2] % 2) { puts("-1"); return 0; }
    for (int i = 0; i < 12; i++) {
        typeOf[i] = -1;
        for (int t = 0; t < types && typeOf[i] < 0; t++)
            for (int r = 0; r < 5; r++)
                if (sameUpToRotation(type[t], tile[i], r)) { typeOf[i] = t; break; }
        if (typeOf[i] < 0) {
            for (int j = 0; j < 5; j++) type[types][j] = tile[i][j];
            typeOf[i] = types++;
        }
        cnt[typeOf[i]]++;
    }
    // Rotating the solid puts a tile of the first kind on face 1 with rotation 0.
    onType[0] = 0; rot[0] = 0; cnt[0]--; filled[0] = true;
    if (!dfs(11)) { puts("-1"); return 0; }
    // Hand out concrete tiles: a tile of kind t read from offset r looks like type[t].
    bool given[12] = {false};
    for (int f = 0; f < 12; f++) {
        int t = onType[f];
        for (int i = 0; i < 12; i++) {
            if (given[i] || typeOf[i] != t) continue;
            int off = 0;
            while (!sameUpToRotation(type[t], tile[i], off)) off++;
            // tile[i][(j+off)%5] == type[t][j]; type edge j sits on side (rot + j), so tile
            // edge m = j + off sits on side rot + m - off.
            given[i] = true;
            printf("%d %d\n", i + 1, NB[f][(rot[f] - off + 5) % 5]);
            break;
        }
    }
}
