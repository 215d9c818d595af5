"""Procedures whose first tests run inline in their callers, and the small ones C inlines.

A procedure that begins with a test that may end it (`if rents_due == 0 { return }`), or
with a question whose default answer none ends it (`build_wanted`, `lift_mortgages` at
every turn's end), costs its callers a call, a frame and a return to learn that it has
nothing to do. Those tests are emitted inline, early returns, and the rest of the body is
a function of its own (`rest_`), called only when they let it run. Small questions, and
short procedures called from one place only, are inline whole.
"""

from __future__ import annotations

from ..ir import nodes as ir
from ..ir.depth_counts import depth_counted
from ..ir.optimize.effects import UNWINDING_KERNEL, Effects, program_code
from ..ir.optimize.fold import negate
from ..ir.optimize.index import is_none_const, sides
from ..ir.optimize.walk import body_exprs, substitute_locals, walk_stmts

INLINED_STATEMENTS = 8  # a procedure of at most this many statements, none a loop, is inline


def inlined_functions(program: ir.Program, fx: Effects) -> set[str]:
    """Small procedures that only compute a value (`owns_group(p, g)`, or a few tests and
    returns: no loop, no write): C inlines them, so a question asked through
    one costs no extra call."""
    return {f.name for f in program.functions
            if f.rule_index < 0 and f.name not in fx.recursive and f.guard is None
            and f.name not in fx.impure and f.returns.name not in ("void", "error")
            and len(list(walk_stmts(f.body))) <= INLINED_STATEMENTS
            and not any(isinstance(s, ir.Loop | ir.While) for s in walk_stmts(f.body))}


# a procedure called from one place, at most this long and without a loop, is inline
CALLED_ONCE_STATEMENTS = 16


def called_once(program: ir.Program, fx: Effects) -> set[str]:
    """Procedures and handlers called from one place only (a rule's handler, from its
    event's dispatch; a procedure only one rule calls), short ones without a loop: C
    inlines them there, so that the turn's chain of rule, handler and procedure costs no
    frame each (gcc's own inlining of a function called once does not apply: a method's
    address is taken, for its class's table)."""
    sites: dict[str, int] = {}
    for code in program_code(program).values():
        for n in code.exprs:
            if isinstance(n, ir.CallProc):
                sites[n.function] = sites.get(n.function, 0) + 1
    return {f.name for f in program.functions
            if sites.get(f.name) == 1 and f.name not in fx.recursive
            and len(list(walk_stmts(f.body))) <= CALLED_ONCE_STATEMENTS
            and not any(isinstance(s, ir.Loop | ir.While) for s in walk_stmts(f.body))}


def entry_tests(program: ir.Program, fx: Effects) -> dict[str, tuple[tuple[ir.If, ...],
                                                                    tuple[ir.Stmt, ...]]]:
    """Procedures that begin with tests that may end them (`if rents_due == 0 { return
    }`, or a whole body under one test; then a question whose default answer none ends
    them): those tests, made early returns, are inline in their callers, and the rest
    (`rest_`) a call, made only when the tests let it run."""
    inlined = inlined_functions(program, fx)
    decisions = {f"decide_{d.name}": d for d in program.decisions}
    counted = depth_counted(program)
    tests = {}
    for f in program.functions:
        if f.rule_index >= 0 or f.guard is not None or f.name in inlined or not f.body:
            continue
        if f.name in fx.recursive:
            # a call of itself goes through the inline branch again: a plain branch only,
            # and not where the depth is counted (the count wraps the whole body)
            split = None if f.name in counted else _plain_branch_split(f, fx)
            if split is not None:
                tests[f.name] = split
            continue
        entry: tuple[ir.If, ...] = ()
        rest = f.body
        first = f.body[0]
        if isinstance(first, ir.If) and not first.otherwise and fx.expr_is_clean(first.test):
            if len(first.then) == 1 and isinstance(first.then[0], ir.Return) \
                    and fx.expr_is_clean(first.then[0].value) and len(f.body) > 1:
                entry, rest = (first,), f.body[1:]
            elif len(f.body) == 1 and f.returns.name == "void":
                leave = ir.If(first.span, negate(first.test), (ir.Return(first.span, None),), ())
                entry, rest = (leave,), first.then
        elif (split := _plain_branch_split(f, fx)) is not None:
            entry, rest = split
        exit_on_none = _default_none_exit(rest, decisions, fx, f.returns.name == "void")
        if exit_on_none is not None:
            entry += (exit_on_none,)  # the rest asks the question again: a kept answer
        if entry:
            tests[f.name] = (entry, rest)
    return tests


# a procedure's other branch, at most this many statements, is inline in its callers
PLAIN_BRANCH_STATEMENTS = 2


def _plain_branch_split(f: ir.Function, fx: Effects
                        ) -> tuple[tuple[ir.If, ...], tuple[ir.Stmt, ...]] | None:
    """A procedure that returns nothing and is all one test with two branches, the second
    a few kernel calls (a payment) that call no procedure, declare nothing and cannot end
    the turn (`charge`: `if short { raise it... } else { pay(...) }`): that branch,
    cheap to copy, inline in the callers, where the common case then costs no call; the
    other the rest."""
    first = f.body[0]
    if len(f.body) != 1 or f.returns.name != "void" or not isinstance(first, ir.If) \
            or not fx.expr_is_clean(first.test):
        return None
    plain = first.otherwise
    if not 0 < len(plain) <= PLAIN_BRANCH_STATEMENTS \
            or not all(isinstance(s, ir.Evaluate) and isinstance(s.expr, ir.KernelCall)
                       for s in plain) \
            or any(isinstance(n, ir.CallProc) or isinstance(n, ir.KernelCall)
                   and n.function in UNWINDING_KERNEL for n in body_exprs(plain)):
        return None
    fast = ir.If(first.span, negate(first.test), (*plain, ir.Return(first.span, None)), ())
    return (fast,), first.then


def _default_none_exit(body: tuple[ir.Stmt, ...], decisions: dict[str, ir.Decision],
                       fx: Effects, void: bool) -> ir.If | None:
    """`let x = ask d(...)` then `if x == none { return }`, or, all of a procedure that
    returns nothing, then `while x != none { ... }` (a loop that asks again: `build_wanted`),
    where the default policy's answer none is worked out inline, writing nothing
    (`trade_offer`'s partner): the same return when the asker takes its defaults and the
    default is none, so that the caller does not call the rest of the procedure to learn
    it."""
    if len(body) < 2 or not isinstance(ask := body[0], ir.Declare) \
            or not isinstance(ask.value, ir.CallProc) or ask.value.function not in decisions:
        return None
    d = decisions[ask.value.function]
    leave = body[1]
    if not (d.lazy and d.optional and d.kind not in ("bool", "int")
            and fx.expr_is_pure(d.default) and all(fx.expr_is_clean(a) for a in ask.value.args)):
        return None
    if isinstance(leave, ir.While) and void and len(body) == 2:
        none, then = _none_tested(leave.test, ask.name, "!="), (ir.Return(leave.span, None),)
    elif isinstance(leave, ir.If) and not leave.otherwise and len(leave.then) == 1 \
            and isinstance(leave.then[0], ir.Return) and leave.then[0].value is None:
        none, then = _none_tested(leave.test, ask.name, "=="), leave.then
    else:
        return None
    if none is None:
        return None
    arguments = {name: arg for (name, _), arg in zip(d.params, ask.value.args, strict=True)}
    default = none if d.default is None else substitute_locals(d.default, arguments)
    test = ir.Binary(ir.BOOL, "and", ir.KernelCall(ir.BOOL, "k_default_answers",
                                                   (substitute_locals(d.by, arguments),)),
                     ir.Binary(ir.BOOL, "==", default, none))
    return ir.If(leave.span, test, then, ())


def _none_tested(test: ir.Expr, name: str, op: str) -> ir.Const | None:
    """The constant none of `name == none` (or `op`; either way round), else None."""
    for local, none in sides(test, op):
        if isinstance(local, ir.Local) and local.name == name and is_none_const(none):
            return none
    return None
