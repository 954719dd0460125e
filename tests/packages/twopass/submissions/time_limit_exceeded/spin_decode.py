# Fast on the first pass, never ends on the second.
mode, value = input(), int(input())
if mode == "decode":
    while True:
        pass
print(value + 7)
