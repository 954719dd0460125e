input()
print(2)
