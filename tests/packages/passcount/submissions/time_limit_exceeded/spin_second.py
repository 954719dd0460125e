# Never answers on pass 2.
p, v = map(int, input().split())
while p == 2:
    pass
print(v + p, flush=True)
