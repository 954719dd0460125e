import random


def numbers(n, seed):
    """n integers in [-1000, 1000] from a generator seeded with `seed`."""
    rng = random.Random(seed)
    return [rng.randint(-1000, 1000) for _ in range(n)]
