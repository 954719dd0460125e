#include <stdio.h>
/* Tries every d up to n - 1. */
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    long long found = -1;
    for (long long d = n - 1; d >= 2; d--)
        if (n % d == 0) found = d;
    printf("%lld\n", found);
    return 0;
}
