print(int(input()) + 6)
