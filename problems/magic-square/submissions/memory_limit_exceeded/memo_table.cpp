// WRONG: memoizes dead ends in a table of 2^16 used-masks x 4096 partial-sum buckets: 256 MiB, far over 64 MiB
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;

int n, cells;
ll S, a[16], grid[16];
vector<int> order_;
vector<vector<int>> complete_at, lines;
vector<char> dead;  // dead[mask << 12 | bucket]: this state was already explored without success

bool place(int k, int mask) {
    if (k == cells) return true;
    ll partial = 0;
    for (int i = 0; i < k; i++) partial = partial * 31 + grid[order_[i]];
    size_t key = (size_t)mask << 12 | (size_t)(partial & 4095);
    if (dead[key]) return false;
    int cell = order_[k];
    for (int i = 0; i < cells; i++) {
        if (mask >> i & 1) continue;
        grid[cell] = a[i];
        bool ok = true;
        for (int li : complete_at[k]) {
            ll s = 0;
            for (int c : lines[li]) s += grid[c];
            ok = ok && s == S;
        }
        if (ok && place(k + 1, mask | 1 << i)) return true;
    }
    dead[key] = 1;
    return false;
}

int main() {
    scanf("%d", &n);
    cells = n * n;
    ll total = 0;
    for (int i = 0; i < cells; i++) scanf("%lld", &a[i]), total += a[i];
    S = total / n;
    dead.assign((size_t)1 << 16 << 12, 0);
    for (int r = 0; r < n; r++) {
        vector<int> row, col;
        for (int c = 0; c < n; c++) row.push_back(r * n + c), col.push_back(c * n + r);
        lines.push_back(row);
        lines.push_back(col);
    }
    vector<int> d1, d2;
    for (int i = 0; i < n; i++) d1.push_back(i * n + i), d2.push_back(i * n + n - 1 - i);
    lines.push_back(d1);
    lines.push_back(d2);
    for (int c = 0; c < cells; c++) order_.push_back(c);
    vector<char> placed(cells, 0);
    complete_at.resize(cells);
    for (int k = 0; k < cells; k++) {
        placed[order_[k]] = 1;
        for (size_t li = 0; li < lines.size(); li++) {
            bool has = false, full = true;
            for (int c : lines[li]) has |= c == order_[k], full &= placed[c] != 0;
            if (has && full) complete_at[k].push_back((int)li);
        }
    }
    place(0, 0);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%lld%c", grid[r * n + c], c + 1 < n ? ' ' : '\n');
}
