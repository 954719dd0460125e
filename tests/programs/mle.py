big = bytearray(1 << 30)
print(len(big))
