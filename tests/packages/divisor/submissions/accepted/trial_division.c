#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long d = 2; d * d <= n; d++)
        if (n % d == 0) { printf("%lld\n", d); return 0; }
    printf("-1\n");
    return 0;
}
