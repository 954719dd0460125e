"""Custom grader (problemtools' protocol): the group's children as `VERDICT SCORE` lines on
standard input, its points as the argument (grader_flags). Full points when every child is
accepted, half when at least half are, else 0 with the first rejected child's verdict."""
import sys

points = float(sys.argv[1])
results = [line.split() for line in sys.stdin if line.strip()]
accepted = sum(1 for verdict, _ in results if verdict == "AC")
if accepted == len(results):
    print(f"AC {points}")
elif 2 * accepted >= len(results):
    print(f"AC {points / 2}")
else:
    print(next(verdict for verdict, _ in results if verdict != "AC"), 0)
