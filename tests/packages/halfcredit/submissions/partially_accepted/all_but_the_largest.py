# Wrong for n = 10^9 only: group 1 (40), and half of group 2 (30).
n = int(input())
print(2 * n if n < 10**9 else 0)
