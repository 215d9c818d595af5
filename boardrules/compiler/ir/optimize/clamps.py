"""A procedure's result clamped by game counters: a memo that keeps the counters apart.

What a player could wish to buy of a kind of building is at most what the Bank has left
(`let cap = min(room, supply)`): every build changes the supply, so a memo stamped by it
would be outdated for every player at every build, though each other player's answer
stays the same while it is below the supply. A procedure qualifies when

- one top-level `let cap = min(A, C)` where C reads game counters (the clamp's, X), the
  procedure's parameters and constants only, and A reads none of X;
- nothing else the procedure reads (its own code, what it calls) reads X but in
  comparisons with constants (their outcomes, the sides, stamp its memo instead);
- after that `let`, every return is `return cap` or `return min(m, cap)`, and cap is read
  only there and in tests `if m >= cap { return cap }`, for one local m that only grows
  (`m = max(m, ...)`), and is never assigned.

Then the result is min(G, C) for a G that does not depend on C (the walk stops at the
first test that holds: m only grows, so stopping there returns what going on and
returning min(m, cap) would), or a value worked out before the clamp. So a value r worked
out with the clamp's value c is the answer for any other value c' with the same stamp when
c' == r, or when r < c and c' > r (then r == G < c); the lookup tests that, and a run with
c' never goes further than the run with c did (it stops at the same test or sooner).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import nodes as ir
from .walk import child_exprs, stmt_exprs, walk_expr, walk_stmts

PURE_CLAMP_CALLS = frozenset({"min", "max"})


@dataclass(frozen=True)
class Clamp:
    """The clamp of a procedure's result: its local, the value C, the game counters C reads,
    the `let`'s place in the body and the other value A."""

    local: str
    value: ir.Expr
    counters: frozenset[str]
    index: int
    other: ir.Expr


def _game_counter(e: ir.Expr) -> str:
    return e.array if isinstance(e, ir.State) and e.entity is None and e.element is None \
        else ""


def _reads_counters(e: ir.Expr | None) -> frozenset[str]:
    return frozenset(_game_counter(n) for n in walk_expr(e)) - {""}


def _plain(e: ir.Expr, params: frozenset[str]) -> bool:
    """Whether C is worked out from game counters, parameters and constants alone (the
    lookup evaluates it with the arguments)."""
    for n in walk_expr(e):
        if isinstance(n, ir.Local) and n.name not in params:
            return False
        if isinstance(n, ir.KernelCall) and n.function not in PURE_CLAMP_CALLS:
            return False
        if not isinstance(n, ir.Const | ir.Local | ir.State | ir.Conditional | ir.Binary
                          | ir.Unary | ir.KernelCall) or isinstance(n, ir.State) \
                and not _game_counter(n):
            return False
    return True


def _unnarrowed(e: ir.Expr | None) -> ir.Expr | None:
    """`narrow(x)` is x where it holds (it raises otherwise, whatever the clamp's value: the
    clamp fits in 32 bits, so `min(a, c)` leaves them only below, as a does)."""
    while isinstance(e, ir.KernelCall) and e.function == "narrow":
        e = e.args[0]
    return e


def _local(e: ir.Expr | None, name: str) -> bool:
    return isinstance(e, ir.Local) and e.name == name


def _min_with(e: ir.Expr | None, cap: str) -> str:
    """m of `min(m, cap)` (either way round), else ''."""
    e = _unnarrowed(e)
    if isinstance(e, ir.KernelCall) and e.function == "min" and len(e.args) == 2:
        for a, b in (e.args, reversed(e.args)):
            if _local(b, cap) and isinstance(a, ir.Local) and a.name != cap:
                return a.name
    return ""


def _test_against(e: ir.Expr | None, cap: str) -> str:
    """m of `m >= cap` (or `cap <= m`), else ''."""
    if isinstance(e, ir.Binary) and e.op in (">=", "<="):
        m, c = (e.left, e.right) if e.op == ">=" else (e.right, e.left)
        if _local(c, cap) and isinstance(m, ir.Local) and m.name != cap:
            return m.name
    return ""


def _uses_of_cap(rest: tuple[ir.Stmt, ...], cap: str) -> set[str] | None:
    """The locals m the rest compares cap with and returns min(m, cap) of; None when cap is
    read anywhere else, or a return is not through cap."""
    ms: set[str] = set()
    for s in walk_stmts(rest):
        if isinstance(s, ir.Return):
            if _local(_unnarrowed(s.value), cap):
                continue
            m = _min_with(s.value, cap)
            if not m:
                return None
            ms.add(m)
        elif isinstance(s, ir.If) and any(_local(n, cap) for n in walk_expr(s.test)):
            m = _test_against(s.test, cap)
            if not m or s.otherwise or len(s.then) != 1 or not isinstance(s.then[0], ir.Return) \
                    or not _local(s.then[0].value, cap):
                return None
            ms.add(m)
        elif isinstance(s, ir.Assign) and _local(s.target, cap) or isinstance(s, ir.Declare) \
                and s.name == cap:
            return None
        elif any(_local(n, cap) for e in stmt_exprs(s) for n in walk_expr(e)):
            return None
    return ms


def _only_grows(body: tuple[ir.Stmt, ...], m: str) -> bool:
    """Whether local m is declared once and every assignment is `m = max(m, ...)`."""
    declared = 0
    for s in walk_stmts(body):
        if isinstance(s, ir.Declare) and s.name == m:
            declared += 1
        elif isinstance(s, ir.Loop) and s.var == m:
            return False
        elif isinstance(s, ir.Assign) and _local(s.target, m):
            value = _unnarrowed(s.value)
            grows = s.op == "=" and isinstance(value, ir.KernelCall) \
                and value.function == "max" and any(_local(a, m) for a in value.args)
            if not grows:
                return False
    return declared == 1


def clamp_of(f: ir.Function) -> Clamp | None:
    """The clamp of a procedure's result (the module's pattern), else None; that nothing
    else reads its counters but in comparisons with constants is sides_of's to tell."""
    params = frozenset(name for name, _ in f.params)
    for i, s in enumerate(f.body):
        value = _unnarrowed(s.value) if isinstance(s, ir.Declare) else None
        if not (isinstance(value, ir.KernelCall) and value.function == "min"
                and len(value.args) == 2):
            continue
        for a, c in (value.args, tuple(reversed(value.args))):
            counters = _reads_counters(c)
            if not counters or _reads_counters(a) & counters or not _plain(c, params):
                continue
            ms = _uses_of_cap(f.body[i + 1:], s.name)
            if ms is None or len(ms) > 1 or not all(_only_grows(f.body, m) for m in ms):
                continue
            if any(isinstance(t, ir.Assign) and _local(t.target, s.name)
                   for t in walk_stmts(f.body[:i])):
                continue
            return Clamp(s.name, c, counters, i, a)
    return None


def compared_only(roots: Iterator[ir.Expr], counters: frozenset[str]
                  ) -> dict[ir.Expr, str] | None:
    """The comparisons with constants through which the expressions read `counters` (each
    with the counter it reads), or None when one reads them otherwise."""
    found: dict[ir.Expr, str] = {}
    stack = list(roots)
    while stack:
        e = stack.pop()
        if isinstance(e, ir.Binary) and e.op in ir.COMPARISONS:
            for counter, other in ((e.left, e.right), (e.right, e.left)):
                if _game_counter(counter) in counters and isinstance(other, ir.Const):
                    found[e] = counter.array
                    break
            else:
                stack.extend(child_exprs(e))
            continue
        if _game_counter(e) in counters:
            return None
        stack.extend(child_exprs(e))
    return found
