// The first line of the input says what to do: ac, re, tle or mle.
using System;
using System.Collections.Generic;

public class Verdicts {
    public static void Main() {
        string mode = (Console.ReadLine() ?? "").Trim();
        if (mode == "ac") {
            Console.WriteLine("ok");
        } else if (mode == "re") {
            throw new InvalidOperationException("contestant bug");
        } else if (mode == "tle") {
            long x = 0;
            while (x >= 0) x++;
            Console.WriteLine(x);
        } else if (mode == "mle") {
            var keep = new List<byte[]>();
            while (true) {
                var block = new byte[1 << 20];
                for (int i = 0; i < block.Length; i += 4096) block[i] = 1;
                keep.Add(block);
            }
        }
    }
}
