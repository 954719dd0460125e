#include <cstdio>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    long long sum = 0;  // up to 1000 x 10^9: needs 64 bits
    for (int i = 0; i < n; i++) {
        long long a;
        if (std::scanf("%lld", &a) != 1) return 1;
        sum += a;
    }
    std::printf("%lld\n", sum);
    return 0;
}
