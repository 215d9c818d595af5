"""Pass `nesting`: what code generation and Python can take, checked before them.

The templates render expressions and blocks recursively, and CPython rejects a
module with more than 200 nested parentheses, 100 levels of indentation or 20
loops nested in one function. A program nested deeper than the limits below is a
compile error at its span, reported by `check` as well, never a crash of
`compile`. Measured without recursion, so any depth is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..common.diagnostics import Reporter, Span
from ..common.error_codes import ErrorCode
from . import nodes as ir
from .optimize.walk import blocks_of, child_exprs, stmt_exprs

EXPRESSION_DEPTH = 100
BLOCK_DEPTH = 50
# CPython rejects a function with more than 20 loops (or try and with blocks) nested in
# one another ("too many statically nested blocks"): a few are kept to spare.
LOOP_DEPTH = 15


def expression_depth(e: ir.Expr | None) -> int:
    if e is None:
        return 0
    deepest, stack = 0, [(e, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in child_exprs(node))
    return deepest


def else_ifs(s: ir.If) -> tuple[list[tuple[ir.Expr, tuple[ir.Stmt, ...]]], tuple[ir.Stmt, ...]]:
    """An `if ... else if ... else` chain as written: its tests with their blocks, and the
    last `else` block. Code generation writes it with `elif`, so a chain nests no deeper
    than its first `if`, however long."""
    branches = [(s.test, s.then)]
    while len(s.otherwise) == 1 and isinstance(s.otherwise[0], ir.If):
        s = s.otherwise[0]
        branches.append((s.test, s.then))
    return branches, s.otherwise


def _statements(body: tuple[ir.Stmt, ...]) -> Iterator[tuple[ir.Stmt, int, int]]:
    """Every statement with the number of blocks it is nested in, and the number of loops
    it makes with those around it (the branches of an `else if` chain are as deep as its
    first `if`)."""
    stack = [(s, 1, 0) for s in reversed(body)]
    while stack:
        s, depth, loops = stack.pop()
        loops += isinstance(s, ir.While | ir.Loop)
        yield s, depth, loops
        if isinstance(s, ir.If) and len(s.otherwise) == 1 and isinstance(s.otherwise[0], ir.If):
            stack.append((s.otherwise[0], depth, loops))
            stack.extend((inner, depth + 1, loops) for inner in reversed(s.then))
            continue
        for block in blocks_of(s):
            stack.extend((inner, depth + 1, loops) for inner in reversed(block))


def check_nesting(program: ir.Program, reporter: Reporter) -> None:
    def expressions(span: Span | None, *exprs: ir.Expr | None) -> None:
        if span is not None and any(expression_depth(e) > EXPRESSION_DEPTH for e in exprs):
            reporter.error(span, f"an expression nested more than {EXPRESSION_DEPTH} deep",
                           "name parts of it with let, or move them into procedures",
                           code=ErrorCode.TOO_DEEP)

    for f in (*program.functions, *program.scenario_functions):
        expressions(f.span, f.guard)
        for s, depth, loops in _statements(f.body):
            if depth > BLOCK_DEPTH or loops > LOOP_DEPTH:
                reporter.error(s.span, f"blocks nested more than {BLOCK_DEPTH} deep"
                               if depth > BLOCK_DEPTH else
                               f"loops nested more than {LOOP_DEPTH} deep",
                               "move the inner blocks into a procedure", code=ErrorCode.TOO_DEEP)
                break
            expressions(s.span, *stmt_exprs(s))
    for a in (*program.aggregates, *program.scenario_aggregates):
        expressions(a.span, a.where, a.value)
    for d in program.decisions:
        expressions(d.span, d.by, d.low, d.high, d.where, d.default)


def deepest_span(roots: Iterable[object]) -> Span | None:
    """The span of the most deeply nested node of syntax trees (frozen dataclasses, each
    with its `span`), found without recursion: where a pass that ran out of Python's stack
    was, most likely, so that its error points there rather than at the edition's header."""
    deepest, found = -1, None
    stack: list[tuple[object, int]] = [(root, 0) for root in roots]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack.extend((item, depth) for item in node)
            continue
        fields = getattr(node, "__dataclass_fields__", None)
        if fields is None or isinstance(node, Span | ir.Type):
            continue
        span = getattr(node, "span", None)
        if isinstance(span, Span) and span.line > 0 and depth > deepest:
            deepest, found = depth, span
        stack.extend((getattr(node, name), depth + 1) for name in fields if name != "span")
    return found
