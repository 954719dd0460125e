/* Row partition first: split the numbers into N disjoint groups that each sum to S (the
 * rows), then pick an order of the rows (up to the square's symmetries) and an order inside
 * each row; the last row is forced by the column sums, then the diagonals are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long long ll;

static int n, cells;
static ll a[16], S;
static int rows[4][4];   /* indices into a[] of the chosen row groups */
static ll grid[4][4];

static int perms[24][4], nperm;

static void make_perms(void) {
    int p[4];
    for (int i = 0; i < 4; i++) p[i] = i;
    /* all permutations of 0..n-1 in lexicographic order */
    for (;;) {
        memcpy(perms[nperm++], p, sizeof p);
        int i = n - 2;
        while (i >= 0 && p[i] > p[i + 1]) i--;
        if (i < 0) break;
        int j = n - 1;
        while (p[j] < p[i]) j--;
        int t = p[i]; p[i] = p[j]; p[j] = t;
        for (int l = i + 1, r = n - 1; l < r; l++, r--) t = p[l], p[l] = p[r], p[r] = t;
    }
}

static int diagonals_ok(void) {
    ll d1 = 0, d2 = 0;
    for (int i = 0; i < n; i++) d1 += grid[i][i], d2 += grid[i][n - 1 - i];
    return d1 == S && d2 == S;
}

/* Orders the rows rows[ro[0]], ..., rows[ro[n-1]] internally; row r < n-1 is free. */
static int arrange(const int *ro, int r) {
    if (r == n - 1) {
        /* The last row must supply S - column sum in every column, as a permutation. */
        int used[4] = {0};
        for (int c = 0; c < n; c++) {
            ll need = S;
            for (int i = 0; i < r; i++) need -= grid[i][c];
            int found = -1;
            for (int k = 0; k < n; k++)
                if (!used[k] && a[rows[ro[r]][k]] == need) { found = k; break; }
            if (found < 0) return 0;
            used[found] = 1;
            grid[r][c] = need;
        }
        return diagonals_ok();
    }
    for (int p = 0; p < nperm; p++) {
        for (int c = 0; c < n; c++) grid[r][c] = a[rows[ro[r]][perms[p][c]]];
        if (arrange(ro, r + 1)) return 1;
    }
    return 0;
}

static int try_rows(void) {
    if (n == 3) {
        /* Any row order: the middle row holds the centre; try all 6. */
        for (int p = 0; p < nperm; p++)
            if (arrange(perms[p], 0)) return 1;
        return 0;
    }
    /* Swapping rows 1,2 (or 0,3, or the pairs {0,3} and {1,2}) together with the same
     * columns keeps a square magic, so only the pairing of rows into outer/inner matters. */
    static const int ro[3][4] = {{0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};
    for (int i = 0; i < 3; i++)
        if (arrange(ro[i], 0)) return 1;
    return 0;
}

/* Fills rows[r..] from the unused indices; the lowest unused index starts each row. */
static int used_idx[16];
static int partition(int r);

static int pick(int r, int m, int start, ll sum) {
    if (m == n) return sum == S && partition(r + 1);
    for (int j = start; j < cells; j++) {
        if (used_idx[j]) continue;
        /* among equal unused values only the first one is tried at this level */
        int dup = 0;
        for (int k = start; k < j; k++)
            if (!used_idx[k] && a[k] == a[j]) { dup = 1; break; }
        if (dup) continue;
        used_idx[j] = 1;
        rows[r][m] = j;
        if (pick(r, m + 1, j + 1, sum + a[j])) return 1;
        used_idx[j] = 0;
    }
    return 0;
}

static int partition(int r) {
    if (r == n) return try_rows();
    int first = 0;
    while (used_idx[first]) first++;
    used_idx[first] = 1;
    rows[r][0] = first;
    if (pick(r, 1, first + 1, a[first])) return 1;
    used_idx[first] = 0;
    return 0;
}

int main(void) {
    if (scanf("%d", &n) != 1) return 0;
    cells = n * n;
    ll total = 0;
    for (int i = 0; i < cells; i++) {
        if (scanf("%lld", &a[i]) != 1) return 0;
        total += a[i];
    }
    S = total / n;
    make_perms();
    partition(0);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) printf("%lld%c", grid[r][c], c + 1 < n ? ' ' : '\n');
    return 0;
}
