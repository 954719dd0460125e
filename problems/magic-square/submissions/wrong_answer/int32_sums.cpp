// WRONG: keeps every value and every sum in 32-bit int, so S and the line sums overflow on large values
#include <bits/stdc++.h>
using namespace std;
typedef int ll;

int n, cells;
ll S;
vector<ll> vals;  // distinct values
vector<int> cnt;  // remaining copies of each distinct value
vector<int> order_;
vector<vector<int>> lines;           // every row, column and both diagonals, as cell lists
vector<vector<int>> complete_at;     // lines completed by placing the k-th cell of the order
vector<ll> grid;
vector<char> placed;

ll line_sum(const vector<int>& line) {
    ll s = 0;
    for (int c : line) s += grid[c];
    return s;
}

int find_value(ll v) {
    for (size_t i = 0; i < vals.size(); i++)
        if (vals[i] == v) return cnt[i] > 0 ? (int)i : -1;
    return -1;
}

bool place(int k);

bool try_value(int k, int vi) {
    int cell = order_[k];
    grid[cell] = vals[vi];
    for (int li : complete_at[k])
        if (line_sum(lines[li]) != S) return false;
    cnt[vi]--;
    bool ok = place(k + 1);
    if (!ok) cnt[vi]++;
    return ok;
}

bool place(int k) {
    if (k == cells) return true;
    int cell = order_[k];
    if (!complete_at[k].empty()) {
        const vector<int>& line = lines[complete_at[k][0]];
        ll rest = 0;
        for (int c : line)
            if (c != cell) rest += grid[c];
        int vi = find_value(S - rest);
        return vi >= 0 && try_value(k, vi);
    }
    for (size_t vi = 0; vi < vals.size(); vi++)
        if (cnt[vi] > 0 && try_value(k, (int)vi)) return true;
    return false;
}

int main() {
    if (scanf("%d", &n) != 1) return 0;
    cells = n * n;
    vector<ll> a(cells);
    ll total = 0;
    for (auto& x : a) {
        scanf("%d", &x);
        total += x;
    }
    S = total / n;
    map<ll, int> m;
    for (ll x : a) m[x]++;
    for (auto& [v, c] : m) vals.push_back(v), cnt.push_back(c);

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

    // Free cells come first only where nothing forces them.
    vector<pair<int, int>> ord3 = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 2}, {2, 0},
                                   {1, 0}, {1, 2}, {2, 1}};
    vector<pair<int, int>> ord4 = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {2, 2},
                                   {3, 3}, {1, 2}, {2, 1}, {3, 0}, {1, 0}, {1, 3},
                                   {2, 0}, {2, 3}, {3, 1}, {3, 2}};
    for (auto [r, c] : (n == 3 ? ord3 : ord4)) order_.push_back(r * n + c);

    placed.assign(cells, 0);
    complete_at.resize(cells);
    for (int k = 0; k < cells; k++) {
        placed[order_[k]] = 1;
        for (size_t li = 0; li < lines.size(); li++) {
            bool has = false, full = true;
            for (int c : lines[li]) {
                if (c == order_[k]) has = true;
                if (!placed[c]) full = false;
            }
            if (has && full) complete_at[k].push_back((int)li);
        }
    }
    grid.assign(cells, 0);
    place(0);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%d%c", grid[r * n + c], c + 1 < n ? ' ' : '\n');
}
