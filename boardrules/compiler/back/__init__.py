"""The back end: the IR rendered by the Jinja2 templates into one Cython pure-Python-mode
module, the kernel pasted at its top.

It imports the IR, `common` and the front end's tables of primitives, never the build.
"""
