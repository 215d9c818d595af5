"""Skip a loop that can do nothing while its askers take their decisions' defaults.

`for q in players where q != p and jail_card_of(q) != none { let price = ask
offer_for_jail_card(p, q) ... if price != none and ... }`: the default strategy offers
nothing (`default none`), so under the built-in default policy the loop goes round
the table, asks, and does nothing, every time a window asks p. A decision whose
default answer is a constant (an optional one's `none`, a yes/no constant) gives it
without looking at the game when nothing is scripted, forced or traced and its seat
plays the default policy (the kernel's `k_default_answers`: the inline answer of
`decide_`). When the loop's body, with those answers put in, folds away to nothing,
the loop runs only when one of its askers would not answer so: skipping it is then
unobservable (its domain and filter are pure and safe, as every such ask is).
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from ...common.error_codes import ErrorCode
from .. import nodes as ir
from .conjuncts import chained
from .effects import Effects
from .fold import Folder
from .walk import assigned_locals, map_body, map_expr, map_stmts, substitute_locals, walk_expr


def _answer_unasked(d: ir.Decision, fx: Effects) -> ir.Const | None:
    """The constant the default policy answers with inline (decide_'s fast path), if any."""
    if d.default is not None and not isinstance(d.default, ir.Const):
        return None
    if d.kind == "bool":
        return d.default or ir.Const(ir.BOOL, False)
    if not d.optional or d.default is not None and d.default.type.name != "none":
        return None
    # a number's bounds are worked out before its default; an option's none is returned
    # before any check only when the decision is lazy
    answered = fx.expr_is_clean(d.low) and fx.expr_is_clean(d.high) if d.kind == "int" \
        else d.lazy
    return ir.Const(ir.NONE, -1) if answered else None


class _Idle:
    def __init__(self, program: ir.Program, fx: Effects):
        self.fx = fx
        self.decisions = {f"decide_{d.name}": d for d in program.decisions}
        self.folder = Folder(fx, Reporter().reporting(ErrorCode.CONSTANT_OUT_OF_RANGE))

    def askers(self, loop: ir.Loop) -> tuple[ir.Expr, ...] | None:
        """The seats whose default answers leave the loop nothing to do, or None when they
        would not (or a seat depends on the round, or the walk may change or fail)."""
        if not all(self.fx.expr_is_clean(e) for e in (
                loop.where, loop.order_where, loop.order, loop.domain.low, loop.domain.high)):
            return None
        assigned = assigned_locals(loop.body)
        seats: list[ir.Expr] = []

        def answered(e: ir.Expr) -> ir.Expr:
            d = self.decisions.get(e.function) if isinstance(e, ir.CallProc) else None
            answer = _answer_unasked(d, self.fx) if d is not None else None
            if answer is None or not all(self.fx.expr_is_clean(a) for a in e.args):
                return e
            seat = substitute_locals(d.by, {name: arg for (name, _), arg in
                                            zip(d.params, e.args, strict=True)})
            if seat not in seats:
                seats.append(seat)
            return dataclasses.replace(answer, type=e.type)

        body = map_body(loop.body, answered)
        if not seats or any(isinstance(n, ir.Local) and (n.name == loop.var or n.name in assigned)
                            for seat in seats for n in walk_expr(seat)):
            return None
        return tuple(seats) if not self.folder.block(_constants_put_in(body)) else None


def _constants_put_in(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    """The block with each `let x = constant` (x never assigned again) put in x's place."""
    assigned = assigned_locals(body)
    known: dict[str, ir.Expr] = {}
    out: list[ir.Stmt] = []
    for s in body:
        if known:
            s = map_body((s,), lambda e: map_expr(e, lambda n: known.get(n.name, n)
                                                  if isinstance(n, ir.Local) else n))[0]
        if isinstance(s, ir.Declare) and isinstance(s.value, ir.Const) \
                and s.name not in assigned:
            known[s.name] = s.value
            continue
        out.append(s)
    return tuple(out)


def skip_idle_loops(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Test, before a loop that its askers' default answers leave with nothing to do,
    whether they all answer so (then skip it)."""
    idle = _Idle(program, fx)

    def skipped(s: ir.Stmt) -> ir.Stmt:
        seats = idle.askers(s) if isinstance(s, ir.Loop) else None
        if seats is None:
            return s
        default = chained([ir.KernelCall(ir.BOOL, "k_default_answers", (seat,))
                           for seat in seats], "and")
        return ir.If(s.span, ir.Unary(ir.BOOL, "not", default), (s,), ())

    functions = tuple(dataclasses.replace(f, body=map_stmts(f.body, skipped))
                      for f in program.functions)
    return dataclasses.replace(program, functions=functions)
