import sys
mode, value = input(), int(input())
if mode == "decode":
    sys.exit(3)
print(value + 7)
