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

from ..compiler import ast
from ..compiler.callgraph import nodes_of
from ..compiler.diagnostics import CompileError
from ..compiler.libpath import scenario_paths
from ..compiler.pipeline import LAST_CHECKING_PASS, compile_rules
from ..compiler.primitives import BUILTIN_ATTRS
from ..compiler.quotes import quoted_units
from ..compiler.symbols import KERNEL_EVENTS, Symbols
from .describe_text import expr_text, params_text, type_text

SCHEMA = 1
_SKIPPED = frozenset({"span", "provenance", "default", "type"})


def _quotes(provenance: Iterable[ast.Provenance]) -> list[str]:
    return [p.text for p in provenance if isinstance(p, ast.Quote)]


def _assumes(provenance: Iterable[ast.Provenance]) -> list[str]:
    return [p.reason for p in provenance if isinstance(p, ast.Assume)]


def _values(values: tuple[ast.FieldValue, ...]) -> dict[str, str]:
    return {v.name: expr_text(v.value) for v in values}


def _library(span_path: str, edition_path: str) -> str:
    """Where a definition is: "edition", or the library module's name."""
    return "edition" if span_path == edition_path else Path(span_path).stem


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
            units[f"game {kind}"] = ("game property", kind, (prop.value, prop.condition))
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
            "enums": [{"name": e.name, "members": list(e.members)} for e in s.enums.values()],
            "builtin_attributes": [{"owner": owner, "name": name, "type": t.declared,
                                    "assignable": assignable}
                                   for (owner, name), (t, assignable) in BUILTIN_ATTRS.items()],
            "fields": [{"owner": f.owner, "name": f.name, "type": type_text(f.type),
                        "default": expr_text(f.default) or None} for f in s.fields.values()],
            "counters": [self._counter(c) for c in s.counters.values()],
            "groups": [{"name": g.name, "title": g.title, "values": _values(g.values)}
                       for g in s.groups.values()],
            "spaces": [self._space(sp) for sp in s.spaces.values()],
            "dice": [{"name": d.name, "faces": [expr_text(f) for f in d.faces]}
                     for d in s.dice.values()],
            "decks": [self._deck(d) for d in s.decks.values()],
            "grid": next(({"name": g.name, "width": g.width, "height": g.height}
                          for g in s.grids.values()), None),
            "events": [{"name": name, "params": [{"name": n, "type": t.declared}
                                                 for n, t in params],
                        "raised_by": "kernel" if name in KERNEL_EVENTS else "rules"}
                       for name, params in s.events.items()],
            "decisions": self._decisions(),
            "procedures": [self._procedure(p) for p in s.procs.values()],
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
        return {"name": o.name, "type": type_text(o.type), "values": values,
                "default": expr_text(o.default), "title": o.title,
                "quotes": _quotes(o.provenance), "assumes": _assumes(o.provenance)}

    def _param(self, p: ast.ParamDecl) -> dict[str, Any]:
        setting = self.symbols.sets.get(p.name)
        value = setting.value if setting is not None else p.value
        provenance = (*p.provenance, *(setting.provenance if setting is not None else ()))
        folded = self.program.constants.get(p.name)
        numeric = p.type.name in ("int", "money") and type(folded) is int
        return {"name": p.name, "type": type_text(p.type), "value": expr_text(value),
                "constant": folded if numeric else None,
                "assumes": _assumes(provenance)}

    def _counter(self, c: ast.CounterDecl) -> dict[str, Any]:
        return {"owner": c.owner or "game", "name": c.name, "type": type_text(c.type),
                "initial": expr_text(c.initial) or None, "assumes": _assumes(c.provenance)}

    def _space(self, sp: ast.SpaceDecl) -> dict[str, Any]:
        index = self.program.space_ids.index(sp.name)
        return {"name": sp.name, "title": sp.title, "kind": sp.kind,
                "track": None if sp.offboard_at else self.program.track[index],
                "offboard_at": sp.offboard_at or None, "values": _values(sp.values)}

    def _deck(self, d: ast.DeckDecl) -> dict[str, Any]:
        return {"name": d.name, "title": d.title, "params": params_text(d.params),
                "cards": [{"name": c.name, "text": c.text, "keep": c.keep,
                           "copies": c.copies, "values": _values(c.values)}
                          for c in d.cards]}

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
            })
        return found

    def _procedure(self, p: ast.ProcDecl) -> dict[str, Any]:
        returns = type_text(p.returns) if p.returns is not None else None
        signature = f"{p.name}({params_text(p.params)})" + (f" -> {returns}" if returns else "")
        return {"name": p.name, "params": params_text(p.params), "returns": returns,
                "signature": signature,
                "defined_in": _library(p.span.path, self.edition_path)}


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


def _wrap(text: str, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, 92, initial_indent=indent, subsequent_indent=indent + "  ")


def _values_text(values: dict[str, str]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def _noted(line: str, item: dict[str, Any]) -> list[str]:
    """A line, then the item's quotes and assumptions, each on lines of its own."""
    lines = [line]
    for quote in item.get("quotes", ()):
        lines += _wrap(f'quote "{quote}"', "      ")
    for reason in item.get("assumes", ()):
        lines += _wrap(f'assume "{reason}"', "      ")
    return lines


def format_text(data: dict[str, Any]) -> str:
    """The description for a reader: one section per kind of definition."""
    players = data["players"]
    out = [f"edition {data['edition']}: {data['title']}",
           f"  players {players['min']} to {players['max']}"
           + (f", currency {data['currency']}" if data["currency"] else "")]

    def section(title: str, lines: list[str]) -> None:
        if lines:
            out.extend(["", f"{title}:", *lines])

    section("options (scenario step: option NAME = VALUE)", [
        line for o in data["options"] for line in _noted(
            f"  {o['name']}: {o['type']} = {o['default']}  \"{o['title']}\""
            + (f"  (values: {', '.join(o['values'])})" if o["values"] else ""), o)])
    section("params", [line for p in data["params"] for line in _noted(
        f"  {p['name']}: {p['type']} = {p['value']}"
        + (f"  (= {p['constant']})" if p["constant"] is not None
           and str(p["constant"]) != p["value"] else ""), p)])
    section("enums", [f"  {e['name']} {{ {', '.join(e['members'])} }}" for e in data["enums"]])
    section("built-in attributes (kernel functions and values: docs/language.md, 24-26)", [
        f"  {a['owner']}.{a['name']}: {a['type']}" + ("  (a given block may set it)"
                                                     if a["assignable"] else "")
        for a in data["builtin_attributes"]])
    section("fields (fixed data)", [
        f"  {f['owner']}.{f['name']}: {f['type']}"
        + (f" = {f['default']}" if f["default"] else "") for f in data["fields"]])
    section("counters (state; a given block may set them)", [
        line for c in data["counters"] for line in _noted(
            f"  {c['owner']}.{c['name']}: {c['type']}"
            + (f" = {c['initial']}" if c["initial"] else ""), c)])
    section("groups", [f"  {g['name']} \"{g['title']}\""
                       + (f" {{ {_values_text(g['values'])} }}" if g["values"] else "")
                       for g in data["groups"]])
    section("board (in order; track position or offboard)", [
        f"  {'' if s['track'] is None else s['track']:>3} {s['name']} \"{s['title']}\" "
        f"{s['kind']}" + (f" offboard at {s['offboard_at']}" if s["offboard_at"] else "")
        + (f" {{ {_values_text(s['values'])} }}" if s["values"] else "")
        for s in data["spaces"]])
    section("dice", [f"  {d['name']} faces [{', '.join(d['faces'])}]" for d in data["dice"]])
    deck_lines: list[str] = []
    for deck in data["decks"]:
        deck_lines.append(f"  deck {deck['name']}({deck['params']}) \"{deck['title']}\"")
        for c in deck["cards"]:
            extra = (" keep" if c["keep"] else "") + (
                f" copies {c['copies']}" if c["copies"] > 1 else "") + (
                f" {{ {_values_text(c['values'])} }}" if c["values"] else "")
            deck_lines += _wrap(f"{c['name']} \"{c['text']}\"{extra}", "    ")
    section("decks and cards", deck_lines)
    if data["grid"]:
        grid = data["grid"]
        section("grid", [f"  {grid['name']} {grid['width']} x {grid['height']}"])
    section("events", [_event_line(e) for e in data["events"]])
    section("decisions (scenario step: answer NAME [...])", _decision_lines(data["decisions"]))
    section("procedures (callable in a given block; bodies not shown)", [
        f"  {p['signature']}  [{p['defined_in']}]" for p in data["procedures"]])
    section("rules (scenario targets: scenario \"...\" for RULE)", [
        line for r in data["rules"] for line in _noted(
            f"  {r['name']}  [{r['defined_in']}]", r)])
    section("other scenario targets (definitions that quote the rulebook)", [
        line for t in data["other_targets"] for line in _noted(f"  {t['name']}", t)])
    return "\n".join(out) + "\n"


def _event_line(event: dict[str, Any]) -> str:
    params = ", ".join(f"{p['name']}: {p['type']}" for p in event["params"])
    return f"  {event['name']}({params})  raised by the {event['raised_by']}"


def _decision_lines(decisions: list[dict[str, Any]]) -> list[str]:
    """Each decision; a rule's quotes are written the first time the rule is named."""
    lines: list[str] = []
    quoted: set[str] = set()
    for d in decisions:
        lines.append(f"  {d['name']}({d['params']}) -> {d['answer']}")
        if d["prompt"]:
            lines += _wrap(f"prompt: \"{d['prompt']}\"", "      ")
        lines.append(f"      asked of: {d['asked_of']}")
        lines += _wrap(f"answers: {d['legal_answers']}", "      ")
        for quote in d["quotes"]:
            lines += _wrap(f'quote "{quote}"', "      ")
        for reason in d["assumes"]:
            lines += _wrap(f'assume "{reason}"', "      ")
        direct = ", ".join(f"{a['kind']} {a['name']}" for a in d["asked_in"])
        lines.append(f"      asked in: {direct or 'no code (never asked)'}")
        for unit in d["reached_from"]:
            via = f" (through {', '.join(unit['via'])})" if unit["via"] else ""
            seen = unit["name"] in quoted and unit["kind"] == "rule"
            lines.append(f"      asked when {unit['kind']} {unit['name']} runs{via}"
                         + (" (its quotes above)" if seen and unit.get("quotes") else ""))
            if not seen:
                for quote in unit.get("quotes", ()):
                    lines += _wrap(f'"{quote}"', "          ")
            if unit["kind"] == "rule":
                quoted.add(unit["name"])
    return lines
