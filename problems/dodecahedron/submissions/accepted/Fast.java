// Accepted: parity check, identical tiles merged into types (up to rotation), the rarest-marked
// type fixed on face 1 in rotation 0 (symmetry), then a most-constrained-face-first search; a
// face's known edges form a base-4 pattern (3 = unknown) indexing a long bitmask of the
// (type, rotation) entries that fit.
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;

public class Fast {
    static final int[][] NB = {
        {2, 3, 4, 5, 6}, {1, 6, 7, 11, 3}, {1, 2, 11, 10, 4}, {1, 3, 10, 9, 5},
        {1, 4, 9, 8, 6}, {1, 5, 8, 7, 2}, {8, 12, 11, 2, 6}, {9, 12, 7, 6, 5},
        {10, 12, 8, 5, 4}, {11, 12, 9, 4, 3}, {7, 12, 10, 3, 2}, {7, 8, 9, 10, 11}};

    static int[][] nb = new int[12][5], eid = new int[12][5], tile = new int[12][5];
    static int ntypes;
    static int[] typeCount = new int[12], typeRep = new int[12], tileType = new int[12];
    static long[] typeMask = new long[12], compat = new long[1024];
    static int nent;
    static int[] entType = new int[64];
    static int[][] entSeq = new int[64][5];
    static int[] edgeMark = new int[30], faceEnt = new int[12];
    static long avail;

    static int pattern(int f) {
        int p = 0;
        for (int j = 4; j >= 0; j--) {
            int m = edgeMark[eid[f][j]];
            p = p * 4 + (m < 0 ? 3 : m);
        }
        return p;
    }

    static boolean dfs(int placed) {
        if (placed == 12) return true;
        int best = -1, bestCnt = 99;
        long bestOpts = 0;
        for (int f = 0; f < 12; f++) {
            if (faceEnt[f] >= 0) continue;
            long o = compat[pattern(f)] & avail;
            int c = Long.bitCount(o);
            if (c == 0) return false;
            if (c < bestCnt) {
                bestCnt = c;
                best = f;
                bestOpts = o;
            }
        }
        int f = best;
        int[] fresh = new int[5];
        int nf = 0;
        for (int j = 0; j < 5; j++) if (edgeMark[eid[f][j]] < 0) fresh[nf++] = j;
        for (long o = bestOpts; o != 0; o &= o - 1) {
            int e = Long.numberOfTrailingZeros(o), t = entType[e];
            for (int q = 0; q < nf; q++) edgeMark[eid[f][fresh[q]]] = entSeq[e][fresh[q]];
            if (--typeCount[t] == 0) avail &= ~typeMask[t];
            faceEnt[f] = e;
            if (dfs(placed + 1)) return true;
            faceEnt[f] = -1;
            if (typeCount[t]++ == 0) avail |= typeMask[t];
        }
        for (int q = 0; q < nf; q++) edgeMark[eid[f][fresh[q]]] = -1;
        return false;
    }

    static int code(int[] s, int r) {
        int c = 0;
        for (int j = 0; j < 5; j++) c = c * 3 + s[(j + r) % 5];
        return c;
    }

    /** Next whitespace-separated non-negative integer of the input, or -1 at its end. */
    static int next(InputStream in) throws IOException {
        int b = in.read();
        while (b != -1 && (b < '0' || b > '9')) b = in.read();
        if (b == -1) return -1;
        int x = 0;
        while (b >= '0' && b <= '9') {
            x = x * 10 + (b - '0');
            b = in.read();
        }
        return x;
    }

    public static void main(String[] args) throws IOException {
        InputStream in = new DataInputStream(new java.io.BufferedInputStream(System.in, 1 << 12));
        for (int i = 0; i < 12; i++) for (int j = 0; j < 5; j++) nb[i][j] = NB[i][j] - 1;
        int ne = 0;
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 5; j++) {
                int g = nb[i][j];
                if (g < i) continue;
                eid[i][j] = ne;
                for (int k = 0; k < 5; k++) if (nb[g][k] == i) eid[g][k] = ne;
                ne++;
            }
        int[] cnt = new int[3];
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 5; j++) {
                tile[i][j] = next(in);
                cnt[tile[i][j]]++;
            }
        if (cnt[0] % 2 != 0 || cnt[1] % 2 != 0 || cnt[2] % 2 != 0) {
            System.out.println(-1);
            return;
        }
        int[] typeCode = new int[12];
        for (int i = 0; i < 12; i++) {
            int best = Integer.MAX_VALUE;
            for (int r = 0; r < 5; r++) best = Math.min(best, code(tile[i], r));
            int t = 0;
            while (t < ntypes && typeCode[t] != best) t++;
            if (t == ntypes) {
                typeCode[t] = best;
                typeRep[t] = i;
                ntypes++;
            }
            typeCount[t]++;
            tileType[i] = t;
        }
        // Entries: distinct rotations k of each type; edge j of the face gets rep[(j - k) mod 5].
        for (int t = 0; t < ntypes; t++) {
            int[] s = tile[typeRep[t]];
            for (int k = 0; k < 5; k++) {
                boolean dup = false;
                for (int e = 0; e < nent && !dup; e++) {
                    boolean same = entType[e] == t;
                    for (int j = 0; j < 5 && same; j++) same = entSeq[e][j] == s[(j - k + 5) % 5];
                    dup = same;
                }
                if (dup) continue;
                entType[nent] = t;
                for (int j = 0; j < 5; j++) entSeq[nent][j] = s[(j - k + 5) % 5];
                typeMask[t] |= 1L << nent;
                nent++;
            }
            avail |= typeMask[t];
        }
        for (int p = 0; p < 1024; p++)
            for (int e = 0; e < nent; e++) {
                boolean ok = true;
                for (int j = 0; j < 5; j++) {
                    int v = (p >> (2 * j)) & 3;
                    if (v != 3 && v != entSeq[e][j]) ok = false;
                }
                if (ok) compat[p] |= 1L << e;
            }
        java.util.Arrays.fill(edgeMark, -1);
        java.util.Arrays.fill(faceEnt, -1);
        // Symmetry: the type with the rarest marks (per copy) goes on face 1 in rotation 0.
        int t0 = 0;
        double bestScore = -1;
        for (int t = 0; t < ntypes; t++) {
            double sc = 0;
            for (int j = 0; j < 5; j++) sc += 1.0 / cnt[tile[typeRep[t]][j]];
            sc /= typeCount[t];
            if (sc > bestScore) {
                bestScore = sc;
                t0 = t;
            }
        }
        int e0 = Long.numberOfTrailingZeros(typeMask[t0]);
        faceEnt[0] = e0;
        for (int j = 0; j < 5; j++) edgeMark[eid[0][j]] = entSeq[e0][j];
        if (--typeCount[t0] == 0) avail &= ~typeMask[t0];
        if (!dfs(1)) {
            System.out.println(-1);
            return;
        }
        boolean[] used = new boolean[12];
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < 12; f++) {
            int e = faceEnt[f], ti = 0;
            while (used[ti] || tileType[ti] != entType[e]) ti++;
            used[ti] = true;
            for (int k = 0; k < 5; k++) {
                boolean ok = true;
                for (int j = 0; j < 5; j++) ok &= tile[ti][(j - k + 5) % 5] == entSeq[e][j];
                if (ok) {
                    sb.append(ti + 1).append(' ').append(nb[f][k] + 1).append('\n');
                    break;
                }
            }
        }
        System.out.print(sb);
    }
}
