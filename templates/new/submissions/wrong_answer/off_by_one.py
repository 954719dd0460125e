# Off by one: range(n - 1) skips the last number (WA on the sample already).
n = int(input())
a = list(map(int, input().split()))
total = 0
for i in range(n - 1):
    total += a[i]
print(total)
