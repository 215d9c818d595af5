"""Split calls that may end the turn out of the expressions that use their value.

A call to a procedure that may end the turn, in the middle of an expression
(`if not jail_turn(p) { ... }`), is written `self.k_unwound(call)`: when the turn
ended, it raises a Python exception that the game loop catches, with a traceback
built on the way. When that call is the first thing its statement evaluates, it
can be taken out into a local of its own, `let result = jail_turn(p)`, which the
statement then reads: a call that is a whole statement only sets the unwinding
flag, checked right after it, and no exception is raised at all.
"""

from __future__ import annotations

import dataclasses

from .. import ir
from ..diagnostics import Reporter
from .effects import Effects, node_unwinds, program_code
from .walk import stmt_exprs, walk_expr, walk_stmts

TEMPORARY = "call_result_{}"


def _first_evaluated(e: ir.Expr) -> ir.Expr | None:
    """The sub-expression a statement's expression evaluates first, if there is one."""
    match e:
        case ir.Unary():
            return e.operand
        case ir.Binary():
            return e.left
        case ir.Conditional():
            return e.test
        case ir.CallProc() | ir.KernelCall() if e.args:
            return e.args[0]
    return None


def _split(e: ir.Expr, fx: Effects, at_root: bool, fresh, span: ir.Span
           ) -> tuple[list[ir.Stmt], ir.Expr]:
    """The declarations to run first and the expression that reads them. The topmost
    unwinding call on the chain of first-evaluated sub-expressions is taken out (the
    root itself only when `at_root`: a statement writes a call at its root unwrapped)."""
    chain = [e]
    while (child := _first_evaluated(chain[-1])) is not None:
        chain.append(child)
    for depth, node in enumerate(chain):
        if (depth or at_root) and node_unwinds(node, fx):
            name = fresh(node.type)
            before, lifted = _split(node, fx, False, fresh, span)
            declare = ir.Declare(span, name, node.type, lifted)
            return [*before, declare], _replace_chain(chain[:depth + 1], ir.Local(node.type, name))
    return [], e


def _replace_chain(chain: list[ir.Expr], leaf: ir.Expr) -> ir.Expr:
    """Rebuild the chain's root with its last node replaced by `leaf`."""
    node = leaf
    for parent in reversed(chain[:-1]):
        match parent:
            case ir.Unary():
                node = dataclasses.replace(parent, operand=node)
            case ir.Binary():
                node = dataclasses.replace(parent, left=node)
            case ir.Conditional():
                node = dataclasses.replace(parent, test=node)
            case _:
                node = dataclasses.replace(parent, args=(node, *parent.args[1:]))
    return node


def _body(body: tuple[ir.Stmt, ...], fx: Effects, fresh) -> tuple[ir.Stmt, ...]:
    result: list[ir.Stmt] = []
    for s in body:
        match s:
            case ir.If():
                before, test = _split(s.test, fx, True, fresh, s.span)
                s = dataclasses.replace(s, test=test, then=_body(s.then, fx, fresh),
                                        otherwise=_body(s.otherwise, fx, fresh))
            case ir.Declare():
                before, value = _split(s.value, fx, False, fresh, s.span)
                s = dataclasses.replace(s, value=value)
            case ir.Assign() if s.op == "=":  # `x += f()` reads x before calling f
                before, value = _split(s.value, fx, False, fresh, s.span)
                s = dataclasses.replace(s, value=value)
            case ir.Return() if s.value is not None:
                before, value = _split(s.value, fx, False, fresh, s.span)
                s = dataclasses.replace(s, value=value)
            case ir.Evaluate():
                before, expr = _split(s.expr, fx, False, fresh, s.span)
                s = dataclasses.replace(s, expr=expr)
            case ir.While() | ir.Loop():  # a loop's test or domain is evaluated again
                before = []
                s = dataclasses.replace(s, body=_body(s.body, fx, fresh))
            case _:
                before = []
        result.extend(before)
        result.append(s)
    return tuple(result)


def split_unwinding_calls(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Take calls that may end the turn out of expressions, into locals of their own."""
    functions = []
    for f in program.functions:
        taken = {name for name, _ in (*f.params, *f.locals)}
        added: list[tuple[str, ir.Type]] = []

        def fresh(t: ir.Type, taken=taken, added=added) -> str:
            number = len(added) + 1
            while TEMPORARY.format(number) in taken:
                number += 1
            name = TEMPORARY.format(number)
            taken.add(name)
            added.append((name, t))
            return name

        body = _body(f.body, fx, fresh)
        functions.append(dataclasses.replace(f, body=body, locals=(*f.locals, *added))
                         if added else f)
    return dataclasses.replace(program, functions=tuple(functions))


def raises_unwind(program: ir.Program, fx: Effects) -> bool:
    """Whether the generated code may end a turn inside an expression (`self.k_unwound(...)`,
    which raises Unwind): a call that may end the turn anywhere but as the whole value of a
    declaration, an evaluation, a return or a local's assignment (which macros.j2's `top`
    writes unwrapped, its statement checking `unwinding` after it). Only then does the
    kernel run a turn inside a try, which saves the thread's exception state every turn."""
    def wraps(e: ir.Expr | None, whole: bool) -> bool:
        return any(node_unwinds(n, fx) for n in walk_expr(e) if not (whole and n is e))

    for f in (*program.functions, *program.scenario_functions):
        if wraps(f.guard, False):
            return True
        for s in walk_stmts(f.body):
            top = getattr(s, "expr" if isinstance(s, ir.Evaluate) else "value", None) if (
                isinstance(s, ir.Declare | ir.Evaluate | ir.Return)
                or isinstance(s, ir.Assign) and isinstance(s.target, ir.Local)) else None
            if any(wraps(e, e is top) for e in stmt_exprs(s)):
                return True
    # the expressions of aggregates and of decisions' filters and defaults (an event's or a
    # deck's code, in program_code too, calls its handlers as statements)
    expressions = {a.name for a in (*program.aggregates, *program.scenario_aggregates)}
    expressions |= {f"decide_{d.name}" for d in program.decisions}
    return any(node_unwinds(n, fx) for name, code in program_code(program).items()
               if name in expressions for n in code.exprs)
