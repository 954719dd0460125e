public class Plus {
    public static long plus(long a, long b) {
        return a + b;
    }
}
