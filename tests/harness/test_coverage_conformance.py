"""Coverage counts the sentences a conformance suite checks apart from the others.

tests/editions/conformance_demo: the turn sentence is tested by a scenario of the rules
file, the bonus sentence by a passing conformance scenario, the two tax sentences by a
scenario of scenarios/ (its conformance scenario fails on purpose); the components
sentence is waived. The scenarios run on the interpreted backend; the compiled backend's
outcomes are the same ones (backend identity is tested elsewhere), so no C build.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from doc_blocks import blocks, output_matches

from boardrules.harness.coverage import coverage, format_table
from boardrules.harness.coverage_html import render_html
from boardrules.harness.scenarios import run_edition

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "editions" / "conformance_demo"
OTHER = ROOT / "tests" / "editions" / "coverage_demo"


def _on_both(outcomes):
    return [*outcomes, *(replace(o, backend="compiled") for o in outcomes)]


@pytest.fixture(scope="module")
def run():
    compilation, outcomes = run_edition(str(DEMO), ("interpreted",))
    return compilation, outcomes


@pytest.fixture(scope="module")
def report(run):
    compilation, outcomes = run
    return coverage(compilation, _on_both(outcomes))


def _by_text(data) -> dict[str, tuple[str, bool]]:
    return {s["text"]: (s["status"], s["conformance"]) for s in data["sentences"]}


def test_each_sentence_says_whether_a_conformance_scenario_checks_it(report):
    data = json.loads(json.dumps(report.to_json()))
    assert _by_text(data) == {  # the statuses as before; conformance apart
        "Each turn, roll the die and move.": ("tested", False),
        "Landing on the bonus space pays 5 coins.": ("tested", True),
        "Landing on the tax space costs 3 coins.": ("tested", False),
        "The tax is paid to the bank.": ("tested", False),
        "The box holds one die and three tokens.": ("waived", False),
    }
    conformance = data["conformance"]
    assert (conformance["checked"], conformance["rule_sentences"], conformance["suite"]) == (
        1, 4, True)
    assert conformance["sections"] == [
        {"section": "Play", "rule_sentences": 2, "checked": 1},
        {"section": "Tax", "rule_sentences": 2, "checked": 0},
        {"section": "Components", "rule_sentences": 0, "checked": 0}]
    scenarios = {s["scenario"]: s["conformance"] for entry in data["sentences"]
                 for s in entry["scenarios"]}
    assert scenarios["landing on the bonus space pays 5 coins"] is True
    assert scenarios["landing on the tax space costs 3 coins"] is False


def test_a_conformance_scenario_counts_only_when_it_passed_on_both_backends(run):
    compilation, outcomes = run
    one_backend = coverage(compilation, outcomes)
    assert not any(entry.conformance for entry in one_backend.sentences)
    assert [e.status for e in one_backend.sentences].count("tested") == 4  # as before
    failing_on_compiled = [*outcomes, *(replace(o, backend="compiled", passed=False)
                                        for o in outcomes)]
    assert not any(e.conformance for e in coverage(compilation, failing_on_compiled).sentences)


def test_the_table_and_the_page_give_the_totals(report):
    assert format_table(report).splitlines()[-1] == (
        "checked by conformance: 1 of 4 rule sentences")
    page = render_html(report)
    assert "checked by conformance: <strong>1</strong> of 4 rule sentences" in page
    assert page.count('<td class="num" data-count="conformance">') == 4  # 3 sections, total
    assert '<td class="num" data-count="conformance">1 of 2</td>' in page
    bonus = page[page.index('id="s2"'):page.index('id="s3"')]
    assert '<span class="badge conformance"' in bonus
    turn = page[page.index('id="s1"'):page.index('id="s2"')]
    assert '<span class="badge conformance"' not in turn


def test_an_edition_without_a_suite_shows_no_conformance_line():
    compilation, outcomes = run_edition(str(OTHER), ("interpreted",))
    report = coverage(compilation, _on_both(outcomes))
    assert not report.has_conformance
    assert "conformance" not in format_table(report)
    assert report.to_json()["conformance"]["checked"] == 0


def test_the_conformance_page_shows_the_demo_as_it_is(report):
    """docs/conformance.md's totals are the demo's, and its example is the demo's file."""
    shown = {b.body.split()[0]: b for b in blocks("docs/conformance.md") if b.words == ["text"]}
    totals, example = shown["tested"], shown["#"]
    assert output_matches("...\n" + totals.body, format_table(report)), totals
    play = (DEMO / "conformance" / "play.rules").read_text(encoding="utf-8")
    assert output_matches(example.body + "...\n", play), example
