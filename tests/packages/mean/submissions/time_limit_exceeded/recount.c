#include <stdio.h>
/* Recomputes the sum n^3 times over: fast on the small tests, far too slow on n = 1000
   (secret/03-big). The last round (r = 0) sums the numbers themselves. */
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long a[1000], sum = 0;
    for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
    for (long long r = (long long)n * n * n; r >= 0; r--) {
        sum = 0;
        for (int i = 0; i < n; i++) sum += a[i] ^ (r & 1);
    }
    printf("%.9f\n", (double)sum / n);
    return 0;
}
