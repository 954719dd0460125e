# A generator given as a folder: main.py and its helper.
import sys

from helper import line

print(1)
print(line(int(sys.argv[1])))
