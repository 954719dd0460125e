package main

func main() {
	var x int = "not a number"
}
