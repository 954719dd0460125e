#include <cstdio>

// Sums in a 32-bit int: right on the sample and small tests, wrong once the sum passes
// 2^31 - 1 (secret/03-max).
int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    int sum = 0;
    for (int i = 0; i < n; i++) {
        int a;
        if (std::scanf("%d", &a) != 1) return 1;
        sum += a;
    }
    std::printf("%d\n", sum);
    return 0;
}
