# Reads the numbers as one list including n: crashes when the lines are not what it assumed.
import sys
data = sys.stdin.read().split()
n = int(data[0])
values = [int(x) for x in data[1:]]
assert len(values) == n and n < 1000, "unexpected input"
print(sum(values) / n)
