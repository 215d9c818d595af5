"""The front end: the rules files parsed, their symbols collected, their quotes found in
the rulebook, and the program checked and lowered to the IR.

It imports the IR it produces (and `common`), never the back end or the build.
"""
