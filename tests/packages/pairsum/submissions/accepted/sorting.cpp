#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
    int n; long long t;
    if (std::scanf("%d %lld", &n, &t) != 2) return 1;
    std::vector<std::pair<long long, int>> a(n);
    for (int i = 0; i < n; i++) { std::scanf("%lld", &a[i].first); a[i].second = i + 1; }
    std::sort(a.begin(), a.end());
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        long long s = a[lo].first + a[hi].first;
        if (s == t) {
            int i = std::min(a[lo].second, a[hi].second), j = std::max(a[lo].second, a[hi].second);
            std::printf("%d %d\n", i, j);
            return 0;
        }
        if (s < t) lo++; else hi--;
    }
    return 1;
}
