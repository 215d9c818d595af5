"""Flag words: a walk's test of a flag counter (`s.mortgaged`) as a word kept by its writes.

The default strategy's `unmortgage` walks the deeds p owns (a counter index, index.py) at
every turn's end, to find one that is mortgaged: most of the game none is, and the walk
reads the flag of every deed p owns to find that out. A flag counter of a kind of at
most 63 entities can have a counter index of its own, its two values' members kept as
words (and not as lists) by its writes: then the walk of p's deeds becomes the set bits of p's
word and the word of the mortgaged deeds, and the test leaves the filter.

A conjunct `x.flag` or `not x.flag` (x the walk variable, flag a counter of x) of a walk of
a counter index's members, or of a bit walk, leaves when it and every conjunct before it
are pure and safe (skipping an entity skips no write and no error); the walk of a
counter index's value becomes a bit walk of that value's word. Both walk their members in
entity order, so every answer is the same.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .bits import MAX_BITS
from .effects import Effects
from .wholes import words_of


class _Flags:
    """The program's flag counters by name, the counter indexes, and those made here."""

    def __init__(self, program: ir.Program):
        entities = {"space": len(program.space_ids), "group": len(program.group_ids),
                    "card": len(program.card_ids), "cell": program.cell_count}
        self.flags = {c.name: entities[c.owner] for c in program.counters
                      if c.type.name == "bool" and not c.type.optional and c.stride == 1
                      and not c.option and 0 < entities.get(c.owner, 0) <= MAX_BITS}
        self.indexes = {cx.name: cx for cx in program.counter_indexes}
        self.of_counter = {cx.counter: cx for cx in program.counter_indexes}
        self.with_bits: set[str] = set()

    def entities(self, d: ir.Domain) -> int:
        """The entities a walk of d covers as bits (0: it cannot be one)."""
        if d.kind != "range" or d.kept or d.guarded or d.low != ir.Const(ir.INT, 0):
            return 0
        if d.mask is not None:
            cx = self.indexes.get(d.index)
            return cx.entities if cx is not None else d.high.value
        cx = self.indexes.get(d.index)
        if cx is None or d.others or d.key is None or cx.entities > MAX_BITS:
            return 0
        return cx.entities

    def word(self, c: ir.Expr, var: str, entities: int) -> derived.Word | None:
        """The word that stands for conjunct c of a walk by var, if one does."""
        value = 1
        if isinstance(c, ir.Unary) and c.op == "not":
            c, value = c.operand, 0
        if not (isinstance(c, ir.State) and c.array in self.flags and c.element is None
                and not c.checked and isinstance(c.entity, ir.Local) and c.entity.name == var
                and self.flags[c.array] == entities):
            return None
        cx = self.of_counter.get(c.array)
        if cx is None:
            cx = derived.CounterIndex(f"vx_{c.array}", c.array, 0, 2, entities, listed=False)
            self.of_counter[c.array] = self.indexes[cx.name] = cx
        self.with_bits.add(cx.name)
        return derived.Word(cx.name, "", ir.Const(ir.INT, value))


def flag_words(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Mask walks with the words of the flags their filters test, kept by the flags' writes."""
    flags = _Flags(program)
    aggregates = []
    for a in program.aggregates:
        entities = 0 if a.counted or a.where is None else flags.entities(a.domain)
        if not entities:
            aggregates.append(a)
            continue
        words, where = words_of(a.where, fx, lambda c, a=a, n=entities: flags.word(c, a.var, n))
        if not words:
            aggregates.append(a)
            continue
        domain = a.domain
        if domain.mask is None:
            domain = dataclasses.replace(domain, mask=(1 << entities) - 1)
            flags.with_bits.add(domain.index)
        domain = dataclasses.replace(domain, words=domain.words + tuple(words))
        aggregates.append(dataclasses.replace(a, domain=domain, where=where))
    indexes = tuple(dataclasses.replace(cx, bits=cx.bits or cx.name in flags.with_bits)
                    for cx in flags.indexes.values())
    return dataclasses.replace(program, aggregates=tuple(aggregates), counter_indexes=indexes)
