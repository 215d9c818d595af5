"""Keep a cash-keyed memo's value over a range of cash, not one amount.

The default strategy's questions compare the asking player's cash with amounts
that do not depend on it (`p.cash - s.build_cost >= reserve`,
`p.cash >= s.mortgage + fee`), and a memo that keeps such a question's value with
the exact cash it was worked out with (`Memo.cash_of`) misses at every rent paid or
received. The answer is the same for every cash that gives each comparison
evaluated the same truth value: the walk takes the same path. So each such
comparison becomes `k_cash_at_least(p.cash, threshold)`, which also narrows the
kernel's `cash_low`/`cash_high` to the cash values on the same side of the
threshold, and the memo keeps that range: a kept value is used while the versions
are the same and the cash is within it.

Only when every read of that cash in the aggregate's filter, value and hoisted
values is one side of `<`, `<=`, `>` or `>=` as `p.cash` plus or minus amounts that
read no cash, and those amounts and the other side are pure and safe (they are then
evaluated in another order), and its domain does not read it; otherwise the memo
keeps the exact cash, as before.

Of two such tests of the same cash in one chain of `and`, with nothing between them
that could write or raise, the one whose threshold is a constant amount above the
other's implies it (`p.cash >= s.build_cost and ... and p.cash >= 250 + s.build_cost`,
the decision's legality and its default's reserve): the stronger takes the first one's
place and the weaker goes. The chain's value is the same for every cash, and so is the
range it keeps (the weaker test decided nothing the stronger did not).
"""

from __future__ import annotations

import dataclasses

from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects
from .walk import domain_exprs, map_expr, walk_expr

AT_LEAST = "k_cash_at_least"


def _reads_cash(e: ir.Expr, cash: ir.Expr) -> bool:
    return any(n == cash for n in walk_expr(e))


def _offset(e: ir.Expr, cash: ir.Expr) -> list[tuple[str, ir.Expr]] | None:
    """e as cash plus terms that read no cash ([] for cash itself), else None."""
    if e == cash:
        return []
    if isinstance(e, ir.Binary) and e.op in ("+", "-"):
        left, right = _reads_cash(e.left, cash), _reads_cash(e.right, cash)
        if left and not right:
            terms = _offset(e.left, cash)
            return None if terms is None else [*terms, (e.op, e.right)]
        if right and not left and e.op == "+":
            terms = _offset(e.right, cash)
            return None if terms is None else [*terms, ("+", e.left)]
    return None


# `cash op t` as `at_least(cash, t + shift)`, negated or not
_AS_AT_LEAST = {">=": (0, False), ">": (1, False), "<": (0, True), "<=": (1, True)}


def at_least_test(e: ir.Expr, cash: ir.Expr, fx: Effects) -> ir.Expr | None:
    """`k_cash_at_least(cash, threshold)` (or its negation) for a comparison of cash plus
    amounts with an amount, all pure and safe; None for another expression."""
    if not (isinstance(e, ir.Binary) and e.op in _AS_AT_LEAST):
        return None
    op, side, other = e.op, e.left, e.right
    if _reads_cash(other, cash):
        op, side, other = ir.MIRRORED[op], e.right, e.left
    terms = _offset(side, cash)
    if terms is None or _reads_cash(other, cash) or not fx.expr_is_clean(other) or not all(
            fx.expr_is_clean(t) for _, t in terms):
        return None
    shift, negated = _AS_AT_LEAST[op]
    threshold = other  # cash + a - b op other  <=>  cash op other - a + b
    for sign, term in terms:
        threshold = ir.Binary(ir.INT, "-" if sign == "+" else "+", threshold, term)
    if shift:
        threshold = ir.Binary(ir.INT, "+", threshold, ir.Const(ir.INT, shift))
    test = ir.KernelCall(ir.BOOL, AT_LEAST, (cash, threshold))
    return ir.Unary(ir.BOOL, "not", test) if negated else test


def cash_ranged(a: ir.Aggregate, cash: ir.Expr, fx: Effects) -> ir.Aggregate | None:
    """The aggregate with its comparisons of `cash` (a player parameter's) made
    range-keeping, or None when some read of that cash is not such a comparison."""
    if any(n == cash for e in (*domain_exprs(a.domain), a.guard) for n in walk_expr(e)):
        return None  # the cash decides the walk itself (`for x in 0..p.cash`)
    rewritten: list[ir.Expr | None] = []
    for e in (a.where, a.value, *(h for _, h in a.hoisted)):
        if e is not None:
            e = map_expr(e, lambda n: at_least_test(n, cash, fx) or n)
            e = map_expr(e, lambda n: _without_implied(n, fx))
            tests = [n for n in walk_expr(e) if isinstance(n, ir.KernelCall)
                     and n.function == AT_LEAST]
            if sum(n == cash for n in walk_expr(e)) != sum(t.args[0] == cash for t in tests):
                return None
        rewritten.append(e)
    where, value, *hoisted = rewritten
    return dataclasses.replace(a, where=where, value=value, hoisted=tuple(
        (name, h) for (name, _), h in zip(a.hoisted, hoisted, strict=True)))


def _at_least(e: ir.Expr) -> bool:
    return isinstance(e, ir.KernelCall) and e.function == AT_LEAST


def above(stronger: ir.Expr, weaker: ir.Expr) -> bool:
    """Whether `stronger` is `weaker` plus a constant of at least 0 (or `weaker` itself)."""
    if stronger == weaker:
        return True
    if isinstance(stronger, ir.Binary) and stronger.op == "+":
        for amount, rest in ((stronger.left, stronger.right), (stronger.right, stronger.left)):
            if isinstance(amount, ir.Const) and isinstance(amount.value, int) \
                    and amount.value >= 0 and rest == weaker:
                return True
    return False


def _without_implied(e: ir.Expr, fx: Effects) -> ir.Expr:
    """A chain of `and` without the cash tests a stronger one in it implies."""
    if not (isinstance(e, ir.Binary) and e.op == "and"):
        return e
    operands = chain_of(e, "and")
    length = len(operands)
    at = 0
    while at < len(operands):
        first = operands[at]
        later = at + 1
        while _at_least(first) and later < len(operands) and fx.expr_is_clean(operands[later]):
            other = operands[later]
            if _at_least(other) and other.args[0] == first.args[0]:
                if above(other.args[1], first.args[1]):  # the later one is the stronger
                    operands[at] = first = other
                    del operands[later]
                    continue
                if above(first.args[1], other.args[1]):
                    del operands[later]
                    continue
            later += 1
        at += 1
    return e if len(operands) == length else chained(operands, "and")
