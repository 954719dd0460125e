while True:
    print("2 7 6 9 5 1 4 3 8" * 10)
