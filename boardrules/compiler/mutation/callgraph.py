"""Who owns each piece of the checked program's code, for mutation testing.

A unit (what a scenario names and what quotes the rulebook: a rule, a card, a decision,
a param, a game property) owns its own code: a rule's handlers, a card's effect, a
decision's chooser, bounds and filter, a game property's expression. Procedures and
aggregates are shared: they count for every unit whose code reaches them through
procedures, aggregates and asked decisions (a decision counts for the rules that ask it
too). A param counts for itself and for the units whose code names it. Code that no
unit reaches (a procedure only a decision's default strategy calls) is not the rules'.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..common.diagnostics import Span
from ..front import ast
from ..front.symbols import Symbols
from ..ir import nodes as ir

GAME_PROPS = {"over_when": "over", "first_player": "first", "score": "score",
              "round_limit": "rounds", "bankruptcy_ends": "bankruptcy"}


def _game_function(kind: str) -> str:
    """The name the checker gives a game property's scope (and its aggregates' suffix)."""
    return "score" if kind == "score" else f"game_{kind}"


def nodes_of(node, kind: type, skipped: frozenset[str]) -> Iterator:
    """Every node of `kind` in a dataclass tree (AST or IR, or a tuple of them), leaving
    out the fields named in `skipped`."""
    if isinstance(node, tuple):
        for item in node:
            yield from nodes_of(item, kind, skipped)
        return
    if isinstance(node, kind):
        yield node
    if hasattr(node, "__dataclass_fields__") and not isinstance(node, ir.Type):
        for name in node.__dataclass_fields__:
            if name not in skipped:
                yield from nodes_of(getattr(node, name), kind, skipped)


def _calls(node) -> Iterator[str]:
    """The generated methods an IR node calls (procedures, aggregates, decisions...)."""
    return (n.function for n in nodes_of(node, ir.CallProc, frozenset({"type", "span"})))


class CallGraph:
    """Each function's origin (`rule rent`, `proc charge`...) and the units it counts for."""

    def __init__(self, program: ir.Program, symbols: Symbols) -> None:
        self.symbols = symbols
        self._origin: dict[str, str] = {}
        self._own: dict[str, str] = {}
        self._edges: dict[str, set[str]] = {}
        transparent: set[str] = set()
        for f in program.functions:
            kind, name = (f.origin.split() + ["", ""])[:2]
            self._origin[f.name] = f"{kind} {name}"
            if kind in ("rule", "card"):
                self._own[f.name] = name
            self._edges[f.name] = set(_calls((f.guard, f.body)))
        for d in program.decisions:
            node = f"decide_{d.name}"
            self._origin[node] = f"decision {d.name}"
            self._own[node] = d.name
            transparent.add(node)
            self._edges[node] = set(_calls((d.by, d.low, d.high, d.where)))
        for attr, kind in GAME_PROPS.items():
            node = _game_function(kind)
            self._origin[node] = f"game {kind}"
            self._own[node] = f"game_{kind}"
            self._edges[node] = set(_calls(getattr(program, attr)))
        for a in program.aggregates:
            self._edges[a.name] = set(_calls((a.where, a.value, a.domain)))
        for a in program.aggregates:  # after the functions: an aggregate is where it is written
            inside = a.name.split("_in_", 1)[1] if "_in_" in a.name else ""
            self._origin[a.name] = self._origin.get(inside, f"aggregate {a.name}")
        self._units: dict[str, set[str]] = {}
        for root, unit in self._own.items():
            self._units.setdefault(root, set()).add(unit)
            self._reach(root, unit, transparent)
        if "valuation" in symbols.game:  # a valuation is lowered into the score
            self._units.setdefault("score", set()).add("game_valuation")
            self._reach("score", "game_valuation", transparent)

    def _reach(self, root: str, unit: str, transparent: set[str]) -> None:
        seen, stack = {root}, list(self._edges.get(root, ()))
        while stack:
            node = stack.pop()
            if node in seen or node not in self._edges:
                continue
            seen.add(node)
            if node in self._own and node not in transparent:
                continue  # another rule's or card's code counts for that unit
            self._units.setdefault(node, set()).add(unit)
            stack.extend(self._edges[node])

    def origin(self, name: str) -> str:
        return self._origin.get(name, name)

    def units(self, name: str) -> tuple[str, ...]:
        return tuple(sorted(self._units.get(name, ())))

    def mutable(self, name: str) -> bool:
        """Whether the function is rules code: some unit owns or reaches it."""
        return bool(self._units.get(name))

    def game_function(self, attr: str) -> str:
        return _game_function(GAME_PROPS[attr])

    def game_span(self, attr: str) -> Span | None:
        prop = self.symbols.game.get(GAME_PROPS[attr])
        return prop.span if prop is not None else None


def _names(node) -> Iterator[str]:
    """Every name an AST node (or tuple of nodes) reads."""
    return (n.name for n in nodes_of(node, ast.Name,
                                      frozenset({"span", "provenance", "default"})))


def strategy_params(symbols: Symbols, graph: CallGraph) -> set[str]:
    """The params no rules code and no data names: those only the default strategy reads
    (decision defaults, procedures only they call), which are tuning, not rules, and those
    nothing reads. Not mutated."""
    elsewhere: set[str] = set()
    for name, proc in symbols.procs.items():
        if graph.mutable(f"proc_{name}"):
            elsewhere.update(_names(proc.body))
    tables = (symbols.rules, symbols.decisions, symbols.spaces, symbols.groups, symbols.dice,
              symbols.decks, symbols.options, symbols.grids, symbols.sets, symbols.fields,
              symbols.counters)
    for table in tables:
        elsewhere.update(_names(tuple(table.values())))
    elsewhere.update(_names(tuple(card for _, card in symbols.cards.values())))
    elsewhere.update(_names(tuple(symbols.game.values())))
    elsewhere.update(_names(tuple(p.value for p in symbols.params.values()
                                  if p.value is not None)))
    return set(symbols.params) - elsewhere


def param_units(symbols: Symbols, graph: CallGraph) -> dict[str, tuple[str, ...]]:
    """For each param: itself and the units whose code names it."""
    users: list[tuple[set[str], tuple[str, ...]]] = []
    for name, rule in symbols.rules.items():
        users.append((set(_names(rule.handlers)), (name,) if rule.handlers else ()))
    for name, proc in symbols.procs.items():
        users.append((set(_names(proc.body)), graph.units(f"proc_{name}")))
    for name, (_, card) in symbols.cards.items():
        users.append((set(_names(card.effect)), (name,) if card.effect else ()))
    for name, decision in symbols.decisions.items():
        users.append((set(_names(decision)), graph.units(f"decide_{name}")))
    for kind, prop in symbols.game.items():
        users.append((set(_names(prop.value)), graph.units(_game_function(kind))))
    return {param: tuple(sorted({param, *(u for names, units in users if param in names
                                          for u in units)}))
            for param in symbols.params}
