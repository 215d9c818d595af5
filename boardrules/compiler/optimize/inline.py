"""Inline small procedures and drop the ones nothing calls any more.

A procedure whose body is one `return expr` (`can_trade(s)`, `lift_cost(s)`)
is replaced at each call by its expression, with the arguments substituted,
when every argument is pure and safe (so evaluating it where, and as often as,
the body uses it is unobservable). Inlining lets the conjunct and index passes
see through the call, and it removes a C call from the hot loops.
"""

from __future__ import annotations

import dataclasses

from .. import ir
from ..diagnostics import Reporter
from .effects import Effects, program_code
from .fold import negate
from .walk import map_expr, map_program_exprs, substitute_locals, walk_expr

ROUNDS = 3  # nested small procedures inline through this many levels
MAX_INLINED = 80  # nodes: a larger body stays a call
_DUPLICABLE = 4  # an argument of at most this many nodes may be evaluated more than once


def _inlinable(f: ir.Function) -> ir.Expr | None:
    if not f.name.startswith("proc_") or f.locals or f.guard is not None:
        return None
    if len(f.body) != 1 or not isinstance(f.body[0], ir.Return) or f.body[0].value is None:
        return None
    return f.body[0].value


def _as_expression(body: tuple[ir.Stmt, ...]) -> ir.Expr | None:
    """`if t { return a } ... return z` as one expression (`if t then a else ...`), or None
    when the body does anything else (a local, an assignment, a loop)."""
    if not body:
        return None
    first, rest = body[0], body[1:]
    if isinstance(first, ir.Return) and not rest:
        return first.value
    if not isinstance(first, ir.If):
        return None
    then = _as_expression(first.then)
    otherwise = _as_expression(first.otherwise + rest) if first.otherwise or rest else None
    if then is None or otherwise is None:
        return None
    if then.type == ir.BOOL and isinstance(then, ir.Const):  # if t then false else e: not t and e
        test = first.test if then.value else negate(first.test)
        return ir.Binary(ir.BOOL, "or" if then.value else "and", test, otherwise)
    return ir.Conditional(then.type, first.test, then, otherwise)


def returns_as_expressions(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """A procedure made only of early returns becomes one `return` of an expression (exactly
    the same evaluation), so that it can be inlined and its tests reordered."""
    def flatten(f: ir.Function) -> ir.Function:
        if not f.name.startswith("proc_") or f.locals or f.returns in (ir.VOID, ir.STR) or (
                _inlinable(f) is not None):
            return f
        value = _as_expression(f.body)
        if value is None or value.type != f.returns and not isinstance(value, ir.Conditional):
            return f
        return dataclasses.replace(f, body=(ir.Return(f.body[-1].span, value),))

    return dataclasses.replace(program, functions=tuple(flatten(f) for f in program.functions))


def inline_procedures(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    bodies = {f.name: (f.params, body) for f in program.functions
              if (body := _inlinable(f)) is not None and not _recursive(f.name, body)
              and sum(1 for _ in walk_expr(body)) <= MAX_INLINED}

    def node(e: ir.Expr) -> ir.Expr:
        if not isinstance(e, ir.CallProc) or e.function not in bodies:
            return e
        params, body = bodies[e.function]
        uses = [n.name for n in walk_expr(body) if isinstance(n, ir.Local)]
        for (name, ptype), arg in zip(params, e.args, strict=True):
            if not fx.expr_is_clean(arg) or (arg.type != ptype and not isinstance(arg, ir.Const)):
                return e
            if uses.count(name) > 1 and sum(1 for _ in walk_expr(arg)) > _DUPLICABLE:
                return e
        return substitute_locals(body, {name: arg for (name, _), arg in
                                        zip(params, e.args, strict=True)})

    for _ in range(ROUNDS):
        program = map_program_exprs(program, node)
    return drop_unused_functions(program)


def _recursive(name: str, body: ir.Expr) -> bool:
    return any(isinstance(n, ir.CallProc) and n.function == name for n in walk_expr(body))


def drop_unused_functions(program: ir.Program) -> ir.Program:
    """Procedures and aggregates that no code reaches any more are not generated."""
    code = program_code(program)
    roots = {name for name in code if not name.startswith(("proc_", "agg_"))}
    roots |= {n.function for root in (program.first_player, program.over_when, program.score,
                                      program.round_limit, program.bankruptcy_ends)
              for n in walk_expr(root) if isinstance(n, ir.CallProc)}
    live: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in live:
            continue
        live.add(name)
        if name in code:
            stack.extend(code[name].calls)
    return dataclasses.replace(
        program,
        functions=tuple(f for f in program.functions if f.name in live),
        aggregates=tuple(a for a in program.aggregates if a.name in live))


def _early_exit(f: ir.Function) -> ir.Expr | None:
    """The test of a leading `if test { return false }` of a procedure giving a bool."""
    if not f.name.startswith("proc_") or f.returns != ir.BOOL or not f.body:
        return None
    first = f.body[0]
    if (isinstance(first, ir.If) and not first.otherwise and len(first.then) == 1
            and isinstance(first.then[0], ir.Return)
            and first.then[0].value == ir.Const(ir.BOOL, False)):
        return first.test
    return None


def lift_early_exits(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """In filters, `may_build(p, s)` becomes `not (s.owner != p or ...) and may_build(p, s)`
    when the procedure starts by returning false on a pure and safe test: the filter then
    rejects most candidates with a few array reads instead of a call (the conjunct pass
    puts the cheap test first)."""
    exits = {f.name: (f.params, test) for f in program.functions
             if (test := _early_exit(f)) is not None and fx.expr_is_clean(test)}

    def node(e: ir.Expr) -> ir.Expr:
        if not isinstance(e, ir.CallProc) or e.function not in exits:
            return e
        params, test = exits[e.function]
        if not all(fx.expr_is_clean(a) and (a.type == t or isinstance(a, ir.Const))
                   for (_, t), a in zip(params, e.args, strict=True)):
            return e
        lifted = substitute_locals(test, {name: arg for (name, _), arg in
                                          zip(params, e.args, strict=True)})
        return ir.Binary(ir.BOOL, "and", ir.Unary(ir.BOOL, "not", lifted), e)

    def where(e: ir.Expr | None) -> ir.Expr | None:
        return None if e is None else map_expr(e, node)

    return dataclasses.replace(
        program,
        aggregates=tuple(dataclasses.replace(a, where=where(a.where))
                         for a in program.aggregates),
        decisions=tuple(dataclasses.replace(d, where=where(d.where))
                        for d in program.decisions))
