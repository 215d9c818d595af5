"""The coverage report as one self-contained HTML page, after coverage.py's report.

A header (edition, rules hash, boardrules version, time), a summary table with a
row per rulebook section linking to it, a legend, filter buttons, the rulebook
sentence by sentence with the rules that quote each one and their scenarios'
results, every quoting rule with its file, line and source, and the rules that
never fired or have no handler. The page is rendered from
`templates/coverage.html.j2` with autoescaping; its CSS and JavaScript are inline,
so it needs no network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jinja2 import Environment, PackageLoader, StrictUndefined

from .coverage import Report, ScenarioResult, SentenceCoverage, meanings, numbers_line, percent
from .units import Site, Unit

CONFORMANCE_MEANING = ("a conformance scenario (written from the rulebook alone) passing on "
                      "both backends tests rules whose quotes cover all of it")
FILTERS = ("uncovered", "untested", "partial", "waived", "tested")
MUTATION_FILTERS = ("uncovered", "untested", "partial", "waived", "exercised", "tested")

_environment = Environment(loader=PackageLoader("boardrules.harness", "templates"),
                           autoescape=True, undefined=StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


@dataclass
class SentenceView:
    id: str
    number: int
    entry: SentenceCoverage
    rules: list[tuple[str, str, list[Site]]]  # (unit, anchor, where it quotes the sentence)

    @property
    def passed(self) -> int:
        return sum(s.passed for s in self.entry.scenarios)


@dataclass
class SectionView:
    id: str
    name: str
    counts: dict[str, int]
    sentences: list[SentenceView] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return percent(self.counts)


@dataclass
class UnitView:
    unit: Unit
    anchor: str
    sentences: list[SentenceView]
    scenarios: list[ScenarioResult]
    never_fired: bool
    handled: bool


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _unique(base: str, taken: set[str]) -> str:
    anchor, n = base, 1
    while anchor in taken:
        n += 1
        anchor = f"{base}-{n}"
    taken.add(anchor)
    return anchor


def rule_anchor(name: str) -> str:
    """The anchor of a rule's block: `rule-` and its name (an identifier of the rules file)."""
    return "rule-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def sections(report: Report) -> list[SectionView]:
    """The rulebook's sections in order, each with its counts and sentences."""
    taken: set[str] = {"summary", "legend", "rulebook", "rules", "runtime"}
    views: dict[str, SectionView] = {}
    counts = dict(report.sections())
    for number, entry in enumerate(report.sentences, 1):
        name = entry.sentence.section
        if name not in views:
            views[name] = SectionView(_unique("section-" + _slug(name), taken), name,
                                      counts[name])
        rules = [(unit, rule_anchor(unit), [where for u, where in entry.quotes if u == unit])
                 for unit in entry.rules]
        views[name].sentences.append(SentenceView(f"s{number}", number, entry, rules))
    return list(views.values())


def units(report: Report, section_views: list[SectionView]) -> list[UnitView]:
    """Every unit that quotes the rulebook, with the sentences it quotes and its scenarios."""
    quoting: dict[str, list[SentenceView]] = {}
    scenarios: dict[str, dict[str, ScenarioResult]] = {}
    for section in section_views:
        for view in section.sentences:
            for unit in view.entry.rules:
                quoting.setdefault(unit, []).append(view)
            for result in view.entry.scenarios:
                scenarios.setdefault(result.unit, {})[result.title] = result
    never = set(report.never_fired or ())
    unhandled = set(report.without_handlers or ())
    return [UnitView(unit, rule_anchor(name), quoting.get(name, []),
                     list(scenarios.get(name, {}).values()), name in never,
                     name not in unhandled)
            for name, unit in sorted(report.units.items(), key=lambda item: item[0])]


def render_html(report: Report) -> str:
    """One self-contained page (no network): the report, after coverage.py's HTML report."""
    section_views = sections(report)
    totals = report.totals()
    conformance_sections, conformance_total = report.conformance_counts()
    filters = FILTERS if report.mutation is None else MUTATION_FILTERS
    return _environment.get_template("coverage.html.j2").render(
        report=report,
        title=report.title or report.edition,
        created=report.created,
        totals=totals,
        percent=report.percent_done(),
        statuses=[(status, meanings(report)[status], totals[status])
                  for status in report.statuses],
        filters=[(status, totals[status]) for status in filters],
        sections=section_views,
        units=units(report, section_views),
        anchors={name: rule_anchor(name) for name in report.units},
        conformance_sections=dict(conformance_sections),
        numbers_line=numbers_line,
        conformance_total=conformance_total,
        conformance_meaning=CONFORMANCE_MEANING,
    )
