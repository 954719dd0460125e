// WRONG: the search checks used[] but never marks a tile used, so it may put one tile on several faces
#include <cstdio>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11}};

int tile[12][5], faceTile[12], faceRot[12];
bool used[12];

// Mark that face f (holding tile faceTile[f] in rotation faceRot[f]) puts on its j-th edge.
int markOf(int f, int j) { return tile[faceTile[f]][(j - faceRot[f] + 5) % 5]; }

bool fits(int f) {
    for (int j = 0; j < 5; j++) {
        int g = NB[f][j] - 1;
        if (g >= f) continue;  // not placed yet
        int jj = 0;
        while (NB[g][jj] - 1 != f) jj++;
        if (markOf(f, j) != markOf(g, jj)) return false;
    }
    return true;
}

bool dfs(int f) {
    if (f == 12) return true;
    for (int t = 0; t < 12; t++) {
        if (used[t]) continue;
        faceTile[f] = t;
        for (int r = 0; r < 5; r++) {
            faceRot[f] = r;
            if (fits(f) && dfs(f + 1)) return true;
        }
    }
    return false;
}

int main() {
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++)
            if (scanf("%d", &tile[i][j]) != 1) return 1;
    int cnt[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) cnt[tile[i][j]]++;
    // Each edge of the solid carries its mark twice.
    bool odd = cnt[0] % 2 || cnt[1] % 2 || cnt[2] % 2;
    // Symmetry: tile 1 on face 1 with its reference edge towards face 2.
    used[0] = true;
    faceTile[0] = 0;
    faceRot[0] = 0;
    if (odd || !dfs(1)) {
        puts("-1");
        return 0;
    }
    for (int f = 0; f < 12; f++) printf("%d %d\n", faceTile[f] + 1, NB[f][faceRot[f]]);
    return 0;
}
