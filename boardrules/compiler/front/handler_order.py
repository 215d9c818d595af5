"""The order in which one event's handlers run.

Handlers run in the order the rules are read (an imported library's before the file that
imports it, then each file top to bottom), unless a handler declares `before r` or
`after r`: then it runs before (after) every handler of the same event in rule r,
wherever the two stand. The declared orders are honoured by a stable topological sort,
so handlers without one keep their place and no seeded game moves; a cycle is an error.

Two handlers of one event whose order is neither declared nor implied, where one writes
a counter or field the other reads or writes, get a warning: their order then rests on
where they stand in the file, which a reader of either rule cannot see. So does an
edition's handler against a library's: that the library's runs first (it may end the
turn first, or change what the edition's reads) shows in neither file. In an edition
only what its own file names counts (`named`: the counters and fields its code reads or
writes by name): one it never names is a library's bookkeeping (money's held end of the
turn), kept balanced inside the library whichever handler runs first. Pairs of two
library files are the library's business (a library's own pairs show when it is checked
alone, where everything counts).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from ..common.diagnostics import Reporter, did_you_mean
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.nodes import BOOL
from ..ir.optimize.walk import aggregate_nodes, body_exprs, walk_expr, walk_stmts
from . import ast
from .layout import _where


@dataclass(frozen=True)
class Placed:
    """One handler of an event: its rule, its declaration and its lowered reference."""

    rule: str
    handler: ast.Handler
    ref: ir.HandlerRef


Access = dict[str, tuple[frozenset[str], frozenset[str]]]  # function -> (reads, writes)


def order_handlers(event: str, placed: list[Placed], rules: Iterable[str], access: Access,
                   report: Reporter, own_file: str | None = None,
                   named: frozenset[str] | None = None) -> tuple[ir.HandlerRef, ...]:
    """The handlers of `event` in the order they run (see the module's docstring)."""
    known = set(rules)
    after: list[set[int]] = [set() for _ in placed]  # after[i]: the handlers i runs after
    for i, p in enumerate(placed):
        for order in p.handler.order:
            others = [j for j, q in enumerate(placed) if q.rule == order.rule and j != i]
            if order.rule not in known:
                report.error(order.span, f"unknown rule '{order.rule}'",
                             did_you_mean(order.rule, known), code=ErrorCode.UNKNOWN_RULE)
            elif order.rule == p.rule:
                report.error(order.span, f"a handler of rule '{p.rule}' cannot run "
                             f"{order.relation} its own rule", code=ErrorCode.HANDLER_ORDER)
            elif not others:
                report.error(order.span, f"rule '{order.rule}' has no handler of '{event}'",
                             "before and after order handlers of the same event",
                             code=ErrorCode.HANDLER_ORDER)
            for j in others:
                if order.relation == "after":
                    after[i].add(j)
                else:
                    after[j].add(i)
    sequence = _stable_sort(after)
    if sequence is None:
        stuck = [p for i, p in enumerate(placed) if after[i]]
        names = ", ".join(sorted({p.rule for p in stuck}))
        report.error(stuck[-1].handler.span,
                     f"the handlers of '{event}' in rules {names} are ordered in a cycle",
                     "drop one of their before/after clauses", code=ErrorCode.HANDLER_ORDER)
        return tuple(p.ref for p in placed)
    _warn_unordered(event, placed, after, access, report, own_file, named)
    return tuple(placed[i].ref for i in sequence)


def _stable_sort(after: list[set[int]]) -> list[int] | None:
    """A topological order that keeps the given order where nothing is declared (always
    the first handler, in the given order, whose predecessors have run); None on a cycle."""
    waiting = [len(a) for a in after]
    followers: list[list[int]] = [[] for _ in after]
    for i, a in enumerate(after):
        for j in a:
            followers[j].append(i)
    ready = [i for i, n in enumerate(waiting) if n == 0]
    heapq.heapify(ready)
    out: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        out.append(i)
        for k in followers[i]:
            waiting[k] -= 1
            if waiting[k] == 0:
                heapq.heappush(ready, k)
    return out if len(out) == len(after) else None


def _closure(after: list[set[int]]) -> list[set[int]]:
    """For each handler, every handler it runs after, directly or not."""
    reach = [set(a) for a in after]
    changed = True
    while changed:
        changed = False
        for r in reach:
            grown = set().union(r, *(reach[j] for j in r))
            if grown != r:
                r |= grown
                changed = True
    return reach


def _warn_unordered(event: str, placed: list[Placed], after: list[set[int]],
                    access: Access, report: Reporter, own_file: str | None,
                    named: frozenset[str] | None) -> None:
    """Warn at the later handler of each pair (at the edition's, of an edition's and a
    library's) whose order is not declared and matters (the module's docstring)."""
    reach = _closure(after)
    for i, first in enumerate(placed):
        for j in range(i + 1, len(placed)):
            second = placed[j]
            if (first.rule == second.rule or j in reach[i] or i in reach[j]
                    or exclusive(first.ref.guard, second.ref.guard)):
                continue
            paths = (first.handler.span.path, second.handler.span.path)
            if paths[0] == paths[1] and own_file in (None, paths[0]):
                where = "the file lists them"
                at, other = second, first
            elif own_file is not None and own_file in paths and paths[0] != paths[1]:
                where = ("the library's first, which neither rule says" if paths[1] == own_file
                         else "the edition's first, which neither rule says")
                at, other = (second, first) if paths[1] == own_file else (first, second)
            else:
                continue
            shared = _shared(first, second, access, named)
            if shared:
                report.warning(
                    at.handler.span,
                    f"the handlers of '{event}' in rules '{first.rule}' "
                    f"({_where(first.handler.span)}) and '{second.rule}' both use "
                    f"{', '.join(shared)}, which one of them changes, and run in the order "
                    f"{where}",
                    f"say which runs first: on {event}(...) after {other.rule}, "
                    f"or before {other.rule}", code="unordered-handlers")


def _shared(first: Placed, second: Placed, access: Access,
            named: frozenset[str] | None) -> list[str]:
    """What one of the two handlers changes and the other uses (of what `named` holds)."""
    none = (frozenset(), frozenset())
    reads1, writes1 = access.get(first.ref.function, none)
    reads2, writes2 = access.get(second.ref.function, none)
    shared = (writes1 & (reads2 | writes2)) | (writes2 & reads1)
    return sorted(shared if named is None else shared & named)


def _conjuncts(e: ir.Expr | None) -> list[ir.Expr]:
    if isinstance(e, ir.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [] if e is None else [e]


def exclusive(guard: ir.Expr | None, other: ir.Expr | None) -> bool:
    """Whether two guards never hold together, as far as their conjuncts show: `c` and
    `not c`, or one value compared equal to two different constants (`s.kind == a`,
    `s.kind == b`). Such handlers never both run, so their order does not matter."""
    for a in _conjuncts(guard):
        for b in _conjuncts(other):
            if (a == ir.Unary(BOOL, "not", b) or b == ir.Unary(BOOL, "not", a)
                    or _equal_to_constant(a) and _equal_to_constant(b)
                    and a.left == b.left and a.right != b.right):
                return True
    return False


def _equal_to_constant(e: ir.Expr) -> bool:
    return isinstance(e, ir.Binary) and e.op == "==" and isinstance(e.right, ir.Const)


def state_access(functions: Iterable[ir.Function], aggregates: Iterable[ir.Aggregate],
                 within: str | None = None) -> Access:
    """Per function: the counters and fields it reads and those it assigns, through the
    procedures and aggregates it calls (the kernel's own writes, such as a payment's, are
    not counted: they are the rules' common ground, not one handler's). With `within`,
    only the code of that file: a call of a procedure defined elsewhere adds nothing."""
    own: dict[str, tuple[set[str], set[str], set[str]]] = {}
    for f in functions:
        if within is not None and (f.span is None or f.span.path != within):
            continue
        writes = {_shown(s.target) for s in walk_stmts(f.body)
                  if isinstance(s, ir.Assign) and isinstance(s.target, ir.State)}
        own[f.name] = _reads_and_calls(list(body_exprs(f.body)) + list(walk_expr(f.guard)),
                                       writes)
    for a in aggregates:
        if within is None or (a.span is not None and a.span.path == within):
            own[a.name] = _reads_and_calls(aggregate_nodes(a), set())
    out = {}
    for name in own:
        reads, writes, seen, stack = set(), set(), {name}, [name]
        while stack:
            r, w, calls = own[stack.pop()]
            reads |= r
            writes |= w
            for c in calls:
                if c in own and c not in seen:
                    seen.add(c)
                    stack.append(c)
        out[name] = (frozenset(reads), frozenset(writes))
    return out


def _shown(state: ir.State) -> str:
    """A counter as the rules name it (`player.score`, a global `round_bonus`), not as
    the IR's array (`player_score`, `game_round_bonus`)."""
    if state.entity is not None:
        owner, _, name = state.array.partition("_")
        return f"{owner}.{name}"
    return state.array.partition("_")[2]


def _reads_and_calls(nodes: Iterable[ir.Expr], writes: set[str]
                     ) -> tuple[set[str], set[str], set[str]]:
    reads, calls = set(), set()
    for n in nodes:
        if isinstance(n, ir.State):
            reads.add(_shown(n))
        elif isinstance(n, ir.CallProc):
            calls.add(n.function)
    return reads, writes, calls
