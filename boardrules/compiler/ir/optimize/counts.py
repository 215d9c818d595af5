"""Count queries: whole-group questions answered from counts kept by the counter's writes.

`all(t.owner == p for t in spaces where t.group == g)` (does p own the whole group?)
visits every space of the group each time the default strategy asks it, and it asks it
for every candidate of most decisions. A counter with a counter index (`s.owner`) is
written through one function only, which can also keep, for each key of a read-only
field's index (`group`) and each value of the counter, how many entities have both.
The pass answers from those counts an aggregate over the entities that have one key of
the field and one value of the counter, perhaps but one entity (`t != s`):

- `all(t.c == v for t in <members of key k> [where t != x])`: count(k, v) == size(k),
  less x where x is a member (and has v);
- `count(t in ... where t.f == k and t.c == v [and t != x])`, and `any(...)`: count(k, v),
  less x, compared with 0 for `any`.

The answers are those of the scans: the counts are kept by every write of the counter
and rebuilt whenever the counter is set from outside the rules.

`count(q in players)`, with no filter (`over when count(q in players) <= 1`, asked after
every turn), is the number of players still in, which the kernel keeps as players retire.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of
from .effects import Effects
from .index import field_of, key_ok, sides
from .inline import drop_unused_functions
from .walk import map_program_exprs

# the kernel's count of the players still in (`n_alive`), kept as players retire
PLAYERS_IN = ir.Builtin(ir.INT, "players_in")


class _Shapes:
    """The program's indexes, and what an aggregate's domain and filter say of its var."""

    def __init__(self, program: ir.Program, fx: Effects):
        self.fx = fx
        self.table_indexes = {ix.name: ix for ix in program.indexes}
        self.counter_indexes = {cx.name: cx for cx in program.counter_indexes}
        self.index_of_counter = {cx.counter: cx for cx in program.counter_indexes}

    def equality(self, c: ir.Expr, var: str) -> tuple[str, str, ir.Expr] | None:
        """`t.f == k` as ("table", f, k), `t.c == v` as ("counter", c, v), `t != x` as
        ("other", "", x); None for any other conjunct."""
        for side, other in sides(c, "!="):
            if isinstance(side, ir.Local) and side.name == var and key_ok(other, var, self.fx):
                return "other", "", other
        for side, other in sides(c, "=="):
            if not key_ok(other, var, self.fx):
                continue
            table = field_of(side, var)
            if table:
                return "table", table, other
            if (isinstance(side, ir.State) and side.array in self.index_of_counter
                    and not side.checked and side.element is None
                    and isinstance(side.entity, ir.Local) and side.entity.name == var):
                return "counter", side.array, other
        return None

    def query(self, a: ir.Aggregate) -> derived.CountQuery | None:
        d = a.domain
        if a.kind not in ("all", "count", "any") or d.kind != "range" or d.others \
                or d.low != ir.Const(ir.INT, 0):
            return None
        facts = [("table", self.table_indexes[d.index].table, d.key)] \
            if d.index in self.table_indexes else []
        if d.index in self.counter_indexes:
            facts.append(("counter", self.counter_indexes[d.index].counter, d.key))
        for c in [] if a.where is None else chain_of(a.where, "and"):
            facts.append(self.equality(c, a.var))
        if a.kind == "all":
            facts.append(self.equality(a.value, a.var) if a.value is not None else None)
        if None in facts:
            return None
        tables = [f for f in facts if f[0] == "table"]
        counters = [f for f in facts if f[0] == "counter"]
        others = [f for f in facts if f[0] == "other"]
        if len(tables) != 1 or len(counters) != 1 or len(others) > 1:
            return None
        if a.kind == "all" and not (d.index in self.table_indexes and a.value is not None):
            return None  # the size of the key's members comes from the domain's index
        table_index = self._table_index(tables[0][1], d.high)
        if table_index is None:
            return None
        cx = self.index_of_counter[counters[0][1]]
        return derived.CountQuery(cx.name, table_index.name, tables[0][2], counters[0][2],
                             others[0][2] if others else None)

    def _table_index(self, table: str, high: ir.Expr) -> derived.Index | None:
        """An index of the field over every entity of the kind (its members' count per key)."""
        for ix in self.table_indexes.values():
            if ix.table == table and high == ir.Const(ir.INT, ix.starts[-1]):
                return ix
        return None


def count_queries(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Mark the aggregates that counts can answer, and have their counters keep them."""
    shapes = _Shapes(program, fx)
    counted_by: dict[str, set[str]] = {}
    aggregates = []
    for a in program.aggregates:
        query = None if a.name in fx.impure else shapes.query(a)
        if query is not None:
            counted_by.setdefault(query.counter_index, set()).add(query.table_index)
            a = dataclasses.replace(a, counted=query)
        aggregates.append(a)
    counter_indexes = tuple(
        dataclasses.replace(cx, counted_by=tuple(sorted(counted_by.get(cx.name, ()))))
        for cx in program.counter_indexes)
    program = dataclasses.replace(program, aggregates=tuple(aggregates),
                                  counter_indexes=counter_indexes)
    return _players_in(program)


def _players_in(program: ir.Program) -> ir.Program:
    """Calls of `count(q in players)` without a filter read the kernel's count instead of
    walking the seats; the aggregate goes when nothing else calls it."""
    counts = {a.name for a in program.aggregates
              if a.kind == "count" and a.domain.kind == "players" and a.where is None
              and a.value is None and not a.params}
    if not counts:
        return program

    def node(e: ir.Expr) -> ir.Expr:
        return PLAYERS_IN if isinstance(e, ir.CallProc) and e.function in counts else e

    return drop_unused_functions(map_program_exprs(program, node))
