import sys
p, v = map(int, input().split())
if p == 3:
    sys.exit(3)
print(v + p, flush=True)
