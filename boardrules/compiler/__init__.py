"""The compiler: parse -> AST -> checks -> IR -> codegen (Jinja2) -> build (Cython).

`boardrules.compiler.pipeline` lists the passes in order.
"""
