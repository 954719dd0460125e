# Tries every pair: fine for the small group, far too slow for n = 200000.
n, t = map(int, input().split())
a = list(map(int, input().split()))
for i in range(n):
    for j in range(i + 1, n):
        if a[i] + a[j] == t:
            print(i + 1, j + 1)
            raise SystemExit
