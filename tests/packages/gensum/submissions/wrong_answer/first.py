# Prints the first number only.
input()
print(input().split()[0])
