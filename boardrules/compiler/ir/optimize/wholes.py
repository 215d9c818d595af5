"""Whole keys: `owns_group(p, s.group)` in a bit walk's filter as a word kept by the writes.

The default strategy's `build_on` walks p's streets as bits (bits.py) and asks, of each,
whether p owns its whole group: the counts of count-queries (counts.py) answer that in a
few loads, but a player with eight streets and no complete group still pays them eight
times at every turn's end. A counter index that keeps such counts can also keep, for each
value of the counter, the word of the entities whose key (a read-only field, `group`) has
every member at that value: the complete groups of each owner, as the bits of their
spaces. Its writes update the word of the old and the new value on the written entity's
key only, and a new game, a copy or a write from outside the rules rebuilds it with the
counts.

A conjunct `a(..)` of a bit walk's filter, or a call of a one-line procedure that returns
one, where `a` is a counted `all(t.c == v for t in <members of key k>)` with k the walk
variable's field of that index and v free of the walk variable, leaves the filter: the
walk's word is masked with the value's word instead. As in bits.py, it leaves only when it
and every conjunct before it are pure and safe, so that skipping an entity skips no write
and no error. The entities are the same: the word's bit x is set exactly when x's key has
all its members at v, which is what the call answered for x.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .bits import MAX_BITS
from .conjuncts import chain_of, chained
from .effects import Effects
from .index import field_of, key_ok
from .walk import substitute_locals

ROUNDS = 3  # one-line procedures seen through, nested


class _Calls:
    """The program's counted `all` aggregates and its one-line procedures, by name."""

    def __init__(self, program: ir.Program):
        self.aggregates = {a.name: a for a in program.aggregates}
        self.returns = {f.name: f for f in program.functions
                        if len(f.body) == 1 and isinstance(f.body[0], ir.Return)
                        and f.body[0].value is not None and not f.locals and f.guard is None}
        self.table_indexes = {ix.name: ix for ix in program.indexes}
        self.counter_indexes = {cx.name: cx for cx in program.counter_indexes}

    def whole(self, c: ir.Expr, var: str, fx: Effects) -> derived.Word | None:
        """The word that stands for conjunct c of a walk by var, if one does."""
        for _ in range(ROUNDS + 1):
            if not isinstance(c, ir.CallProc):
                return None
            a = self.aggregates.get(c.function)
            if a is not None:
                return self._of_query(a, dict(zip((n for n, _ in a.params), c.args,
                                                  strict=True)), var, fx)
            f = self.returns.get(c.function)
            if f is None or len(f.params) != len(c.args):
                return None
            c = substitute_locals(f.body[0].value, dict(zip((n for n, _ in f.params), c.args,
                                                            strict=True)))
        return None

    def _of_query(self, a: ir.Aggregate, args: dict[str, ir.Expr], var: str,
                  fx: Effects) -> derived.Word | None:
        q = a.counted
        if q is None or a.kind != "all" or q.excluded is not None or a.name in fx.impure:
            return None
        ix, cx = self.table_indexes.get(q.table_index), self.counter_indexes.get(q.counter_index)
        if ix is None or cx is None or cx.entities > MAX_BITS \
                or max(ix.items, default=0) >= MAX_BITS:
            return None
        key, value = substitute_locals(q.key, args), substitute_locals(q.value, args)
        if field_of(key, var) != ix.table or not key_ok(value, var, fx):
            return None
        return derived.Word(cx.name, ix.name, value)


def words_of(where: ir.Expr, fx: Effects, word: Callable[[ir.Expr], derived.Word | None]
             ) -> tuple[list[derived.Word], ir.Expr | None]:
    """The words that stand for conjuncts of a walk's filter, from its leading run of pure
    and safe ones (skipping an entity then skips no write and no error), and the filter
    left without them."""
    words, rest, clean = [], [], True
    for c in chain_of(where, "and"):
        clean = clean and fx.expr_is_clean(c)
        found = word(c) if clean else None
        if found is None:
            rest.append(c)
        else:
            words.append(found)
    return words, chained(rest, "and") if rest else None


def whole_keys(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Mask bit walks with the words of whole keys that the counters' writes keep."""
    calls = _Calls(program)
    kept: dict[str, set[str]] = {}
    aggregates = []
    for a in program.aggregates:
        if a.domain.mask is None or a.where is None:
            aggregates.append(a)
            continue
        wholes, where = words_of(a.where, fx, lambda c, a=a: calls.whole(c, a.var, fx))
        for whole in wholes:
            kept.setdefault(whole.counter_index, set()).add(whole.table_index)
        if wholes:
            domain = dataclasses.replace(a.domain, words=a.domain.words + tuple(wholes))
            a = dataclasses.replace(a, domain=domain, where=where)
        aggregates.append(a)
    return dataclasses.replace(
        program, aggregates=tuple(aggregates),
        counter_indexes=tuple(
            dataclasses.replace(cx, whole_by=tuple(sorted(kept.get(cx.name, ()))))
            for cx in program.counter_indexes))
