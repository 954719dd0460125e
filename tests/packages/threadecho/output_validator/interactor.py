#!/usr/bin/env python3
# Interactor that writes the number to the submission in a second thread while the main
# thread reads the reply: a jury program that starts a thread (as BAPCtools' own
# `pseudointeraction` test problem does).
import sys
import threading
from pathlib import Path

n = int(Path(sys.argv[1]).read_text())


def send():
    sys.stdout.write(f"{n}\n")
    sys.stdout.flush()


writer = threading.Thread(target=send)
writer.start()
reply = sys.stdin.readline().strip()
writer.join()
if reply != str(n):
    Path(sys.argv[3], "judgemessage.txt").write_text(f"expected {n}, got {reply!r}\n")
    sys.exit(43)
sys.exit(42)
