fun main() {
    val x: Int = "not a number"
    println(x)
}
