"""Hoist what an aggregate computes again for every candidate out of its loop.

`best(distance(p.position, s) for s in spaces where s.owner == p and worth(s) > floor(p))`
calls `floor(p)` for every space although nothing in the loop changes it. A call
that does not depend on the loop variable and is pure and safe is computed
once, before the loop, into a hoisted value; identical ones share it. An aggregate
changes no state while it scans, and a pure and safe call computed once more
(even for an empty domain) is unobservable.
"""

from __future__ import annotations

import dataclasses

from .. import ir
from ..diagnostics import Reporter
from .effects import Effects
from .walk import rewrite_top_down, walk_expr


def _hoist(a: ir.Aggregate, fx: Effects) -> ir.Aggregate:
    hoisted: dict[ir.Expr, str] = {}

    def replace(e: ir.Expr) -> ir.Expr | None:
        if not isinstance(e, ir.CallProc) or not fx.expr_is_clean(e) or any(
                isinstance(n, ir.Local) and n.name == a.var for n in walk_expr(e)):
            return None
        name = hoisted.setdefault(e, f"{a.name}_{len(hoisted)}")
        return ir.Hoisted(e.type, name)

    where = rewrite_top_down(a.where, replace)
    value = rewrite_top_down(a.value, replace)
    if not hoisted:
        return a
    return dataclasses.replace(a, where=where, value=value,
                               hoisted=tuple((name, e) for e, name in hoisted.items()))


def hoist_invariants(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    return dataclasses.replace(program, aggregates=tuple(_hoist(a, fx)
                                                         for a in program.aggregates))
