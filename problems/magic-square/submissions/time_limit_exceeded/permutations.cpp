// WRONG: tries every arrangement with next_permutation: fine for 9! but hopeless for 16!
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;

int main() {
    int n;
    cin >> n;
    vector<ll> a(n * n);
    for (auto& x : a) cin >> x;
    ll s = accumulate(a.begin(), a.end(), 0LL) / n;
    sort(a.begin(), a.end());
    do {
        bool ok = true;
        ll d1 = 0, d2 = 0;
        for (int i = 0; i < n && ok; i++) {
            ll r = 0, c = 0;
            for (int j = 0; j < n; j++) r += a[i * n + j], c += a[j * n + i];
            ok = r == s && c == s;
            d1 += a[i * n + i];
            d2 += a[i * n + n - 1 - i];
        }
        if (ok && d1 == s && d2 == s) {
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) cout << a[i * n + j] << (j + 1 < n ? ' ' : '\n');
            return 0;
        }
    } while (next_permutation(a.begin(), a.end()));
}
