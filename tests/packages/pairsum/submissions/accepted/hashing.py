n, t = map(int, input().split())
a = list(map(int, input().split()))
where = {}
for j, x in enumerate(a):
    if t - x in where:
        print(where[t - x] + 1, j + 1)
        break
    where.setdefault(x, j)
