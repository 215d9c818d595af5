"""Counter indexes without the members of none, when no walk asks for them.

A counter that may be none (`card.traded_by`, `space.owner`) is none for most of its
entities most of the game. Its counter index (index.py) keeps that value's members too,
in entity order, and every write that gives an entity a value or takes it back moves the
entity out of that long list or into it: a trade that marks a player's cards one at a
time, then clears them, shifts the list of the hundreds of cards in no trade at every
mark. This pass drops the slot of none from an index whose every walk asks for a
value that cannot be none: a key whose type has no none, a count of such a value, or every
value but some (a walk of their bits then starts from the word of every value's members,
not from all but none's). The members of the other values, and the order of every walk,
stay as they were. When only walks of bits and counts ask for none (a walk of the spaces
nobody owns, as bits), none's slot keeps its word and counts but not its list
(`CounterIndex.none_listed`): a purchase no longer looks for the space in, and closes up,
the long list of the unowned.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .effects import Effects
from .walk import walk_stmts


def _may_be_none(e: ir.Expr | None) -> bool:
    return e is not None and (e.type.optional or e.type.name == "none")


def _walked_domains(program: ir.Program) -> Iterator[ir.Domain]:
    for a in (*program.aggregates, *program.scenario_aggregates):
        yield a.domain
    for d in program.decisions:
        if d.walk is not None:
            yield d.walk
    for f in (*program.functions, *program.scenario_functions):
        for s in walk_stmts(f.body):
            if isinstance(s, ir.Loop):
                yield s.domain


def uses_of_none(program: ir.Program) -> dict[str, bool]:
    """Each counter index's name, and whether any of its uses reads the members of none."""
    needed: dict[str, bool] = {}

    def use(index: str, needs_none: bool) -> None:
        needed[index] = needed.get(index, False) or needs_none

    for d in _walked_domains(program):
        if d.index:
            use(d.index, not d.others and _may_be_none(d.key))
    for a in (*program.aggregates, *program.scenario_aggregates):
        if a.counted is not None:
            use(a.counted.counter_index, _may_be_none(a.counted.value))
    return needed


def drop_none_slots(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    needed = uses_of_none(program)
    listed = lists_of_none(program)
    return dataclasses.replace(program, counter_indexes=tuple(
        _without_none(cx, needed.get(cx.name, False), listed.get(cx.name, False))
        for cx in program.counter_indexes))


def _without_none(cx: derived.CounterIndex, needed: bool, listed: bool) -> derived.CounterIndex:
    if cx.offset != -1:
        return cx
    if not needed:
        return dataclasses.replace(cx, offset=0, values=cx.values - 1)
    return cx if listed else dataclasses.replace(cx, none_listed=False)


def lists_of_none(program: ir.Program) -> dict[str, bool]:
    """Each counter index's name, and whether a walk of its lists may list none's members:
    one keyed by a value that may be none, or one of every value but some (it walks
    each value's list). A walk of bits reads none's word, which the writes keep anyway;
    a walk of a guard's kept members reads no list of the index."""
    listed: dict[str, bool] = {}
    for d in _walked_domains(program):
        if d.index and d.mask is None and not d.kept:
            lists = bool(d.others) or _may_be_none(d.key)
            listed[d.index] = listed.get(d.index, False) or lists
    return listed
