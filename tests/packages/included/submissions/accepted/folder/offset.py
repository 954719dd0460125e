# Replaced by include/python3/offset.py, as the package format says.
OFFSET = 0
