"""The compiler: parse -> AST -> checks -> IR -> codegen (Jinja2) -> build (Cython).

Its stages are subpackages that import in one direction: `common` <- `ir` <- `front`
<- `back` <- the pipeline (`pipeline.py`, `library_check.py`, `param_settings.py`)
<- `build` and `mutation`. `boardrules.compiler.pipeline` lists the passes in order.
"""
