#include <cstdio>
// A fixed buffer of 1000 numbers: writes far past it on the large group.
int main() {
    int n; long long t;
    if (std::scanf("%d %lld", &n, &t) != 2) return 1;
    static long long a[1000];
    for (int i = 0; i < n; i++) std::scanf("%lld", &a[i * 4096]);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[i * 4096] + a[j * 4096] == t) { std::printf("%d %d\n", i + 1, j + 1); return 0; }
    return 0;
}
