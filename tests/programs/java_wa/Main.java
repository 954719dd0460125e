public class Main {
    public static void main(String[] args) {
        // Rows are right, the columns are not: a wrong answer.
        System.out.print("2 7 6\n1 5 9\n4 3 8\n");
    }
}
