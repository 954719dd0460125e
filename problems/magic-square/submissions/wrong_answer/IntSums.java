// WRONG: line sums are accumulated in int (S itself is a long), so they overflow on large values
import java.io.*;
import java.util.*;

public class IntSums {
    static int n, cells;
    static long s;
    static long[] vals;
    static int[] cnt;
    static int[] order;
    static int[][] force;      // per step: the other cells of the line forcing it, or null
    static int[][][] checks;   // per step: other cells of further lines it completes
    static long[] grid;

    static int find(long v) {
        for (int i = 0; i < vals.length; i++) if (vals[i] == v) return cnt[i] > 0 ? i : -1;
        return -1;
    }

    static boolean tryValue(int k, int vi) {
        long v = vals[vi];
        for (int[] other : checks[k]) {
            int sum = (int) v;
            for (int c : other) sum += grid[c];
            if (sum != s) return false;
        }
        grid[order[k]] = v;
        cnt[vi]--;
        if (place(k + 1)) return true;
        cnt[vi]++;
        return false;
    }

    static boolean place(int k) {
        if (k == cells) return true;
        if (force[k] != null) {
            int rest = 0;
            for (int c : force[k]) rest += grid[c];
            int vi = find(s - rest);
            return vi >= 0 && tryValue(k, vi);
        }
        for (int vi = 0; vi < vals.length; vi++) if (cnt[vi] > 0 && tryValue(k, vi)) return true;
        return false;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = br.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        n = Integer.parseInt(st.nextToken());
        cells = n * n;
        long[] a = new long[cells];
        long total = 0;
        for (int i = 0; i < cells; i++) {
            a[i] = Long.parseLong(st.nextToken());
            total += a[i];
        }
        s = total / n;
        TreeMap<Long, Integer> m = new TreeMap<>();
        for (long x : a) m.merge(x, 1, Integer::sum);
        vals = new long[m.size()];
        cnt = new int[m.size()];
        int vi = 0;
        for (Map.Entry<Long, Integer> e : m.entrySet()) {
            vals[vi] = e.getKey();
            cnt[vi++] = e.getValue();
        }

        List<int[]> lines = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int[] row = new int[n], col = new int[n];
            for (int c = 0; c < n; c++) {
                row[c] = r * n + c;
                col[c] = c * n + r;
            }
            lines.add(row);
            lines.add(col);
        }
        int[] d1 = new int[n], d2 = new int[n];
        for (int i = 0; i < n; i++) {
            d1[i] = i * n + i;
            d2[i] = i * n + n - 1 - i;
        }
        lines.add(d1);
        lines.add(d2);
        int[][] ord = n == 3
            ? new int[][] {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}}
            : new int[][] {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {2, 2}, {3, 3}, {1, 2},
                           {2, 1}, {3, 0}, {1, 0}, {1, 3}, {2, 0}, {2, 3}, {3, 1}, {3, 2}};
        order = new int[cells];
        force = new int[cells][];
        checks = new int[cells][][];
        boolean[] placed = new boolean[cells];
        for (int k = 0; k < cells; k++) {
            int cell = ord[k][0] * n + ord[k][1];
            order[k] = cell;
            placed[cell] = true;
            List<int[]> done = new ArrayList<>();
            for (int[] l : lines) {
                boolean has = false, full = true;
                for (int c : l) {
                    if (c == cell) has = true;
                    if (!placed[c]) full = false;
                }
                if (has && full) {
                    int[] other = new int[n - 1];
                    int j = 0;
                    for (int c : l) if (c != cell) other[j++] = c;
                    done.add(other);
                }
            }
            force[k] = done.isEmpty() ? null : done.get(0);
            checks[k] = done.size() > 1 ? done.subList(1, done.size()).toArray(new int[0][]) : new int[0][];
        }
        grid = new long[cells];
        place(0);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (c > 0) out.append(' ');
                out.append(grid[r * n + c]);
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
