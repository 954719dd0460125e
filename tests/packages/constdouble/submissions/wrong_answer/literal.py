# Prints `{{MAX}}` as it is: submissions are not substituted.
input()
print("{{MAX}}")
