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
from collections.abc import Iterator
from pathlib import Path

from ...common.diagnostics import Reporter, allowed
from .. import nodes as ir
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
    program = dataclasses.replace(program, functions=tuple(functions))
    warn_wrapped_unwinds(program, fx, reporter)
    return program


def raises_unwind(program: ir.Program, fx: Effects) -> bool:
    """Whether the generated code may end a turn inside an expression (`self.k_unwound(...)`,
    which raises Unwind): a call that may end the turn anywhere but as the whole value of a
    declaration, an evaluation, a return or a local's assignment (which macros.j2's `top`
    writes unwrapped, its statement checking `unwinding` after it). Only then does the
    kernel run a turn inside a try, which saves the thread's exception state every turn."""
    return next(wrapped_unwinds(program, fx), None) is not None


def wrapped_unwinds(program: ir.Program, fx: Effects) -> Iterator[tuple[ir.Span | None, ir.Expr]]:
    """Where a call that may end the turn stands inside an expression, and the call."""
    def wrapped(e: ir.Expr | None, whole: bool) -> Iterator[ir.Expr]:
        return (n for n in walk_expr(e) if not (whole and n is e) and node_unwinds(n, fx))

    for f in (*program.functions, *program.scenario_functions):
        for n in wrapped(f.guard, False):
            yield f.span, n
        for s in walk_stmts(f.body):
            top = getattr(s, "expr" if isinstance(s, ir.Evaluate) else "value", None) if (
                isinstance(s, ir.Declare | ir.Evaluate | ir.Return)
                or isinstance(s, ir.Assign) and isinstance(s.target, ir.Local)) else None
            for e in stmt_exprs(s):
                for n in wrapped(e, e is top):
                    yield s.span, n
    # the expressions of aggregates and of decisions' filters and defaults (an event's or a
    # deck's code, in program_code too, calls its handlers as statements)
    spans = {a.name: a.span for a in (*program.aggregates, *program.scenario_aggregates)}
    spans |= {f"decide_{d.name}": d.span for d in program.decisions}
    for name, code in program_code(program).items():
        if name in spans:
            for n in code.exprs:
                if node_unwinds(n, fx):
                    yield spans[name], n


WARNING = "end-turn-in-expression"


def warn_wrapped_unwinds(program: ir.Program, fx: Effects, reporter: Reporter) -> None:
    """A call that may end the turn inside an expression costs every turn a try (and the
    turn it ends an exception): say where, once for each place, unless the file that
    holds it allows the check (`# boardrules: allow end-turn-in-expression`)."""
    seen: set[tuple[str, int, int]] = set()
    silenced: dict[str, bool] = {}
    for span, call in wrapped_unwinds(program, fx):
        if span is None or (span.path, span.line, span.column) in seen:
            continue
        if span.path not in silenced:
            source = Path(span.path)
            silenced[span.path] = source.is_file() and WARNING in allowed(
                source.read_text(encoding="utf-8", errors="replace"))
        if silenced[span.path]:
            continue
        seen.add((span.path, span.line, span.column))
        name = call.function.removeprefix("proc_")
        reporter.warning(
            span, f"'{name}' may end the turn inside an expression here: the turn then leaves "
            "it by an exception, and every turn of the game runs inside a try",
            "call it as a statement of its own, or as the whole value of a `let`",
            code=WARNING)
