"""Keep a question about every player's cash over a range of each player's cash.

A player's question that asks, of each other player, whether they could pay for
something (the trade partner search: would any other player buy this deed, at the
premium, and keep the reserve) reads every player's cash through what it calls. Its
memo stamped by the kernel's `cash_version` (memo.py's `cash_versioned`) misses at every
payment, though a rent paid rarely moves anyone's cash across the amounts the question
compares it with. As cash_ranges.py does for one player's cash, each comparison of a
player's cash with an amount that reads no cash (`q.cash - s.price * 2 >= 150`) becomes
`k_player_cash_at_least(q, threshold)`, which narrows the kernel's range of q's cash with
the same answer (`cash_lows[q]`, `cash_highs[q]`); the memo keeps each player's range,
and a kept value is used while its stamp is the same and every player's cash is within
that player's range (the cash version, kept too, spares the test while nobody has paid).

The walk takes the same path for every cash within the ranges: each comparison it made
has the same truth value, its threshold reads only what the stamp follows (or locals
worked out from it), and nothing else reads cash. So every read of cash in the
functions and aggregates the question calls, directly or not, must be such a comparison
(they are rewritten, which changes no value: the ranges are scratch the kernel
resets before each memo's computation); and none of those that read cash may keep a
value (a kept value would skip its comparisons, leaving the ranges too wide): no
memoized aggregate, and no procedure memo later (the kernel call is volatile to
memoize-procedures' read sets). The rewritten comparisons cost a few instructions more
where other questions call them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .cash_ranges import AT_LEAST, at_least_test
from .effects import Effects, program_code, reachable
from .memo import CASH, CashReads
from .walk import (
    aggregate_nodes,
    body_exprs,
    domain_exprs,
    map_body,
    map_domain,
    map_expr,
    walk_expr,
    walk_stmts,
)

PLAYER_AT_LEAST = "k_player_cash_at_least"


def _cash_reads(nodes: Iterable[ir.Expr]) -> list[ir.State]:
    return [n for n in nodes if isinstance(n, ir.State) and n.array == CASH]


def _spanned_test(e: ir.Expr, fx: Effects) -> ir.Expr | None:
    """`k_player_cash_at_least(q, t)` (or its negation) for a comparison of one player's
    cash, plus or minus amounts that read no cash, with an amount that reads none; else
    None."""
    reads = set(_cash_reads(walk_expr(e)))
    if len(reads) != 1:
        return None
    cash = next(iter(reads))
    if cash.checked or cash.entity is None or not fx.expr_is_clean(cash.entity):
        return None
    test = at_least_test(e, cash, fx)
    if test is None:
        return None
    negated = isinstance(test, ir.Unary)
    call = test.operand if negated else test
    assert isinstance(call, ir.KernelCall) and call.function == AT_LEAST
    if _cash_reads(walk_expr(call.args[1])):
        return None  # the amount reads another player's cash
    spanned = ir.KernelCall(ir.BOOL, PLAYER_AT_LEAST, (cash.entity, call.args[1]))
    return ir.Unary(ir.BOOL, "not", spanned) if negated else spanned


def _spanned_nodes(fx: Effects) -> Callable[[ir.Expr], ir.Expr]:
    return lambda n: _spanned_test(n, fx) or n


def _spanned(e: ir.Expr | None, fx: Effects) -> ir.Expr | None:
    return map_expr(e, _spanned_nodes(fx))


def _function(f: ir.Function, fx: Effects) -> ir.Function | None:
    """The function with its cash comparisons spanned, None when another read of cash
    remains (or it keeps values)."""
    if not _cash_reads(body_exprs(f.body)):
        return f
    if f.memo is not None:
        return None
    body = map_body(f.body, _spanned_nodes(fx))
    loops = [s.domain for s in walk_stmts(body) if isinstance(s, ir.Loop)]
    if _cash_reads(body_exprs(body)) or any(
            _cash_reads(walk_expr(e)) for d in loops for e in domain_exprs(d)):
        return None
    return dataclasses.replace(f, body=body)


def _aggregate(a: ir.Aggregate, fx: Effects) -> ir.Aggregate | None:
    """The aggregate with its cash comparisons spanned, None when another read of cash
    remains (or it keeps values)."""
    if not _cash_reads(aggregate_nodes(a)):
        return a
    if a.memo is not None:
        return None
    done = dataclasses.replace(
        a, where=_spanned(a.where, fx), value=_spanned(a.value, fx), guard=_spanned(a.guard, fx),
        domain=map_domain(a.domain, _spanned_nodes(fx)),
        prechecks=tuple(_spanned(e, fx) for e in a.prechecks),
        hoisted=tuple((name, _spanned(h, fx)) for name, h in a.hoisted))
    return None if _cash_reads(aggregate_nodes(done)) else done


def _stamped_without_cash(memo: derived.Memo) -> bool:
    """Whether the memo's stamp has a version besides the cash's (memo_forget, which
    outdates every kept value, bumps the versions)."""
    return any(r != CASH for r in memo.reads) or bool(
        memo.per_entity or memo.per_owner or memo.per_field or memo.held_key
        or memo.held_decks)


def _keeps_cash(name: str, aggregates: dict[str, ir.Aggregate], reads: CashReads) -> bool:
    """Whether `name` is a memoized aggregate whose value depends on cash (a kept value
    would skip its comparisons: the ranges would stay too wide)."""
    if name not in aggregates or aggregates[name].memo is None:
        return False
    keyed = reads.keyed_of(name)
    return keyed is None or any(array == CASH for array, _ in keyed)


def span_cash(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """The program with each memo stamped by every player's cash (`cash_version`) kept
    over each player's range of cash instead, where what its aggregate calls allows."""
    functions = {f.name: f for f in program.functions}
    aggregates = {a.name: a for a in program.aggregates}
    reads = CashReads(program)
    code = program_code(program)
    rows = 0
    for a in program.aggregates:
        if a.memo is None or CASH not in a.memo.reads or a.memo.cash_of \
                or _cash_reads(aggregate_nodes(a)) or not _stamped_without_cash(a.memo):
            continue
        callees = reachable(code, set(code[a.name].calls)) - {a.name}
        if not callees <= functions.keys() | aggregates.keys() or any(
                _keeps_cash(name, aggregates, reads) for name in callees):
            continue
        done = {name: _function(functions[name], fx) if name in functions
                else _aggregate(aggregates[name], fx) for name in sorted(callees)}
        if any(rewritten is None for rewritten in done.values()):
            continue
        for name, rewritten in done.items():
            if name in functions:
                functions[name] = rewritten
            else:
                aggregates[name] = rewritten
        memo = dataclasses.replace(a.memo, reads=tuple(r for r in a.memo.reads if r != CASH),
                                   spans=rows)
        aggregates[a.name] = dataclasses.replace(aggregates[a.name], memo=memo)
        rows += memo.slots
    if not rows:
        return program
    return dataclasses.replace(
        program, functions=tuple(functions[f.name] for f in program.functions),
        aggregates=tuple(aggregates[a.name] for a in program.aggregates), span_slots=rows)
