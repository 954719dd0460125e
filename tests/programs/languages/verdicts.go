// The first line of the input says what to do: ac, re, tle or mle.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	switch strings.TrimSpace(line) {
	case "ac":
		fmt.Println("ok")
	case "re":
		var empty []int
		fmt.Println(empty[len(line)])
	case "tle":
		x := 0
		for x >= 0 {
			x++
		}
		fmt.Println(x)
	case "mle":
		var keep [][]byte
		for {
			block := make([]byte, 1<<20)
			for i := 0; i < len(block); i += 4096 {
				block[i] = 1
			}
			keep = append(keep, block)
		}
	}
}
