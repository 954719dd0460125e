"""Output validator: validate.py input answer feedback_dir < output. Exit 42 accepted, 43 wrong."""
import sys

input_file, answer_file, feedback_dir = sys.argv[1:4]

def wrong(why):
    with open(feedback_dir + "judgemessage.txt", "a") as f:
        f.write(why + "\n")
    sys.exit(43)

with open(input_file) as f:
    n, t = map(int, f.readline().split())
    a = list(map(int, f.readline().split()))
tokens = sys.stdin.read().split()
if len(tokens) != 2:
    wrong(f"expected two positions, got {len(tokens)} tokens")
try:
    i, j = int(tokens[0]), int(tokens[1])
except ValueError:
    wrong("positions must be integers")
if not 1 <= i < j <= n:
    wrong(f"need 1 <= i < j <= {n}, got {i} {j}")
if a[i - 1] + a[j - 1] != t:
    wrong(f"a[{i}] + a[{j}] = {a[i - 1] + a[j - 1]}, not {t}")
sys.exit(42)
