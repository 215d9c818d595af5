"""Bit walks: the members of a small domain as the set bits of a 64-bit word.

`any(s in spaces where s.owner != none and s.owner != p and s.rent_model == street and
s.price > 0 and completes_group(p, s))` walks, by its counter index (index.py), the spaces
of every owner but none and p, value by value, and tests two fields of declared data on
each. With at most 63 entities, this pass works out at compile time which entities pass
the conjuncts on declared data (a word with their bits set) and drops those conjuncts; the
counter index also keeps the members of each value as a word. The walk becomes the set
bits, lowest first, of `passing & ~(members[none] | members[p])`: the same entities, in
entity order, without the tests of declared data or the search for the next value with
members.

A conjunct leaves the filter only when it and every conjunct before it are pure and safe
(skipping an entity must not skip a write or an error). A walk of every value but some
always becomes a bit walk (its order is free, index.py); a walk of one value's members only
when conjuncts on declared data leave its filter; a range's scan only when they also skip
at least half of it.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects
from .fold import Folder
from .walk import map_expr, walk_expr

# Entities a word holds: a mask literal of 2**63 or more would be a Python object to Cython.
MAX_BITS = 63


def _declared_data_only(c: ir.Expr, var: str) -> bool:
    """Whether c reads nothing but constants and one-value fields of declared data of the
    loop variable."""
    for node in walk_expr(c):
        match node:
            case ir.Local(name=name) if name != var:
                return False
            case ir.Table() if node.element is not None or node.stride != 1 or not (
                    isinstance(node.entity, ir.Local) and node.entity.name == var):
                return False
            case ir.Const() | ir.Local() | ir.Table() | ir.Unary() | ir.Binary() \
                    | ir.Conditional():
                continue
            case _:
                return False
    return True


def passing_word(c: ir.Expr, var: str, entities: int, tables: dict[str, ir.TableData],
                 folder: Folder) -> int | None:
    """The word whose bit x is set when entity x (of 0 to entities - 1) passes c, when c reads
    only declared data of the loop variable and constants; None otherwise."""
    if not _declared_data_only(c, var):
        return None
    word = 0
    for x in range(entities):
        def known(node: ir.Expr, x: int = x) -> ir.Expr:
            if isinstance(node, ir.Local):
                return ir.Const(node.type, x)
            if isinstance(node, ir.Table) and isinstance(node.entity, ir.Const):
                values = tables[node.table].values
                if node.entity.value >= len(values):
                    return node
                return ir.Const(node.type, values[node.entity.value])
            return folder.node(node)

        value = map_expr(c, known)
        if not isinstance(value, ir.Const) or not isinstance(value.value, bool):
            return None
        if value.value:
            word |= 1 << x
    return word


def _entities(d: ir.Domain, counter_indexes: dict[str, derived.CounterIndex]) -> int:
    """How many entities a bit walk of the domain would cover (0: it cannot be one)."""
    if d.kind != "range" or d.kept or d.guarded or d.low != ir.Const(ir.INT, 0):
        return 0
    if d.index:
        cx = counter_indexes.get(d.index)
        return cx.entities if cx is not None and cx.entities <= MAX_BITS else 0
    if isinstance(d.high, ir.Const) and 0 < d.high.value <= MAX_BITS:
        return d.high.value
    return 0


def _worth_it(d: ir.Domain, word: int, entities: int, masked: list[ir.Expr]) -> bool:
    """Whether the bit walk beats the walk it replaces. Finding the next set bit costs a few
    times a step of a range's scan: a range becomes bits when they skip at least half of
    it (a scan of five entities that skips one stays a scan)."""
    if d.others:
        return True
    if not masked:
        return False
    return bool(d.index) or 2 * word.bit_count() <= entities


def bit_walks(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Turn the walks of small domains into walks of a word's set bits."""
    counter_indexes = {cx.name: cx for cx in program.counter_indexes}
    tables = {t.name: t for t in program.tables}
    folder = Folder(fx, reporter)
    with_bits: set[str] = set()
    aggregates = []
    for a in program.aggregates:
        entities = 0 if a.counted else _entities(a.domain, counter_indexes)
        if not entities:
            aggregates.append(a)
            continue
        word, masked, rest = (1 << entities) - 1, [], []
        clean = True  # every conjunct so far is pure and safe
        for c in chain_of(a.where, "and") if a.where is not None else []:
            clean = clean and fx.expr_is_clean(c)
            passing = passing_word(c, a.var, entities, tables, folder) if clean else None
            if passing is None:
                rest.append(c)
            else:
                word &= passing
                masked.append(c)
        if not _worth_it(a.domain, word, entities, masked):
            aggregates.append(a)
            continue
        if a.domain.index:
            with_bits.add(a.domain.index)
        domain = dataclasses.replace(a.domain, mask=word, masked=tuple(masked))
        aggregates.append(dataclasses.replace(a, domain=domain,
                                              where=chained(rest, "and") if rest else None))
    return dataclasses.replace(
        program, aggregates=tuple(aggregates),
        counter_indexes=tuple(dataclasses.replace(cx, bits=cx.name in with_bits)
                              for cx in program.counter_indexes))
