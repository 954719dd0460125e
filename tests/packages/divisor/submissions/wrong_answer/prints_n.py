# n divides n, but it is not a proper divisor.
n = int(input())
d = 2
while d * d <= n and n % d:
    d += 1
print(d if d * d <= n and n % 2 == 0 else n)
