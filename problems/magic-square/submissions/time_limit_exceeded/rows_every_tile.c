/* TOO SLOW: a rows-first search whose free cells try every unused tile, not every distinct
 * value, so equal numbers are tried again and again
 * Each row's last cell is forced by the row sum, the last row by the column sums; the corners
 * break the square's eight symmetries (top left the least, top right at most bottom left), the
 * anti-diagonal is checked when its last cell is placed, the main diagonal at the end. The
 * symmetry breaking halves its time on repeated-values-unmerged (found for no_merge.cpp) to
 * about 3 s; on the same numbers negated (repeated-values-negated, hunted for this program)
 * the corners prune less and it needs over 5 s. */
#include <stdio.h>

typedef long long ll;
static int n, m;
static ll a[16], cell[16], s;
static int used[16];

static int take(ll v) {
    for (int i = 0; i < m; i++)
        if (!used[i] && a[i] == v) {
            used[i] = 1;
            return i;
        }
    return -1;
}

static int corner_ok(int k) {
    if (k == n - 1) return cell[k] >= cell[0];
    if (k == m - n) return cell[k] >= cell[n - 1];
    if (k == m - 1) return cell[k] >= cell[0];
    return 1;
}

static int place(int k) {
    if (k == m) {
        ll d = 0;
        for (int i = 0; i < n; i++) d += cell[i * n + i];
        return d == s;
    }
    int r = k / n, c = k % n;
    if (r == n - 1 || c == n - 1) {
        ll v = s;
        if (r == n - 1)
            for (int i = 0; i < n - 1; i++) v -= cell[i * n + c];
        else
            for (int j = 0; j < n - 1; j++) v -= cell[r * n + j];
        if (r == n - 1 && c == n - 1) {
            ll row = 0;
            for (int j = 0; j < n - 1; j++) row += cell[r * n + j];
            if (row + v != s) return 0;
        }
        cell[k] = v;
        if (!corner_ok(k)) return 0;
        int i = take(v);
        if (i < 0) return 0;
        if (r == n - 1 && c == 0) {
            ll d = 0;
            for (int j = 0; j < n; j++) d += cell[j * n + n - 1 - j];
            if (d != s) {
                used[i] = 0;
                return 0;
            }
        }
        if (place(k + 1)) return 1;
        used[i] = 0;
        return 0;
    }
    for (int i = 0; i < m; i++) {
        if (used[i]) continue;
        used[i] = 1;
        cell[k] = a[i];
        if (corner_ok(k) && place(k + 1)) return 1;
        used[i] = 0;
    }
    return 0;
}

int main(void) {
    if (scanf("%d", &n) != 1) return 0;
    m = n * n;
    ll total = 0;
    for (int i = 0; i < m; i++) {
        if (scanf("%lld", &a[i]) != 1) return 0;
        total += a[i];
    }
    s = total / n;
    place(0);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%lld%c", cell[r * n + c], c == n - 1 ? '\n' : ' ');
    return 0;
}
