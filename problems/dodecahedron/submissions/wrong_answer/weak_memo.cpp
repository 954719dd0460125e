// WRONG: memoises failed states on a key too weak to tell them apart, so it prunes the only tiling of some inputs
// The key is (face, marks the filled faces show towards the empty ones, how many 0s, 1s and 2s
// the remaining tiles carry); two different sets of remaining tiles can share it, and a failure
// of one then prunes the other, which may succeed (it prints -1 on a solvable input).
#include <cstdio>
#include <unordered_set>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11},
};

int tile[12][5], back[12][5];
int type[12][5], typeOf[12], cnt[12], types = 0;
int onType[12], rot[12];
int left[3];  // marks carried by the tiles not yet placed
std::unordered_set<unsigned long long> failed;

int markOn(int f, int k) { return type[onType[f]][(k - rot[f] + 5) % 5]; }

bool sameUpToRotation(const int *a, const int *b, int r) {
    for (int j = 0; j < 5; j++)
        if (a[j] != b[(j + r) % 5]) return false;
    return true;
}

// The state before filling face f: f, the marks the filled faces show towards unfilled ones,
// and the remaining marks.
unsigned long long key(int f) {
    unsigned long long k = f;
    for (int g = 0; g < f; g++)
        for (int j = 0; j < 5; j++)
            if (NB[g][j] - 1 >= f) k = k * 3 + markOn(g, j);
    return ((k * 61 + left[0]) * 61 + left[1]) * 61 + left[2];
}

bool dfs(int f) {
    if (f == 12) return true;
    unsigned long long k = key(f);
    if (failed.count(k)) return false;
    for (int t = 0; t < types; t++) {
        if (cnt[t] == 0) continue;
        for (int r = 0; r < 5; r++) {
            onType[f] = t; rot[f] = r;
            bool ok = true;
            for (int j = 0; j < 5 && ok; j++) {
                int g = NB[f][j] - 1;
                if (g < f) ok = markOn(f, j) == markOn(g, back[f][j]);
            }
            if (!ok) continue;
            cnt[t]--;
            for (int j = 0; j < 5; j++) left[type[t][j]]--;
            bool found = dfs(f + 1);
            cnt[t]++;
            for (int j = 0; j < 5; j++) left[type[t][j]]++;
            if (found) return true;
        }
    }
    failed.insert(k);
    return false;
}

int main() {
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (scanf("%d", &tile[i][j]) != 1) return 0;
            left[tile[i][j]]++;
        }
    for (int f = 0; f < 12; f++)
        for (int k = 0; k < 5; k++)
            for (int j = 0; j < 5; j++)
                if (NB[NB[f][k] - 1][j] == f + 1) back[f][k] = j;
    if (left[0] % 2 || left[1] % 2 || left[2] % 2) { puts("-1"); return 0; }
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
    onType[0] = 0; rot[0] = 0; cnt[0]--;
    for (int j = 0; j < 5; j++) left[type[0][j]]--;
    if (!dfs(1)) { puts("-1"); return 0; }
    bool given[12] = {false};
    for (int f = 0; f < 12; f++) {
        int t = onType[f];
        for (int i = 0; i < 12; i++) {
            if (given[i] || typeOf[i] != t) continue;
            int off = 0;
            while (!sameUpToRotation(type[t], tile[i], off)) off++;
            given[i] = true;
            printf("%d %d\n", i + 1, NB[f][(rot[f] - off + 5) % 5]);
            break;
        }
    }
}
