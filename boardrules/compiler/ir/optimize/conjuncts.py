"""Cheap-first ordering of side-effect-free conjuncts and disjuncts.

`can_trade(s) and s.owner != none and s.owner != p` scans a colour group
before two array reads could have rejected the space. Within a chain of
`and` (or of `or`), operands that are pure and safe are stably sorted by an
estimated cost; an operand that may write or raise, or that tests for none, stays where it is and no
operand moves across it, so the result, and every effect, is unchanged. The same pure
and safe operand twice in such a run (`c.res != none and c.res != none`, once two
inlined procedures have each tested it) is kept once: nothing between them can change
its value.
"""

from __future__ import annotations

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import map_program_exprs, walk_expr

_CALL_COST = {"agg_": 100, "proc_": 30}


def cost(e: ir.Expr) -> int:
    """A rough cost: array reads and arithmetic are cheap, calls and scans are not."""
    total = 0
    for n in walk_expr(e):
        match n:
            case ir.CallProc():
                total += next((c for prefix, c in _CALL_COST.items()
                               if n.function.startswith(prefix)), 50)
            case ir.KernelCall():
                total += 5
            case ir.Const() | ir.Local():
                pass
            case _:
                total += 1
    return total


def _rank(e: ir.Expr) -> tuple[int, int]:
    """Cheapest first; among equally cheap tests, an equality first (it rejects the most)."""
    return cost(e), 0 if isinstance(e, ir.Binary) and e.op == "==" else 1


def is_none_test(e: ir.Expr) -> bool:
    """`x != none` or `x == none` of a local: it narrows x for the operands after it, so it is
    a barrier that no operand crosses (one after it may index an array with x)."""
    return isinstance(e, ir.Binary) and e.op in ("==", "!=") and any(
        isinstance(side, ir.Const) and side.type.name == "none" and isinstance(other, ir.Local)
        for side, other in ((e.left, e.right), (e.right, e.left)))


def chain_of(e: ir.Expr, op: str) -> list[ir.Expr]:
    """The operands of a chain of one operator: `a and b and c` gives [a, b, c]."""
    if isinstance(e, ir.Binary) and e.op == op:
        return chain_of(e.left, op) + chain_of(e.right, op)
    return [e]


def chained(operands: list[ir.Expr], op: str, type_: ir.Type = ir.BOOL) -> ir.Expr:
    """`chain_of` undone: the operands joined, left to right, by one operator (a boolean
    one, or, of `type_`, another: the words of bits of masks.py)."""
    result = operands[0]
    for operand in operands[1:]:
        result = ir.Binary(type_, op, result, operand)
    return result


def order_conjuncts(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    def node(e: ir.Expr) -> ir.Expr:
        if not (isinstance(e, ir.Binary) and e.op in ("and", "or")):
            return e
        operands = chain_of(e, e.op)
        ordered: list[ir.Expr] = []
        run: list[ir.Expr] = []
        for operand in operands:
            if fx.expr_is_clean(operand) and not is_none_test(operand):
                if operand not in run:  # the same test twice (after inlining): once
                    run.append(operand)
                continue
            ordered += sorted(run, key=_rank) + [operand]
            run = []
        ordered += sorted(run, key=_rank)
        return e if ordered == operands else chained(ordered, e.op)

    return map_program_exprs(program, node)
