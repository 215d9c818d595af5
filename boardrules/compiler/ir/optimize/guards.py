"""Guard an aggregate that windows ask, or a loop they run, with the memoized part of its
filter.

`best(s.price for s in others' spaces where completes_group(p, s) and p.cash - s.price
>= reserve)` reads cash, so it cannot be memoized, and in a window of play the default
strategy asks it of every player, window after window. Most of the time no space
passes the part of the filter that reads only counters (`completes_group(p, s)`):
the aggregate then has nothing to find, whatever the cash. This pass lifts that part
into an aggregate of its own, `any(s in the same domain where that part)`, which the
memoize pass keeps until a counter it reads changes, and tests it first: when it is
false the aggregate returns its value over no candidates (0, false, true for `all`,
none for `best`) without a scan.

A filter that calls such a guarded `any()` (`sale_for`'s "some other player could
complete this group and pay for it") tests that any()'s guard first, with the same
arguments: it is true whenever the call is, reads no cash, and so joins the
caller's own guard.

Only for the aggregates a window may ask (outside windows a question is asked about
once for every change of what it reads, and the lifted part would be worked out
again each time), when every conjunct of the filter is pure and safe (skipping
them is then unobservable) and the lifted part would be memoized (it reads a
counter and nothing volatile; its parameters have bounded slots).
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects, asked_in_windows
from .memo import MAX_SLOTS, ReadSets
from .slots import dimension
from .walk import domain_exprs, walk_expr


def _candidates(a: ir.Aggregate, stable: list[ir.Expr]) -> ir.Aggregate:
    return ir.Aggregate(f"{a.name}_has_candidates", "any", a.params, a.var, a.domain,
                        chained(stable, "and"), None, ir.BOOL, a.span)


def _steadiest(stable: list[ir.Expr], walked: frozenset[str], reads: ReadSets) -> list[ir.Expr]:
    """The stable conjuncts that read no counter but the one whose index the domain walks
    (`completes_group(p, s)` over the spaces others own), when one of them reads it: the
    guard's memo then lasts until that counter changes, not until any counter the rest of
    the filter reads does (a building anywhere outdates `not can_mortgage(s)`). Else all."""
    steady = [c for c in stable if reads.expr(c) <= walked]
    return steady if any(reads.expr(c) for c in steady) else stable


def _kept_part(conjuncts: list[ir.Expr], domain: ir.Domain,
               reads: ReadSets) -> tuple[list[ir.Expr], frozenset[str]] | None:
    """The conjuncts a memoized any() over the domain can test first, and what that any()
    reads: the ones that read only counters, declared data and card holders (and no
    hoisted value), narrowed to the steadiest. None when there are none, or when the
    walk of the domain itself reads something volatile."""
    stable = [c for c in conjuncts if not any(isinstance(n, ir.Hoisted) for n in walk_expr(c))
              and reads.expr(c) is not None]
    walked = reads.domain(domain)
    if not stable or walked is None:
        return None
    stable = _steadiest(stable, walked, reads)
    return stable, walked.union(*(reads.expr(c) for c in stable))


def _memoizable(depends: frozenset[str], params: tuple[tuple[str, ir.Type], ...],
                program: ir.Program) -> bool:
    """Whether the memoize pass would keep an any() that reads `depends` with these
    parameters (it reads a counter; its parameters have bounded slots)."""
    dims = tuple(dimension(t, program) for _, t in params)
    return bool(depends) and None not in dims and derived.Memo((), 0, dims).slots <= MAX_SLOTS


def _guarded(a: ir.Aggregate, program: ir.Program, fx: Effects,
             reads: ReadSets) -> tuple[ir.Aggregate, ir.Aggregate | None]:
    """The aggregate with its guard, and the guard's aggregate (or as it was, and None)."""
    if a.where is None or a.counted is not None or a.summed is not None \
            or reads.of(a.name) is not None:
        return a, None  # nothing to split, answered from counts or sums, or memoized itself
    conjuncts = chain_of(a.where, "and")
    if not all(fx.expr_is_clean(c) for c in conjuncts):
        return a, None
    kept = _kept_part(conjuncts, a.domain, reads)
    if kept is None or not _memoizable(kept[1], a.params, program):
        return a, None
    guard = _candidates(a, kept[0])
    call = ir.CallProc(ir.BOOL, guard.name, tuple(ir.Local(t, name) for name, t in a.params))
    return dataclasses.replace(a, guard=call), guard


def _with_callee_guards(a: ir.Aggregate, guarded_any: dict[str, ir.Aggregate],
                        fx: Effects) -> ir.Aggregate:
    """The aggregate with the guard of each any() its filter calls tested before that call
    (`any(q in players where completes_group(q, s) and q.cash >= ...)`, true only if its
    memoized part is): a part of the filter its own guard can keep, so that the spaces no
    other player could complete are left out before anyone's cash is read."""
    if a.where is None:
        return a
    conjuncts: list[ir.Expr] = []
    for c in chain_of(a.where, "and"):
        if isinstance(c, ir.CallProc) and c.function in guarded_any and fx.expr_is_clean(c):
            guard = guarded_any[c.function].guard
            assert isinstance(guard, ir.CallProc)  # its arguments are the any()'s parameters
            conjuncts.append(ir.CallProc(ir.BOOL, guard.function, c.args))
        conjuncts.append(c)
    return dataclasses.replace(a, where=chained(conjuncts, "and"))


def guard_aggregates(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Give each aggregate that windows ask, whose filter has a memoizable part, a guard
    that tests that part (and the guards of the any()s it calls, guarded before it)."""
    reads = ReadSets(program)
    asked = asked_in_windows(program)
    aggregates: list[ir.Aggregate] = []
    guarded_any: dict[str, ir.Aggregate] = {}
    for a in program.aggregates:
        if a.name not in asked:
            aggregates.append(a)
            continue
        guarded, guard = _guarded(_with_callee_guards(a, guarded_any, fx), program, fx, reads)
        if guard is None:
            aggregates.append(a)
            continue
        aggregates += [guard, guarded]
        reads.aggregates[guard.name] = guard  # what a caller's filter tests it for reads
        if guarded.kind == "any":
            guarded_any[guarded.name] = guarded
    return dataclasses.replace(program, aggregates=tuple(aggregates))


def _free_locals(exprs: list[ir.Expr], var: str) -> tuple[tuple[str, ir.Type], ...]:
    """The locals the expressions read besides the loop variable, in the order met."""
    found: dict[str, ir.Type] = {}
    for e in exprs:
        for n in walk_expr(e):
            if isinstance(n, ir.Local) and n.name != var:
                found.setdefault(n.name, n.type)
    return tuple(found.items())


def _loop_guard(loop: ir.Loop, name: str, program: ir.Program, fx: Effects,
                reads: ReadSets) -> ir.Aggregate | None:
    """`any(var in domain where the memoizable part of the filter)`, when it would be
    memoized and skipping the loop on false is unobservable (the filter and the domain
    are pure and safe: a loop whose members all fail it runs nothing)."""
    where = loop.where if loop.order is None else loop.order_where  # (an ordered walk's)
    if where is None or loop.domain.guarded or loop.domain.kind == "table":
        return None
    conjuncts = chain_of(where, "and")
    if not all(fx.expr_is_clean(e) for e in (*conjuncts, *domain_exprs(loop.domain))):
        return None
    if not any(reads.expr(c) or () for c in conjuncts):
        return None  # only tests of locals (`q != leader`): nothing worth keeping
    kept = _kept_part(conjuncts, loop.domain, reads)
    if kept is None:
        return None
    stable, depends = kept
    params = _free_locals([*stable, *domain_exprs(loop.domain)], loop.var)
    if not _memoizable(depends, params, program):
        return None
    return ir.Aggregate(name, "any", params, loop.var, loop.domain, chained(stable, "and"),
                        None, ir.BOOL, loop.span)


def guard_loops(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """`for q in players where q != p and jail_card_of(q) != none { ... }`, run by a
    procedure that windows call, goes round the table each time although nobody holds a
    card: the loop is skipped when a memoized `any()` of its filter's memoizable part
    says that no member passes it."""
    reads = ReadSets(program)
    asked = asked_in_windows(program)
    guards: list[ir.Aggregate] = []

    def guarded(body: tuple[ir.Stmt, ...], function: str) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for st in body:
            if isinstance(st, ir.If):
                st = dataclasses.replace(st, then=guarded(st.then, function),
                                         otherwise=guarded(st.otherwise, function))
            elif isinstance(st, ir.While | ir.Loop):
                st = dataclasses.replace(st, body=guarded(st.body, function))
            guard = _loop_guard(st, f"agg_loop{len(guards)}_in_{function}", program, fx,
                                reads) if isinstance(st, ir.Loop) else None
            if guard is not None:
                guards.append(guard)
                test = ir.CallProc(ir.BOOL, guard.name,
                                   tuple(ir.Local(t, n) for n, t in guard.params))
                st = ir.If(st.span, test, (st,), ())
            result.append(st)
        return tuple(result)

    functions = tuple(dataclasses.replace(f, body=guarded(f.body, f.name))
                      if f.name in asked else f for f in program.functions)
    return dataclasses.replace(program, functions=functions,
                               aggregates=program.aggregates + tuple(guards))


def guards_before_lookups(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """A memoized aggregate whose stamp follows a whole counter that its guard keeps finer
    (per owner, per group) asks its guard before its own lookup: when nothing passes the
    guard, the answer is nothing (the guard is pure and safe, as the filter's parts before
    it), and the lookup that every write of that counter anywhere would miss is not made.
    The trade partner search's `wanted_by(p)` is stamped by every building bought and
    every property changing hands; its guard, whether p could complete a group by buying
    one property, by p's holdings and the owners in the groups p owns all but one of."""
    memos = {a.name: a.memo for a in program.aggregates if a.memo}

    def first(a: ir.Aggregate) -> ir.Aggregate:
        guard = memos.get(a.guard.function) if isinstance(a.guard, ir.CallProc) else None
        if a.memo is None or guard is None or a.guard.function in fx.unsafe:
            return a
        # (not when it follows a counter only on what its player owns, or in a group: its
        # lookup then holds about as long as the guard's, which the default asks in vain
        # whenever it passes; measured on the four editions)
        whole = {array for array in a.memo.reads if "@" not in array}
        if not whole - set(guard.reads):
            return a
        return dataclasses.replace(a, memo=dataclasses.replace(a.memo, guard_first=True))

    return dataclasses.replace(program, aggregates=tuple(first(a) for a in program.aggregates))
