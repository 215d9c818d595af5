"""Rulebook coverage: which sentences are implemented, tested, waived or uncovered.

A sentence is covered when the quotes of the ruleset (and waivers) together
cover every one of its characters in the folded rulebook text. Its status:

- tested:    covered by the quotes of units that have a passing scenario
- untested:  covered by quotes, but not by those of tested units alone
- partial:   only part of it is quoted
- waived:    a waiver covers it (with its reason)
- uncovered: nothing quotes or waives it

A unit is a rule, or another definition that quotes the rulebook (a param, a
space, a card...): scenarios name the unit they test. This module computes the
report and prints its table; `coverage_html` renders it as a page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..compiler.build import content_key
from ..compiler.diagnostics import Span
from ..compiler.pipeline import Compilation
from ..compiler.quotes import quoted_units
from ..compiler.rulebook import fold
from .scenarios import Outcome
from .sentences import Sentence, rulebook_sentences
from .units import Site, Unit, site, units

STATUSES = ("tested", "untested", "partial", "waived", "uncovered")
# what each status means, as the table's legend and the page's say it
MEANINGS = {
    "tested": "the quotes of rules that have a passing scenario cover all of it",
    "untested": "quotes cover it, but not those of tested rules alone",
    "partial": "only part of it is quoted",
    "waived": "a waiver covers it: it is not a rule of play (the reason is given)",
    "uncovered": "nothing quotes or waives it",
}
Spans = list[tuple[int, int]]


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario of a unit: passed only if it passed on every backend it ran on."""

    unit: str
    title: str
    passed: bool
    where: Site | None = None
    failed_on: tuple[str, ...] = ()


@dataclass
class SentenceCoverage:
    sentence: Sentence
    status: str
    rules: list[str] = field(default_factory=list)
    reason: str = ""
    scenarios: list[ScenarioResult] = field(default_factory=list)
    quotes: list[tuple[str, Site]] = field(default_factory=list)  # (unit, where it quotes)
    waivers: list[Site] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"section": self.sentence.section, "text": self.sentence.text,
                "status": self.status, "rules": self.rules, "reason": self.reason,
                "scenarios": [{"rule": s.unit, "scenario": s.title, "passed": s.passed}
                              | ({"file": s.where.path, "line": s.where.line} if s.where else {})
                              for s in self.scenarios],
                "quotes": [{"rule": unit, "file": where.path, "line": where.line}
                           for unit, where in self.quotes]}


@dataclass
class Report:
    edition: str
    sentences: list[SentenceCoverage]
    headings: list[str]
    never_fired: list[str] | None = None
    without_handlers: list[str] | None = None
    games: int = 0
    title: str = ""
    rules_hash: str = ""
    version: str = __version__
    created: datetime = field(default_factory=lambda: datetime.now().astimezone())
    units: dict[str, Unit] = field(default_factory=dict)

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
        return percent(self.totals())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "edition": self.edition,
            "title": self.title,
            "rules_hash": self.rules_hash,
            "boardrules_version": self.version,
            "created": self.created.isoformat(timespec="seconds"),
            "totals": self.totals(),
            "percent_tested_or_waived": self.percent_done(),
            "sentences": [entry.to_json() for entry in self.sentences],
        }
        if self.never_fired is not None:
            data["runtime"] = {"games": self.games, "rules_never_fired": self.never_fired,
                               "rules_without_handlers": self.without_handlers or []}
        return data


def percent(counts: dict[str, int]) -> float:
    """The share of sentences tested or waived, in percent (100 for none)."""
    done = counts["tested"] + counts["waived"]
    return 100.0 * done / counts["sentences"] if counts["sentences"] else 100.0


def _intervals(folded: str, text: str) -> Spans:
    needle = fold(text)
    spans = []
    start = folded.find(needle) if needle else -1
    while start >= 0:
        spans.append((start, start + len(needle)))
        start = folded.find(needle, start + 1)
    return spans


def _covered(sentence: Sentence, folded: str, spans: Spans) -> str:
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
    rulebook, symbols, program = compilation.rulebook, compilation.symbols, compilation.program
    assert rulebook is not None, "coverage needs the edition's rulebook"
    assert symbols is not None and program is not None and compilation.sources is not None
    texts = compilation.sources.texts
    root = compilation.path.resolve().parent.parent  # paths as rulesets/ shows them
    folded = rulebook.folded
    headings, sentences = rulebook_sentences(rulebook.text)
    quoted = quoted_units(symbols)
    unit_quotes = {unit: [(site(q.span, texts, root), _intervals(folded, q.text)) for q in quotes]
                   for unit, quotes in quoted.items()}
    unit_spans = {unit: [span for _, spans in found for span in spans]
                  for unit, found in unit_quotes.items()}
    waivers = [(w.reason, site(w.span, texts, root), _intervals(folded, w.text))
               for w in symbols.waivers]
    waived = [span for _, _, spans in waivers for span in spans]
    results = _results(compilation, outcomes, root)
    entries = []
    for sentence in sentences:
        names = [u for u, spans in unit_spans.items()
                 if _covered(sentence, folded, spans) != "none"]
        quotes = [(u, where) for u in names for where, spans in unit_quotes[u]
                  if _covered(sentence, folded, spans) != "none"]
        applying = [(r, where) for r, where, spans in waivers
                    if _covered(sentence, folded, spans) != "none"]
        scenarios = [r for u in names for r in results.get(u, [])]
        if names and _covered(sentence, folded,
                              [s for u in names for s in unit_spans[u]] + waived) == "all":
            tested_spans = [span for u in names if any(r.passed for r in results.get(u, []))
                            for span in unit_spans[u]]
            tested = _covered(sentence, folded, tested_spans + waived) == "all"
            status = "tested" if tested else "untested"
        elif names:
            status = "partial"
        elif applying and _covered(sentence, folded, waived) == "all":
            status = "waived"
        else:
            status = "uncovered"
        entries.append(SentenceCoverage(sentence, status, names,
                                        "; ".join(r for r, _ in applying), scenarios, quotes,
                                        [where for _, where in applying]))
    return Report(compilation.edition, entries, headings, title=program.title,
                  rules_hash=content_key(compilation),
                  without_handlers=[r for r in program.rules if r not in program.handled_rules],
                  units=units(symbols, texts, list(quoted), root))


def _results(compilation: Compilation, outcomes: list[Outcome], root: Path
             ) -> dict[str, list[ScenarioResult]]:
    """Each unit's scenarios, one result per scenario over the backends it ran on."""
    assert compilation.program is not None
    failed: dict[tuple[str, int], list[str]] = {}
    for outcome in outcomes:
        failures = failed.setdefault((outcome.case.target, outcome.case.index), [])
        if not outcome.passed:
            failures.append(outcome.backend)
    results: dict[str, list[ScenarioResult]] = {}
    for (unit, index), failures in failed.items():
        scenario = compilation.program.scenarios[index]
        where = site(Span(scenario.path, scenario.line, 1, scenario.line, 1), {}, root)
        results.setdefault(unit, []).append(
            ScenarioResult(unit, scenario.title, not failures, where, tuple(failures)))
    return results


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
