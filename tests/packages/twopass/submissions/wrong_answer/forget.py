# Right on the first pass, wrong on the second: it does not decode.
mode, value = input(), int(input())
print(value + 7 if mode == "encode" else value)
