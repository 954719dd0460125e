/* WRONG: handles N=3 only (centre = S/3, opposite cells sum to 2*centre); always prints a 3x3 square */
#include <stdio.h>

typedef long long ll;

int main(void) {
    int n;
    ll a[16], total = 0;
    if (scanf("%d", &n) != 1) return 0;
    for (int i = 0; i < n * n; i++) {
        if (scanf("%lld", &a[i]) != 1) return 0;
        total += a[i];
    }
    ll s = total / 3, c = s / 3;
    /* the other eight numbers: corners and edges */
    ll rest[8];
    int k = 0, centre_taken = 0;
    for (int i = 0; i < 9; i++) {
        if (!centre_taken && a[i] == c) centre_taken = 1;
        else if (k < 8) rest[k++] = a[i];
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            if (i == j) continue;
            ll g[3][3];
            g[0][0] = rest[i];
            g[0][1] = rest[j];
            g[0][2] = s - g[0][0] - g[0][1];
            g[1][1] = c;
            g[2][2] = 2 * c - g[0][0];
            g[2][1] = 2 * c - g[0][1];
            g[2][0] = 2 * c - g[0][2];
            g[1][0] = s - g[0][0] - g[2][0];
            g[1][2] = 2 * c - g[1][0];
            /* every cell must use one of the remaining numbers exactly once */
            int used[8] = {0}, ok = 1;
            for (int r = 0; r < 3 && ok; r++)
                for (int q = 0; q < 3 && ok; q++) {
                    if (r == 1 && q == 1) continue;
                    int f = -1;
                    for (int t = 0; t < 8; t++)
                        if (!used[t] && rest[t] == g[r][q]) { f = t; break; }
                    if (f < 0) ok = 0;
                    else used[f] = 1;
                }
            if (ok) {
                for (int r = 0; r < 3; r++) printf("%lld %lld %lld\n", g[r][0], g[r][1], g[r][2]);
                return 0;
            }
        }
    return 0;
}
