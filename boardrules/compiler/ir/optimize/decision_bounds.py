"""A number decision's upper bound read again in its default: worked out once.

`decision wish_to_buy(...) -> int from least to buildings_wanted(p, what)` whose default
is `max(least, min(buildings_wanted(p, what), ...))` asks the same question twice: once
for the range every answer is checked against, once for the default answer. The decision
works its bounds out first, and nothing between the bound and the default changes the
game (the default policy's answer is pure, or the decision could not be asked lazily), so
when the bound is pure (one that raises raises before the default is reached) the
default reads the value already worked out: a hoisted value, computed between the lower
bound and the upper one, where the bound was computed before.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import map_expr, walk_expr


def share_decision_bounds(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    return dataclasses.replace(program, decisions=tuple(_shared(d, fx)
                                                        for d in program.decisions))


def _shared(d: ir.Decision, fx: Effects) -> ir.Decision:
    high = d.high
    if d.kind != "int" or high is None or d.hoisted or not _worth_sharing(high, fx) \
            or not any(n == high for n in walk_expr(d.default)):
        return d
    kept = ir.Hoisted(high.type, f"{d.name}_high")
    default = map_expr(d.default, lambda n: kept if n == high else n)
    return dataclasses.replace(d, high=kept, default=default, hoisted=((kept.name, high),))


def _worth_sharing(e: ir.Expr, fx: Effects) -> bool:
    """A question (a procedure's or an aggregate's) that changes nothing: asked once, it
    gives the answer a second asking would."""
    return any(isinstance(n, ir.CallProc) for n in walk_expr(e)) and fx.expr_is_pure(e)
