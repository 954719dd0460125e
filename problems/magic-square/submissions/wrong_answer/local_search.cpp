// WRONG: randomised local search with a time budget: swaps cells while the lines' distance from
// the magic sum does not grow, restarts when stuck, and prints its best square after 0.5 s
// @RANDOMISED@ (seeded from std::random_device: every run takes another path)
// It finds a square quickly when there are many (distinct numbers, classical squares, most
// random tests), but on inputs with few squares among the 16! arrangements it stalls in a local
// minimum and prints a square that is not magic.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>

typedef long long ll;
int n, m;
ll g[16], best[16], S;
int lines[10][4], L;

ll cost() {
    ll c = 0;
    for (int l = 0; l < L; l++) {
        ll s = 0;
        for (int k = 0; k < n; k++) s += g[lines[l][k]];
        c += s > S ? s - S : S - s;
    }
    return c;
}

int main() {
    if (scanf("%d", &n) != 1) return 0;
    m = n * n;
    ll total = 0;
    for (int i = 0; i < m; i++) {
        if (scanf("%lld", &g[i]) != 1) return 0;
        total += g[i];
    }
    S = total / n;
    for (int r = 0; r < n; r++, L++)
        for (int c = 0; c < n; c++) lines[L][c] = r * n + c;
    for (int c = 0; c < n; c++, L++)
        for (int r = 0; r < n; r++) lines[L][r] = r * n + c;
    for (int k = 0; k < n; k++) lines[L][k] = k * n + k, lines[L + 1][k] = k * n + n - 1 - k;
    L += 2;
    std::mt19937_64 rng(std::random_device{}());
    ll bestCost = cost();
    for (int i = 0; i < m; i++) best[i] = g[i];
    const clock_t budget = CLOCKS_PER_SEC / 2;
    while (bestCost > 0 && clock() < budget) {
        for (int i = m - 1; i > 0; i--) std::swap(g[i], g[rng() % (i + 1)]);
        ll cur = cost();
        for (int stuck = 0; stuck < 2000 && cur > 0; stuck++) {
            int i = rng() % m, j = rng() % m;
            std::swap(g[i], g[j]);
            ll c = cost();
            if (c <= cur) {
                if (c < cur) stuck = 0;
                cur = c;
            } else {
                std::swap(g[i], g[j]);
            }
        }
        if (cur < bestCost) {
            bestCost = cur;
            for (int i = 0; i < m; i++) best[i] = g[i];
        }
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%lld%c", best[r * n + c], c == n - 1 ? '\n' : ' ');
}
