"""Constant folding and dead-branch removal, with range checks.

Params are inlined by the checker as constants, so `if false_param { ... }`,
`(1 - 1)` and `true or x` are common after lowering. This pass computes what
is known at compile time (and drops an addition of 0 or a product by 1), removes
branches that can never run and statements after an unconditional `return` or
`end turn`, and reports a folded constant outside the language's integer range
(C `int`) as a compile error.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter, Span
from ...common.lang_types import INT_MAX, INT_MIN
from .. import nodes as ir
from .effects import Effects
from .walk import map_expr, map_stmt_exprs

_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "//": lambda a, b: a // b, "%": lambda a, b: a % b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def negate(e: ir.Expr) -> ir.Expr:
    """`not e` without the `not`: a comparison flips, De Morgan splits a chain (so that the
    conjunct pass can order its parts), a double negation cancels."""
    match e:
        case ir.Binary(op=op) if op in _OPPOSITE:
            return ir.Binary(e.type, _OPPOSITE[op], e.left, e.right)
        case ir.Binary(op="and" | "or"):
            return ir.Binary(e.type, "or" if e.op == "and" else "and", negate(e.left),
                             negate(e.right))
        case ir.Unary(op="not"):
            return e.operand
    return ir.Unary(ir.BOOL, "not", e)


def _const(e: ir.Expr) -> int | bool | None:
    if isinstance(e, ir.Const) and not isinstance(e.value, str):
        return e.value
    return None


def _identity(e: ir.Binary, left: int | None, right: int | None) -> ir.Expr:
    """`x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x` and `x // 1` are x (an inlined
    procedure that returns 0, such as an edition's hook left as the library wrote it)."""
    if right is not None and (e.op in ("+", "-") and right == 0
                              or e.op in ("*", "//") and right == 1):
        return e.left
    if left is not None and (e.op == "+" and left == 0 or e.op == "*" and left == 1):
        return e.right
    return e


class Folder:
    """Folds one program; `span` is where a range error is reported."""

    def __init__(self, fx: Effects, reporter: Reporter):
        self.fx = fx
        self.reporter = reporter
        self.span: Span | None = None

    def expr(self, e: ir.Expr | None) -> ir.Expr | None:
        return map_expr(e, self.node)

    def node(self, e: ir.Expr) -> ir.Expr:
        match e:
            case ir.Unary(op="-") if _const(e.operand) is not None:
                return self._int(e, -_const(e.operand))
            case ir.Unary(op="not") if _const(e.operand) is not None:
                return ir.Const(e.type, not _const(e.operand))
            case ir.Unary(op="not"):
                return negate(e.operand)
            case ir.Binary(op="and" | "or"):
                return self._logic(e)
            case ir.Binary(op=op) if op in _ARITHMETIC:
                left, right = _const(e.left), _const(e.right)
                if left is None or right is None:
                    return _identity(e, left, right)
                if op in ("//", "%") and right == 0:
                    return e
                return self._int(e, _ARITHMETIC[op](left, right))
            case ir.Binary(op=op) if op in _COMPARE:
                left, right = _const(e.left), _const(e.right)
                if left is None or right is None:
                    return self._compare_branches(e) if right is not None else e
                return ir.Const(e.type, _COMPARE[op](left, right))
            case ir.KernelCall(function="narrow") if _const(e.args[0]) is not None:
                return self._int(e, _const(e.args[0]))
            case ir.Conditional() if _const(e.test) is not None:
                return e.then if _const(e.test) else e.otherwise
        return e

    def _compare_branches(self, e: ir.Binary) -> ir.Expr:
        """`(if t then none else x) != none` is `not t and x != none`: a branch that is a
        constant compares at compile time, the test and the other branch's comparison are
        evaluated as before (so the conjunct passes see the test: an invariant `t` is
        worked out once, before a walk)."""
        c = e.left
        if not isinstance(c, ir.Conditional):
            return e
        then, otherwise = _const(c.then), _const(c.otherwise)
        if then is not None:
            rest = self.node(dataclasses.replace(e, left=c.otherwise))
            if _COMPARE[e.op](then, _const(e.right)):
                return self.node(ir.Binary(ir.BOOL, "or", c.test, rest))
            return self.node(ir.Binary(ir.BOOL, "and", negate(c.test), rest))
        if otherwise is not None:
            rest = self.node(dataclasses.replace(e, left=c.then))
            if _COMPARE[e.op](otherwise, _const(e.right)):
                return self.node(ir.Binary(ir.BOOL, "or", negate(c.test), rest))
            return self.node(ir.Binary(ir.BOOL, "and", c.test, rest))
        return e

    def _int(self, e: ir.Expr, value: int) -> ir.Expr:
        if not INT_MIN <= value <= INT_MAX:
            if self.span is not None:
                self.reporter.error(self.span, f"the constant {value} is outside the integer "
                                    f"range ({INT_MIN} to {INT_MAX})")
            return e
        return ir.Const(e.type, value)

    def _logic(self, e: ir.Binary) -> ir.Expr:
        left, right = _const(e.left), _const(e.right)
        absorbing = e.op == "or"  # True absorbs `or`, False absorbs `and`
        if left is not None:
            return ir.Const(e.type, absorbing) if bool(left) == absorbing else e.right
        if right is not None:
            if bool(right) != absorbing:
                return e.left
            if self.fx.expr_is_clean(e.left):
                return ir.Const(e.type, absorbing)
        return e

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        out: list[ir.Stmt] = []
        for s in body:
            self.span = s.span
            s = map_stmt_exprs(s, self.node)
            match s:
                case ir.If():
                    test = _const(s.test)
                    then, otherwise = self.block(s.then), self.block(s.otherwise)
                    if test is not None:
                        out.extend(then if test else otherwise)
                    else:
                        out.append(dataclasses.replace(s, then=then, otherwise=otherwise))
                case ir.While():
                    if _const(s.test) is False:
                        continue
                    out.append(dataclasses.replace(s, body=self.block(s.body)))
                case ir.Loop():
                    out.append(dataclasses.replace(s, body=self.block(s.body)))
                case _:
                    out.append(s)
            if isinstance(out[-1] if out else None, ir.Return | ir.Raise):
                break  # what follows can never run
        return tuple(out)


def fold_constants(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Fold every function, aggregate, decision and game property of the program."""
    folder = Folder(fx, reporter)

    def function(f: ir.Function) -> ir.Function:
        folder.span = f.span
        guard = folder.expr(f.guard)
        if _const(guard) is True:
            guard = None
        return dataclasses.replace(f, body=folder.block(f.body), guard=guard)

    def aggregate(a: ir.Aggregate) -> ir.Aggregate:
        folder.span = a.span
        where = folder.expr(a.where)
        return dataclasses.replace(a, where=None if _const(where) is True else where,
                                   value=folder.expr(a.value),
                                   hoisted=tuple((name, folder.expr(e)) for name, e in a.hoisted),
                                   domain=dataclasses.replace(a.domain,
                                                              low=folder.expr(a.domain.low),
                                                              high=folder.expr(a.domain.high)))

    def decision(d: ir.Decision) -> ir.Decision:
        folder.span = d.span
        return dataclasses.replace(d, by=folder.expr(d.by), low=folder.expr(d.low),
                                   high=folder.expr(d.high), where=folder.expr(d.where),
                                   default=folder.expr(d.default),
                                   walk_where=folder.expr(d.walk_where),
                                   hoisted=tuple((name, folder.expr(e)) for name, e in d.hoisted))

    folder.span = None
    return dataclasses.replace(
        program,
        functions=tuple(function(f) for f in program.functions),
        aggregates=tuple(aggregate(a) for a in program.aggregates),
        decisions=tuple(decision(d) for d in program.decisions),
        first_player=folder.expr(program.first_player),
        over_when=folder.expr(program.over_when),
        score=folder.expr(program.score),
        round_limit=folder.expr(program.round_limit),
        bankruptcy_ends=folder.expr(program.bankruptcy_ends),
    )
