"""Memoize procedures whose result depends only on state the compiler can list.

memo.py keeps the values of aggregates. A procedure with a body of statements (a walk
over members with early returns: what a player could wish to buy of a kind of building)
may be asked the same question again and again while nothing it reads changes: for each
player in a sum, then again for the decision that player is asked. Such a procedure keeps
its value per argument tuple, stamped as an aggregate's memo is: by the versions of the
counters it reads (directly or through what it calls), and by the cash of the one player
parameter whose cash it reads, if one (each write of a counter bumps its version, so a
kept value is used only while nothing it depends on has changed: the game plays exactly
as without it).

A procedure qualifies when it is pure, safe to repeat (no depth count, no end of the
turn), returns a value, reads at least one counter and nothing volatile but the cash of
one player parameter (never none) and its parameters are entities, enums or truth values
(a bounded table of slots). The cost rule, as kept sums have one: a memo pays when the
body walks members (a loop, its cost grows with the board where a lookup's does not)
and the question may come again before what it read changes: it is asked from two
places or more, or for each member of an aggregate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .clamps import Clamp, clamp_of, compared_only
from .effects import Effects, program_code, reachable
from .field_versions import FieldWalk, Within
from .memo import ANY, CASH, MAX_SLOTS, SIDES, ReadSets, _keyable, _through
from .regions import Regions
from .slots import dimension
from .walk import aggregate_nodes, body_exprs, domain_exprs, stmt_exprs, walk_expr, walk_stmts


class ProcedureReads(ReadSets):
    """What functions and aggregates read, the cash of a player among it when it is read
    through a parameter (`p.cash`, or a call passing p on to what reads its cash)."""

    def _nodes(self, nodes: Iterable[ir.Expr], params: tuple[str, ...], shadowed: set[str],
               walk: FieldWalk | None = None) -> set[tuple[str, int | Within]]:
        rest: list[ir.Expr] = []
        reads: set[tuple[str, int | Within]] = set()
        for n in nodes:
            if isinstance(n, ir.State) and n.array == CASH and n.entity is not None:
                reads.add((CASH, _through(n.entity, params, shadowed)))
            else:
                rest.append(n)
        return reads | super()._nodes(rest, params, shadowed, walk)


def _call_sites(program: ir.Program) -> tuple[dict[str, int], set[str]]:
    """How many places call each procedure, and those an aggregate calls (once a member)."""
    sites: dict[str, int] = {}
    in_aggregates: set[str] = set()
    for f in program.functions:
        for n in body_exprs(f.body):
            if isinstance(n, ir.CallProc):
                sites[n.function] = sites.get(n.function, 0) + 1
    for a in program.aggregates:
        for n in aggregate_nodes(a):
            if isinstance(n, ir.CallProc):
                sites[n.function] = sites.get(n.function, 0) + 1
                in_aggregates.add(n.function)
    for d in program.decisions:
        for n in _decision_nodes(d):
            if isinstance(n, ir.CallProc):
                sites[n.function] = sites.get(n.function, 0) + 1
    return sites, in_aggregates


def _decision_nodes(d: ir.Decision) -> Iterable[ir.Expr]:
    for field in dataclasses.fields(d):
        value = getattr(d, field.name)
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if isinstance(v, tuple):  # a hoisted (name, value)
                v = v[-1]
            if isinstance(v, ir.Expr):
                yield from walk_expr(v)


def _walks(f: ir.Function) -> bool:
    """Whether the body walks members (a loop or a while): the part of a memo's cost rule."""
    return any(isinstance(s, ir.Loop | ir.While) for s in walk_stmts(f.body))


def procedure_memo(f: ir.Function, reads: ProcedureReads, regions: Regions, fx: Effects,
                   program: ir.Program, base: int) -> derived.Memo | None:
    """The memo of a qualifying procedure, its slots from `base`; None when it does not
    qualify (the cost rule is the caller's)."""
    if f.rule_index >= 0 or f.guard is not None or f.returns.name == "void" \
            or f.name in fx.impure or f.name in fx.unwinding or f.name in fx.recursive:
        return None
    dims = [dimension(t, program) for _, t in f.params]
    keyed = reads.keyed_of(f.name)
    if keyed is None or None in dims:
        return None
    cash = {at for array, at in keyed if array == CASH}
    whole = tuple(sorted({array for array, _ in keyed} - {CASH}))
    if not whole or len(cash) > 1 or ANY in cash \
            or any(not isinstance(at, int) for at in cash):
        return None
    cash_of = ""
    if cash:
        name, t = f.params[next(iter(cash))]
        if t.name != "player" or t.optional:
            return None
        cash_of = name
    memo = derived.Memo(whole, base, tuple(dims), cash_of)  # type: ignore[arg-type]
    clamp = clamp_of(f)
    if clamp is not None:
        memo = _clamped(memo, f, clamp, program)
    if memo.clamp is not None and clamp is not None:  # what the rest reads, the clamp apart
        let = dataclasses.replace(f.body[clamp.index], value=clamp.other)
        f = dataclasses.replace(f, body=(*f.body[:clamp.index], let,
                                         *f.body[clamp.index + 1:]))
    memo = _per_owner(memo, f, regions, program)
    return memo if memo.slots <= MAX_SLOTS else None


def _per_owner(memo: derived.Memo, f: ir.Function, regions: Regions, program: ir.Program
               ) -> derived.Memo:
    """The memo stamped per owner where it reads only what its player owns (regions.py),
    and by the sides of the game counters it compares with constants only."""
    owned = regions.of(f)
    owners = {array: a.memo.owner for a in program.aggregates if a.memo and a.memo.owner
              for array, _ in a.memo.per_owner}
    if owned is None or any(owners.get(array, owned.owner) != owned.owner
                            for array in owned.counters):
        return memo  # (a counter is versioned by one owner counter only)
    dropped = {*owned.compared, *owned.counters}
    reads = {r for r in memo.reads if r not in dropped} | {c + SIDES for c in owned.compared}
    thresholds = dict.fromkeys(memo.thresholds) | dict.fromkeys(owned.thresholds)
    return dataclasses.replace(
        memo, reads=tuple(sorted(reads)), thresholds=tuple(thresholds), owner=owned.owner,
        per_owner=tuple((array, param) for array in owned.counters for param in owned.params),
        near=owned.near, mates=owned.mates, mate_counters=owned.mate_counters)


def _clamped(memo: derived.Memo, f: ir.Function, clamp: Clamp, program: ir.Program
             ) -> derived.Memo:
    """The memo with the clamp's counters kept apart (clamps.py): stamped by the sides of
    the comparisons through which the rest reads them; as it was when the rest reads them
    otherwise."""
    roots = [e for s in walk_stmts(f.body) for e in stmt_exprs(s)
             if s is not f.body[clamp.index]]
    roots.append(clamp.other)
    roots += _callees_roots(f, program)
    compared = compared_only(iter(roots), clamp.counters)
    if compared is None:
        return memo
    reads = {*memo.reads} - clamp.counters | {counter + SIDES for counter in compared.values()}
    return dataclasses.replace(
        memo, reads=tuple(sorted(reads)), clamp=clamp.value,
        thresholds=tuple((counter, e) for e, counter in compared.items()))


def _callees_roots(f: ir.Function, program: ir.Program) -> list[ir.Expr]:
    """The expressions of every function and aggregate `f` calls, directly or not."""
    functions = {g.name: g for g in program.functions}
    aggregates = {a.name: a for a in program.aggregates}
    code = program_code(program)
    roots: list[ir.Expr] = []
    for name in sorted(reachable(code, set(code[f.name].calls))):
        if name in functions:
            roots += [e for s in walk_stmts(functions[name].body) for e in stmt_exprs(s)]
        elif name in aggregates:
            a = aggregates[name]
            roots += [e for e in (*domain_exprs(a.domain), a.where, a.value, a.guard,
                                  *a.prechecks, *(h for _, h in a.hoisted)) if e is not None]
    return roots


def memoize_procedures(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Give each qualifying procedure whose memo pays (the cost rule) a memo, its slots
    after the aggregates'."""
    reads = ProcedureReads(program)
    regions = Regions(program, _keyable(program), mates=True)
    sites, in_aggregates = _call_sites(program)
    base = program.memo_slots
    functions = []
    for f in program.functions:
        asked_again = sites.get(f.name, 0) >= 2 or f.name in in_aggregates
        memo = procedure_memo(f, reads, regions, fx, program, base) \
            if asked_again and _walks(f) else None
        if memo is not None:
            f = dataclasses.replace(f, memo=memo)
            base += memo.slots
        functions.append(f)
    return dataclasses.replace(program, functions=tuple(functions), memo_slots=base)
