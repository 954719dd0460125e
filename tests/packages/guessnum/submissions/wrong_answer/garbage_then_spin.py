# Answers with something that is not a number, then computes forever without reading: the
# validator rejects at once, which decides the verdict (WA); judge stops the run there rather
# than at the time limit.
print("pass", flush=True)
while True:
    pass
