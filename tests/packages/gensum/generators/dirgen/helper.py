def line(x):
    return str(-x)
