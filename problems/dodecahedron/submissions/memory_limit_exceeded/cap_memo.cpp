// WRONG: memoises failed lower halves in a table over (used-tile mask, marks on the 10 edges
// around the top cap) = 4096 x 3^10 bytes, about 242 MiB, far over the 64 MiB limit.
#include <cstdio>
#include <cstring>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11}};

static signed char memo[1 << 12][59049];  // -1 unknown, 0 fails
int tile[12][5], faceTile[12], faceRot[12];
int usedMask;
int capEdge[10][2];  // (face in the cap, side) of the edges leaving faces 1..6

int markOf(int f, int j) { return tile[faceTile[f]][(j - faceRot[f] + 5) % 5]; }

bool fits(int f) {
    for (int j = 0; j < 5; j++) {
        int g = NB[f][j] - 1;
        if (g >= f) continue;
        int jj = 0;
        while (NB[g][jj] - 1 != f) jj++;
        if (markOf(f, j) != markOf(g, jj)) return false;
    }
    return true;
}

bool dfs(int f) {
    if (f == 12) return true;
    int key = 0;
    if (f == 6) {
        for (int q = 0; q < 10; q++) key = key * 3 + markOf(capEdge[q][0], capEdge[q][1]);
        if (memo[usedMask][key] == 0) return false;
    }
    for (int t = 0; t < 12; t++) {
        if (usedMask >> t & 1) continue;
        usedMask |= 1 << t;
        faceTile[f] = t;
        for (int r = 0; r < 5; r++) {
            faceRot[f] = r;
            if (fits(f) && dfs(f + 1)) return true;
        }
        usedMask &= ~(1 << t);
    }
    if (f == 6) memo[usedMask][key] = 0;
    return false;
}

int main() {
    memset(memo, -1, sizeof memo);
    int n = 0;
    for (int f = 0; f < 6; f++)
        for (int j = 0; j < 5; j++)
            if (NB[f][j] - 1 >= 6) capEdge[n][0] = f, capEdge[n][1] = j, n++;
    int cnt[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (scanf("%d", &tile[i][j]) != 1) return 1;
            cnt[tile[i][j]]++;
        }
    if (cnt[0] % 2 || cnt[1] % 2 || cnt[2] % 2) {
        puts("-1");
        return 0;
    }
    // Symmetry: tile 1 on face 1 in rotation 0.
    usedMask = 1;
    if (!dfs(1)) {
        puts("-1");
        return 0;
    }
    for (int f = 0; f < 12; f++) printf("%d %d\n", faceTile[f] + 1, NB[f][faceRot[f]]);
    return 0;
}
