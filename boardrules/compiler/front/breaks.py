"""`break`: leave the innermost `for` or `while` loop, lowered to IR every pass knows.

A loop with a `break` gets a flag local, false before the loop; `break` sets it; the
statements after one that may set it, in the same block and in the blocks around it up
to the loop's body, run only while it is unset; and the loop's filter (`for`) or test
(`while`) checks it first, so that no member is visited and no test is evaluated once it
is set. The optimizer's passes, the effects analysis and both backends then see flags,
conditions and filters only: none has to learn what a jump out of a loop means. A `for`
loop still walks the rest of its domain, member by member, reading only the flag.
"""

from __future__ import annotations

import dataclasses

from ..common.diagnostics import Span
from ..ir import nodes as ir
from ..ir.nodes import BOOL
from ..ir.optimize.walk import walk_stmts


def flag_set(span: Span, flag: str) -> ir.Stmt:
    """What `break` lowers to."""
    return ir.Assign(span, ir.Local(BOOL, flag), "=", ir.Const(BOOL, True))


def unset(flag: str) -> ir.Expr:
    return ir.Unary(BOOL, "not", ir.Local(BOOL, flag))


def sets(s: ir.Stmt, flag: str) -> bool:
    return any(isinstance(t, ir.Assign) and t.target == ir.Local(BOOL, flag)
               for t in walk_stmts((s,)))


def guard_rest(body: tuple[ir.Stmt, ...], flag: str) -> tuple[ir.Stmt, ...]:
    """The body with what follows a statement that may break run only while the flag is
    unset (inner loops have flags of their own: a `break` leaves the innermost loop)."""
    out: list[ir.Stmt] = []
    for i, s in enumerate(body):
        if isinstance(s, ir.If):
            s = ir.If(s.span, s.test, guard_rest(s.then, flag), guard_rest(s.otherwise, flag))
        out.append(s)
        rest = body[i + 1:]
        if rest and sets(s, flag):
            out.append(ir.If(rest[0].span, unset(flag), guard_rest(rest, flag), ()))
            break
    return tuple(out)


def broken_out(loop: ir.Loop | ir.While, flag: str) -> tuple[ir.Stmt, ir.Stmt]:
    """The flag's declaration and the loop that checks it."""
    declare = ir.Declare(loop.span, flag, BOOL, ir.Const(BOOL, False))
    body = guard_rest(loop.body, flag)
    if isinstance(loop, ir.While):
        return declare, ir.While(loop.span, ir.Binary(BOOL, "and", unset(flag), loop.test), body)
    where = unset(flag) if loop.where is None else ir.Binary(BOOL, "and", unset(flag),
                                                             loop.where)
    return declare, dataclasses.replace(loop, where=where, body=body)
