"""Test once, before a walk, the part of its filter that no candidate changes.

`best(0 for q in players where p.cash < 5 and q.cash >= 3 and not sale_pending)` tests
`p.cash < 5` for every q although no q changes it: when it is false, nothing passes. The
leading run of a filter's pure and safe conjuncts, those that do not read the candidate,
become the aggregate's *prechecks*, tested once before the walk (before its guard when they
read no hoisted value, else after those): when one is false, the aggregate gives what it
gives over no candidates, as the walk would have (each candidate failing the same test);
when all are true, the walk tests the rest. Only pure and safe conjuncts precede a
precheck in the filter, so not testing them first is unobservable. Not for `max_of` and
`min_of` (over nothing, a rules error the walk reports), a guard that keeps its members
(the walk fills the kept list), nor a walk whose bounds or loop guard may raise.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects
from .walk import domain_exprs, reads_local, walk_expr

# the kinds whose value over no candidates is a constant (aggregates.py.j2's `nothing`)
PRECHECKED_KINDS = frozenset({"count", "sum", "any", "all", "best"})


def invariant_prechecks(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    return dataclasses.replace(program, aggregates=tuple(_precheck(a, fx)
                                                         for a in program.aggregates))


def _precheck(a: ir.Aggregate, fx: Effects) -> ir.Aggregate:
    if a.where is None or a.kind not in PRECHECKED_KINDS or a.kept is not None \
            or a.counted is not None or a.domain.guarded \
            or not all(fx.expr_is_clean(e) for e in domain_exprs(a.domain)):
        return a  # (the walk's bounds and its loop guard may raise: they go first)
    conjuncts = chain_of(a.where, "and")
    invariant: list[ir.Expr] = []
    rest: list[ir.Expr] = []
    for position, c in enumerate(conjuncts):
        if not fx.expr_is_clean(c):  # it, and what follows it, stay in the walk
            rest += conjuncts[position:]
            break
        (rest if reads_local(c, a.var) else invariant).append(c)
    if not invariant:
        return a
    return dataclasses.replace(a, prechecks=tuple(invariant),
                               where=chained(rest, "and") if rest else None)


def reads_hoisted(e: ir.Expr) -> bool:
    """Whether a precheck reads a hoisted value (then it is tested after them)."""
    return any(isinstance(n, ir.Hoisted) for n in walk_expr(e))
