"""A decision's default walks the options it has just listed, not its whole domain again.

`decision site(p) -> s in spaces where can_take(p, s)` with the default
`best(worth(p, s) for s in spaces where can_take(p, s) and worth(p, s) > 0)` (or
`for s in legal`, which is the same) lists its options when its filter may fail (the
default policy's answer alone cannot then be checked lazily: decisions.py), and its
default walks every space again, testing `can_take` once more on each. The options it
has listed are exactly the members that pass that filter, in the same order; the default
then tests the rest (`worth(p, s) > 0`) and works out its value on each of them only.
This pass gives such a decision `options_default`: a `best` aggregate over the positions
of the list (`k_option(i)` reads the i-th option), whose answer is the position of the
option the walk would have picked. The same values in the same order, the same errors
where they would have been; the filter, pure, was already worked out on each member with
the same state, so not working it out again is unobservable.

It runs right after narrow-integers: the default's filter still starts with the
decision's own, as written (later passes reorder and index both differently), and the
32-bit checks are in place, so that a filter that cannot fail now (its decision will be
answered lazily: nothing listed) is known. lazy-decisions drops what this pass added for a
decision whose default policy turns out to be checked lazily after all.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from ...common.kernel_facts import kernel_constants
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import PURE_KERNEL, Effects, program_code
from .walk import substitute_locals, unused_name, walk_expr, walk_stmts

OPTIONS = kernel_constants("CAP_OPTIONS")["CAP_OPTIONS"]  # what a decision can list


def _capacity(d: ir.Domain, program: ir.Program) -> int | None:
    """How many options the domain can list: a constant range's size, or the seats."""
    if d.kind == "players":
        return program.max_players
    if d.kind == "range" and isinstance(d.low, ir.Const) and isinstance(d.high, ir.Const):
        return int(d.high.value) - int(d.low.value)
    return None


def _var_type(a: ir.Aggregate) -> ir.Type:
    """The type of the aggregate's variable, as its filter and value read it."""
    return next((n.type for e in (a.where, a.value) for n in walk_expr(e)
                 if isinstance(n, ir.Local) and n.name == a.var), ir.INT)


def _among_options(d: ir.Decision, a: ir.Aggregate, size: int) -> ir.Aggregate:
    """`a`, walking the positions of the listed options: its filter without the decision's
    own, the option at position i in place of its variable."""
    taken = {name for name, _ in a.params} | {a.var}
    at, count = unused_name("listed", taken), unused_name("listed_count", taken)
    option = ir.KernelCall(_var_type(a), "k_option", (ir.Local(ir.INT, at),))
    own = len(chain_of(d.where, "and"))
    rest = [substitute_locals(c, {a.var: option}) for c in chain_of(a.where, "and")[own:]]
    listed = ir.Binary(ir.BOOL, "<", ir.Local(ir.INT, at), ir.Local(ir.INT, count))
    return ir.Aggregate(f"{a.name}_among_options", "best", (*a.params, (count, ir.INT)), at,
                        ir.Domain("range", ir.Const(ir.INT, 0), ir.Const(ir.INT, size)),
                        chained([listed, *rest], "and"),
                        substitute_locals(a.value, {a.var: option}), ir.INT, a.span)


class _Unknown(Exception):
    """Code whose effects this pass does not follow: a kernel primitive that changes the
    game (a payment, a move, a draw), or a decision (it would list its own options in
    place of those being walked)."""


class _Code:
    """The code of the program's procedures and aggregates, as the effects analysis walks it
    (kept on each node), and the procedures' bodies, for what they assign."""

    def __init__(self, program: ir.Program) -> None:
        self.code = program_code(program)
        self.bodies = {f.name: f.body for f in program.functions}
        self.aggregates = {a.name for a in program.aggregates}

    def reached(self, roots: list[ir.Expr | None]) -> tuple[list[ir.Expr], set[str]]:
        """Every node of `roots` and of what they call (each callee once), and the callees;
        _Unknown at a call of a decision (or a draw)."""
        nodes: list[ir.Expr] = []
        seen: set[str] = set()
        stack = [n for e in roots for n in walk_expr(e)]
        while stack:
            n = stack.pop()
            nodes.append(n)
            if isinstance(n, ir.CallProc) and n.function not in seen:
                if n.function not in self.bodies and n.function not in self.aggregates:
                    raise _Unknown  # a decision lists its options over those being walked
                seen.add(n.function)
                stack.extend(self.code[n.function].exprs)
        return nodes, seen

    def writes(self, roots: list[ir.Expr | None]) -> set[str]:
        """The counters that the code of `roots`, and what it calls, may assign."""
        nodes, called = self.reached(roots)
        if any(isinstance(n, ir.KernelCall) and n.function not in PURE_KERNEL for n in nodes):
            raise _Unknown
        return {s.target.array for name in called if name in self.bodies
                for s in walk_stmts(self.bodies[name])
                if isinstance(s, ir.Assign) and isinstance(s.target, ir.State)}

    def reads(self, e: ir.Expr | None) -> set[str] | None:
        """The counters `e` and what it calls read; None when it reads what the kernel
        changes by itself (the turn, the rounds the loop guard counts, hands, seats)."""
        try:
            nodes, _ = self.reached([e])
        except _Unknown:
            return None
        read: set[str] = set()
        for n in nodes:
            match n:
                case ir.State():
                    read.add(n.array)
                case ir.Builtin() if n.name not in ("players_count", "players_in"):
                    return None
                case ir.Derived() if n.what in ("card_holder", "player_alive"):
                    return None
                case ir.KernelCall() if n.function == "k_holds":
                    return None
        return read


def _walks_own_options(d: ir.Decision, a: ir.Aggregate, fx: Effects) -> bool:
    """Whether the default is `a` (called with some of the decision's parameters), a `best`
    over the decision's domain whose filter starts with the decision's, pure, and which
    cannot end the turn."""
    if a.kind != "best" or a.value is None or a.where is None or d.where is None \
            or a.domain != d.domain or a.hoisted or a.guard is not None:
        return False
    mine_params = dict(d.params)
    if d.default != ir.CallProc(d.default.type, a.name, tuple(
            ir.Local(t, name) for name, t in a.params)) or any(
            mine_params.get(name) != t for name, t in a.params):
        return False  # called with some of the decision's parameters, as they are
    mine = ir.Local(_var_type(a), a.var)
    own = [substitute_locals(c, {d.var: mine}) for c in chain_of(d.where, "and")]
    return (chain_of(a.where, "and")[:len(own)] == own and fx.expr_is_pure(d.where)
            and a.name not in fx.unwinding)


def _list_stands(d: ir.Decision, a: ir.Aggregate, code: _Code) -> bool:
    """Whether the filter reads nothing the rest of the default may write: worked out
    again between the rest's parts, it would give the list again."""
    read = code.reads(d.where)
    try:
        written = code.writes([*chain_of(a.where, "and")[len(chain_of(d.where, "and")):],
                               a.value])
    except _Unknown:
        return False
    return read is not None and not read & written


def options_defaults(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Each entity decision whose default walks its own options gets a walk of the list."""
    aggregates = {a.name: a for a in program.aggregates}
    code: _Code | None = None
    added: list[ir.Aggregate] = []
    decisions = []
    for d in program.decisions:
        called = d.default.function if isinstance(d.default, ir.CallProc) else ""
        size = _capacity(d.domain, program) if d.kind == "entity" and d.domain else None
        a = aggregates.get(called)
        # (a filter pure and safe already: the default policy will be answered lazily)
        if size is None or not 0 < size <= OPTIONS or a is None \
                or fx.expr_is_clean(d.where) or not _walks_own_options(d, a, fx):
            decisions.append(d)
            continue
        code = code or _Code(program)
        if not _list_stands(d, a, code):
            decisions.append(d)
            continue
        walk = _among_options(d, a, size)
        added.append(walk)
        decisions.append(dataclasses.replace(d, options_default=ir.CallProc(
            ir.INT, walk.name, (*d.default.args, ir.Local(ir.INT, "n")))))
    if not added:
        return program
    return dataclasses.replace(program, decisions=tuple(decisions),
                               aggregates=(*program.aggregates, *added))
