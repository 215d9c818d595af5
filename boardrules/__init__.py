"""boardrules: a rules language for Monopoly-family editions, compiled to Cython."""

__version__ = "0.1.0"
