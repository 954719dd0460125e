mode, value = input(), int(input())
print(value + 7 if mode == "encode" else value - 7)
