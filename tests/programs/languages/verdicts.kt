// The first line of the input says what to do: ac, re, tle or mle.
fun main() {
    when (readLine()?.trim()) {
        "ac" -> println("ok")
        "re" -> throw IllegalStateException("contestant bug")
        "tle" -> {
            var x = 0L
            while (x >= 0) x++
            println(x)
        }
        "mle" -> {
            // 1 GiB: far above -Xmx (the memory limit).
            val big = LongArray(1 shl 27)
            big[big.size - 1] = 1
            println(big[big.size - 1])
        }
    }
}
