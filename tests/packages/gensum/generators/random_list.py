# random_list.py N SEED: N numbers from lib.numbers (a `generators:` entry with lib.py).
import sys

from lib import numbers

n, seed = int(sys.argv[1]), int(sys.argv[2])
print(n)
print(*numbers(n, seed))
