"""Merge aggregates that compute the same thing.

The checker lifts every aggregate expression into its own method, so the same
`any(t.buildings > 0 for t in spaces where t.group == s.group)` written in two
procedures becomes two methods. Aggregates equal up to the names of their
variable and parameters are merged into the first, and calls are redirected.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import map_domain, map_expr, map_program_exprs


def _shape(a: ir.Aggregate) -> tuple:
    """The aggregate with its variable and parameters renamed by position."""
    names = {a.var: "_var"} | {name: f"_p{i}" for i, (name, _) in enumerate(a.params)}

    def rename(e: ir.Expr) -> ir.Expr:
        return ir.Local(e.type, names.get(e.name, e.name)) if isinstance(e, ir.Local) else e

    return (a.kind, tuple(t for _, t in a.params), map_domain(a.domain, rename),
            map_expr(a.where, rename), map_expr(a.value, rename), a.type)


def merge_aggregates(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    while True:
        first: dict[tuple, str] = {}
        redirect: dict[str, str] = {}
        for a in program.aggregates:
            redirect_to = first.setdefault(_shape(a), a.name)
            if redirect_to != a.name:
                redirect[a.name] = redirect_to
        if not redirect:
            return program

        program = map_program_exprs(program, _redirector(redirect))
        program = dataclasses.replace(program, aggregates=tuple(
            a for a in program.aggregates if a.name not in redirect))


def _redirector(redirect: dict[str, str]):
    def node(e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.CallProc) and e.function in redirect:
            return dataclasses.replace(e, function=redirect[e.function])
        return e
    return node
