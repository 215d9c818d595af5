"""Inline small procedures and drop the ones nothing calls any more.

A procedure whose body is one `return expr` (`can_trade(s)`, `lift_cost(s)`)
is replaced at each call by its expression, with the arguments substituted,
when every argument is pure and safe (so evaluating it where, and as often as,
the body uses it is unobservable). Inlining lets the conjunct and index passes
see through the call, and it removes a C call from the hot loops. An argument
that calls a procedure is not copied to several uses: the call would be made
again for each. Once an aggregate's invariant arguments are hoisted out of its
loop (hoist.py), the calls left take a hoisted value and are inlined then.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects, program_code
from .fold import negate
from .walk import map_expr, map_program_exprs, substitute_locals, unused_name, walk_expr

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
    return _inlined(program, fx, lambda body: True)


def inline_hoisted(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """inline-procedures again, after hoist-invariants, of bodies that cannot fail: an
    error of the procedure's own would otherwise name the aggregate's rule instead of the
    procedure, as it does without hoisting (where the call stays)."""
    return _inlined(program, fx, fx.expr_is_safe)


def _inlined(program: ir.Program, fx: Effects, eligible: Callable[[ir.Expr], bool]
             ) -> ir.Program:
    bodies = {f.name: (f.params, body) for f in program.functions
              if (body := _inlinable(f)) is not None and not _recursive(f.name, body)
              and sum(1 for _ in walk_expr(body)) <= MAX_INLINED and eligible(body)}

    def node(e: ir.Expr) -> ir.Expr:
        if not isinstance(e, ir.CallProc) or e.function not in bodies:
            return e
        params, body = bodies[e.function]
        uses = [n.name for n in walk_expr(body) if isinstance(n, ir.Local)]
        for (name, ptype), arg in zip(params, e.args, strict=True):
            clean = fx.expr_is_clean(arg) or isinstance(arg, ir.Hoisted) and _read_first(
                body, name)
            if not clean or (arg.type != ptype and not isinstance(arg, ir.Const)):
                return e
            if uses.count(name) > 1 and not _duplicable(arg):
                return e
        return substitute_locals(body, {name: arg for (name, _), arg in
                                        zip(params, e.args, strict=True)})

    for _ in range(ROUNDS):
        program = map_program_exprs(program, node)
    return drop_unused_functions(program)


def _read_first(body: ir.Expr, name: str) -> bool:
    """Whether evaluating `body` starts by reading the local `name`: a value hoisted to be
    worked out where first needed (it may fail) is then worked out exactly where the call
    would have evaluated its argument, before anything else of the body."""
    while isinstance(body, ir.Conditional | ir.Binary | ir.Unary):
        body = (body.test if isinstance(body, ir.Conditional)
                else body.left if isinstance(body, ir.Binary) else body.operand)
    return isinstance(body, ir.Local) and body.name == name


def _duplicable(arg: ir.Expr) -> bool:
    """Whether an argument is cheap enough to be evaluated at each of several uses."""
    nodes = list(walk_expr(arg))
    return len(nodes) <= _DUPLICABLE and not any(isinstance(n, ir.CallProc) for n in nodes)


def lets_as_arguments(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """A procedure that binds its locals first, from its parameters, and then only returns
    (`let level = next_level(p)`, then `if level == 3 { return ... }` and so on) becomes
    a call of a variant that takes those locals as parameters, with their expressions as
    the arguments: the same evaluation, in the same order. Called inside an aggregate's
    loop, the argument that does not depend on the loop variable is then hoisted out of
    it, and the variant, one expression, inlined: `need_of(p, r)` for each value r asks
    for p's next level once instead of once for each value."""
    names = {f.name for f in program.functions} | {a.name for a in program.aggregates}
    functions: list[ir.Function] = []
    for f in program.functions:
        split = _split_leading_lets(f, fx, names)
        functions.extend(split or (f,))
    return dataclasses.replace(program, functions=tuple(functions))


def _split_leading_lets(f: ir.Function, fx: Effects, names: set[str]
                        ) -> tuple[ir.Function, ir.Function] | None:
    """The procedure as a call of its variant, and the variant; None when `f` does not
    start with locals bound from its parameters alone, then only returns."""
    if (not f.name.startswith("proc_") or f.guard is not None or f.name in fx.recursive
            or f.returns in (ir.VOID, ir.STR)):
        return None
    count = next((at for at, stmt in enumerate(f.body) if not isinstance(stmt, ir.Declare)),
                 len(f.body))
    lets = f.body[:count]
    params = {name for name, _ in f.params}
    bound = [d.name for d in lets]
    if not lets or {name for name, _ in f.locals} != set(bound) or len(set(bound)) < len(bound):
        return None  # no lets, another local, or one bound twice
    if params & set(bound) or any(isinstance(n, ir.Local) and n.name not in params
                                  for d in lets for n in walk_expr(d.value)):
        return None  # a let that shadows a parameter, or reads another let
    value = _as_expression(f.body[count:])
    if value is None or value.type != f.returns and not isinstance(value, ir.Conditional):
        return None
    name = unused_name(f"{f.name}__given_{'_'.join(d.name for d in lets)}", names)
    names.add(name)
    span = f.body[-1].span
    variant = dataclasses.replace(f, name=name, params=f.params + tuple(
        (d.name, d.type) for d in lets), locals=(), body=(ir.Return(span, value),))
    call = ir.CallProc(f.returns, name, tuple(ir.Local(t, n) for n, t in f.params)
                       + tuple(d.value for d in lets))
    return dataclasses.replace(f, locals=(), body=(ir.Return(span, call),)), variant


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
