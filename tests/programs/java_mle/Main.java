public class Main {
    public static void main(String[] args) {
        // One 1 GiB array: far above -Xmx (= the memory limit), so the JVM throws
        // OutOfMemoryError before the memory cgroup has anything to kill.
        long[] big = new long[1 << 27];
        big[big.length - 1] = 1;
        System.out.println(big[big.length - 1]);
    }
}
