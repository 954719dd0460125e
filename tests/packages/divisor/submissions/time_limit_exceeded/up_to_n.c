#include <stdio.h>
/* Tries every d from 2 up to n - 1 (no square-root bound): fast when n has a small factor,
   far too slow on a large prime (secret/1-prime). */
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long d = 2; d < n; d++)
        if (n % d == 0) {
            printf("%lld\n", d);
            return 0;
        }
    printf("-1\n");
    return 0;
}
