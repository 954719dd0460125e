# Right on passes 1 and 2, wrong on pass 3.
p, v = map(int, input().split())
print(v + p if p < 3 else v, flush=True)
