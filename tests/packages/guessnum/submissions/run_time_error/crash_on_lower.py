# Binary search that crashes when told to go lower.
lo, hi = 1, 1000
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    reply = input()
    if reply == "correct":
        break
    if reply == "lower":
        raise RuntimeError("did not expect to go lower")
    lo = mid + 1
