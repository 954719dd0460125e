// TOO SLOW: a rows-first search that tries every unused tile in a free cell, not every distinct
// value, so equal numbers are tried again and again
// Each row's last cell is forced by the row sum and the last row by the column sums; the
// corners break the square's eight symmetries (top left the least, top right at most bottom
// left); the anti-diagonal is checked as soon as its last cell (bottom left) is placed, the main
// diagonal at the end. Fast on distinct numbers and on most repeated ones; with many copies of a
// few values and few squares (repeated-small-values, repeated-values-unmerged, -negated), the
// same partial squares are rebuilt from equal tiles over and over: 1.7 to 5 s.
import java.io.*;
import java.util.*;

public class RowsEveryTile {
    static int n, m;
    static long[] a, cell;
    static boolean[] used;
    static long s;

    // An unused tile holding v, taken; -1 if there is none.
    static int take(long v) {
        for (int i = 0; i < m; i++)
            if (!used[i] && a[i] == v) {
                used[i] = true;
                return i;
            }
        return -1;
    }

    // The eight symmetries of the square permute the corners: keep only the squares whose
    // top-left corner is the least and whose top-right one is at most the bottom-left one.
    static boolean canonical(int k) {
        if (k == n - 1) return cell[k] >= cell[0];
        if (k == m - n) return cell[k] >= cell[n - 1];
        if (k == m - 1) return cell[k] >= cell[0];
        return true;
    }

    static boolean place(int k) {
        if (k == m) {
            long d = 0;
            for (int i = 0; i < n; i++) d += cell[i * n + i];
            return d == s;
        }
        int r = k / n, c = k % n;
        if (r == n - 1 || c == n - 1) {
            long v = s;
            if (r == n - 1)
                for (int i = 0; i < n - 1; i++) v -= cell[i * n + c];
            else
                for (int j = 0; j < n - 1; j++) v -= cell[r * n + j];
            if (r == n - 1 && c == n - 1) {
                long row = 0;
                for (int j = 0; j < n - 1; j++) row += cell[r * n + j];
                if (row + v != s) return false;
            }
            if (k == n - 1 || k == m - n || k == m - 1) {
                cell[k] = v;
                if (!canonical(k)) return false;
            }
            int i = take(v);
            if (i < 0) return false;
            cell[k] = v;
            if (r == n - 1 && c == 0) {
                long d = 0;
                for (int j = 0; j < n; j++) d += cell[j * n + n - 1 - j];
                if (d != s) {
                    used[i] = false;
                    return false;
                }
            }
            if (place(k + 1)) return true;
            used[i] = false;
            return false;
        }
        for (int i = 0; i < m; i++) {
            if (used[i]) continue;
            used[i] = true;
            cell[k] = a[i];
            if (place(k + 1)) return true;
            used[i] = false;
        }
        return false;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        n = Integer.parseInt(in.readLine().trim());
        m = n * n;
        StringTokenizer st = new StringTokenizer(in.readLine());
        a = new long[m];
        cell = new long[m];
        used = new boolean[m];
        long total = 0;
        for (int i = 0; i < m; i++) {
            a[i] = Long.parseLong(st.nextToken());
            total += a[i];
        }
        s = total / n;
        place(0);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) out.append(cell[r * n + c]).append(c == n - 1 ? "\n" : " ");
        }
        System.out.print(out);
    }
}
