"""The build: the generated module compiled by Cython and the C compiler into a cache
keyed by content, and the caches that let a command skip the front end.

It sits above the pipeline and imports it; nothing else in the compiler imports it.
"""
