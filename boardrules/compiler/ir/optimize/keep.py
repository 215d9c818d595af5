"""Keep the members that pass a memoized guard, and walk only those.

`best(s.price for s in others' spaces where completes_group(p, s) and p.cash -
s.price >= reserve)` is guarded (guards.py) by `any(s in others' spaces where
completes_group(p, s))`, which a memo keeps until who owns a space changes. When
the guard holds, the aggregate still walks every space others own, to find the
one or two that complete a group. This pass has the guard keep, beside its
memoized value, the members that passed it, in the order its domain walks them;
the aggregate then walks only those, testing the rest of its filter (its
conjuncts are pure and safe, and the kept members are exactly the ones that pass
the guard's conjuncts while the guard's memo holds, so it finds what the walk
found, in the same order).

Only when the guard is memoized (its kept members are as fresh as its value), the
domain is a fixed range of entities (the width of a member list), and nothing in
the rest of the filter or the value can ask the guard again (a nested question with
arguments outside the memo would overwrite the spare list being walked).
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects, callees, program_code, reachable
from .walk import walk_expr

# entries of the member lists of one guard: more is not worth the memory (and a member,
# below its domain's width, so below this, fits the game's 16-bit table, `kept_item`)
MAX_KEPT = 8192


def _asks(roots: list[ir.Expr | None], target: str, code: dict) -> bool:
    """Whether evaluating the expressions may call `target` (through any call chain)."""
    return target in reachable(code, callees([n for e in roots for n in walk_expr(e)]))


def _width(a: ir.Aggregate, program: ir.Program) -> int:
    """The most members the domain may have (0: not a fixed range of entities)."""
    d = a.domain
    if d.kind == "players":
        return program.max_players
    if d.kind != "range" or not isinstance(d.high, ir.Const) or d.low != ir.Const(ir.INT, 0):
        return 0
    return d.high.value


def keep_candidates(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Give each memoized guard a table of the members that pass it, and make the
    aggregate it guards walk them."""
    by_name = {a.name: a for a in program.aggregates}
    code = program_code(program)
    counts = items = 0
    kept: dict[str, derived.Kept] = {}
    walks: dict[str, ir.Aggregate] = {}
    for a in program.aggregates:
        guard = by_name.get(a.guard.function) if isinstance(a.guard, ir.CallProc) else None
        width = _width(a, program)
        if guard is None or guard.memo is None or guard.counted or not width \
                or guard.domain != a.domain or a.where is None:
            continue
        lists = (guard.memo.slots + 1) * width
        stable = chain_of(guard.where, "and") if guard.where is not None else []
        rest = [c for c in chain_of(a.where, "and") if c not in stable]
        if lists > MAX_KEPT or _asks([*rest, a.value, *(e for _, e in a.hoisted)],
                                     guard.name, code):
            continue
        kept[guard.name] = derived.Kept(counts, items, width)
        counts += guard.memo.slots + 1
        items += lists
        walks[a.name] = dataclasses.replace(
            a, domain=dataclasses.replace(a.domain, kept=guard.name),
            where=chained(rest, "and") if rest else None)
    aggregates = tuple(
        walks.get(a.name) or (dataclasses.replace(a, kept=kept[a.name]) if a.name in kept
                              else a)
        for a in program.aggregates)
    return dataclasses.replace(program, aggregates=aggregates, kept_counts=counts,
                               kept_items=items)
