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

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..compiler.build.artifacts import content_key
from ..compiler.common.diagnostics import Span
from ..compiler.front.quotes import in_source_order, quoted_units
from ..compiler.front.rulebook import fold
from ..compiler.pipeline import Compilation
from .scenarios import Outcome
from .sentences import Sentence, rulebook_sentences
from .units import Site, Unit, site, units

STATUSES = ("tested", "untested", "partial", "waived", "uncovered")
CONFORMANCE = "conformance"  # the suite of a conformance scenario (conformance/*.rules)
BACKENDS = ("interpreted", "compiled")
# with mutation results (boardrules coverage --mutation), tested sentences split in two
EXERCISED = "exercised"
MUTATION_STATUSES = ("tested", EXERCISED, "untested", "partial", "waived", "uncovered")
# what each status means, as the table's legend and the page's say it
MEANINGS = {
    "tested": "the quotes of rules that have a passing scenario cover all of it",
    EXERCISED: "passing scenarios run the rules that quote it, but do not kill enough of "
               "their mutants (boardrules mutate) to say they would notice a wrong rule",
    "untested": "quotes cover it, but not those of tested rules alone",
    "partial": "only part of it is quoted",
    "waived": "a waiver covers it: it is not a rule of play (the reason is given)",
    "uncovered": "nothing quotes or waives it",
}
# what tested means when mutation results feed the report
TESTED_BY_MUTANTS = ("the quotes of rules that have a passing scenario cover all of it, and "
                     "the scenarios kill at least {threshold:g}% of those rules' mutants")


def meanings(report: Report) -> dict[str, str]:
    """What each status means for this report (tested is stricter with mutation results)."""
    if report.mutation is None:
        return MEANINGS
    return MEANINGS | {"tested": TESTED_BY_MUTANTS.format(**report.mutation)
                       + partial_run_note(report.mutation)}


def partial_run_note(mutation: dict[str, Any]) -> str:
    """What a partial mutation run leaves unknown, said wherever the results are used."""
    if not mutation.get("partial"):
        return ""
    return (f" (a partial run: {mutation['ran']} of {mutation['mutants']} mutants ran; a "
            "sentence whose mutants did not run shows as exercised)")
Spans = list[tuple[int, int]]


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario of a unit: passed only if it passed on every backend it ran on."""

    unit: str
    title: str
    passed: bool
    where: Site | None = None
    failed_on: tuple[str, ...] = ()
    suite: str = ""  # "conformance" for a conformance suite's scenario
    backends: tuple[str, ...] = ()  # those it ran on

    @property
    def checks_as_conformance(self) -> bool:
        """A conformance scenario that passed on both backends."""
        return (self.suite == CONFORMANCE and self.passed
                and set(self.backends) >= set(BACKENDS))


@dataclass
class SentenceCoverage:
    sentence: Sentence
    status: str
    rules: list[str] = field(default_factory=list)
    reason: str = ""
    scenarios: list[ScenarioResult] = field(default_factory=list)
    quotes: list[tuple[str, Site]] = field(default_factory=list)  # (unit, where it quotes)
    waivers: list[Site] = field(default_factory=list)
    mutation: dict[str, Any] | None = None  # the quoting units' mutants, with --mutation
    # a passing conformance scenario checks it: the quotes of the units such scenarios test
    # (with waivers) cover all of it
    conformance: bool = False

    def to_json(self) -> dict[str, Any]:
        data = {"section": self.sentence.section, "text": self.sentence.text,
                "status": self.status, "rules": self.rules, "reason": self.reason,
                "conformance": self.conformance,
                "scenarios": [{"rule": s.unit, "scenario": s.title, "passed": s.passed,
                               "conformance": s.suite == CONFORMANCE}
                              | ({"file": s.where.path, "line": s.where.line} if s.where else {})
                              for s in self.scenarios],
                "quotes": [{"rule": unit, "file": where.path, "line": where.line}
                           for unit, where in self.quotes]}
        return data if self.mutation is None else data | {"mutation": self.mutation}


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
    mutation: dict[str, Any] | None = None  # the mutate run that feeds it, with --mutation
    sources_hash: str = ""  # of the rules files and the rulebook (sources_hash)
    has_conformance: bool = False  # the edition has a conformance suite

    def conformance_counts(self) -> tuple[list[tuple[str, dict[str, int]]], dict[str, int]]:
        """Per section and in total: the rule sentences (all but the waived) and how many of
        them a passing conformance scenario checks."""
        order: dict[str, dict[str, int]] = {}
        total = {"rule_sentences": 0, "checked": 0}
        for entry in self.sentences:
            counts = order.setdefault(entry.sentence.section,
                                      {"rule_sentences": 0, "checked": 0})
            if entry.status != "waived":
                for tally in (counts, total):
                    tally["rule_sentences"] += 1
                    tally["checked"] += entry.conformance
        return list(order.items()), total

    def conformance_line(self) -> str:
        _, total = self.conformance_counts()
        return (f"checked by conformance: {total['checked']} of {total['rule_sentences']} "
                "rule sentences")

    @property
    def statuses(self) -> tuple[str, ...]:
        """The statuses a sentence can have: `exercised` too when mutation results feed it."""
        return STATUSES if self.mutation is None else MUTATION_STATUSES

    def totals(self) -> dict[str, int]:
        totals = {"sentences": len(self.sentences)} | {s: 0 for s in self.statuses}
        for entry in self.sentences:
            totals[entry.status] += 1
        return totals

    def sections(self) -> list[tuple[str, dict[str, int]]]:
        order: dict[str, dict[str, int]] = {}
        for entry in self.sentences:
            counts = order.setdefault(entry.sentence.section,
                                      {"sentences": 0} | {s: 0 for s in self.statuses})
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
        sections, total = self.conformance_counts()
        data["conformance"] = total | {"suite": self.has_conformance, "sections": [
            {"section": name} | counts for name, counts in sections]}
        if self.mutation is not None:
            data["mutation"] = self.mutation
        if self.never_fired is not None:
            data["runtime"] = {"games": self.games, "rules_never_fired": self.never_fired,
                               "rules_without_handlers": self.without_handlers or []}
        return data


def sources_hash(compilation: Compilation) -> str:
    """A hash of the texts a report is made from: the rules files (scenarios included) and
    the rulebook, wherever they are. Mutation results name it, so coverage can tell stale
    ones."""
    digest = hashlib.sha256()
    texts = compilation.sources.texts if compilation.sources else {}
    rulebook = compilation.rulebook.text if compilation.rulebook else ""
    for text in (*sorted(texts.values()), rulebook):
        digest.update(text.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def percent(counts: dict[str, int]) -> float:
    """The share of sentences tested or waived, in percent (100 for none)."""
    done = counts["tested"] + counts["waived"]
    return 100.0 * done / counts["sentences"] if counts["sentences"] else 100.0


def _intervals(folded: str, text: str, occurrence: int | None = None) -> Spans:
    """Where the text occurs in the folded rulebook: everywhere, or (a quote, which means
    one passage) only its `occurrence`-th occurrence (0 the first; the last when there are
    fewer): the n-th quote of a text stands for its n-th occurrence (quotes.in_source_order),
    and the checker warns about a text found more often than it is quoted."""
    needle = fold(text)
    spans = []
    start = folded.find(needle) if needle else -1
    while start >= 0:
        spans.append((start, start + len(needle)))
        start = folded.find(needle, start + 1)
    if occurrence is None or not spans:
        return spans
    return [spans[min(occurrence, len(spans) - 1)]]


def _quote_intervals(folded: str, quoted: dict[str, list]) -> dict[int, Spans]:
    """Each quote's passage (by the quote's id): the n-th quote of a text, in source order,
    takes the text's n-th occurrence."""
    seen: Counter[str] = Counter()
    found = {}
    for _, quote in in_source_order(quoted):
        key = fold(quote.text)
        found[id(quote)] = _intervals(folded, quote.text, seen[key])
        seen[key] += 1
    return found


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
    passages = _quote_intervals(folded, quoted)
    unit_quotes = {unit: [(site(q.span, texts, root), passages[id(q)]) for q in quotes]
                   for unit, quotes in quoted.items()}
    unit_spans = {unit: [span for _, spans in found for span in spans]
                  for unit, found in unit_quotes.items()}
    waivers = [(w.reason, site(w.span, texts, root), _intervals(folded, w.text))
               for w in symbols.waivers]
    waived = [span for _, _, spans in waivers for span in spans]
    results = _results(compilation, outcomes, root)
    conforming = {u for u, found in results.items() if any(r.checks_as_conformance
                                                           for r in found)}
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
        checked = [span for u in names if u in conforming for span in unit_spans[u]]
        entries.append(SentenceCoverage(sentence, status, names,
                                        "; ".join(r for r, _ in applying), scenarios, quotes,
                                        [where for _, where in applying],
                                        conformance=bool(checked) and _covered(
                                            sentence, folded, checked + waived) == "all"))
    return Report(compilation.edition, entries, headings, title=program.title,
                  rules_hash=content_key(compilation), sources_hash=sources_hash(compilation),
                  without_handlers=[r for r in program.rules if r not in program.handled_rules],
                  units=units(symbols, texts, list(quoted), root),
                  has_conformance=any(sc.suite == CONFORMANCE for sc in program.scenarios))


def _results(compilation: Compilation, outcomes: list[Outcome], root: Path
             ) -> dict[str, list[ScenarioResult]]:
    """Each unit's scenarios, one result per scenario over the backends it ran on."""
    assert compilation.program is not None
    ran: dict[tuple[str, int], list[Outcome]] = {}
    for outcome in outcomes:
        ran.setdefault((outcome.case.target, outcome.case.index), []).append(outcome)
    results: dict[str, list[ScenarioResult]] = {}
    for (unit, index), found in ran.items():
        scenario = compilation.program.scenarios[index]
        where = site(Span(scenario.path, scenario.line, 1, scenario.line, 1), {}, root)
        failures = tuple(o.backend for o in found if not o.passed)
        results.setdefault(unit, []).append(
            ScenarioResult(unit, scenario.title, not failures, where, failures, scenario.suite,
                           tuple(o.backend for o in found)))
    return results


# ---- output ------------------------------------------------------------------------------


def format_table(report: Report) -> str:
    statuses = report.statuses
    header = f"{'section':<44}{'sent.':>6}" + "".join(f"{s:>10}" for s in statuses)
    lines = [f"rulebook coverage: {report.edition}", header, "-" * len(header)]
    for section, counts in report.sections():
        lines.append(f"{section[:43]:<44}{counts['sentences']:>6}"
                     + "".join(f"{counts[s]:>10}" for s in statuses))
    totals = report.totals()
    lines.append("-" * len(header))
    lines.append(f"{'total':<44}{totals['sentences']:>6}"
                 + "".join(f"{totals[s]:>10}" for s in statuses))
    lines.append(f"tested or waived: {report.percent_done():.1f}% of sentences")
    if report.has_conformance:
        lines.append(report.conformance_line())
    if report.mutation is not None:
        lines.append(f"tested means: passing scenarios kill at least "
                     f"{report.mutation['threshold']:g}% of the mutants of the rules that "
                     f"quote it (boardrules mutate: {report.mutation['file']})"
                     + partial_run_note(report.mutation))
        if numbers_line(report.mutation):
            lines.append(numbers_line(report.mutation))
    if report.never_fired is not None:
        lines.append("")
        lines.append(f"rules that never fired in {report.games} simulated games: "
                     + (", ".join(report.never_fired) or "none"))
        if report.without_handlers:
            lines.append("rules without handlers (they quote what procedures or the kernel "
                         "do, so they cannot fire): " + ", ".join(report.without_handlers))
    return "\n".join(lines)


# ---- tested or only exercised: mutation results -------------------------------------------------

def apply_mutation(report: Report, data: dict[str, Any], source: str = "",
                   threshold: float = 100.0) -> list[str]:
    """Mark as exercised each tested sentence whose quoting units' mutants (pooled) the
    scenarios do not kill: tested needs at least one mutant killed, and killed or equivalent
    mutants at least `threshold` percent of them. Gives warnings (results for other rules)."""
    if data.get("edition") != report.edition:
        raise ValueError(f"{source or 'the mutation results'} are for {data.get('edition')!r}, "
                         f"not {report.edition!r}")
    warnings = []
    if data.get("sources_hash") != report.sources_hash:
        warnings.append(f"{source or 'the mutation results'} were made from other rules, "
                        f"scenarios or rulebook: run boardrules mutate {report.edition} again")
    totals = data["totals"]
    ran = totals.get("selected", totals["mutants"]) - totals.get("not_run", 0)
    partial = ran < totals["mutants"]
    if partial:
        warnings.append(f"{source or 'the mutation results'} come from a partial run: "
                        f"{ran} of {totals['mutants']} mutants ran, so a sentence whose "
                        "mutants did not run shows as exercised")
    units, mutants = data.get("units", {}), {m["id"]: m for m in data.get("mutants", [])}
    report.mutation = {"file": source, "threshold": threshold,
                       "sources_hash": data.get("sources_hash"),
                       "score": totals["score"], "ran": ran, "mutants": totals["mutants"],
                       "partial": partial, "numbers": _numbers(data.get("declared_numbers"))}
    for entry in report.sentences:
        if not entry.rules:
            continue
        pooled = {key: sum(units.get(u, {}).get(key, 0) for u in entry.rules)
                  for key in ("killed", "survived", "equivalent")}
        ids = sorted({i for u in entry.rules for i in units.get(u, {}).get("survivors", [])})
        pooled["made"] = pooled["killed"] + pooled["survived"] + pooled["equivalent"]
        pooled["survivors"] = [_survivor(mutants[i]) for i in ids if i in mutants]
        entry.mutation = pooled
        done = pooled["killed"] + pooled["equivalent"]
        if entry.status == "tested" and not (
            pooled["killed"] and 100 * done >= threshold * pooled["made"]
        ):
            entry.status = EXERCISED
    return warnings


def _numbers(numbers: dict[str, Any] | None) -> dict[str, Any] | None:
    """The declared numbers of a mutate run: how many a scenario reads, and the names of
    those none reads (`mill.price`); None when none ran."""
    if not numbers or not numbers.get("selected"):
        return None
    return {"read": numbers["read"], "ran": numbers["read"] + numbers["unread"],
            "unread": [n["number"] for row in numbers["unread_by_entity"]
                       for n in row["numbers"]]}


def numbers_line(mutation: dict[str, Any], shown: int = 12) -> str:
    """`declared numbers: 1 of 2 read by a scenario; none reads mill.fee`, or ""."""
    numbers = mutation.get("numbers")
    if not numbers:
        return ""
    unread = numbers["unread"]
    return (f"declared numbers: {numbers['read']} of {numbers['ran']} read by a scenario"
            + (f"; none reads {', '.join(unread[:shown])}" if unread else "")
            + (f" and {len(unread) - shown} more (see the mutation report)"
               if len(unread) > shown else ""))


def _survivor(mutant: dict[str, Any]) -> dict[str, Any]:
    return {key: mutant[key] for key in ("id", "origin", "file", "line", "before", "after",
                                         "source", "mutated_source")}
