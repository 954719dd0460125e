print("1 2 3\n4 5 6\n7 8 9")
