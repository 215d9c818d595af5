"""What every stage of the compiler shares: diagnostics and error codes, the files a user
names, the language's types, and the facts the compiler reads from the runtime kernel.

It imports no other part of the compiler, so each stage can use it.
"""
