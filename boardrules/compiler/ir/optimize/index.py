"""Index rewriting: a filter on a field becomes a loop over a member list.

`all(t.owner == p for t in spaces where t.group == s.group)` scans the whole
board to visit the three spaces of one group. A space's group is declared data
(a table): the pass builds, at compile time, the spaces of each group in
board order and turns the scan into a loop over those members. The filter's
other conjuncts still run, on the same members and in the same order, so only
conjuncts that are pure and safe may come before the indexed one (they are
skipped for the non-members).

Inside an aggregate, which changes nothing while it scans, a filter on a
counter of the loop variable (`s.owner == p`) can use a counter index instead:
the members of each value, in entity order, kept up to date by every write of
the counter (`Program.counter_indexes`). So can an ordered walk (`for s in spaces where
s.owner == p by s.build_cost`) whose filter and key change nothing: it takes the members
that pass, in entity order, before its body runs for any. The list of a decision's
options, which the random and external policies and `legal_actions()` walk, is one too
(`Decision.walk`).
When several conjuncts could serve, the index with the fewest members a value on
average wins: on a board of many small groups, `t.group == s.group` over `t.owner ==
p` (the spaces among the players and none), which wins over a table field of a few
values such as `t.rent_model == street`. Without a counter to
match, `s.owner != none and s.owner != p` walks the members of every other value,
before any table index, in an aggregate whose result does not depend on the
order it meets its members (its filter and value pure and safe; `best` then breaks a tie
by entity order, as the scan did).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of, chained, is_none_test
from .effects import Effects
from .walk import reads_local

# `k_holds(p, c)` walks the cards p holds, in card order: a list the kernel keeps for each
# player (k_set_holder). A hand holds a few cards: fewer than any other index walks a value.
HELD = "held"
HAND_COST = 1.0
# A table index keeps where each value's members start, one entry per value between the
# lowest and the highest: built only when that span is at most this many entries a member
# (or MIN_SPARSE_SPAN), so that wide-ranging data (prices) is scanned, not indexed.
SPAN_PER_MEMBER = 4
MIN_SPARSE_SPAN = 64


def _conjuncts(e: ir.Expr | None) -> list[ir.Expr]:
    return [] if e is None else chain_of(e, "and")


def _join(conjuncts: list[ir.Expr]) -> ir.Expr | None:
    return chained(conjuncts, "and") if conjuncts else None


def sides(c: ir.Expr, op: str) -> tuple[tuple[ir.Expr, ir.Expr], ...]:
    """`a == b` (or the `op` given) read both ways, as (side, other side); nothing for
    another conjunct."""
    if isinstance(c, ir.Binary) and c.op == op:
        return ((c.left, c.right), (c.right, c.left))
    return ()


def field_of(e: ir.Expr, var: str, kind: str = "value") -> str | None:
    """The table name when e reads a one-value field of the loop variable itself (a flag
    when `kind` is bool, any other value otherwise)."""
    if (isinstance(e, ir.Table) and e.stride == 1 and e.element is None
            and isinstance(e.entity, ir.Local) and e.entity.name == var
            and not e.entity.type.optional and (e.type.name == "bool") == (kind == "bool")):
        return e.table
    return None


def key_ok(key: ir.Expr, var: str, fx: Effects) -> bool:
    """A key an index may look up: pure and safe, and free of the loop variable."""
    return fx.expr_is_clean(key) and not reads_local(key, var)


def is_none_const(e: ir.Expr) -> bool:
    """The constant none (an excluded value of a walk of every value but some)."""
    return isinstance(e, ir.Const) and e.type.name == "none"


def _order_free(a: ir.Aggregate, fx: Effects) -> bool:
    """Whether the aggregate gives the same result whatever order it meets its members in
    (best with ties broken by entity order): nothing in it may write or raise."""
    return fx.expr_is_clean(a.where) and fx.expr_is_clean(a.value) and a.kind in (
        "count", "sum", "any", "all", "max_of", "min_of", "best")


@dataclass(frozen=True)
class _Candidate:
    """A conjunct an index could serve: the index's average members a value, how to make
    it (and name it: only the index chosen is kept), the domain and key, the rest."""

    cost: float
    make: Callable[[], str]
    domain: ir.Domain
    key: ir.Expr
    rest: list[ir.Expr]


class Indexer:
    def __init__(self, program: ir.Program, fx: Effects):
        self.fx = fx
        self.tables = {t.name: t for t in program.tables}
        # by (table, low, high): every index a filter could use, and the ones chosen
        self.built: dict[tuple[str, int, int], derived.Index | None] = {}
        self.indexes: dict[tuple[str, int, int], derived.Index] = {}
        self.counter_indexes: dict[str, derived.CounterIndex] = {}
        entities = {"player": program.max_players, "space": len(program.space_ids),
                    "group": len(program.group_ids), "card": len(program.card_ids),
                    "cell": program.cell_count}
        self.entities = entities
        # counters of one value per entity whose values are few: entities or enum members
        self.countable = {
            c.name: (c, entities.get(c.type.name) or len(program.enums.get(c.type.name, ())))
            for c in program.counters
            if c.owner in entities and c.stride == 1 and not c.option
            and (c.type.name in entities or c.type.name in program.enums)}

    def counter_candidates(self, var: str, domain: ir.Domain, where: ir.Expr | None
                           ) -> list[_Candidate]:
        """Counter indexes for `x.c == key`, when the domain is every entity of x's kind."""
        if domain.kind != "range" or domain.index or domain.low != ir.Const(ir.INT, 0):
            return []

        def match(c: ir.Expr) -> tuple[float, Callable[[], str], ir.Expr] | None:
            for side, key in sides(c, "=="):
                found = self._counter_of(side, var)
                if found and domain.high == ir.Const(ir.INT, self.entities[found.owner]) \
                        and key_ok(key, var, self.fx):
                    _, count = self.countable[found.name]
                    values = count + (1 if found.type.optional else 0)
                    return (self.entities[found.owner] / values,  # the index made if chosen
                            lambda counter=found, make=self._counter_index: make(counter).name,
                            key)
            return None

        return self._candidates(domain, where, match)

    def held_candidates(self, var: str, domain: ir.Domain, where: ir.Expr | None
                        ) -> list[_Candidate]:
        """The hand of p for `k_holds(p, c)`, c walking every card (a deck's few cards, a
        range, are walked faster than a hand, whose list is followed one card at a time)."""
        if domain.kind != "range" or domain.index or domain.low != ir.Const(ir.INT, 0) \
                or domain.high != ir.Const(ir.INT, self.entities["card"]):
            return []

        def match(c: ir.Expr) -> tuple[float, Callable[[], str], ir.Expr] | None:
            if isinstance(c, ir.KernelCall) and c.function == "k_holds" \
                    and isinstance(c.args[1], ir.Local) and c.args[1].name == var \
                    and c.args[1].type.name == "card" and key_ok(c.args[0], var, self.fx):
                return HAND_COST, lambda: HELD, c.args[0]
            return None

        return self._candidates(domain, where, match)

    def kept_candidates(self, var: str, domain: ir.Domain, where: ir.Expr | None
                        ) -> list[_Candidate]:
        """The indexes that the game's writes keep (a counter's members, a hand) and that
        could serve the filter."""
        return (self.counter_candidates(var, domain, where)
                + self.held_candidates(var, domain, where))

    def others_rewrite(self, var: str, domain: ir.Domain, where: ir.Expr | None
                       ) -> tuple[ir.Domain, ir.Expr | None] | None:
        """A counter index walked for every value but `none` and the others the leading
        `x.c != e` conjuncts exclude (the caller checks that the order does not matter)."""
        if domain.kind != "range" or domain.index or domain.low != ir.Const(ir.INT, 0):
            return None
        conjuncts = _conjuncts(where)
        counter, excluded, used = None, [], []
        for c in conjuncts:
            if not self.fx.expr_is_clean(c) or is_none_test(c):
                break
            for side, key in sides(c, "!="):
                found = self._counter_of(side, var)
                if found and (counter is None or found == counter) and found.type.optional \
                        and domain.high == ir.Const(ir.INT, self.entities[found.owner]) \
                        and key_ok(key, var, self.fx):
                    counter = found
                    excluded.append(key)
                    used.append(c)
                    break
        if counter is None or not any(is_none_const(e) for e in excluded):
            return None
        rest = [c for c in conjuncts if not any(c is u for u in used)]
        return (dataclasses.replace(domain, index=self._counter_index(counter).name,
                                    others=tuple(excluded)), _join(rest))

    def _candidates(self, domain: ir.Domain, where: ir.Expr | None,
                    match: Callable[[ir.Expr], tuple[float, Callable[[], str], ir.Expr] | None]
                    ) -> list[_Candidate]:
        """Each conjunct an index can serve (`match` gives the members a value it walks on
        average, how to make the index, and its key), up to the first conjunct that must
        run for every entity (those before the indexed one are skipped for non-members)."""
        found: list[_Candidate] = []
        conjuncts = _conjuncts(where)
        for position, c in enumerate(conjuncts):
            served = match(c)
            if served:
                cost, make, key = served
                rest = conjuncts[:position] + conjuncts[position + 1:]
                found.append(_Candidate(cost, make, domain, key, rest))
            if not self.fx.expr_is_clean(c) or is_none_test(c):
                break
        return found

    def _counter_of(self, e: ir.Expr, var: str) -> ir.Counter | None:
        if (isinstance(e, ir.State) and e.array in self.countable and e.element is None
                and not e.checked and isinstance(e.entity, ir.Local) and e.entity.name == var):
            return self.countable[e.array][0]
        return None

    def _counter_index(self, c: ir.Counter) -> derived.CounterIndex:
        if c.name not in self.counter_indexes:
            _, count = self.countable[c.name]
            offset = -1 if c.type.optional else 0
            self.counter_indexes[c.name] = derived.CounterIndex(
                f"vx_{c.name}", c.name, offset, count - offset, self.entities[c.owner])
        return self.counter_indexes[c.name]

    def table_candidates(self, var: str, domain: ir.Domain, where: ir.Expr | None
                         ) -> list[_Candidate]:
        """Table indexes for `x.f == key` or `x.flag`, f declared data."""
        if domain.kind != "range" or domain.index or not (
                isinstance(domain.low, ir.Const) and isinstance(domain.high, ir.Const)):
            return []
        low, high = domain.low.value, domain.high.value

        def match(c: ir.Expr) -> tuple[float, Callable[[], str], ir.Expr] | None:
            flag = field_of(c, var, "bool")  # `x.flag`: the members whose flag is set
            table, key = flag, ir.Const(ir.INT, 1)
            for side, other in sides(c, "=="):
                if not table and field_of(side, var) and key_ok(other, var, self.fx):
                    table, key = field_of(side, var), other
            if not table:
                return None
            built = (table, low, high)
            if built not in self.built:
                self.built[built] = self._index(*built)
            index = self.built[built]
            if index is None:
                return None
            values = sum(1 for a, b in zip(index.starts, index.starts[1:], strict=False) if b > a)
            return len(index.items) / max(values, 1), lambda: self._use(built), key

        return self._candidates(domain, where, match)

    def rewrite(self, var: str, domain: ir.Domain, where: ir.Expr | None
                ) -> tuple[ir.Domain, ir.Expr | None] | None:
        """A statement's loop over the table index that walks the fewest members."""
        return self.cheapest(self.table_candidates(var, domain, where))

    def ordered_rewrite(self, s: ir.Loop) -> tuple[ir.Domain, ir.Expr | None] | None:
        """An ordered walk takes the members that pass its filter, in the domain's order,
        before its body runs for any: with a filter and key that change nothing, that is an
        aggregate's walk, which a counter index (kept in entity order) may serve too."""
        if not (self.fx.expr_is_pure(s.order_where) and self.fx.expr_is_pure(s.order)):
            return self.rewrite(s.var, s.domain, s.order_where)
        return self.cheapest(self.kept_candidates(s.var, s.domain, s.order_where)
                             + self.table_candidates(s.var, s.domain, s.order_where))

    def cheapest(self, found: list[_Candidate]) -> tuple[ir.Domain, ir.Expr | None] | None:
        """The candidate that walks the fewest members (the first of equals), as the
        indexed domain and the other conjuncts; None when there is none."""
        if not found:
            return None
        best = min(found, key=lambda candidate: candidate.cost)
        return (dataclasses.replace(best.domain, index=best.make(), key=best.key),
                _join(best.rest))

    def _use(self, built: tuple[str, int, int]) -> str:
        """The name of the index built for (table, low, high), kept for the module."""
        if built not in self.indexes:
            name = f"ix{len(self.indexes)}_{built[0]}"
            self.indexes[built] = dataclasses.replace(self.built[built], name=name)
        return self.indexes[built].name

    def _index(self, table: str, low: int, high: int) -> derived.Index | None:
        """The members of each value, or None when the values spread too thin for a list of
        where each one's members start (prices from 0 to 2,147,483,647 would make one of two
        billion entries: the filter is scanned instead)."""
        values = self.tables[table].values
        members = range(low, min(high, len(values)))
        keys = [values[m] for m in members] or [0]
        offset, size = min(keys), max(keys) - min(keys) + 1
        if size > max(MIN_SPARSE_SPAN, SPAN_PER_MEMBER * len(members)):
            return None
        items = sorted(members, key=lambda m: (values[m], m))
        starts = [0] * (size + 2)
        for m in items:
            starts[values[m] - offset + 1] += 1
        for k in range(1, size + 2):
            starts[k] += starts[k - 1]
        return derived.Index(table, table, offset, tuple(starts), tuple(items))

    def stmt(self, s: ir.Stmt) -> ir.Stmt:
        if isinstance(s, ir.Loop) and s.order is not None:
            domain, order_where = self.ordered_rewrite(s) or (s.domain, s.order_where)
            return dataclasses.replace(s, domain=domain, order_where=order_where,
                                       body=tuple(self.stmt(b) for b in s.body))
        if isinstance(s, ir.Loop):
            domain, where = self.rewrite(s.var, s.domain, s.where) or (s.domain, s.where)
            return dataclasses.replace(s, domain=domain, where=where,
                                       body=tuple(self.stmt(b) for b in s.body))
        if isinstance(s, ir.If):
            return dataclasses.replace(s, then=tuple(self.stmt(b) for b in s.then),
                                       otherwise=tuple(self.stmt(b) for b in s.otherwise))
        if isinstance(s, ir.While):
            return dataclasses.replace(s, body=tuple(self.stmt(b) for b in s.body))
        return s


def index_filters(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    indexer = Indexer(program, fx)
    aggregates = []
    for a in program.aggregates:
        pure = a.name not in fx.impure
        counted = indexer.kept_candidates(a.var, a.domain, a.where) if pure else []
        # the members of the other values (the spaces others own) before a table index
        others = None
        if not counted and pure and _order_free(a, fx):
            others = indexer.others_rewrite(a.var, a.domain, a.where)
        tabled = indexer.table_candidates(a.var, a.domain, a.where) if not others else []
        domain, where = others or indexer.cheapest(counted + tabled) or (a.domain, a.where)
        aggregates.append(dataclasses.replace(a, domain=domain, where=where))
    functions = tuple(dataclasses.replace(f, body=tuple(indexer.stmt(s) for s in f.body))
                      for f in program.functions)
    decisions = tuple(_option_walk(indexer, d, fx) for d in program.decisions)
    return dataclasses.replace(
        program, aggregates=tuple(aggregates), functions=functions, decisions=decisions,
        indexes=program.indexes + tuple(indexer.indexes.values()),
        counter_indexes=program.counter_indexes + tuple(indexer.counter_indexes.values()))


def _option_walk(indexer: Indexer, d: ir.Decision, fx: Effects) -> ir.Decision:
    """A decision whose options the random and external policies and `legal_actions()`
    list by an index (the cards a player may trade: that player's hand, not every
    card): in entity order, as the walk of every entity, so that an option keeps its
    number; only for a filter without effects, whose tests may be skipped."""
    if d.domain is None or d.where is None or not fx.expr_is_clean(d.where):
        return d
    found = (indexer.kept_candidates(d.var, d.domain, d.where)
             + indexer.table_candidates(d.var, d.domain, d.where))
    walk = indexer.cheapest(found)
    if walk is None:
        return d
    return dataclasses.replace(d, walk=walk[0], walk_where=walk[1])
