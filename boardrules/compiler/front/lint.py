"""Pass `lint`: warnings about programs that work but are probably not what was meant.

Each check has a name, shown with its warning (`[unused-procedure]`), and a rules
file silences a check for its own definitions with a line

    # boardrules: allow unused-procedure

anywhere in it (several names may follow, separated by commas or spaces). Only the
edition's own definitions are linted: a library's may serve other editions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..common.diagnostics import Reporter, Span, allowed
from .symbols import Symbols

Finding = tuple[Span, str]


def _unused(kind: str, what: str, verb: str) -> Callable[[Symbols, set[str]], Iterator[Finding]]:
    def check(symbols: Symbols, used: set[str]) -> Iterator[Finding]:
        table = {"proc": symbols.procs, "decision": symbols.decisions,
                 "param": symbols.params}[kind]
        for name, decl in table.items():
            if f"{kind}:{name}" not in used:
                yield decl.span, f"{what} '{name}' is never {verb}"
    return check


# name -> check(symbols, what the checker saw used) giving (span, message) findings
CHECKS: dict[str, Callable[[Symbols, set[str]], Iterator[Finding]]] = {
    "unused-procedure": _unused("proc", "procedure", "called"),
    "unused-decision": _unused("decision", "decision", "asked"),
    "unused-param": _unused("param", "param", "used"),
}


def lint(symbols: Symbols, used: set[str], texts: dict[str, str], reporter: Reporter) -> None:
    """Report every finding of every check on the edition's own file, unless it allows it."""
    if symbols.edition is None:
        return
    path = symbols.edition.span.path
    silenced = allowed(texts.get(path, ""))
    for name, check in CHECKS.items():
        if name in silenced:
            continue
        for span, message in check(symbols, used):
            if span.path == path:
                reporter.warning(span, message, code=name)
