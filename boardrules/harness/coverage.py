"""Rulebook coverage: which sentences are implemented, tested, waived or uncovered.

A sentence is covered when the quotes of the ruleset (and waivers) together
cover every one of its characters in the folded rulebook text. Its status:

- tested:    covered by the quotes of units that have a passing scenario
- untested:  covered by quotes, but not by those of tested units alone
- partial:   only part of it is quoted
- waived:    a waiver covers it (with its reason)
- uncovered: nothing quotes or waives it

A unit is a rule, or another definition that quotes the rulebook (a param, a
space, a card...): scenarios name the unit they test.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from ..compiler.pipeline import Compilation
from ..compiler.quotes import quoted_units
from ..compiler.rulebook import fold
from .scenarios import Outcome
from .sentences import Sentence, rulebook_sentences

STATUSES = ("tested", "untested", "partial", "waived", "uncovered")


@dataclass
class SentenceCoverage:
    sentence: Sentence
    status: str
    rules: list[str] = field(default_factory=list)
    reason: str = ""
    scenarios: list[tuple[str, str, bool]] = field(default_factory=list)  # (unit, title, pass)

    def to_json(self) -> dict[str, Any]:
        return {"section": self.sentence.section, "text": self.sentence.text,
                "status": self.status, "rules": self.rules, "reason": self.reason,
                "scenarios": [{"rule": u, "scenario": t, "passed": ok}
                              for u, t, ok in self.scenarios]}


@dataclass
class Report:
    edition: str
    sentences: list[SentenceCoverage]
    headings: list[str]
    never_fired: list[str] | None = None
    without_handlers: list[str] | None = None
    games: int = 0

    def totals(self) -> dict[str, int]:
        totals = {"sentences": len(self.sentences)} | {s: 0 for s in STATUSES}
        for entry in self.sentences:
            totals[entry.status] += 1
        return totals

    def sections(self) -> list[tuple[str, dict[str, int]]]:
        order: dict[str, dict[str, int]] = {}
        for entry in self.sentences:
            counts = order.setdefault(entry.sentence.section,
                                      {"sentences": 0} | {s: 0 for s in STATUSES})
            counts["sentences"] += 1
            counts[entry.status] += 1
        return list(order.items())

    def percent_done(self) -> float:
        totals = self.totals()
        done = totals["tested"] + totals["waived"]
        return 100.0 * done / totals["sentences"] if totals["sentences"] else 100.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "edition": self.edition,
            "totals": self.totals(),
            "percent_tested_or_waived": self.percent_done(),
            "sentences": [entry.to_json() for entry in self.sentences],
        }
        if self.never_fired is not None:
            data["runtime"] = {"games": self.games, "rules_never_fired": self.never_fired,
                               "rules_without_handlers": self.without_handlers or []}
        return data


def _intervals(folded: str, text: str) -> list[tuple[int, int]]:
    needle = fold(text)
    spans = []
    start = folded.find(needle) if needle else -1
    while start >= 0:
        spans.append((start, start + len(needle)))
        start = folded.find(needle, start + 1)
    return spans


def _covered(sentence: Sentence, folded: str, spans: list[tuple[int, int]]) -> str:
    """'all', 'some' or 'none' of the sentence's non-space characters."""
    marks = [False] * (sentence.end - sentence.start)
    for start, end in spans:
        for i in range(max(start, sentence.start), min(end, sentence.end)):
            marks[i - sentence.start] = True
    relevant = [m for i, m in enumerate(marks) if not folded[sentence.start + i].isspace()]
    if relevant and all(relevant):
        return "all"
    return "some" if any(relevant) else "none"


def coverage(compilation: Compilation, outcomes: list[Outcome]) -> Report:
    rulebook = compilation.rulebook
    assert rulebook is not None, "coverage needs the edition's rulebook"
    folded = rulebook.folded
    headings, sentences = rulebook_sentences(rulebook.text)
    unit_spans: dict[str, list[tuple[int, int]]] = {}
    for unit, quotes in quoted_units(compilation.symbols).items():
        for quote in quotes:
            unit_spans.setdefault(unit, []).extend(_intervals(folded, quote.text))
    waivers = [(w.reason, _intervals(folded, w.text)) for w in compilation.symbols.waivers]
    results: dict[str, list[tuple[str, bool]]] = {}
    for outcome in outcomes:
        results.setdefault(outcome.case.target, []).append((outcome.case.title, outcome.passed))
    entries = []
    for sentence in sentences:
        units = [u for u, spans in unit_spans.items()
                 if _covered(sentence, folded, spans) != "none"]
        quoted = [span for u in units for span in unit_spans[u]]
        reasons = [r for r, spans in waivers if _covered(sentence, folded, spans) != "none"]
        waived = [span for _, spans in waivers for span in spans]
        scenario_list = [(u, t, ok) for u in units for t, ok in _merged(results.get(u, []))]
        if units and _covered(sentence, folded, quoted + waived) == "all":
            tested_spans = [span for u in units if any(ok for _, ok in _merged(results.get(u, [])))
                            for span in unit_spans[u]]
            tested = _covered(sentence, folded, tested_spans + waived) == "all"
            status = "tested" if tested else "untested"
        elif units:
            status = "partial"
        elif reasons and _covered(sentence, folded, waived) == "all":
            status = "waived"
        else:
            status = "uncovered"
        entries.append(SentenceCoverage(sentence, status, units, "; ".join(reasons),
                                        scenario_list))
    return Report(compilation.edition, entries, headings)


def _merged(results: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """One result per scenario: it passes only if it passed on every backend."""
    merged: dict[str, bool] = {}
    for title, ok in results:
        merged[title] = merged.get(title, True) and ok
    return list(merged.items())


# ---- output ------------------------------------------------------------------------------


def format_table(report: Report) -> str:
    header = f"{'section':<44}{'sent.':>6}" + "".join(f"{s:>10}" for s in STATUSES)
    lines = [f"rulebook coverage: {report.edition}", header, "-" * len(header)]
    for section, counts in report.sections():
        lines.append(f"{section[:43]:<44}{counts['sentences']:>6}"
                     + "".join(f"{counts[s]:>10}" for s in STATUSES))
    totals = report.totals()
    lines.append("-" * len(header))
    lines.append(f"{'total':<44}{totals['sentences']:>6}"
                 + "".join(f"{totals[s]:>10}" for s in STATUSES))
    lines.append(f"tested or waived: {report.percent_done():.1f}% of sentences")
    if report.never_fired is not None:
        lines.append("")
        lines.append(f"rules that never fired in {report.games} simulated games: "
                     + (", ".join(report.never_fired) or "none"))
        if report.without_handlers:
            lines.append("rules without handlers (they quote what procedures or the kernel "
                         "do, so they cannot fire): " + ", ".join(report.without_handlers))
    return "\n".join(lines)


_CSS = """
body { font-family: Georgia, serif; max-width: 52em; margin: 2em auto; line-height: 1.5; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
.sentence { padding: 0 .1em; border-radius: 3px; cursor: help; }
.tested { background: #c8f0c8; } .untested { background: #fff0a8; }
.partial { background: #ffd8a8; } .waived { background: #e0e0e0; color: #555; }
.uncovered { background: #ffc8c8; }
.legend span { margin-right: 1em; padding: .1em .4em; }
table { border-collapse: collapse; } td, th { padding: .1em .6em; text-align: right; }
details { font-size: .8em; margin: .1em 0 .6em 1em; color: #333; }
"""


def render_html(report: Report) -> str:
    """One self-contained page: the rulebook, each sentence coloured by its status."""
    esc = html.escape
    totals = report.totals()
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Rulebook coverage: {esc(report.edition)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Rulebook coverage: {esc(report.edition)}</h1>",
        '<p class="legend">' + "".join(
            f'<span class="{s}">{s}: {totals[s]}</span>' for s in STATUSES) + "</p>",
        f"<p>{totals['sentences']} sentences; tested or waived: "
        f"{report.percent_done():.1f}%.</p>",
    ]
    section = None
    for entry in report.sentences:
        if entry.sentence.section != section:
            if section is not None:
                parts.append("</p>")
            section = entry.sentence.section
            parts.append(f"<h2>{esc(section)}</h2><p>")
        title = entry.status
        if entry.rules:
            title += " | rules: " + ", ".join(entry.rules)
        if entry.reason:
            title += " | waived: " + entry.reason
        parts.append(
            f'<span class="sentence {entry.status}" data-status="{entry.status}" '
            f'data-rules="{esc(" ".join(entry.rules))}" title="{esc(title)}">'
            f"{esc(entry.sentence.text)}</span> "
        )
        if entry.scenarios or entry.reason:
            items = "".join(
                f"<li>{esc(unit)}: {esc(name)}: {'passed' if ok else 'FAILED'}</li>"
                for unit, name, ok in entry.scenarios)
            if entry.reason:
                items += f"<li>waived: {esc(entry.reason)}</li>"
            parts.append(f"<details><summary>{esc(entry.status)}</summary><ul>{items}</ul>"
                         "</details>")
    if section is not None:
        parts.append("</p>")
    if report.never_fired is not None:
        parts.append(f"<h2>Rules that never fired in {report.games} games</h2><p>"
                     + esc(", ".join(report.never_fired) or "none") + "</p>")
    parts.append("</body></html>")
    return "\n".join(parts)
