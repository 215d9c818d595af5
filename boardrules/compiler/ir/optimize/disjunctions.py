"""Factoring a common test out of a disjunction: `(A and B) or (A and C)` becomes
`A and (B or C)`.

`best(... where (s.owner == p and s.buildings > 0) or (s.owner == p and not s.mortgaged))`
scans every space although both alternatives need p to own it; with the owner test in
front, index-filters turns the scan into a walk over p's spaces. A conjunct is factored
out only when, in every alternative, it and every conjunct before it are pure and safe
and none is a none test: evaluating it first then skips nothing that could write or
raise, and it is evaluated once instead of once per alternative.
"""

from __future__ import annotations

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .conjuncts import chain_of, chained, is_none_test
from .effects import Effects
from .walk import map_program_exprs


def factor_disjunctions(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    def movable(conjuncts: list[ir.Expr]) -> list[ir.Expr]:
        """The leading conjuncts that may be evaluated first."""
        prefix = []
        for c in conjuncts:
            if not fx.expr_is_clean(c) or is_none_test(c):
                break
            prefix.append(c)
        return prefix

    def node(e: ir.Expr) -> ir.Expr:
        if not (isinstance(e, ir.Binary) and e.op == "or"):
            return e
        chains = [chain_of(a, "and") for a in chain_of(e, "or")]
        leads = [movable(chain) for chain in chains]
        common = [c for c in leads[0] if all(c in lead for lead in leads[1:])]
        if not common:
            return e
        rests = [[c for c in chain if c not in common] for chain in chains]
        if any(not rest for rest in rests):  # A or (A and B) is A
            return chained(common, "and")
        either = chained([chained(rest, "and") for rest in rests], "or")
        return chained([*common, either], "and")

    return map_program_exprs(program, node)
