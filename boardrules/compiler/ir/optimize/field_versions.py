"""Memos versioned per value of a declared field: one colour group's questions.

`can_mortgage(s)`, `any(t in spaces where t.group == s.group and t.buildings > 0)`, or
`completes_group(q, s)` read a counter only on the spaces of s's group (the walk of the
group field's index keyed by `s.group`, and s itself). Stamped with the counter's whole
version, every building bought anywhere outdates every group's answer; stamped with a
version *per value of the field* (`mvf_space_buildings_by_space_group[g]`, bumped by a
write of the buildings of a space of group g), a build in one group keeps the others'.
It is worth most to the questions above them: the sale search's candidates ask
`can_mortgage` and `completes_group` of each property, and kept their answers only until
the next building bought or property sold anywhere.

The read sets (memo.ReadSets) name such a read `Within(field, parameter)`: a read through
the member of a walk of the field's index keyed by the parameter's own value of it, of the
parameter itself, or through a call passing either. A counter read only so, through one
parameter that is never none, of the entity type the counter belongs to, and written only
through a local or a constant (the write bumps the written entity's value's version), is
versioned per value of the field; any other read of it keeps its whole version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import nodes as ir
from .slots import dimension


@dataclass(frozen=True)
class Within:
    """A read of the entities whose declared field (`table`) has one value: the parameter
    at position `at`'s value of it, or, `direct`, that parameter itself (a group)."""

    table: str
    at: int
    direct: bool = False


@dataclass(frozen=True)
class FieldWalk:
    """An aggregate's walk of the members sharing a parameter's value of a field: what a read
    through its variable is."""

    var: str
    within: Within


def field_walk(a: ir.Aggregate, params: tuple[str, ...],
               index_tables: dict[str, str]) -> FieldWalk | None:
    """The walk of `a` when it is of a read-only field's index keyed by a parameter's own
    value of that field (`t in spaces where t.group == s.group`) or by a parameter itself
    (`t in spaces where t.group == g`), else None."""
    d, key = a.domain, a.domain.key
    table = index_tables.get(d.index)
    if table is None or d.others:
        return None
    if isinstance(key, ir.Local) and key.name in params:
        return FieldWalk(a.var, Within(table, params.index(key.name), direct=True))
    if not isinstance(key, ir.Table) or key.table != table or key.element is not None \
            or not isinstance(key.entity, ir.Local) or key.entity.name not in params:
        return None
    return FieldWalk(a.var, Within(table, params.index(key.entity.name)))


def passed(at: int | Within, args: tuple[ir.Expr, ...], through: Callable[[ir.Expr], int],
           walk: FieldWalk | None) -> int | Within | None:
    """What a callee's read through its parameter (`at`) is in the caller, given the
    caller's position of the parameter an expression is (`through`: -1 for none of them)
    and the caller's walk; None when it is a read of any entity."""
    arg = args[at.at if isinstance(at, Within) else at]
    position = through(arg)
    if position >= 0:
        return Within(at.table, position, at.direct) if isinstance(at, Within) else position
    if isinstance(at, Within) and at.direct:  # the argument is a value of the field
        if not (isinstance(arg, ir.Table) and arg.table == at.table and arg.element is None
                and isinstance(arg.entity, ir.Local)):
            return None
        position = through(arg.entity)
        if position >= 0:
            return Within(at.table, position)
        arg = arg.entity  # the field of the walked member: the walk's group
    if walk is not None and isinstance(arg, ir.Local) and arg.name == walk.var and (
            not isinstance(at, Within) or at.table == walk.within.table):
        return walk.within  # a member of the parameter's group, or of that member's own
    return None


def per_field(a: ir.Aggregate, reads: frozenset[tuple[str, int | Within]],
              keyable: dict[str, str], field_owner: dict[str, str]
              ) -> tuple[frozenset[tuple[str, int]], tuple[tuple[str, str, str, bool], ...]]:
    """The reads a memo's stamp takes as before (every read of a field's group as a read of
    any entity), and the (counter, parameter, field, direct) that it versions per value of
    a field instead."""
    groups: dict[str, set[Within]] = {}
    for array, at in reads:
        if isinstance(at, Within):
            groups.setdefault(array, set()).add(at)
    chosen: list[tuple[str, str, str, bool]] = []
    for array, found in sorted(groups.items(), key=lambda item: item[0]):
        others = {at for name, at in reads if name == array and not isinstance(at, Within)}
        if len(found) != 1:
            continue
        within = next(iter(found))
        name, t = a.params[within.at]
        entity = field_owner.get(within.table) if within.direct else t.name
        if others - ({within.at} if not within.direct else set()) or t.optional \
                or keyable.get(array) != entity or field_owner.get(within.table) != entity:
            continue  # read elsewhere too, or of an entity it cannot key (none, a table)
        chosen.append((array, name, within.table, within.direct))
    versioned = {array for array, _, _, _ in chosen}
    rest = frozenset((array, -1 if isinstance(at, Within) else at)
                     for array, at in reads if array not in versioned)
    return rest, tuple(chosen)


@dataclass(frozen=True)
class FieldVersions:
    """A counter's versions per value of a declared field (`mvf_` arrays): a write of the
    counter bumps the written entity's value's, and setting state from outside all."""

    name: str
    counter: str
    table: str  # the declared field
    low: int  # its smallest value (none is -1: the versions are shifted by one)
    values: int  # how many values it takes from there

    @classmethod
    def of(cls, program: ir.Program) -> tuple[FieldVersions, ...]:
        """Every counter and field that a memo versions so: for every value the field takes,
        and every value a parameter that is one may take (its memo's slots)."""
        spans: dict[tuple[str, str], set[int]] = {}
        tables = {t.name: t for t in program.tables}
        for a in program.aggregates:
            for array, param, table, direct in a.memo.per_field if a.memo else ():
                values = spans.setdefault((array, table), set(tables[table].values or (0,)))
                if direct:
                    offset, size = dimension(dict(a.params)[param], program) or (0, 1)
                    values |= {-offset, size - offset - 1}
        return tuple(cls(f"mvf_{array}_by_{table}", array, table, min(values),
                         max(values) - min(values) + 1)
                     for (array, table), values in sorted(spans.items()))
