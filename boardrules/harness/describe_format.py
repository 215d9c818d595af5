"""`boardrules describe` as text: one section per kind of definition, each definition with
the rulebook sentences it quotes and the assumptions in force beside it.

A conformance reader works from this page alone (docs/conformance.md): a quote belongs
beside what it is about, a value beside the assumption that explains it (the edition's
`set` for a value it sets; a library default it replaced is shown apart, with the
library's reason for that default), and a rule that quotes nothing says so.
"""

from __future__ import annotations

import textwrap
from typing import Any

HEADER = ("schema", "edition", "title", "currency", "players")
SECTIONS = ("options", "params", "enums", "builtin_attributes", "fields", "counters", "groups",
            "spaces", "dice", "decks", "grid", "events", "decisions", "procedures",
            "game_properties", "windows", "library_modules", "rules", "other_targets")


def only(data: dict[str, Any], sections: list[str]) -> dict[str, Any]:
    """The description cut down to some sections (and the edition, title and players): what
    `describe --section` prints, as text or JSON."""
    return {key: value for key, value in data.items() if key in HEADER or key in sections}


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, 92, initial_indent=indent, subsequent_indent=indent + "  ")


def _values_text(values: dict[str, str]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def _noted(line: str, item: dict[str, Any], indent: str = "      ") -> list[str]:
    """A line, then the item's library note, quotes and assumptions, each on lines of its
    own."""
    lines = [line]
    if item.get("note"):
        lines += _wrap(f"# {item['note']}", indent)
    for quote in item.get("quotes", ()):
        lines += _wrap(f'quote "{quote}"', indent)
    for reason in item.get("assumes", ()):
        lines += _wrap(f'assume "{reason}"', indent)
    return lines


def _param_lines(p: dict[str, Any]) -> list[str]:
    """A param's value in force, where it was set, and the default it replaced."""
    where = (f"  [set in {p['set_in']}; declared in {p['defined_in']}]" if p["set_in"]
             else f"  [{p['defined_in']}]")
    shown = (f"  (= {p['constant']})" if p["constant"] is not None
             and str(p["constant"]) != p["value"] else "")
    lines = _noted(f"  {p['name']}: {p['type']} = {p['value']}{shown}{where}", p)
    replaced = p.get("replaced_default")
    if replaced and (replaced["value"] or replaced["assumes"] or replaced["quotes"]):
        notes = _noted("", replaced, "          ")[1:]
        lines += _wrap(f"replaces the default of {p['defined_in']}, "
                       f"{replaced['value'] or '(none)'}"
                       + (", whose reasons are not in force:" if notes else ""), "      ")
        lines += notes
    return lines


def _game_lines(props: list[dict[str, Any]]) -> list[str]:
    lines = []
    for g in props:
        if not g["given"]:
            lines.append(f"  {g['target']}: not given ({g['when_absent']})")
            continue
        target = "" if g["quotes"] else "  (no quote: not a scenario target)"
        lines += _noted(f"  {g['target']}: {g['written']}  [{g['defined_in']}]{target}", g)
    return lines


def _window_lines(windows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for w in windows:
        lines += _wrap(f"window in {w['in']}: each player still in as {w['var']}, in seat "
                       f"order from {w['from']}, round after round while someone acts, at "
                       f"most {w['rounds']} rounds", "  ")
        lines += _wrap(f"asks, in this order: {', '.join(w['asks']) or 'nothing'}", "      ")
    return lines


def _rule_lines(r: dict[str, Any]) -> list[str]:
    lines = _noted(f"  {r['name']}  [{r['defined_in']}]", r)
    if not r["quotes"]:
        lines += _wrap("no quote: it implements what other rules, procedures and the "
                       "kernel rely on, and states no rulebook sentence of its own", "      ")
    return lines


def format_text(data: dict[str, Any]) -> str:
    """The description for a reader: one section per kind of definition (those in the
    data: `describe --section` leaves some out)."""
    players = data["players"]
    out = [f"edition {data['edition']}: {data['title']}",
           f"  players {players['min']} to {players['max']}"
           + (f", currency {data['currency']}" if data["currency"] else "")]

    def section(title: str, lines: list[str]) -> None:
        if lines:
            out.extend(["", f"{title}:", *lines])

    section("options (scenario step: option NAME = VALUE)", [
        line for o in data.get("options", ()) for line in _noted(
            f"  {o['name']}: {o['type']} = {o['default']}  \"{o['title']}\""
            + (f"  (values: {', '.join(o['values'])})" if o["values"] else "")
            + (f"  (from {o['range'][0]} to {o['range'][1]})" if o.get("range") else ""), o)])
    section("library modules (what each one does, in its own words)", [
        line for m in data.get("library_modules", ())
        for line in _wrap(f"{m['name']}: {m['description'] or '(no description)'}", "  ")])
    section("params (the value in force, and the assumptions behind it)",
            [line for p in data.get("params", ()) for line in _param_lines(p)])
    section("enums", [line for e in data.get("enums", ()) for line in _noted(
        f"  {e['name']} {{ {', '.join(e['members'])} }}", e)])
    section("built-in attributes (kernel functions and values: docs/language.md, 24-26)", [
        f"  {a['owner']}.{a['name']}: {a['type']}" + ("  (a given block may set it)"
                                                     if a["assignable"] else "")
        for a in data.get("builtin_attributes", ())])
    section("fields (fixed data)", [
        f"  {f['owner']}.{f['name']}: {f['type']}"
        + (f" = {f['default']}" if f["default"] else "") for f in data.get("fields", ())])
    section("counters (state; a given block may set them)", [
        line for c in data.get("counters", ()) for line in _noted(
            f"  {c['owner']}.{c['name']}: {c['type']}"
            + (f" = {c['initial']}" if c["initial"] else "")
            + (f"  (scenario target {c['target']})" if c["quotes"] else ""), c)])
    section("groups", [line for g in data.get("groups", ()) for line in _noted(
        f"  {g['name']} \"{g['title']}\""
        + (f" {{ {_values_text(g['values'])} }}" if g["values"] else ""), g)])
    section("board (in order; track position or offboard)", [
        line for s in data.get("spaces", ()) for line in _noted(
            f"  {'' if s['track'] is None else s['track']:>3} {s['name']} \"{s['title']}\" "
            f"{s['kind']}" + (f" offboard at {s['offboard_at']}" if s["offboard_at"] else "")
            + (f" {{ {_values_text(s['values'])} }}" if s["values"] else ""), s)])
    section("dice", [line for d in data.get("dice", ()) for line in _noted(
        f"  {d['name']} faces [{', '.join(d['faces'])}]", d)])
    deck_lines: list[str] = []
    for deck in data.get("decks", ()):
        hidden = " hidden" if deck.get("hidden") else ""
        deck_lines += _noted(f"  deck {deck['name']}({deck['params']}) \"{deck['title']}\""
                             f"{hidden}", deck)
        for c in deck["cards"]:
            extra = (" keep" if c["keep"] else "") + (
                f" copies {c['copies']}" if c["copies"] > 1 else "") + (
                f" {{ {_values_text(c['values'])} }}" if c["values"] else "")
            deck_lines += _wrap(f"{c['name']} \"{c['text']}\"{extra}", "    ")
            deck_lines += _noted("", c, "        ")[1:]
    section("decks and cards", deck_lines)
    if data.get("grid"):
        grid = data["grid"]
        section("grid", _noted(f"  {grid['name']} {grid['width']} x {grid['height']}", grid))
    section("events", [_event_line(e) for e in data.get("events", ())])
    section("decisions (scenario step: answer NAME [...])",
            _decision_lines(data.get("decisions", ())))
    section("windows (where players act out of turn: the decisions each asks)",
            _window_lines(data.get("windows", ())))
    section("procedures (callable in a given block; bodies not shown)", [
        line for p in data.get("procedures", ())
        for line in _noted(f"  {p['signature']}  [{p['defined_in']}]", p)])
    section("game properties (scenario targets when quoted: scenario \"...\" for game_over)",
            _game_lines(data.get("game_properties", ())))
    section("rules (scenario targets: scenario \"...\" for RULE)", [
        line for r in data.get("rules", ()) for line in _rule_lines(r)])
    section("other scenario targets (definitions that quote the rulebook)", [
        line for t in data.get("other_targets", ()) for line in _noted(f"  {t['name']}", t)])
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
        lines += _wrap(f"answers: {d['legal_answers']}; under policy passive: "
                       f"{d['passive_answer']}", "      ")
        for quote in d["quotes"]:
            lines += _wrap(f'quote "{quote}"', "      ")
        for reason in d["assumes"]:
            lines += _wrap(f'assume "{reason}"', "      ")
        direct = ", ".join(f"{a['kind']} {a['name']}" for a in d["asked_in"])
        lines.append(f"      asked in: {direct or 'no code (never asked)'}")
        for site in d["asked_where"]:
            if site["inside"]:
                lines += _wrap(f"in {site['in']}: " + "; within that, ".join(
                    site["inside"]), "        ")
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
