from offset import OFFSET

print(int(input()) + OFFSET)
