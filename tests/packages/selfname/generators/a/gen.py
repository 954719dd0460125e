# Prints the name of the folder it runs from and its own file name.
import pathlib
import sys

me = pathlib.Path(sys.argv[0])
print(me.parent.name, pathlib.Path(__file__).name)
