"""Lazy decision legality.

A decision among entities enumerates every legal option (41 spaces, each
filtered by `can_build` and the like) so that a random or external policy can
pick one; the built-in default policy needs only its own answer. When the
filter and the domain are pure and safe, the generated code checks just the
default's answer against the filter and returns it, and enumerates the options
only when that answer is not legal (to fail, or to take the only option, exactly
as before), when tracing, or for the other policies and `legal_actions()`.

A number's default of the form `if C then low else none`, where C holds only if the
answer's upper bound is at least `low` (`p.cash - low >= 75` for a bid from low to p.cash),
is within the range or none by construction: the default policy returns it unchecked
(`default_legal`), as a default drawn from an entity decision's own options.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .cash_ranges import above
from .conjuncts import chain_of
from .effects import Effects
from .index import is_none_const


def lazy_decisions(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    def lazy(d: ir.Decision) -> bool:
        if d.kind != "entity":
            return True  # a range is checked by comparing the answer with its bounds
        return (d.domain is not None and fx.expr_is_clean(d.where)
                and fx.expr_is_clean(d.domain.low) and fx.expr_is_clean(d.domain.high))

    decisions = tuple(dataclasses.replace(d, lazy=lazy(d), default_legal=d.default_legal
                                          or _within_bounds(d, fx)) for d in program.decisions)
    # a lazy decision lists its options only where its default is not taken: its default
    # needs no walk of the list (option_defaults.py)
    unlisted = {d.options_default.function for d in decisions if d.lazy and d.options_default}
    return dataclasses.replace(
        program, aggregates=tuple(a for a in program.aggregates if a.name not in unlisted),
        decisions=tuple(dataclasses.replace(d, options_default=None) if d.lazy else d
                        for d in decisions))


def _within_bounds(d: ir.Decision, fx: Effects) -> bool:
    """`if C then low else none`, C holding only if low is at most high, and bounds that
    need not be worked out (pure and safe): the answer is in range or none."""
    e = d.default
    if d.kind != "int" or not d.optional or not isinstance(e, ir.Conditional) \
            or e.then != d.low or not is_none_const(e.otherwise) \
            or not (fx.expr_is_clean(d.low) and fx.expr_is_clean(d.high)):
        return False
    return any(_at_most(c, d.low, d.high) for c in chain_of(e.test, "and"))


def _at_most(c: ir.Expr, low: ir.Expr, high: ir.Expr) -> bool:
    """Whether `c` holds only if low <= high: `high - low >= k` or `high >= low + k` (k a
    constant at least 0), or `high >= low`."""
    if not (isinstance(c, ir.Binary) and c.op == ">="):
        return False
    if isinstance(c.left, ir.Binary) and c.left.op == "-":
        k = c.right
        return c.left.left == high and c.left.right == low and isinstance(k, ir.Const) \
            and isinstance(k.value, int) and k.value >= 0
    return c.left == high and above(c.right, low)
