public class Broken {
    public static void Main() {
        int x = "not a number";
    }
}
