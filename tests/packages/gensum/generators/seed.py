# seed.py SEED: one number, the seed modulo 1000; the seed itself goes to testcase.yaml (the
# tests compare it with BAPCtools' derivation).
import sys

seed = int(sys.argv[1])
print(1)
print(seed % 1000)
with open("testcase.yaml", "w") as f:
    f.write(f"description: seed {seed}\n")
