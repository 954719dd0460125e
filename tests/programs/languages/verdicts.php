<?php
// The first line of the input says what to do: ac, re, tle or mle.
$mode = trim(fgets(STDIN));
if ($mode === "ac") {
    echo "ok\n";
} elseif ($mode === "re") {
    throw new Exception("contestant bug");
} elseif ($mode === "tle") {
    $x = 0;
    while ($x >= 0) {
        $x++;
    }
} elseif ($mode === "mle") {
    $keep = [];
    while (true) {
        $keep[] = str_repeat("x", 1 << 20);
    }
}
