"""Pass check, names: what a bare name means, from one scope table.

A name resolves, in this order, to a local (or parameter) of the code being
checked, a built-in value (`current`, `turn`, `bank`, ...), a param, a space,
a group, a card, an option, a game counter, an enum member or a deck; a die's
name is an error with a hint. The global part of that order is one table,
built once per check from the collected declarations.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from ..common.diagnostics import did_you_mean
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.nodes import BOOL, INT, Type
from . import ast
from .primitives import ERROR
from .scope import Scope
from .symbols import resolve_type

# Values the language defines itself, before any declaration.
BUILTIN_VALUES: dict[str, ir.Expr] = {
    "current": ir.Builtin(Type("player"), "current"),
    "turn": ir.Builtin(INT, "turn"),
    "players_count": ir.Builtin(INT, "players_count"),
    "game_over": ir.Builtin(BOOL, "game_over"),
    "winner": ir.Builtin(Type("player", True), "winner"),
    "rounds": ir.Builtin(INT, "rounds"),
    "bankruptcies": ir.Builtin(INT, "bankruptcies"),
    "bankruptcy_ends_game": ir.Builtin(BOOL, "bankruptcy_ends_game"),
    "bank": ir.Const(Type("player", True), -1),
}

Resolver = Callable[[ast.Name], ir.Expr]


class NameResolution:
    """Part of the Checker (checker.py); `self` is the Checker."""

    def _name(self, e: ast.Name, scope: Scope) -> ir.Expr:
        if e.name in scope.variables:
            return ir.Local(scope.variables[e.name], e.name)
        if e.name in BUILTIN_VALUES:
            return BUILTIN_VALUES[e.name]
        resolve = self.global_scope.get(e.name)
        if resolve is not None:
            return resolve(e)
        visible = self.global_names | set(scope.variables)
        self.report.error(e.span, f"unknown name '{e.name}'",
                          _seat_hint(e.name, scope) or did_you_mean(e.name, visible),
                          code=ErrorCode.UNKNOWN_NAME)
        return ir.Const(ERROR, 0)

    @cached_property
    def global_scope(self) -> dict[str, Resolver]:
        """Each global name and how it resolves: the kinds of lower precedence are entered
        first, so that a name declared as two kinds means the one of higher precedence."""
        s = self.s
        table: dict[str, Resolver] = {}
        table.update({name: self._die_name for name in s.dice})
        table.update({name: _constant(Type("deck"), index) for index, name in enumerate(s.decks)})
        table.update({name: self._enum_member for name in s.enum_members})
        table.update({name: self._game_counter for owner, name in s.counters if owner == ""})
        table.update({name: self._option for name in s.options})
        for kind, index in (("card", self.card_index), ("group", self.group_index),
                            ("space", self.space_index)):
            table.update({name: _constant(Type(kind), i) for name, i in index.items()})
        table.update({name: self._param for name in s.params})
        return table

    def _param(self, e: ast.Name) -> ir.Expr:
        self.used.add(f"param:{e.name}")
        value, ptype = self.param_value(e.name)
        variant = self.variant_params.get(e.name)
        if variant is not None:  # its value reads options: read it where it is used
            return variant
        return ir.Const(ptype, value)

    def _option(self, e: ast.Name) -> ir.Expr:
        otype = resolve_type(self.s.options[e.name].type, self.s, self.report)
        return ir.State(otype, f"option_{e.name}", None, False)

    def _game_counter(self, e: ast.Name) -> ir.Expr:
        ref = self.s.counters[("", e.name)].type
        ctype = resolve_type(ref, self.s, self.report)
        return ir.State(ctype, f"game_{e.name}", None, False, stride=self._stride(ref),
                        index_enum=ref.index_enum)

    def _enum_member(self, e: ast.Name) -> ir.Expr:
        s, name = self.s, e.name
        enums = s.enum_members[name]
        if len(enums) > 1:  # prefer the enum declared in the same file
            local = [n for n in enums if s.enums[n].span.path == e.span.path]
            enums = local if len(local) == 1 else enums
        if len(enums) > 1:
            self.report.error(e.span, f"'{name}' is a member of several enums",
                              f"write {enums[0]}.{name}", code=ErrorCode.AMBIGUOUS_NAME)
        return ir.Const(Type(enums[0]), s.enums[enums[0]].members.index(name))

    def _die_name(self, e: ast.Name) -> ir.Expr:
        self.report.error(e.span, f"'{e.name}' is a die, not a value", f"write roll({e.name})",
                          code=ErrorCode.WRONG_KIND_OF_NAME)
        return ir.Const(ERROR, 0)


def _constant(t: Type, value: int) -> Resolver:
    node = ir.Const(t, value)
    return lambda e: node


def _seat_hint(name: str, scope: Scope) -> str:
    """A seat beyond a scenario's players (`p3` with `players 2`): say how many it has."""
    if not (name[:1] == "p" and name[1:].isdigit() and scope.function.startswith("scenario_")):
        return ""
    seats = sum(1 for n, t in scope.variables.items()
                if n[:1] == "p" and n[1:].isdigit() and t == Type("player"))
    return (f"this scenario has {seats} players, p1 to p{seats}: "
            f"`players {int(name[1:])}` gives it {name}")
