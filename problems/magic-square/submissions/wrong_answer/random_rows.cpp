// WRONG: random restarts without backtracking, in C++ (about two million restarts in its budget):
// fills the rows with random unused numbers (each row's last cell forced by the magic sum, the
// last row by the columns), starts afresh at the first dead end or failed diagonal, and after
// 0.1 s of CPU prints the numbers in input order
// @RANDOMISED@ (seeded from std::random_device: every run takes another path)
// An N = 4 input of distinct numbers has a few dozen squares among about 10^9 ways to pick the
// nine free cells: each such test is solved in a run with probability well under one half, and
// the test set holds many of them.
#include <cstdio>
#include <ctime>
#include <random>
#include <utility>

typedef long long ll;
int n, m;
ll a[16], g[16], S;
bool used[16];

// An unused position holding v, taken; -1 if there is none.
int take(ll v) {
    for (int i = 0; i < m; i++)
        if (!used[i] && a[i] == v) {
            used[i] = true;
            return i;
        }
    return -1;
}

bool attempt(std::mt19937_64 &rng) {
    for (int i = 0; i < m; i++) used[i] = false;
    int order[16];
    for (int i = 0; i < m; i++) order[i] = i;
    for (int i = m - 1; i > 0; i--) std::swap(order[i], order[rng() % (i + 1)]);
    int next = 0;
    for (int r = 0; r < n - 1; r++) {
        ll sum = 0;
        for (int c = 0; c < n - 1; c++) {
            while (used[order[next]]) next++;
            used[order[next]] = true;
            g[r * n + c] = a[order[next]];
            sum += a[order[next]];
        }
        if (take(S - sum) < 0) return false;
        g[r * n + n - 1] = S - sum;
    }
    ll last = 0;
    for (int c = 0; c < n; c++) {
        ll v = S;
        for (int r = 0; r < n - 1; r++) v -= g[r * n + c];
        if (take(v) < 0) return false;
        g[(n - 1) * n + c] = v;
        last += v;
    }
    ll d1 = 0, d2 = 0;
    for (int i = 0; i < n; i++) d1 += g[i * n + i], d2 += g[i * n + n - 1 - i];
    return last == S && d1 == S && d2 == S;
}

int main() {
    if (scanf("%d", &n) != 1) return 0;
    m = n * n;
    ll total = 0;
    for (int i = 0; i < m; i++) {
        if (scanf("%lld", &a[i]) != 1) return 0;
        total += a[i];
    }
    S = total / n;
    std::mt19937_64 rng(std::random_device{}());
    bool found = false;
    while (!found && clock() < CLOCKS_PER_SEC / 10)
        for (int k = 0; k < 1000 && !found; k++) found = attempt(rng);
    if (!found)
        for (int i = 0; i < m; i++) g[i] = a[i];
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%lld%c", g[r * n + c], c == n - 1 ? '\n' : ' ');
}
