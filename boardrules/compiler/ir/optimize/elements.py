"""Drop the bounds check of a list's value read by a loop variable that walks its range.

`sum(p.tools[t] for t in each tool)` reads one of a player's three tools by t,
which the loop walks over exactly 0 to 2: the check that t is within the list (a
rules error otherwise) cannot fail, and it made the question fallible, so it could
not be guarded, hoisted or answered lazily. The same for a decision's options
(`where t: p.tools[t] > 0`), for a `for` loop whose variable is never assigned, for
a constant within the list (`p.tools[saw]`), and for any value of the enum that indexes
the list (`p.res[r]`, r a resource: the type allows only its members, and the
check stayed where an inlined procedure's parameter became the loop's variable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects
from .walk import assigned_locals, map_expr, map_program_exprs, map_stmt_exprs


def _walks(domain: ir.Domain | None, var: str, e: ir.Expr) -> bool:
    """Whether e's element is a constant within its list, a value of the enum that indexes
    the list (never none: one of its members), or `var`, which the domain walks over
    exactly [0, stride)."""
    if isinstance(e.element, ir.Const):
        return isinstance(e.element.value, int) and 0 <= e.element.value < e.stride
    if e.index_enum and e.element.type == ir.Type(e.index_enum):
        return True
    return (domain is not None and domain.kind == "range" and e.element == ir.Local(
        e.element.type, var) and domain.low == ir.Const(ir.INT, 0)
        and domain.high == ir.Const(ir.INT, e.stride))


def _known(domain: ir.Domain | None, var: str) -> Callable[[ir.Expr], ir.Expr]:
    def mark(e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.State | ir.Table) and e.element is not None \
                and not e.element_known and _walks(domain, var, e):
            return dataclasses.replace(e, element_known=True)
        return e
    return mark


def _marked(body: tuple[ir.Stmt, ...], var: str, mark) -> tuple[ir.Stmt, ...]:
    """The block with `mark` applied to its expressions, but not inside a nested loop that
    names its own variable `var` (there `var` is that loop's)."""
    out = []
    for s in body:
        if isinstance(s, ir.Loop) and s.var == var:
            out.append(s)
            continue
        s = map_stmt_exprs(s, lambda e: map_expr(e, mark))
        match s:
            case ir.If():
                s = dataclasses.replace(s, then=_marked(s.then, var, mark),
                                        otherwise=_marked(s.otherwise, var, mark))
            case ir.While() | ir.Loop():
                s = dataclasses.replace(s, body=_marked(s.body, var, mark))
        out.append(s)
    return tuple(out)


def _block(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    out = []
    for s in body:
        match s:
            case ir.If():
                s = dataclasses.replace(s, then=_block(s.then), otherwise=_block(s.otherwise))
            case ir.While():
                s = dataclasses.replace(s, body=_block(s.body))
            case ir.Loop():
                inner = _block(s.body)
                if s.var not in assigned_locals(inner):
                    mark = _known(s.domain, s.var)
                    inner = _marked(inner, s.var, mark)
                    s = dataclasses.replace(s, where=map_expr(s.where, mark),
                                            order_where=map_expr(s.order_where, mark),
                                            order=map_expr(s.order, mark))
                s = dataclasses.replace(s, body=inner)
        out.append(s)
    return tuple(out)


def known_elements(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Mark the list reads whose element is a constant within the list, or that a loop,
    an aggregate or a decision walks."""
    constants = _known(None, "")
    program = map_program_exprs(program, lambda e: map_expr(e, constants))
    aggregates = tuple(dataclasses.replace(
        a, where=map_expr(a.where, _known(a.domain, a.var)),
        value=map_expr(a.value, _known(a.domain, a.var))) for a in program.aggregates)
    decisions = tuple(dataclasses.replace(
        d, where=map_expr(d.where, _known(d.domain, d.var))) for d in program.decisions)
    functions = tuple(dataclasses.replace(f, body=_block(f.body)) for f in program.functions)
    return dataclasses.replace(program, aggregates=aggregates, decisions=decisions,
                               functions=functions)
