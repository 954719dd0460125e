def broken(
  1
