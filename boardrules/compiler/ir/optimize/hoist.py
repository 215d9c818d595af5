"""Hoist what an aggregate computes again for every candidate out of its loop.

`best(distance(p.position, s) for s in spaces where s.owner == p and worth(s) > floor(p))`
calls `floor(p)` for every space although nothing in the loop changes it. The largest
part of the filter or value that calls a procedure, does not depend on the loop variable
and is pure and safe is computed once, before the loop, into a hoisted value; identical
ones share it. The largest, so that a call made only on a condition keeps it: `if p.cash
>= reserve then none else sale_for(p)` is hoisted whole, and `sale_for(p)` is still asked
only when the cash is short. An aggregate changes no state while it scans, and a pure and
safe part computed once more (even for an empty domain) is unobservable. The same holds
for the walk of a decision's options under a pure filter (`where s: distance(p.position,
s) < distance(p.position, some(nearest(p)))` asks for p's nearest space of a kind once per
option otherwise).
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import map_children, reads_local, rewrite_top_down, walk_expr


def _hoisted(exprs: tuple[ir.Expr | None, ...], var: str, prefix: str, fx: Effects,
             eager: bool = False
             ) -> tuple[tuple[ir.Expr | None, ...], tuple[tuple[str, ir.Expr], ...]]:
    """The expressions with each largest pure and safe part that calls a procedure and does
    not read `var` replaced by a hoisted value (identical parts share one), and those values
    by name. The largest: `if p.cash >= reserve then none else sale_for(p)` is hoisted
    whole, so that the call is still made only when the cash is short. `eager`: one that
    may fail is worked out before the walk too (a word of bits, whose failure anywhere is
    the same -1: masks.py)."""
    hoisted: dict[ir.Expr, str] = {}

    def replace(e: ir.Expr) -> ir.Expr | None:
        calls = any(isinstance(n, ir.CallProc) for n in walk_expr(e))
        if reads_local(e, var) or not (calls or _chosen_by_game(e)) or not fx.expr_is_pure(e):
            return None
        name = hoisted.setdefault(e, f"{prefix}_{len(hoisted)}")
        return ir.Hoisted(e.type, name, lazy=not eager and not fx.expr_is_safe(e))

    rewritten = tuple(rewrite_top_down(e, replace) for e in exprs)
    return rewritten, tuple((name, e) for e, name in hoisted.items())


def _chosen_by_game(e: ir.Expr) -> bool:
    """A choice by the game's own state (`if short_game then 3 else 4`, a parameter that
    an option sets): the same for every candidate, tested again for each otherwise (the
    C compiler cannot know that nothing the walk calls writes the option)."""
    return isinstance(e, ir.Conditional) and any(
        isinstance(n, ir.State) and n.entity is None for n in walk_expr(e.test))


def _hoist(a: ir.Aggregate, fx: Effects) -> ir.Aggregate:
    (where, value), hoisted = _hoisted((a.where, a.value), a.var, a.name, fx,
                                       eager=a.kind == "mask")
    if not hoisted:
        return a
    return dataclasses.replace(a, where=where, value=value, hoisted=hoisted)


def _hoist_options(d: ir.Decision, fx: Effects) -> ir.Decision:
    """The walk of a decision's options (the random and external policies', a default
    that is not checked alone) with its filter's invariant calls computed before it."""
    walked = d.walk_where if d.walk else d.where
    if d.domain is None or walked is None or not fx.expr_is_pure(walked):
        return d
    (where,), hoisted = _hoisted((walked,), d.var, f"{d.name}_options", fx)
    if not hoisted:
        return d
    return dataclasses.replace(d, walk=d.walk or d.domain, walk_where=where, hoisted=hoisted)


def hoist_invariants(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    return dataclasses.replace(program, aggregates=tuple(_hoist(a, fx)
                                                         for a in program.aggregates))


def hoist_option_invariants(program: ir.Program, fx: Effects, reporter: Reporter
                            ) -> ir.Program:
    """The same for the walks of the decisions' options, once their index is chosen."""
    return dataclasses.replace(program, decisions=tuple(_hoist_options(d, fx)
                                                        for d in program.decisions))


def settle_lazy_reads(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """A lazily hoisted value read again where an earlier read of it has certainly run (in
    the branches of a conditional whose test read it, right of `and`/`or`) is read as it
    is: it was worked out there (inline-hoisted copies a variant's parameter to each of
    its uses). The last pass: no later one reorders what it relies on."""
    def settle(e: ir.Expr | None) -> ir.Expr | None:
        return None if e is None else _settled(e, frozenset())[0]

    return dataclasses.replace(program, aggregates=tuple(
        dataclasses.replace(a, where=settle(a.where), value=settle(a.value))
        for a in program.aggregates))


def _settled(e: ir.Expr, done: frozenset[str]) -> tuple[ir.Expr, frozenset[str]]:
    """e with its reads of lazy values that `done` holds, or that an earlier part of e
    certainly worked out, made plain; and what is certainly worked out after e."""
    if isinstance(e, ir.Hoisted) and e.lazy:
        return (dataclasses.replace(e, lazy=False) if e.name in done else e), done | {e.name}
    if isinstance(e, ir.Conditional):
        test, after = _settled(e.test, done)
        return dataclasses.replace(e, test=test, then=_settled(e.then, after)[0],
                                   otherwise=_settled(e.otherwise, after)[0]), after
    if isinstance(e, ir.Binary) and e.op in ("and", "or"):
        left, after = _settled(e.left, done)
        return dataclasses.replace(e, left=left, right=_settled(e.right, after)[0]), after
    # any other node: its parts may be evaluated in another order (order.py), so none
    # settles another's reads; after it, each of its parts has been worked out
    worked_out = [done]

    def part(child: ir.Expr) -> ir.Expr:
        settled, after = _settled(child, done)
        worked_out.append(after)
        return settled

    rebuilt = map_children(e, part)
    certain = isinstance(e, ir.Binary | ir.Unary)
    return rebuilt, frozenset().union(*worked_out) if certain else done
