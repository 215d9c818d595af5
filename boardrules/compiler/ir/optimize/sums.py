"""Kept sums: a sum over what a player owns, kept up to date by the writes that change it.

`sum(raise_value(t) for t in spaces where t.owner == p and t.group != s.group)` (what p
could raise outside one group) walks p's deeds and works out each one's refund at every
question; the building shortage asks it of every player at every building bought. Each
member's contribution reads only that member's counters (`t.buildings`, `t.mortgaged`,
`t.paid_over[k]`) and declared data, so the sum of each owner's contributions can be kept:
a write of a counter the contribution reads takes the member's old contribution off its
owner's sum and adds the new one, and a change of owner (the counter index's write) moves
the contribution from the old owner's sum to the new one's (`Program.kept_sums`).

The pass answers from such a sum an aggregate `sum(V(t) for t in <entities of a kind>
where t.c == v [and t.f == k | and t.f != k])`, t.c a counter with an index (by the domain's
index or a conjunct) and f a declared field with an index over the whole kind: the sum at v,
the sum at (k, v), or the first less the second (`Aggregate.summed`). Its scan stays, as the
recomputation that tests check the kept values against. V must be pure and read nothing but
t's own counters (not t.c itself), declared data and constants, through what it calls too:
no cash, no hand, no game counter, no option, no parameter of the aggregate. The sums are
worked out afresh whenever state is set from outside the rules (a new game, the reflection
API), and copied with the game.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of
from .effects import Effects
from .index import Indexer, field_of, key_ok, sides
from .memo import ALIVE, ANY, HOLDERS, ReadSets, _Volatile
from .walk import walk_expr

# the members whose contribution may have changed are kept as the bits of a word
MAX_MEMBERS = 63


class _Shapes:
    """What an aggregate's domain and filter say of its variable: one counter's value and
    perhaps one declared field's key (or every key but one)."""

    def __init__(self, program: ir.Program, fx: Effects):
        self.fx = fx
        self.reads = ReadSets(program)
        self.table_indexes = {ix.name: ix for ix in program.indexes}
        self.counter_indexes = {cx.name: cx for cx in program.counter_indexes}
        self.index_of_counter = {cx.counter: cx for cx in program.counter_indexes}
        self.indexer = Indexer(program, fx)
        self.new_indexes: list[derived.Index] = []

    def _fact(self, c: ir.Expr, var: str) -> tuple[str, str, ir.Expr] | None:
        """`t.c == v` as ("counter", c, v); `t.f == k` as ("==", f, k), `t.f != k` as
        ("!=", f, k); None for any other conjunct."""
        for op in ("==", "!="):
            for side, other in sides(c, op):
                if not key_ok(other, var, self.fx):
                    continue
                table = field_of(side, var)
                if table:
                    return op, table, other
                if (op == "==" and isinstance(side, ir.State)
                        and side.array in self.index_of_counter and not side.checked
                        and side.element is None and isinstance(side.entity, ir.Local)
                        and side.entity.name == var):
                    return "counter", side.array, other
        return None

    def facts(self, a: ir.Aggregate) -> list[tuple[str, str, ir.Expr] | None]:
        d = a.domain
        facts: list[tuple[str, str, ir.Expr] | None] = []
        if d.index in self.table_indexes:
            facts.append(("==", self.table_indexes[d.index].table, d.key))
        elif d.index in self.counter_indexes:
            facts.append(("counter", self.counter_indexes[d.index].counter, d.key))
        elif d.index:
            return [None]
        facts += [self._fact(c, a.var) for c in
                  ([] if a.where is None else chain_of(a.where, "and"))]
        return facts

    def whole_index(self, table: str, entities: int) -> derived.Index | None:
        """An index of the field over every entity of the kind (made for the kept sums when
        no walk uses one); None when the field's values spread too thin for one."""
        for ix in self.table_indexes.values():
            if ix.table == table and ix.starts[-1] == entities:
                return ix
        made = self.indexer._index(table, 0, entities)
        if made is None:
            return None
        made = dataclasses.replace(made, name=f"ixs{len(self.new_indexes)}_{table}")
        self.new_indexes.append(made)
        self.table_indexes[made.name] = made
        return made

    def contribution_reads(self, a: ir.Aggregate, counter: str) -> tuple[str, ...] | None:
        """The counters of the member that its contribution reads, when it reads nothing
        else that changes (and not the grouping counter itself); None otherwise."""
        if a.value is None or not self.fx.expr_is_pure(a.value) or a.hoisted:
            return None
        if any(isinstance(n, ir.Local) and n.name != a.var for n in walk_expr(a.value)):
            return None
        kind = counter.split("_")[0]
        try:
            reads = self.reads._nodes(walk_expr(a.value), (a.var,), set())
        except _Volatile:
            return None
        arrays = set()
        for array, at in reads:
            if at == ANY or at != 0 or array in (HOLDERS, ALIVE, counter) \
                    or not array.startswith(kind + "_"):
                return None
            arrays.add(array)
        return tuple(sorted(arrays))

    def query(self, a: ir.Aggregate) -> tuple[derived.KeptSum, derived.SumQuery] | None:
        d = a.domain
        if a.kind != "sum" or d.kind != "range" or d.others or d.low != ir.Const(ir.INT, 0) \
                or a.prechecks or a.guard is not None or a.counted is not None:
            return None
        facts = self.facts(a)
        if None in facts:
            return None
        counters = [f for f in facts if f is not None and f[0] == "counter"]
        keys = [f for f in facts if f is not None and f[0] != "counter"]
        if len(counters) != 1 or len(keys) > 1:
            return None
        cx = self.index_of_counter[counters[0][1]]
        if d.high != ir.Const(ir.INT, cx.entities) or cx.entities > MAX_MEMBERS:
            return None
        reads = self.contribution_reads(a, cx.counter)
        if reads is None or not any(isinstance(n, ir.CallProc) for n in walk_expr(a.value)):
            return None  # a few operations on a member's fields: a memo's lookup costs as much
        table_index = ""
        if keys:
            ix = self.whole_index(keys[0][1], cx.entities)
            if ix is None:
                return None
            table_index = ix.name
        kept = derived.KeptSum("", cx.name, a.var, a.value, reads, table_index)
        return kept, derived.SumQuery("", counters[0][2], keys[0][2] if keys else None,
                                      keys[0][0] if keys else "")


def keep_sums(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Answer the sums over an owner's entities from sums the writes keep."""
    shapes = _Shapes(program, fx)
    kept: dict[tuple, derived.KeptSum] = {}
    aggregates = []
    for a in program.aggregates:
        found = None if a.name in fx.impure else shapes.query(a)
        if found is not None:
            ks, q = found
            # one kept sum per contribution and counter index (its member renamed alike)
            same = (ks.counter_index, _renamed(ks.value, ks.var))
            known = kept.get(same)
            if known is None:
                known = kept[same] = dataclasses.replace(ks, name=f"ks{len(kept)}")
            elif ks.table_index and not known.table_index:
                known = kept[same] = dataclasses.replace(known, table_index=ks.table_index)
            elif ks.table_index and known.table_index != ks.table_index:
                aggregates.append(a)  # keyed by another field: scanned as before
                continue
            a = dataclasses.replace(a, summed=dataclasses.replace(q, kept_sum=known.name))
        aggregates.append(a)
    if not kept:
        return program
    used = {ks.table_index for ks in kept.values()}
    return dataclasses.replace(program, aggregates=tuple(aggregates),
                               kept_sums=tuple(kept.values()),
                               indexes=program.indexes + tuple(
                                   ix for ix in shapes.new_indexes if ix.name in used))


def _renamed(e: ir.Expr, var: str) -> str:
    """An expression's text with its member variable named alike (a key for sharing)."""
    return repr(e).replace(f"name='{var}'", "name='_'")
