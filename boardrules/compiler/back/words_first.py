"""Bit walks whose word is tested inline, before the call of their aggregate.

A bit walk (optimize/bits.py) over the lots of a player's complete groups, or over their
mortgaged deeds, finds its word of bits empty on most turns: the default answer of a
question asked at every turn's end is then "none", worked out by a call, a frame and a
loop that never runs. Such an aggregate is emitted in two parts: the word's few `&`s and
its test, inline in every caller, and the walk (`walk_`), called with the word only when
a member is left. An empty word gives what the aggregate gives over no members, which is
exactly what the walk would have given, provided nothing the walk would have done first
can be observed: so only for the kinds whose value over nothing is a constant (prechecks.py),
without a memo, a kept list or a guard, when the word's own arguments are pure and safe,
and every value hoisted before the walk is too (a lazy one is worked out in the walk).
"""

from __future__ import annotations

from ..ir import nodes as ir
from ..ir.optimize.effects import Effects
from ..ir.optimize.prechecks import PRECHECKED_KINDS
from ..ir.optimize.walk import domain_exprs


def words_first(program: ir.Program, fx: Effects, lazy_hoisted: frozenset[str]
                ) -> frozenset[str]:
    """The aggregates whose word of bits their callers test inline."""
    return frozenset(a.name for a in program.aggregates if _word_first(a, fx, lazy_hoisted))


def _word_first(a: ir.Aggregate, fx: Effects, lazy_hoisted: frozenset[str]) -> bool:
    d = a.domain
    return (d.mask is not None and a.kind in PRECHECKED_KINDS and a.memo is None
            and a.summed is None and not a.kept and a.counted is None and a.guard is None
            and not d.kept
            and all(fx.expr_is_clean(e) for e in domain_exprs(d))
            and all(fx.expr_is_clean(e) for name, e in a.hoisted if name not in lazy_hoisted))
