"""Generic traversal of IR expressions and statements, shared by the optimization passes.

IR nodes are frozen dataclasses; a pass rebuilds what it changes with
`dataclasses.replace` and keeps every untouched node (and its identity).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from .. import nodes as ir

ExprFn = Callable[[ir.Expr], ir.Expr]

# the fields that hold an expression's sub-expressions, in evaluation order (calls hold
# theirs in `args`), and those that hold a statement's own expressions
CHILD_FIELDS = ("entity", "element", "holds", "left", "right", "operand", "test", "then",
                "otherwise")
STMT_FIELDS = ("value", "target", "expr", "test", "order_where", "order", "where")
# each node class's own fields among CHILD_FIELDS: the passes walk the whole program
# many times, and most classes have none or one of them
_child_fields: dict[type, tuple[str, ...]] = {}


def _fields_of(e: ir.Expr) -> tuple[str, ...]:
    fields = _child_fields.get(type(e))
    if fields is None:
        names = {f.name for f in dataclasses.fields(e)}
        fields = _child_fields[type(e)] = tuple(name for name in CHILD_FIELDS if name in names)
    return fields


def child_exprs(e: ir.Expr) -> Iterator[ir.Expr]:
    """The direct sub-expressions of an expression, in evaluation order."""
    if isinstance(e, ir.CallProc | ir.KernelCall):
        yield from e.args
        return
    for name in _fields_of(e):
        value = getattr(e, name)
        if isinstance(value, ir.Expr):
            yield value


def walk_expr(e: ir.Expr | None) -> Iterator[ir.Expr]:
    """Every node of an expression tree, parents before children."""
    if e is None:
        return
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ir.CallProc | ir.KernelCall):
            stack.extend(reversed(node.args))
            continue
        for name in reversed(_fields_of(node)):  # child_exprs's, pushed last to first
            value = getattr(node, name)
            if isinstance(value, ir.Expr):
                stack.append(value)


def rebuilt(e: ir.Expr, **fields: ir.Expr | None) -> ir.Expr:
    """e with these fields, or e itself when each is the one it has (identity kept)."""
    if all(getattr(e, name) is value for name, value in fields.items()):
        return e
    return dataclasses.replace(e, **fields)


def map_children(e: ir.Expr, fn: ExprFn) -> ir.Expr:
    """e with `fn` applied to each of its direct sub-expressions (e itself when none
    changes)."""
    if isinstance(e, ir.CallProc | ir.KernelCall):
        args = tuple(fn(a) for a in e.args)
        if all(a is b for a, b in zip(args, e.args, strict=True)):
            return e
        return dataclasses.replace(e, args=args)
    return rebuilt(e, **{name: fn(value) for name in _fields_of(e)
                         if isinstance(value := getattr(e, name), ir.Expr)})


def map_expr(e: ir.Expr | None, fn: ExprFn) -> ir.Expr | None:
    """Rebuild an expression bottom-up, applying `fn` to every node after its children."""
    if e is None:
        return None
    return fn(map_children(e, lambda child: map_expr(child, fn)))


def rewrite_top_down(e: ir.Expr | None, fn: Callable[[ir.Expr], ir.Expr | None]
                     ) -> ir.Expr | None:
    """Rebuild an expression top-down: where `fn` gives a replacement, its subtree is not
    visited; where it gives None, the children are."""
    if e is None:
        return None
    replaced = fn(e)
    if replaced is not None:
        return replaced
    return map_children(e, lambda child: rewrite_top_down(child, fn))


def map_domain(d: ir.Domain | None, fn: ExprFn) -> ir.Domain | None:
    if d is None:
        return None
    low, high, key = map_expr(d.low, fn), map_expr(d.high, fn), map_expr(d.key, fn)
    others = tuple(map_expr(e, fn) for e in d.others)
    words = tuple(dataclasses.replace(w, value=map_expr(w.value, fn)) for w in d.words)
    if low is d.low and high is d.high and key is d.key and all(
            a is b for a, b in zip(others, d.others, strict=True)) and all(
            a.value is b.value for a, b in zip(words, d.words, strict=True)):
        return d
    return dataclasses.replace(d, low=low, high=high, key=key, others=others, words=words)


def domain_exprs(d: ir.Domain | None) -> tuple[ir.Expr, ...]:
    return () if d is None else tuple(
        e for e in (d.low, d.high, d.key, *d.others, *(w.value for w in d.words))
        if e is not None)


def aggregate_nodes(a: ir.Aggregate) -> list[ir.Expr]:
    """Every node of an aggregate's own expressions: its domain, filter, value, guard,
    precheck and hoisted values (not what the procedures it calls do)."""
    return [n for e in (*domain_exprs(a.domain), a.where, a.value, a.guard, *a.prechecks,
                        *(h for _, h in a.hoisted)) for n in walk_expr(e)]


def map_stmt_exprs(s: ir.Stmt, fn: ExprFn) -> ir.Stmt:
    """A statement with `fn` mapped over its own expressions (not its nested blocks)."""
    changes = {}
    for name in STMT_FIELDS:
        value = getattr(s, name, None)
        if isinstance(value, ir.Expr):
            mapped = map_expr(value, fn)
            if mapped is not value:
                changes[name] = mapped
    if isinstance(s, ir.Loop):
        domain = map_domain(s.domain, fn)
        if domain is not s.domain:
            changes["domain"] = domain
    return dataclasses.replace(s, **changes) if changes else s


def stmt_exprs(s: ir.Stmt) -> Iterator[ir.Expr]:
    """The statement's own expressions (not those of nested blocks)."""
    for name in STMT_FIELDS:
        value = getattr(s, name, None)
        if isinstance(value, ir.Expr):
            yield value
    if isinstance(s, ir.Loop):
        yield from domain_exprs(s.domain)


def blocks_of(s: ir.Stmt) -> tuple[tuple[ir.Stmt, ...], ...]:
    match s:
        case ir.If():
            return (s.then, s.otherwise)
        case ir.While() | ir.Loop():
            return (s.body,)
    return ()


def walk_stmts(body: tuple[ir.Stmt, ...]) -> Iterator[ir.Stmt]:
    """Every statement of a block and of the blocks nested in it."""
    for s in body:
        yield s
        for block in blocks_of(s):
            yield from walk_stmts(block)


def assigned_locals(body: tuple[ir.Stmt, ...]) -> set[str]:
    """The locals some assignment of the block (nested blocks included) changes."""
    return {s.target.name for s in walk_stmts(body)
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.Local)}


def body_exprs(body: tuple[ir.Stmt, ...]) -> Iterator[ir.Expr]:
    """Every expression node in a block, nested blocks included."""
    for s in walk_stmts(body):
        for e in stmt_exprs(s):
            yield from walk_expr(e)


def map_body(body: tuple[ir.Stmt, ...], fn: ExprFn) -> tuple[ir.Stmt, ...]:
    """A block with `fn` mapped over every expression, nested blocks included."""
    return map_stmts(body, lambda s: map_stmt_exprs(s, fn))


def _with_blocks(s: ir.Stmt, fn: Callable[[tuple[ir.Stmt, ...]], tuple[ir.Stmt, ...]]
                 ) -> ir.Stmt:
    """The statement with `fn` applied to each block nested in it (blocks_of's twin)."""
    match s:
        case ir.If():
            return dataclasses.replace(s, then=fn(s.then), otherwise=fn(s.otherwise))
        case ir.While() | ir.Loop():
            return dataclasses.replace(s, body=fn(s.body))
    return s


def map_stmts(body: tuple[ir.Stmt, ...], fn: Callable[[ir.Stmt], ir.Stmt]
              ) -> tuple[ir.Stmt, ...]:
    """A block with `fn` applied to every statement, its nested blocks first."""
    return tuple(fn(_with_blocks(s, lambda block: map_stmts(block, fn))) for s in body)


def map_blocks(body: tuple[ir.Stmt, ...],
               fn: Callable[[tuple[ir.Stmt, ...]], tuple[ir.Stmt, ...]]) -> tuple[ir.Stmt, ...]:
    """`fn` applied to the block and to every block nested in it, the innermost first."""
    return fn(tuple(_with_blocks(s, lambda block: map_blocks(block, fn)) for s in body))


def reads_local(e: ir.Expr | None, name: str) -> bool:
    """Whether the expression reads the local `name` (a loop's variable, say)."""
    return any(isinstance(n, ir.Local) and n.name == name for n in walk_expr(e))


def map_program_exprs(program: ir.Program, fn: ExprFn) -> ir.Program:
    """Map `fn` over every expression of the program's code: functions, aggregates,
    decisions, event guards and the game properties."""
    functions = tuple(dataclasses.replace(f, body=map_body(f.body, fn),
                                          guard=map_expr(f.guard, fn))
                      for f in program.functions)
    aggregates = tuple(dataclasses.replace(a, domain=map_domain(a.domain, fn),
                                           where=map_expr(a.where, fn),
                                           value=map_expr(a.value, fn),
                                           guard=map_expr(a.guard, fn),
                                           prechecks=tuple(map_expr(c, fn)
                                                           for c in a.prechecks),
                                           hoisted=tuple((name, map_expr(e, fn))
                                                         for name, e in a.hoisted))
                       for a in program.aggregates)
    decisions = tuple(dataclasses.replace(d, by=map_expr(d.by, fn), low=map_expr(d.low, fn),
                                          high=map_expr(d.high, fn),
                                          domain=map_domain(d.domain, fn),
                                          where=map_expr(d.where, fn),
                                          default=map_expr(d.default, fn),
                                          walk=map_domain(d.walk, fn),
                                          walk_where=map_expr(d.walk_where, fn),
                                          options_default=map_expr(d.options_default, fn),
                                          hoisted=tuple((name, map_expr(e, fn))
                                                        for name, e in d.hoisted))
                      for d in program.decisions)
    events = {name: dataclasses.replace(event, handlers=tuple(
        dataclasses.replace(h, guard=map_expr(h.guard, fn)) for h in event.handlers))
        for name, event in program.events.items()}
    return dataclasses.replace(
        program, functions=functions, aggregates=aggregates, decisions=decisions, events=events,
        first_player=map_expr(program.first_player, fn), over_when=map_expr(program.over_when, fn),
        score=map_expr(program.score, fn), round_limit=map_expr(program.round_limit, fn),
        tie_breaks=tuple(map_expr(e, fn) for e in program.tie_breaks),
        bankruptcy_ends=map_expr(program.bankruptcy_ends, fn))


def unused_name(name: str, taken: set[str]) -> str:
    """`name`, or it with underscores added, until no name in `taken` is the same."""
    while name in taken:
        name += "_"
    return name


def substitute_locals(e: ir.Expr, values: dict[str, ir.Expr]) -> ir.Expr:
    """Replace locals by expressions (parameters by arguments, when inlining)."""
    return map_expr(e, lambda node: values.get(node.name, node)
                    if isinstance(node, ir.Local) else node)
