// The grader: calls the contestant's class `Plus` (compiled with it, from their Plus.java).
import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long a = in.nextLong(), b = in.nextLong();
        System.out.println(Plus.plus(a, b));
    }
}
