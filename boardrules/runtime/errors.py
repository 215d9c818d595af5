"""Where in the rules an error happened, from the traceback of a game of either backend.

Every generated module maps its functions to their origin in the rules files
(`FUNCTION_ORIGINS`: "proc rent_of at classic.rules:236"). The interpreted
backend's frames and the tracebacks Cython records for compiled functions both
carry the function's name, so the innermost one that the traceback passes
through is the rule, procedure, decision or aggregate that failed. Nothing is
tracked while a game runs.
"""

from __future__ import annotations

from types import ModuleType


def rules_location(module: ModuleType, exc: BaseException) -> str:
    """'proc x at file.rules:12' for the innermost rules function in the traceback, or ''."""
    origins: dict[str, str] = getattr(module, "FUNCTION_ORIGINS", {})
    found = ""
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_name.rsplit(".", 1)[-1].removeprefix("body_")
        found = origins.get(name, found)
        tb = tb.tb_next
    return found
