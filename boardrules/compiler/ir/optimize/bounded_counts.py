"""Bounded counts: a count that is only ever compared with constants stops counting early.

`count(q in players where wants_building(q, what)) < 2` needs to know whether two
players pass, not how many do: once the count reaches 2 the comparison's answer is
settled, and the walk need not test the remaining candidates (each test a memo lookup,
or a recompute). The pass finds the count aggregates every call of which, anywhere in
the program, is one side of a comparison with a constant, and marks each with the
smallest count at which every such comparison is decided (`Aggregate.limit`): the
generated walk returns as soon as its count reaches it. A count that reached the limit
compares with every one of those constants as the full count would: for `c < k` and
`c >= k` a count of k or more answers alike, for `c <= k`, `c > k`, `c == k` and
`c != k` one of k + 1 or more.

Only a pure and safe aggregate is bounded: one whose remaining tests could write state
or raise must run them all. A memo keeps the bounded value, which every caller compares
alike; a call from the test layer's scenarios (which lift aggregates of their own,
scenario_lowering.py) reads the count itself, and leaves it unbounded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import aggregate_nodes, body_exprs, map_program_exprs

# the count, on the left, at which each comparison with the constant k is decided
_DECIDED_AT = {"<": 0, ">=": 0, "<=": 1, ">": 1, "==": 1, "!=": 1}


def bound_counts(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Mark with a limit the count aggregates that only comparisons with constants call."""
    candidates = {a.name for a in program.aggregates
                  if a.kind == "count" and a.counted is None
                  and a.name not in fx.impure and a.name not in fx.unsafe}
    if not candidates:
        return program
    calls: dict[str, int] = {}
    compared: dict[str, int] = {}
    limits: dict[str, int] = {}

    def observe(e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.CallProc) and e.function in candidates:
            calls[e.function] = calls.get(e.function, 0) + 1
        elif isinstance(e, ir.Binary) and e.op in ir.COMPARISONS:
            decided = _decided_at(e)
            if decided is not None:
                name, limit = decided
                compared[name] = compared.get(name, 0) + 1
                limits[name] = max(limits.get(name, 0), limit)
        return e

    map_program_exprs(program, observe)
    for e in _test_layer_nodes(program):  # called there, a count is read as it is
        if isinstance(e, ir.CallProc) and e.function in candidates:
            calls[e.function] = calls.get(e.function, 0) + 1
    bounded = {name: limit for name, limit in limits.items()
               if compared[name] == calls.get(name) and limit > 0}
    if not bounded:
        return program
    return dataclasses.replace(program, aggregates=tuple(
        dataclasses.replace(a, limit=bounded[a.name]) if a.name in bounded else a
        for a in program.aggregates))


def _test_layer_nodes(program: ir.Program) -> Iterator[ir.Expr]:
    """Every node of the scenarios' functions and aggregates (which run in the test layer)."""
    for f in program.scenario_functions:
        yield from body_exprs(f.body)
    for a in program.scenario_aggregates:
        yield from aggregate_nodes(a)


def _decided_at(e: ir.Binary) -> tuple[str, int] | None:
    """(count aggregate, the count at which the comparison is decided) for a comparison of
    a count's call with an integer constant, either way round; None for any other."""
    op, call, constant = e.op, e.left, e.right
    if isinstance(call, ir.Const) and isinstance(constant, ir.CallProc):
        op, call, constant = ir.MIRRORED[op], constant, call
    if not (isinstance(call, ir.CallProc) and isinstance(constant, ir.Const)
            and isinstance(constant.value, int) and not isinstance(constant.value, bool)):
        return None
    return call.function, max(constant.value + _DECIDED_AT[op], 0)
