// WRONG: randomised local search with a time budget: lays the tiles at random, then swaps two
// faces' tiles or turns one tile while the number of mismatched edges does not grow, restarts
// when stuck, and prints -1 when 0.1 s of CPU pass without a tiling
// @RANDOMISED@ (seeded from std::random_device: every run takes another path)
// An odd number of some mark is reported at once (each edge shows its mark twice). Inputs with
// many tilings are solved in a few restarts; an input with one tiling (and its rotations) is
// a needle the search rarely finds, and it then claims there is no solution.
#include <cstdio>
#include <ctime>
#include <random>
#include <utility>

static const int NB[12][5] = {
    {2, 3, 4, 5, 6},   {1, 6, 7, 11, 3},  {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
    {1, 4, 9, 8, 6},   {1, 5, 8, 7, 2},   {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
    {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11},
};
int tile[12][5], back[12][5], on[12], rot[12];

int mark(int f, int k) { return tile[on[f]][(k - rot[f] + 5) % 5]; }

int bad(int f) {
    int b = 0;
    for (int k = 0; k < 5; k++) {
        int g = NB[f][k] - 1;
        b += mark(f, k) != mark(g, back[f][k]);
    }
    return b;
}

int cost() {
    int c = 0;
    for (int f = 0; f < 12; f++) c += bad(f);
    return c / 2;
}

int main() {
    int count[3] = {0, 0, 0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            if (scanf("%d", &tile[i][j]) != 1) return 0;
            count[tile[i][j]]++;
        }
    if (count[0] % 2 || count[1] % 2 || count[2] % 2) {
        puts("-1");
        return 0;
    }
    for (int f = 0; f < 12; f++)
        for (int k = 0; k < 5; k++)
            for (int j = 0; j < 5; j++)
                if (NB[NB[f][k] - 1][j] == f + 1) back[f][k] = j;
    std::mt19937 rng(std::random_device{}());
    const clock_t budget = CLOCKS_PER_SEC / 10;
    int cur = 1;
    while (cur > 0 && clock() < budget) {
        for (int f = 0; f < 12; f++) on[f] = f, rot[f] = rng() % 5;
        for (int f = 11; f > 0; f--) std::swap(on[f], on[rng() % (f + 1)]);
        cur = cost();
        for (int stuck = 0; stuck < 500 && cur > 0; stuck++) {
            int f = rng() % 12, g = rng() % 12;
            int of = on[f], og = on[g], rf = rot[f], rg = rot[g];
            if (rng() % 2) {
                std::swap(on[f], on[g]);
                rot[f] = rng() % 5;
                rot[g] = rng() % 5;
            } else {
                rot[f] = rng() % 5;
            }
            int c = cost();
            if (c <= cur) {
                if (c < cur) stuck = 0;
                cur = c;
            } else {
                on[f] = of, on[g] = og, rot[f] = rf, rot[g] = rg;
            }
        }
    }
    if (cur > 0) {
        puts("-1");
        return 0;
    }
    for (int f = 0; f < 12; f++) printf("%d %d\n", on[f] + 1, NB[f][rot[f]]);
}
