// TOO SLOW: fills the square row by row without merging equal numbers, so equal values are tried again and again
// Each row's last cell is S minus the other three, the last row is forced by the column sums
// and the diagonals are checked at the end; a free cell tries every unused position (not every
// distinct value). Fast on distinct numbers; on the right pattern of repeated ones, the same
// partial squares are rebuilt millions of times.
#include <algorithm>
#include <cstdio>

typedef long long ll;
int n, m;
ll a[16], cell[16], S;
bool used[16];

// An unused position holding v, taken; -1 if there is none.
int take(ll v) {
    for (int i = 0; i < m; i++)
        if (!used[i] && a[i] == v) { used[i] = true; return i; }
    return -1;
}

bool lastRow() {
    int got[4], k = 0;
    for (int c = 0; c < n; c++) {
        ll v = S;
        for (int r = 0; r < n - 1; r++) v -= cell[r * n + c];
        int i = take(v);
        if (i < 0) break;
        got[k++] = i;
        cell[(n - 1) * n + c] = v;
    }
    bool ok = k == n;
    if (ok) {
        ll d1 = 0, d2 = 0, last = 0;
        for (int i = 0; i < n; i++) {
            d1 += cell[i * n + i];
            d2 += cell[i * n + n - 1 - i];
            last += cell[(n - 1) * n + i];
        }
        ok = d1 == S && d2 == S && last == S;
    }
    if (!ok)
        while (k > 0) used[got[--k]] = false;
    return ok;
}

// Fills cell k of rows 0 .. n-2.
bool search(int k) {
    if (k == (n - 1) * n) return lastRow();
    int c = k % n;
    if (c == n - 1) {
        ll v = S;
        for (int j = 0; j < n - 1; j++) v -= cell[k - c + j];
        int i = take(v);
        if (i < 0) return false;
        cell[k] = v;
        if (search(k + 1)) return true;
        used[i] = false;
        return false;
    }
    for (int i = 0; i < m; i++) {
        if (used[i]) continue;
        used[i] = true;
        cell[k] = a[i];
        if (search(k + 1)) return true;
        used[i] = false;
    }
    return false;
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
    if (search(0))
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) printf("%lld%c", cell[r * n + c], c == n - 1 ? '\n' : ' ');
}
