# Guesses 1, 2, 3, ...: fine for small numbers, out of guesses for large ones.
g = 1
while True:
    print(g, flush=True)
    if input() == "correct":
        break
    g += 1
