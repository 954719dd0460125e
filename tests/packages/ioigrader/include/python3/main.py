# The grader: reads the input and calls the contestant's `plus` from their module `plus.py`
# (problemtools takes an included main.* as the entry point, the submission beside it).
from plus import plus

a, b = map(int, input().split())
print(plus(a, b))
