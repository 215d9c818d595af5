"""`boardrules describe`: an edition's vocabulary without its logic.

A conformance suite is written by a reader who has the rulebook and this description,
never the rules' code (docs/conformance.md). So it lists what a scenario can name and
script (the players, the board, groups, decks and cards with their data, dice, enums,
fields, counters, params, options, events, the procedures a `given` block may call,
the rules a scenario may target with their quotes, and every decision: its question,
answer type, who is asked and which rules ask it) and leaves out every handler,
procedure body, decision filter and default strategy. It reads the checked program's
symbol table and syntax tree, not the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..compiler.common.diagnostics import CompileError
from ..compiler.front import ast
from ..compiler.front.libpath import scenario_paths
from ..compiler.front.primitives import BUILTIN_ATTRS
from ..compiler.front.quotes import quoted_units
from ..compiler.front.symbols import KERNEL_EVENTS, Symbols
from ..compiler.mutation.callgraph import nodes_of
from ..compiler.pipeline import LAST_CHECKING_PASS, compile_rules
from .describe_format import format_text  # noqa: F401  (the CLI's import)
from .describe_structures import AskSites, comment_above, library_modules
from .describe_text import expr_text, params_text, type_text

SCHEMA = 1
_SKIPPED = frozenset({"span", "provenance", "default", "type"})


def _quotes(provenance: Iterable[ast.Provenance]) -> list[str]:
    return [p.text for p in provenance if isinstance(p, ast.Quote)]


def _assumes(provenance: Iterable[ast.Provenance]) -> list[str]:
    return [p.reason for p in provenance if isinstance(p, ast.Assume)]


def _notes(provenance: Iterable[ast.Provenance]) -> dict[str, list[str]]:
    return {"quotes": _quotes(provenance), "assumes": _assumes(provenance)}


def _values(values: tuple[ast.FieldValue, ...]) -> dict[str, str]:
    return {v.name: expr_text(v.value) for v in values}


def _library(span_path: str, edition_path: str) -> str:
    """Where a definition is: "edition", or the library module's name."""
    return "edition" if span_path == edition_path else Path(span_path).stem


# each game property: how it is written (a formula is not shown), and what holds without it
GAME_PROPERTIES = {
    "first": ("first EXPR", "p1 plays first"),
    "over": ("over when ...", "the game ends when at most one player is still in"),
    "rounds": ("over after N rounds", "no round limit"),
    "bankruptcy": ("over at first bankruptcy", "a bankruptcy does not end the game"),
    "score": ("score(p: player) = ...", "a player's score is their cash"),
    "valuation": ("score(p: player) = ... when COND", "no valuation: the score above"),
    "turn_limit": ("turn_limit N", "the game is capped after 1000 turns"),
}


def _game_written(kind: str, prop: ast.GameProp, written: str) -> str:
    """A game property as written, its formula left out (`over when ...`)."""
    value = expr_text(prop.value)
    parts = "..." + " then ..." * len(prop.tie_breaks)  # the score and its tie-breakers
    return {"first": f"first {value}", "rounds": f"over after {value} rounds",
            "turn_limit": f"turn_limit {value}",
            "bankruptcy": f"over at first bankruptcy when {value}",
            "score": f"score(p: player) = {parts}",
            "valuation": f"score(p: player) = {parts} when {expr_text(prop.condition)}",
            }.get(kind, written)


class _Askers:
    """Which code asks each decision: rules, procedures and cards directly, and the rules
    and cards whose code reaches an asking procedure through procedure calls."""

    def __init__(self, symbols: Symbols) -> None:
        procs = set(symbols.procs)
        units: dict[str, tuple[str, str, Any]] = {}
        for name, rule in symbols.rules.items():
            units[f"rule {name}"] = ("rule", name, rule.handlers)
        for name, proc in symbols.procs.items():
            units[f"proc {name}"] = ("proc", name, proc.body)
        for name, (_, card) in symbols.cards.items():
            units[f"card {name}"] = ("card", name, card.effect)
        for kind, prop in symbols.game.items():
            units[f"game {kind}"] = ("game property", kind,
                                     (prop.value, prop.condition, prop.tie_breaks))
        self.units = units
        self.asks = {key: {a.decision for a in nodes_of(code, ast.Ask, _SKIPPED)}
                     for key, (_, _, code) in units.items()}
        self.calls = {key: {c.name for c in nodes_of(code, ast.Call, _SKIPPED)} & procs
                      for key, (_, _, code) in units.items()}

    def _reached(self, key: str) -> set[str]:
        """The procedures a unit's code calls, directly or not."""
        seen: set[str] = set()
        stack = list(self.calls[key])
        while stack:
            proc = stack.pop()
            if proc not in seen:
                seen.add(proc)
                stack.extend(self.calls.get(f"proc {proc}", ()))
        return seen

    def of(self, decision: str) -> tuple[list[dict], list[dict]]:
        """(the code that asks it directly, the rules and cards that reach it)."""
        direct = [{"kind": kind, "name": name} for key, (kind, name, _) in self.units.items()
                  if decision in self.asks[key]]
        reaching = []
        for key, (kind, name, _) in self.units.items():
            if kind == "proc":
                continue
            via = sorted(p for p in self._reached(key) if decision in self.asks[f"proc {p}"])
            if decision in self.asks[key] or via:
                reaching.append({"kind": kind, "name": name, "via": via})
        return direct, reaching


def _answer(decision: ast.DecisionDecl, symbols: Symbols) -> tuple[str, str]:
    """The answer's type as scenarios write it, and its legal answers in words."""
    none = ", or none" if decision.optional else ""
    if decision.kind == "bool":
        return "bool", "yes or no (true or false)"
    if decision.kind == "int":
        words = (f"a whole number from {expr_text(decision.low)} to "
                 f"{expr_text(decision.high)}{none}")
        return "int" + ("?" if decision.optional else ""), words
    entity = decision.entity_type
    kinds = {"player": "players", "space": "spaces", "group": "groups", "card": "cards",
             "cell": "cells"}
    what = kinds.get(entity, f"members of enum {entity}")
    if entity in symbols.enums:
        what += f" ({', '.join(symbols.enums[entity].members)})"
    allowed = ("any of the " if decision.where is None
               else "one of the ") + what + ("" if decision.where is None else
                                              " that the rules allow when it is asked")
    return entity + ("?" if decision.optional else ""), allowed + none


def _asked_of(decision: ast.DecisionDecl) -> str:
    who = expr_text(decision.by)
    if any(p.name == who for p in decision.params):
        return f"{who} (the parameter)"
    return who


class Describer:
    """The description of one checked compilation, as JSON-ready data."""

    def __init__(self, compilation) -> None:
        self.symbols: Symbols = compilation.symbols
        self.program = compilation.program
        self.edition_path = str(compilation.path)
        self.edition = compilation.edition
        self.quoted = {unit: list(dict.fromkeys(q.text for q in quotes))
                       for unit, quotes in quoted_units(self.symbols).items()}
        self.sources = compilation.sources
        self.sites = AskSites(self.symbols)

    def note(self, decl: ast.Node) -> str | None:
        """A library definition's comment (the library's documentation of it); None for
        the edition's own, whose comments are the rules' reading."""
        path = decl.span.path
        if path == self.edition_path or self.sources is None:
            return None
        return comment_above(self.sources.texts.get(path, ""), decl.span.line) or None

    def folded(self, text: str) -> str:
        """A param's name with its value (`manage_rounds (= 2)`); other text as it is."""
        value = self.program.constants.get(text)
        return f"{text} (= {value})" if type(value) is int else text

    def rule_quotes(self, name: str) -> list[str]:
        """A rule's quotes, those of the `use` blocks that attach quotes to it included."""
        return self.quoted.get(name, [])

    def data(self) -> dict[str, Any]:
        s, program = self.symbols, self.program
        return {
            "schema": SCHEMA,
            "edition": self.edition,
            "title": program.title,
            "currency": program.currency,
            "players": {"min": program.min_players, "max": program.max_players},
            "options": [self._option(o) for o in s.options.values()],
            "params": [self._param(p) for p in s.params.values()],
            "enums": [{"name": e.name, "members": list(e.members), **_notes(e.provenance)}
                      for e in s.enums.values()],
            "builtin_attributes": [{"owner": owner, "name": name, "type": t.declared,
                                    "assignable": assignable}
                                   for (owner, name), (t, assignable) in BUILTIN_ATTRS.items()],
            "fields": [{"owner": f.owner, "name": f.name, "type": type_text(f.type),
                        "default": expr_text(f.default) or None} for f in s.fields.values()],
            "counters": [self._counter(c) for c in s.counters.values()],
            "groups": [{"name": g.name, "title": g.title, "values": _values(g.values),
                        **_notes(g.provenance)} for g in s.groups.values()],
            "spaces": [self._space(sp) for sp in s.spaces.values()],
            "dice": [{"name": d.name, "faces": [expr_text(f) for f in d.faces],
                      **_notes(d.provenance)} for d in s.dice.values()],
            "decks": [self._deck(d) for d in s.decks.values()],
            "grid": next(({"name": g.name, "width": g.width, "height": g.height,
                           **_notes(g.provenance)} for g in s.grids.values()), None),
            "events": [{"name": name, "params": [{"name": n, "type": t.declared}
                                                 for n, t in params],
                        "raised_by": "kernel" if name in KERNEL_EVENTS else "rules"}
                       for name, params in s.events.items()],
            "decisions": self._decisions(),
            "procedures": [self._procedure(p) for p in s.procs.values()],
            "game_properties": self._game_properties(),
            "windows": [{**w, "rounds": self.folded(w["rounds"])} for w in self.sites.windows],
            "library_modules": library_modules(self.sources) if self.sources else [],
            "rules": [{"name": name, "quotes": self.rule_quotes(name),
                       "assumes": _assumes(rule.provenance),
                       "defined_in": _library(rule.span.path, self.edition_path)}
                      for name, rule in s.rules.items()],
            "other_targets": [{"name": unit, "quotes": quotes}
                              for unit, quotes in self.quoted.items() if unit not in s.rules],
        }

    def _option(self, o: ast.OptionDecl) -> dict[str, Any]:
        values = (["true", "false"] if o.type.name == "bool" else
                  list(self.symbols.enums[o.type.name].members)
                  if o.type.name in self.symbols.enums else None)
        bounds = [expr_text(b) for b in o.bounds] if o.bounds else None  # from LOW to HIGH
        return {"name": o.name, "type": type_text(o.type), "values": values, "range": bounds,
                "default": expr_text(o.default), "title": o.title,
                "quotes": _quotes(o.provenance), "assumes": _assumes(o.provenance)}

    def _param(self, p: ast.ParamDecl) -> dict[str, Any]:
        """The value in force with the provenance that goes with it: a `set`'s quotes and
        assumes for a value set, the param's own for its default; a default a `set`
        replaced is shown apart, with the assumes that explain that default."""
        setting = self.symbols.sets.get(p.name)
        value = setting.value if setting is not None else p.value
        folded = self.program.constants.get(p.name)
        numeric = p.type.name in ("int", "money") and type(folded) is int
        in_force = setting.provenance if setting is not None else p.provenance
        found = {"name": p.name, "type": type_text(p.type), "value": expr_text(value),
                 "constant": folded if numeric else None, **_notes(in_force),
                 "defined_in": _library(p.span.path, self.edition_path),
                 "set_in": (_library(setting.span.path, self.edition_path)
                            if setting is not None else None),
                 "replaced_default": None, "note": self.note(p)}
        if setting is not None:
            found["replaced_default"] = {"value": expr_text(p.value) or None,
                                         **_notes(p.provenance)}
        return found

    def _counter(self, c: ast.CounterDecl) -> dict[str, Any]:
        return {"owner": c.owner or "game", "name": c.name, "type": type_text(c.type),
                "initial": expr_text(c.initial) or None, **_notes(c.provenance),
                "target": f"{c.owner}_{c.name}" if c.owner else c.name, "note": self.note(c)}

    def _space(self, sp: ast.SpaceDecl) -> dict[str, Any]:
        index = self.program.space_ids.index(sp.name)
        return {"name": sp.name, "title": sp.title, "kind": sp.kind,
                "track": None if sp.offboard_at else self.program.track[index],
                "offboard_at": sp.offboard_at or None, "values": _values(sp.values),
                **_notes(sp.provenance)}

    def _deck(self, d: ast.DeckDecl) -> dict[str, Any]:
        return {"name": d.name, "title": d.title, "params": params_text(d.params),
                "hidden": d.hidden, **_notes(d.provenance),
                "cards": [{"name": c.name, "text": c.text, "keep": c.keep,
                           "copies": c.copies, "values": _values(c.values),
                           **_notes(c.provenance)} for c in d.cards]}

    def _decisions(self) -> list[dict[str, Any]]:
        askers = _Askers(self.symbols)
        found = []
        for decision in self.symbols.decisions.values():
            answer, legal = _answer(decision, self.symbols)
            direct, reaching = askers.of(decision.name)
            for unit in reaching:
                if unit["kind"] == "rule":
                    unit["quotes"] = self.rule_quotes(unit["name"])
            found.append({
                "name": decision.name, "params": params_text(decision.params),
                "prompt": decision.prompt or None, "asked_of": _asked_of(decision),
                "answer": answer, "legal_answers": legal,
                "quotes": _quotes(decision.provenance),
                "assumes": _assumes(decision.provenance),
                "asked_in": direct, "reached_from": reaching,
                "asked_where": self.sites.sites.get(decision.name, []),
                "passive_answer": ("none" if decision.optional else "false"
                                   if decision.kind == "bool" else "the default strategy's"),
            })
        return found

    def _procedure(self, p: ast.ProcDecl) -> dict[str, Any]:
        returns = type_text(p.returns) if p.returns is not None else None
        signature = f"{p.name}({params_text(p.params)})" + (f" -> {returns}" if returns else "")
        return {"name": p.name, "params": params_text(p.params), "returns": returns,
                "signature": signature,
                "defined_in": _library(p.span.path, self.edition_path), "note": self.note(p)}

    def _game_properties(self) -> list[dict[str, Any]]:
        """Each game property the program gives (the library's or the edition's), with its
        quotes and whether a scenario may target it; and what holds for one not given.
        Only the properties' settings are shown (a variant's condition, the first player,
        the rounds, the cap), not a score's or an end's formula: that is the rules'
        reading."""
        found = []
        for kind, (written, absent) in GAME_PROPERTIES.items():
            prop = self.symbols.game.get(kind)
            if prop is None:
                found.append({"target": f"game_{kind}", "given": False, "written": written,
                              "when_absent": absent, "quotes": [], "assumes": []})
                continue
            found.append({"target": f"game_{kind}", "given": True,
                          "written": _game_written(kind, prop, written),
                          "defined_in": _library(prop.span.path, self.edition_path),
                          **_notes(prop.provenance)})
        return found


def edition_alone(path: Path, error: CompileError):
    """The edition checked without its scenario files, when only they hold the `error`'s
    diagnostics (a scenario file being written); else the error again."""
    scenario_files = {str(p) for p, _ in scenario_paths(path)}
    if not error.diagnostics or any(d.span.path not in scenario_files
                                    for d in error.diagnostics):
        raise error
    return compile_rules(path, until=LAST_CHECKING_PASS, scenario_files=False)


def describe(compilation) -> dict[str, Any]:
    """A checked compilation's vocabulary (the JSON `boardrules describe --json` prints)."""
    return Describer(compilation).data()

