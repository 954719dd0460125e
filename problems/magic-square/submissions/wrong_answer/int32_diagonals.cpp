// WRONG: computes a diagonal's forced cell in a 32-bit int (rows and columns use 64 bits), so a square whose diagonal sums to S - 2^32 passes
// Rows first, each distinct value tried once per free cell in ascending order; a cell closing a
// row or column is S minus the other three in 64 bits, but the cell closing a diagonal is
// stored in an int: when the true value is out of range, its wrapped value may be in the input.
#include <algorithm>
#include <cstdio>
#include <vector>

typedef long long ll;
int n;
ll S;
std::vector<ll> val;   // distinct values, ascending
std::vector<int> cnt;  // how many of each are left
ll cell[16];

int find(ll v) {
    int i = std::lower_bound(val.begin(), val.end(), v) - val.begin();
    return i < (int)val.size() && val[i] == v && cnt[i] > 0 ? i : -1;
}

// N = 4 plan: free cells try each distinct value left; other cells are forced by a line.
struct Step { int c, x, y, z; bool diagonal; };
const Step PLAN[16] = {
    {0, -1, 0, 0, 0},  {1, -1, 0, 0, 0},  {2, -1, 0, 0, 0},  {3, 0, 1, 2, 0},
    {4, -1, 0, 0, 0},  {5, -1, 0, 0, 0},  {6, -1, 0, 0, 0},  {7, 4, 5, 6, 0},
    {8, -1, 0, 0, 0},  {12, 0, 4, 8, 0},  {9, 3, 6, 12, 1},  {13, 1, 5, 9, 0},
    {10, -1, 0, 0, 0}, {11, 8, 9, 10, 0}, {15, 0, 5, 10, 1}, {14, 12, 13, 15, 0},
};

bool place(int k);

bool put(int k, int i) {
    cnt[i]--;
    cell[PLAN[k].c] = val[i];
    bool ok = place(k + 1);
    cnt[i]++;
    return ok;
}

bool place(int k) {
    if (k == 16)
        return cell[2] + cell[6] + cell[10] + cell[14] == S &&
               cell[3] + cell[7] + cell[11] + cell[15] == S;
    const Step &s = PLAN[k];
    if (s.x < 0) {
        for (int i = 0; i < (int)val.size(); i++)
            if (cnt[i] > 0 && put(k, i)) return true;
        return false;
    }
    int i;
    if (s.diagonal) {
        int need = S - cell[s.x] - cell[s.y] - cell[s.z];  // a cell value fits in an int
        i = find(need);
    } else {
        i = find(S - cell[s.x] - cell[s.y] - cell[s.z]);
    }
    return i >= 0 && put(k, i);
}

int main() {
    if (scanf("%d", &n) != 1) return 0;
    std::vector<ll> a(n * n);
    ll total = 0;
    for (ll &x : a) { scanf("%lld", &x); total += x; }
    S = total / n;
    std::vector<ll> s = a;
    std::sort(s.begin(), s.end());
    for (ll x : s) {
        if (val.empty() || val.back() != x) { val.push_back(x); cnt.push_back(0); }
        cnt.back()++;
    }
    if (n == 3) {
        // The centre is S / 3 and opposite cells sum to twice it: a corner and an edge fix all.
        ll c = S / 3, g[9];
        for (ll x : s)
            for (ll y : s) {
                g[4] = c; g[0] = x; g[1] = y; g[2] = S - x - y;
                g[8] = 2 * c - g[0]; g[7] = 2 * c - g[1]; g[6] = 2 * c - g[2];
                g[3] = S - g[0] - g[6]; g[5] = 2 * c - g[3];
                std::vector<ll> h(g, g + 9);
                std::sort(h.begin(), h.end());
                if (h == s && 3 * c == S) {
                    for (int r = 0; r < 3; r++) printf("%lld %lld %lld\n", g[3 * r], g[3 * r + 1], g[3 * r + 2]);
                    return 0;
                }
            }
        return 0;
    }
    if (place(0))
        for (int r = 0; r < 4; r++)
            printf("%lld %lld %lld %lld\n", cell[4 * r], cell[4 * r + 1], cell[4 * r + 2], cell[4 * r + 3]);
}
