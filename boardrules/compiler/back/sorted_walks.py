"""Ordered walks (`for x in D by KEY [desc]`): what code generation needs to write one.

The members that pass the loop's filter, and their keys, go into two C arrays local to
the function (each call has its own, so that a procedure that calls itself inside a walk
keeps its own; each walk has its own, named after its place), sized when compiling: a
range's bounds are constants (the checker asks for them), the players at most the
kernel's capacity. The members are then sorted by key, ascending or descending, ties by
member (the domain's order), by `order_members` (runtime/kernel_support.py): one piece of
code for both backends, and one possible result, since no two members compare equal. The
walk over the sorted members runs the body. First_of and best's ties need no arrays: the
checker lowers them to `best` of a rank (front/expressions.py).
"""

from __future__ import annotations

from ..front.expressions import fold
from ..front.statements import ORDER_LIMIT
from ..ir import nodes as ir
from ..ir.optimize.walk import walk_stmts


def ordered(s: ir.Stmt) -> bool:
    """Whether a statement is an ordered walk."""
    return isinstance(s, ir.Loop) and s.order is not None


def capacity(domain: ir.Domain, players: int) -> int:
    """How many members an ordered walk of the domain may take: its arrays' size."""
    if domain.kind == "players":
        return players
    low, high = fold(domain.low), fold(domain.high)
    if low is None or high is None:  # the checker reports it (statements.py)
        raise AssertionError("an ordered walk of a range with bounds not constant")
    return max(1, min(high - low, ORDER_LIMIT))


def site(loop: ir.Loop) -> str:
    """The name an ordered walk's locals share: its variable and its place in the rules,
    so that a walk nested in another by the same name has arrays of its own."""
    return f"{loop.var}_{loop.span.line}_{loop.span.column}"


def ordered_locals(body: tuple[ir.Stmt, ...], players: int) -> list[tuple[str, int]]:
    """The sites of a body's ordered walks and their arrays' sizes, once each."""
    return sorted({site(s): capacity(s.domain, players) for s in walk_stmts(body) if ordered(s)
                   }.items())
