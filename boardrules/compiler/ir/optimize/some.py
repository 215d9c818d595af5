"""Remove `some(x)` checks that cannot fail.

`if s.group == none { return false }` followed by `owns_group(p, some(s.group))` checks for
none twice; the second check makes the whole procedure fallible, so it can no
longer be reordered, inlined into a filter, or answered lazily. This pass
tracks which values are known not to be none (after an early return on
`x == none`, inside `x != none and ...`, in the `then` block of `if x != none`)
and drops `some(...)` around them, and the bounds check of a field read through them
(`if s != none then s.price else 0` reads the price unchecked). Only values that cannot
change in between are tracked: reads of declared data (tables) of locals that are never
assigned, and such locals themselves.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from ...common.error_codes import ErrorCode
from .. import nodes as ir
from .effects import Effects
from .fold import Folder, negate
from .walk import assigned_locals, map_body, map_children, map_expr, rebuilt, walk_expr, walk_stmts


def _stable(e: ir.Expr, assigned: set[str]) -> bool:
    """A value that no statement of the function can change."""
    return all(isinstance(n, ir.Table | ir.Local | ir.Const) and not (
        isinstance(n, ir.Local) and n.name in assigned) for n in walk_expr(e))


def _none_tests(e: ir.Expr, op: str, chain: str) -> list[ir.Expr]:
    """The x of every `x <op> none` in an `and`/`or` chain."""
    if isinstance(e, ir.Binary) and e.op == chain:
        return _none_tests(e.left, op, chain) + _none_tests(e.right, op, chain)
    if isinstance(e, ir.Binary) and e.op == op:
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(other, ir.Const) and other.type.name == "none":
                return [side]
    return []


def _ends(body: tuple[ir.Stmt, ...]) -> bool:
    return bool(body) and isinstance(body[-1], ir.Return | ir.Raise)


def _unchecked(e: ir.Table | ir.State) -> ir.Expr:
    """A field read through an entity known not to be none: without its bounds check (a
    table's check follows its entity's type, a counter's its own flag)."""
    if isinstance(e, ir.State):
        return dataclasses.replace(e, checked=False)
    if not e.entity.type.optional:
        return e
    return dataclasses.replace(e, entity=dataclasses.replace(
        e.entity, type=ir.Type(e.entity.type.name, False)))


class Eliminator:
    def __init__(self, assigned: set[str]):
        self.assigned = assigned

    def facts(self, found: list[ir.Expr]) -> set[ir.Expr]:
        return {x for x in found if _stable(x, self.assigned)}

    def expr(self, e: ir.Expr | None, known: frozenset[ir.Expr]) -> ir.Expr | None:
        if e is None:
            return None
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            left = self.expr(e.left, known)
            # `x != none and ...` / `x == none or ...`: x is not none in what follows
            extra = self.facts(_none_tests(e.left, "!=" if e.op == "and" else "==", e.op))
            right = self.expr(e.right, known | extra)
            return dataclasses.replace(e, left=left, right=right)
        if isinstance(e, ir.Conditional):
            # `if x != none then ... else ...`: x is not none in the first branch
            return dataclasses.replace(
                e, test=self.expr(e.test, known),
                then=self.expr(e.then, known | self.facts(_none_tests(e.test, "!=", "and"))),
                otherwise=self.expr(e.otherwise,
                                    known | self.facts(_none_tests(e.test, "==", "or"))))
        if isinstance(e, ir.KernelCall) and e.function == "k_some" and e.args[0] in known:
            return self.expr(e.args[0], known)
        if isinstance(e, ir.Table | ir.State) and e.entity in known:
            return _unchecked(e)
        if isinstance(e, ir.Binary | ir.Unary | ir.CallProc | ir.KernelCall):
            return self._children(e, known)
        return e

    def _children(self, e: ir.Expr, known: frozenset[ir.Expr]) -> ir.Expr:
        return map_children(e, lambda child: self.expr(child, known))

    def block(self, body: tuple[ir.Stmt, ...], known: frozenset[ir.Expr]
              ) -> tuple[ir.Stmt, ...]:
        out = []
        for s in body:
            for name in ("value", "expr", "where"):
                if isinstance(getattr(s, name, None), ir.Expr):
                    s = dataclasses.replace(s, **{name: self.expr(getattr(s, name), known)})
            match s:
                case ir.If():
                    test = self.expr(s.test, known)
                    then = self.block(s.then, known | self.facts(_none_tests(s.test, "!=", "and")))
                    otherwise = self.block(s.otherwise, known)
                    s = dataclasses.replace(s, test=test, then=then, otherwise=otherwise)
                    if _ends(s.then) and not s.otherwise:
                        known = known | self.facts(_none_tests(s.test, "==", "or"))
                case ir.While() | ir.Loop():
                    s = dataclasses.replace(s, body=self.block(s.body, known))
            out.append(s)
        return tuple(out)


def eliminate_some(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    def function(f: ir.Function) -> ir.Function:
        assigned = assigned_locals(f.body)
        assigned |= {s.name for s in walk_stmts(f.body) if isinstance(s, ir.Declare)}
        assigned |= {s.var for s in walk_stmts(f.body) if isinstance(s, ir.Loop)}
        return dataclasses.replace(f, body=Eliminator(assigned).block(f.body, frozenset()))

    stable = Eliminator(set())  # a decision's or an aggregate's expressions assign nothing
    decisions = tuple(dataclasses.replace(d, where=stable.expr(d.where, frozenset()),
                                          default=stable.expr(d.default, frozenset()))
                      for d in program.decisions)
    aggregates = tuple(dataclasses.replace(a, where=stable.expr(a.where, frozenset()),
                                           value=stable.expr(a.value, frozenset()))
                       for a in program.aggregates)
    return dataclasses.replace(program, functions=tuple(function(f) for f in program.functions),
                               decisions=decisions, aggregates=aggregates)


class _DeclaredData:
    """`some(c.target)` where the tests on the way to it (`c.deck == missions`, `c.need >
    0`) read only declared data of c: worked out for every card at compile time, it can
    fail only if a card that passes them has no `target`."""

    def __init__(self, program: ir.Program, fx: Effects):
        self.tables = {t.name: t.values for t in program.tables if t.stride == 1}
        self.deck_of = {card: d for d, deck in enumerate(program.decks) for card in deck.cards}
        self.folder = Folder(fx, Reporter().reporting(ErrorCode.CONSTANT_OUT_OF_RANGE))

    def expr(self, e: ir.Expr | None, path: tuple[ir.Expr, ...]) -> ir.Expr | None:
        """e with every `some` that cannot fail, given the tests on the way, dropped."""
        if e is None:
            return None
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            known = e.left if e.op == "and" else negate(e.left)
            return rebuilt(e, left=self.expr(e.left, path),
                           right=self.expr(e.right, (*path, known)))
        if isinstance(e, ir.Conditional):
            return rebuilt(e, test=self.expr(e.test, path),
                           then=self.expr(e.then, (*path, e.test)),
                           otherwise=self.expr(e.otherwise, (*path, negate(e.test))))
        if isinstance(e, ir.KernelCall) and e.function == "k_some" and self._never_none(
                e.args[0], path):
            known = e.args[0]  # never none here: read as a value of the type itself
            return dataclasses.replace(known, type=ir.Type(known.type.name, False))
        return map_children(e, lambda child: self.expr(child, path))

    def _never_none(self, x: ir.Expr, path: tuple[ir.Expr, ...]) -> bool:
        if not (isinstance(x, ir.Table) and x.table in self.tables and x.element is None
                and isinstance(x.entity, ir.Local)):
            return False
        var = x.entity
        tests = [t for t in path if self._declared(t, var)]
        values = self.tables[x.table]
        return all(values[k] != -1 for k in range(min(x.length, len(values)))
                   if not any(self._fold(t, var, k) == ir.Const(ir.BOOL, False) for t in tests))

    def _declared(self, e: ir.Expr, var: ir.Local) -> bool:
        """Whether e reads nothing but constants and declared data of var."""
        for n in walk_expr(e):
            if isinstance(n, ir.Local) and n != var or isinstance(n, ir.State | ir.CallProc
                                                                   | ir.KernelCall | ir.Builtin):
                return False
            if isinstance(n, ir.Table) and (n.table not in self.tables or n.element is not None):
                return False
            if isinstance(n, ir.Derived) and n.what != "card_deck":
                return False
        return True

    def _fold(self, e: ir.Expr, var: ir.Local, k: int) -> ir.Expr:
        def known(n: ir.Expr) -> ir.Expr:
            if n == var:
                return ir.Const(var.type, k)
            if isinstance(n, ir.Table) and isinstance(n.entity, ir.Const):
                value = self.tables[n.table][n.entity.value]
                return ir.Const(n.type, bool(value) if n.type.name == "bool" else value)
            if isinstance(n, ir.Derived) and isinstance(n.entity, ir.Const):
                return ir.Const(n.type, self.deck_of.get(n.entity.value, -1))
            return self.folder.node(n)
        return map_expr(e, known)


def some_of_declared_data(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Drop `some(x.f)` (f declared data) where every entity that passes the tests on the
    way has an f: a decision's filter that could fail only there is then safe, and the
    decision lazy."""
    data = _DeclaredData(program, fx)
    decisions = tuple(dataclasses.replace(d, where=data.expr(d.where, ()),
                                          default=data.expr(d.default, ()))
                      for d in program.decisions)
    aggregates = tuple(dataclasses.replace(a, where=data.expr(a.where, ()),
                                           value=data.expr(a.value, ()))
                       for a in program.aggregates)
    functions = tuple(dataclasses.replace(f, body=map_body(f.body, lambda e: data.expr(e, ())))
                      for f in program.functions)
    return dataclasses.replace(program, decisions=decisions, aggregates=aggregates,
                               functions=functions)
