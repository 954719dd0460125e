// The first line of the input says what to do: ac, re, tle or mle.
object Verdicts {
  def main(args: Array[String]): Unit = {
    scala.io.StdIn.readLine().trim match {
      case "ac" => println("ok")
      case "re" => throw new IllegalStateException("contestant bug")
      case "tle" =>
        var x = 0L
        while (x >= 0) x += 1
        println(x)
      case "mle" =>
        // 1 GiB: far above -Xmx (the memory limit).
        val big = new Array[Long](1 << 27)
        big(big.length - 1) = 1
        println(big(big.length - 1))
      case _ =>
    }
  }
}
