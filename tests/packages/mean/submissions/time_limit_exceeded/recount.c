#include <stdio.h>
/* Recomputes the sum a billion times over. */
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long a[1000], sum = 0;
    for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
    for (long long r = 0; r < 4000000000LL / n + 1; r++) {
        sum = 0;
        for (int i = 0; i < n; i++) sum += a[i] ^ (r & 1);
    }
    printf("%.9f\n", (double)sum / n);
    return 0;
}
