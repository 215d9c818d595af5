"""The mutation report: per rule (origin), per unit and per rulebook sentence, mutants made,
killed and survived, each survivor as a diff of its rules line; as JSON, a table and a page.
The declared numbers' mutants count apart (`declared_numbers`): how many a scenario reads,
and per entity those none reads, so that the rules' score stays comparable.

The JSON is what `boardrules coverage --mutation FILE` reads (`units`: each quoting unit's
counts), and the page is rendered from it (`templates/mutation.html.j2`, autoescaped).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from .. import __version__
from ..compiler.mutation.mutation_text import mutated_line
from ..compiler.mutation.mutations import DATA, Mutant
from .coverage import coverage
from .mutant_notes import note_names
from .mutate import MUTANT_PASSES, Run

_environment = Environment(loader=PackageLoader("boardrules.harness", "templates"),
                           autoescape=True, undefined=StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
COUNTS = ("made", "killed", "survived", "equivalent", "invalid")


def _counts(results: list[str]) -> dict[str, Any]:
    """made (every mutant that checks), killed (timeouts too), survived, equivalent, invalid,
    and the score: killed of those that ran (None when none ran)."""
    killed = sum(s in ("killed", "timeout") for s in results)
    survived = results.count("survived")
    counts = {"made": len(results) - results.count("invalid"), "killed": killed,
              "survived": survived, "equivalent": results.count("equivalent"),
              "invalid": results.count("invalid")}
    counts["score"] = round(100 * killed / (killed + survived), 1) if killed + survived else None
    return counts


def _lines(run: Run, mutant: Mutant) -> tuple[str, str | None]:
    """The mutant's rules line, and the line as the mutant reads (None: not placeable)."""
    text = run.baseline.checked.sources.texts.get(mutant.path, "")
    lines = text.splitlines()
    line = lines[mutant.line - 1] if 0 < mutant.line <= len(lines) else ""
    new = mutated_line(line, mutant.operator, *mutant.change, mutant.keyword, mutant.region)
    return line, new


def mutant_json(run: Run, mutant: Mutant, name: str = "") -> dict[str, Any]:
    """One mutant that ran; `name`: what an equivalent note names it by (`note_names`)."""
    result = run.results[mutant.id]
    line, new = _lines(run, mutant)
    return {"id": mutant.id, "operator": mutant.operator, "origin": mutant.origin,
            "file": Path(mutant.path).name, "line": mutant.line, "before": mutant.before,
            "after": mutant.after, "key": mutant.key, "name": name or mutant.key,
            "units": list(mutant.units),
            "status": result.status,
            "scenario": result.scenario, "detail": result.detail,
            "seconds": round(result.seconds, 3), "source": line.strip(),
            "mutated_source": None if new is None else new.strip(),
            **({"number": mutant.number} if mutant.number else {})}


def summary(run: Run) -> dict[str, Any]:
    """The run as JSON: settings, totals, per origin, per unit, per sentence, the mutants."""
    base = run.baseline
    every = [base.mutants[i] for i in run.selected if i in run.results]
    ran = [m for m in every if m.operator != DATA]  # the rules' (the numbers' apart)
    status = {m.id: run.results[m.id].status for m in ran}
    by_origin: dict[str, list[Mutant]] = {}
    by_unit: dict[str, list[Mutant]] = {}
    for m in ran:
        by_origin.setdefault(m.origin, []).append(m)
        for unit in m.units:
            by_unit.setdefault(unit, []).append(m)

    def survivors(found: list[Mutant]) -> list[int]:
        return [m.id for m in found if status[m.id] == "survived"]

    origins = [{"origin": origin, "file": Path(found[0].path).name,
                "line": min(m.line for m in found if m.path == found[0].path),
                **_counts([status[m.id] for m in found]), "survivors": survivors(found)}
               for origin, found in by_origin.items()]
    units = {unit: {**_counts([status[m.id] for m in found]), "survivors": survivors(found)}
             for unit, found in sorted(by_unit.items())}
    compilation = base.checked
    shortest = base.names or note_names(base.mutants)
    sentences = []
    if compilation.rulebook is not None:
        for entry in coverage(compilation, []).sentences:
            if not entry.rules:
                continue
            found = list({m.id: m for u in entry.rules for m in by_unit.get(u, [])}.values())
            sentences.append({"section": entry.sentence.section, "text": entry.sentence.text,
                              "units": entry.rules, **_counts([status[m.id] for m in found]),
                              "survivors": survivors(found)})
    return {
        **({"partial": True} if run.partial else {}),
        "edition": compilation.edition,
        "title": compilation.program.title,
        "sources_hash": base.sources_hash,
        "boardrules_version": __version__,
        "created": datetime.now().astimezone().isoformat(timespec="seconds"),
        "settings": {"workers": run.workers, "timeout": round(run.timeout, 2),
                     "budget": run.budget, "time": run.time_limit, "rule": run.rule,
                     "numbers": run.numbers,
                     "backend": "interpreted", "passes": ["check", *MUTANT_PASSES, "codegen"]},
        "seconds": round(run.seconds, 1),
        "scenarios": len(base.scenarios),
        "scenarios_left_out": list(base.failing),
        "equivalent_notes": [{"id": i, "key": base.mutants[i].key, "name": shortest[i],
                              "reason": reason}
                             for i, reason in base.noted.items() if i in run.results],
        "stale_notes": list(base.stale),
        "ambiguous_notes": list(base.ambiguous),
        "totals": {"mutants": sum(m.operator != DATA for m in base.mutants),
                   "selected": sum(base.mutants[i].operator != DATA for i in run.selected),
                   "not_run": sum(base.mutants[i].operator != DATA for i in run.selected)
                   - len(ran),
                   **_counts(list(status.values())),
                   "timeout": sum(s == "timeout" for s in status.values())},
        "origins": origins,
        "units": units,
        "sentences": sentences,
        "declared_numbers": numbers_json(run, shortest),
        "mutants": [mutant_json(run, m, shortest[m.id]) for m in every],
    }


def numbers_json(run: Run, names: dict[int, str]) -> dict[str, Any]:
    """The declared numbers' mutants: how many a scenario reads (killed) and, grouped per
    entity, those none reads (survivors), each with the name a note would give it. Apart
    from the rules' totals, so that the rules' score stays comparable."""
    base = run.baseline
    made = [m for m in base.mutants if m.operator == DATA]
    selected = [i for i in run.selected if base.mutants[i].operator == DATA]
    found = [base.mutants[i] for i in selected if i in run.results]
    counts = _counts([run.results[m.id].status for m in found])
    entities: dict[str, dict[str, Any]] = {}
    for m in sorted(found, key=lambda m: m.id):  # as the rules declare them
        if run.results[m.id].status != "survived":
            continue
        kind, entity = m.origin.split(" ", 1)
        row = entities.setdefault(m.origin, {"kind": kind, "entity": entity,
                                             "file": Path(m.path).name, "line": m.line,
                                             "numbers": []})
        row["numbers"].append({"id": m.id, "number": m.number, "value": m.change[0],
                               "line": m.line, "name": names.get(m.id, m.number)})
    return {"numbers": len(made), "selected": len(selected),
            "not_run": len(selected) - len(found), "read": counts["killed"],
            "unread": counts["survived"], "equivalent": counts["equivalent"],
            "invalid": counts["invalid"], "timeout": sum(
                run.results[m.id].status == "timeout" for m in found),
            "score": counts["score"], "unread_by_entity": list(entities.values())}


# ---- output ------------------------------------------------------------------------------------

def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def survivor_line(m: dict[str, Any]) -> str:
    """`classic.rules:412: param bid_step: `bid_step = 1` -> `bid_step = 2` survived`."""
    return (f"{m['file']}:{m['line']}: {m['origin']}: `{m['before']}` -> `{m['after']}` "
            "survived")


def survivor_diff(m: dict[str, Any]) -> list[str]:
    """The rules line before and after, when the change can be placed on it."""
    if m["mutated_source"] is None:
        return [f"    {m['source']}"] if m["source"] else []
    return [f"  - {m['source']}"] + ([f"  + {m['mutated_source']}"] if m["mutated_source"]
                                     else [])


def note_for(m: dict[str, Any]) -> str:
    """The note that would mark the survivor equivalent, its name as a rules string:
    `equivalent "proc owe_rent: 0 -> 1" because "..."`."""
    return f'equivalent {json.dumps(m.get("name", m["key"]), ensure_ascii=False)} because "..."'


def survivors_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules' survivors (a declared number's is a number no scenario reads)."""
    return [m for m in data["mutants"] if m["status"] == "survived" and m["operator"] != DATA]


def numbers_score(numbers: dict[str, Any]) -> str:
    """`280 of 312 read by a scenario (89.7%)`: killed of the numbers' mutants that ran."""
    ran = numbers["read"] + numbers["unread"]
    return f"{numbers['read']} of {ran} read by a scenario ({_score(numbers['score'])})"


def _packed(head: str, items: list[str], width: int = 100) -> list[str]:
    """`head item, item, ...` on lines of at most `width` characters where the items
    allow, never cutting one."""
    lines, line = [], head
    for i, item in enumerate(items):
        item += "," if i < len(items) - 1 else ""
        if len(line) + 1 + len(item) > width and line.strip() != head.strip():
            lines.append(line)
            line = "     "
        line += " " + item
    return lines + [line]


def numbers_lines(numbers: dict[str, Any] | None) -> list[str]:
    """The declared numbers' section of the terminal report: the figure, then the numbers
    no scenario reads, one line per entity, and the note that would name the first."""
    if not numbers or not numbers["selected"]:
        return []
    more = [f"{numbers['equivalent']} equivalent"] + (
        [f"{numbers['invalid']} discarded"] if numbers["invalid"] else []) + (
        [f"{numbers['not_run']} not run: out of time"] if numbers["not_run"] else [])
    lines = [f"declared numbers: {numbers_score(numbers)}; " + ", ".join(more)]
    if numbers["unread"]:
        lines += ["", f"numbers no scenario reads ({numbers['unread']}), by entity:"]
        for row in numbers["unread_by_entity"]:
            lines += _packed(f"  {row['file']}:{row['line']}: {row['kind']} {row['entity']}:",
                             [f"{n['number']} = {n['value']}" for n in row["numbers"]])
        first = numbers["unread_by_entity"][0]["numbers"][0]
        lines.append(f"  note one that does not matter as: equivalent "
                     f"{json.dumps(first['name'], ensure_ascii=False)} because \"...\"")
    return lines


def format_report(data: dict[str, Any], survivors: int | None = None) -> str:
    """The run as text: per origin, the totals, the score and the survivors as line diffs."""
    totals, settings = data["totals"], data["settings"]
    header = f"{'origin':<40}{'where':<32}" + "".join(f"{c:>11}" for c in COUNTS) + \
        f"{'score':>9}"
    ran = totals["selected"] - totals["not_run"]
    workers = settings["workers"]
    numbers = data.get("declared_numbers") or {"selected": 0}
    lines = [f"mutation testing: {data['edition']} ({ran} of {totals['mutants']} mutants run"
             + (f", {totals['selected']} selected" if totals["selected"] != totals["mutants"]
                else "")
             + (f", and {numbers['selected'] - numbers['not_run']} of {numbers['numbers']} "
                "declared numbers" if numbers["selected"] else "")
             + f"; {workers} worker{'s' if workers != 1 else ''}, timeout "
             f"{settings['timeout']} s, {data['seconds']} s)"]
    if numbers["selected"] and not totals["selected"]:  # --numbers only
        return "\n".join(lines + numbers_lines(numbers))
    lines += [header, "-" * len(header)]
    for row in sorted(data["origins"], key=lambda r: (r["score"] is None, r["score"] or 0)):
        lines.append(f"{row['origin'][:39]:<40}{row['file'] + ':' + str(row['line']):<32}"
                     + "".join(f"{row[c]:>11}" for c in COUNTS) + f"{_score(row['score']):>9}")
    lines.append("-" * len(header))
    lines.append(f"{'total':<72}" + "".join(f"{totals[c]:>11}" for c in COUNTS)
                 + f"{_score(totals['score']):>9}")
    lines.append(f"mutation score: {_score(totals['score'])} ({totals['killed']} killed, "
                 f"{totals['timeout']} of them by timeout; {totals['survived']} survived; "
                 f"{totals['equivalent']} equivalent, {totals['invalid']} discarded"
                 + (f"; {totals['not_run']} not run: out of time" if totals["not_run"] else "")
                 + ")")
    if data["equivalent_notes"]:
        lines.append(f"equivalent by the rules' notes: {len(data['equivalent_notes'])}")
    for note in data["stale_notes"]:
        lines.append(f"warning: an equivalent note names no mutant: {note}")
    for note in data.get("ambiguous_notes", []):
        lines.append(f"warning: an equivalent note names more than one mutant, and so none: "
                     f"{note}")
    if data["scenarios_left_out"]:
        lines.append("scenarios that fail unmutated, left out: "
                     + "; ".join(data["scenarios_left_out"]))
    sentences = data["sentences"]
    if sentences:
        full = sum(1 for s in sentences if s["killed"] and not s["survived"])
        lines.append(f"sentences: {len(sentences)} quoted; {full} with every mutant killed, "
                     f"{sum(1 for s in sentences if s['survived'])} with survivors, "
                     f"{sum(1 for s in sentences if not s['killed'] + s['survived'])} "
                     "without mutants")
    lines += numbers_lines(numbers)
    found = survivors_of(data)
    if found:
        shown = found if survivors is None else found[:survivors]
        lines += ["", f"survivors ({len(found)}):"]
        for m in shown:
            lines += [survivor_line(m), *survivor_diff(m), f"  note as: {note_for(m)}"]
        if len(shown) < len(found):
            lines.append(f"... and {len(found) - len(shown)} more (see --json or --html)")
    return "\n".join(lines)


def render_html(data: dict[str, Any]) -> str:
    """One self-contained page: totals, per origin, per sentence with its survivors."""
    by_id = {m["id"]: m for m in data["mutants"]}
    return _environment.get_template("mutation.html.j2").render(
        data=data, by_id=by_id, score=_score, counts=COUNTS,
        origins=sorted(data["origins"], key=lambda r: (r["score"] is None, r["score"] or 0)),
        survivors=survivors_of(data), note_for=note_for,
        numbers=data.get("declared_numbers"), numbers_score=numbers_score)
