"""Mutation testing (boardrules mutate) and the coverage it feeds (tested or exercised).

On the tiny edition tests/editions/mutation_demo, whose scenarios kill every mutant; a
copy with a scenario that checks nothing shows its sentence fall to exercised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from headless import browser_found, headless_page, scrolls_sideways

from boardrules.cli import main
from boardrules.compiler.mutation.mutations import mutants
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.coverage import Report, apply_mutation, coverage
from boardrules.harness.coverage_html import render_html as render_coverage
from boardrules.harness.mutate import match_notes, mutate, run_mutants
from boardrules.harness.mutation_report import format_report, render_html, summary
from boardrules.harness.scenarios import run_edition
from boardrules.runtime.loader import resolve_edition

ROOT = Path(__file__).resolve().parents[2]
EDITION = ROOT / "tests" / "editions" / "mutation_demo" / "mutation_demo.rules"
BONUS = "Landing on the bonus space pays 5 coins."
GOOD_SCENARIO = '''scenario "the bonus pays 5" for bonus {
  play p1
  expect p1.cash == 5
}'''
# a scenario that plays the bonus rule and checks nothing it does
PLANTED = '''scenario "the bonus space is reached" for bonus {
  play p1
  expect p1.position == bonus_space
}'''


def _copy(tmp_path: Path, scenario: str, extra: str = "") -> Path:
    folder = tmp_path / "mutation_demo"
    folder.mkdir()
    (folder / "rulebook.txt").write_text((EDITION.parent / "rulebook.txt").read_text())
    text = EDITION.read_text()
    assert GOOD_SCENARIO in text
    (folder / "mutation_demo.rules").write_text(text.replace(GOOD_SCENARIO, scenario) + extra)
    return folder / "mutation_demo.rules"


def _reports(path: Path, *mutation: dict) -> list[Report]:
    """The coverage report, plain and then fed each mutation result."""
    compilation, outcomes = run_edition(str(path), ("interpreted",))
    found = []
    for data in (None, *mutation):
        report = coverage(compilation, outcomes)
        if data is not None:
            warnings = apply_mutation(report, data, "m.json")  # runs of one rule: partial
            assert [w for w in warnings if "from a partial run" not in w] == []
        found.append(report)
    return found


def _statuses(report: Report) -> dict[str, str]:
    return {entry.sentence.text: entry.status for entry in report.sentences}


def test_a_changed_number_can_be_named_by_its_enclosing_expression():
    """Two numbers of one line read alike (`0 -> 1`): a note tells them apart by the
    expression around each, as in `rule tax: p.cash >= 3 -> p.cash >= 4`."""
    from boardrules.compiler.mutation.mutations import mutants
    from boardrules.compiler.pipeline import compile_rules

    line = next(i for i, text in enumerate(EDITION.read_text().splitlines(), 1)
                if "p.cash >= 3" in text)
    found = mutants(compile_rules(EDITION, until="check"))
    keys = {m.context_key for m in found if m.operator == "const" and m.line == line}
    assert f"mutation_demo.rules:{line}: rule tax: p.cash >= 3 -> p.cash >= 4" in keys
    assert "rule tax: p.cash >= 3 -> p.cash >= 4" in {m.context_name for m in found}
    assert all(m.context_key == m.context_name == "" for m in found
               if m.operator not in ("const", "compare"))


def test_the_demo_edition_its_mutants_and_their_report(html_problems):
    """One run of every mutant of the demo edition (one test: the run is its cost)."""
    run = mutate(str(EDITION), workers=2)
    found = run.baseline.mutants
    assert {m.operator for m in found} >= {"const", "compare", "negate", "drop", "swap",
                                          "and-or", "param"}
    by_text = {(m.origin, m.before, m.after): m for m in found}
    pay = by_text[("rule tax", "3", "4")]  # the 3 of pay(p, bank, 3) or of p.cash >= 3
    assert pay.where.startswith("mutation_demo.rules:") and pay.units == ("tax",)
    param = by_text[("param bonus_pay", "bonus_pay = 5", "bonus_pay = 10")]
    assert set(param.units) == {"bonus_pay", "bonus"}  # the param and the rule naming it
    swap = next(m for m in found if m.origin == "rule bonus" and m.operator == "swap")
    assert (swap.before, swap.after) == ("pay(bank, p, 5)", "pay(p, bank, 5)")  # params folded
    drop = next(m for m in found if m.origin == "rule bonus" and m.operator == "drop")
    assert drop.before == "pay(bank, p, bonus_pay)"  # a dropped statement as written
    assert not [m for m in found if m.origin == "rule turn" and m.operator == "const"], \
        "roll(one) names a die: its index is not a number of the rules"

    demo = summary(run)
    totals = demo["totals"]
    rules = [m for m in found if m.operator != "data"]  # the declared numbers' apart
    assert totals["made"] == totals["killed"] == len(rules) and totals["survived"] == 0
    assert totals["score"] == 100.0
    assert {row["origin"] for row in demo["origins"]} == {
        "rule turn", "rule bonus", "rule tax", "rule fee", "param bonus_pay"}
    bonus = next(s for s in demo["sentences"] if s["text"] == BONUS)
    assert bonus["killed"] == bonus["made"] > 0 and set(bonus["units"]) == {"bonus",
                                                                            "bonus_pay"}
    assert "mutation score: 100.0%" in format_report(demo)
    assert html_problems(render_html(demo)) == []
    plain, fed = map(_statuses, _reports(EDITION, demo))
    assert plain == fed and fed[BONUS] == "tested"

    # a mutant past the time limit is killed by timeout: its worker ended, never a hang
    late = run_mutants(run.baseline, [0, 1, 2], workers=2, timeout=0.001)
    assert {r.status for r in late.results.values()} == {"timeout"}
    assert sorted(late.results) == [0, 1, 2]


def test_a_scenario_that_checks_nothing_leaves_its_sentence_exercised(tmp_path,
                                                                       html_problems):
    when = next(i for i, line in enumerate(EDITION.read_text().splitlines(), 1)
                if "when s.kind == bonus" in line)
    negated = "rule bonus: `s.kind == bonus` -> `s.kind != bonus`"
    notes = (f'\nequivalent "mutation_demo.rules:{when}: {negated}" because "a test of the note"\n'
             'equivalent "rule bonus: `a` -> `b`" because "names no mutant"\n'
             f'equivalent "mutation_demo.rules:1: {negated}" because "not on that line"\n'
             'equivalent "rule tax: 3 -> 4" because "names two mutants"\n')
    planted = _copy(tmp_path, PLANTED, notes)
    data = summary(mutate(str(planted), rule="bonus", workers=2))
    survivors = [m for m in data["mutants"] if m["status"] == "survived"]
    assert survivors and all("bonus" in m["units"] for m in survivors)
    dropped = next(m for m in survivors if m["operator"] == "drop")
    assert dropped["source"] == "pay(bank, p, bonus_pay)" and dropped["mutated_source"] == ""
    assert f"{dropped['file']}:{dropped['line']}: rule bonus: `pay(bank, p, bonus_pay)` -> " \
        "`(removed)` survived" in format_report(data)
    # each survivor with the note that would name it (the shortest line-free name)
    assert dropped["name"] == "rule bonus: pay(bank, p, bonus_pay) -> (removed)"
    assert 'note as: equivalent "rule bonus: pay(bank, p, bonus_pay) -> (removed)" because ' \
        '"..."' in format_report(data)
    assert "rule bonus: pay(bank, p, bonus_pay) -&gt; (removed)" in render_html(data)
    ambiguous = data["ambiguous_notes"]  # `3 -> 4`: the 3 of p.cash >= 3 and of pay(...)
    assert len(ambiguous) == 1 and "rule tax: 3 -> 4 names 2 mutants: " in ambiguous[0]
    assert "rule tax: p.cash >= 3 -> p.cash >= 4" in ambiguous[0]
    assert "warning: an equivalent note names more than one mutant, and so none: " \
        f"{ambiguous[0]}" in format_report(data)
    assert html_problems(render_html(data)) == []
    if browser_found():
        page_fits_a_phone(tmp_path, render_html(data))
    noted = next(m for m in data["mutants"] if m["after"] == "s.kind != bonus")
    assert noted["status"] == "equivalent" and "a test of the note" in noted["detail"]
    stale = data["stale_notes"]  # a note with a place names only the mutant on that line
    assert len(stale) == 2 and "`a` -> `b`" in stale[0] and "mutation_demo.rules:1:" in stale[1]
    plain_report, fed_report = _reports(planted, data)
    plain, fed = _statuses(plain_report), _statuses(fed_report)
    assert plain[BONUS] == "tested"  # plain coverage: a scenario of the rule passed
    assert fed[BONUS] == "exercised"  # but it kills none of the rule's mutants
    assert "exercised" not in plain_report.to_json()["totals"]  # unchanged without mutation
    assert fed_report.to_json()["totals"]["exercised"] >= 1
    page = render_coverage(fed_report)
    assert html_problems(page) == [] and 'data-status="exercised"' in page
    assert "pay(bank, p, bonus_pay)" in page  # the survivor, beside its sentence
    # a run of one rule's mutants says nothing of the others': their sentences are not tested
    assert fed["Each turn, roll the die and move."] == "exercised"


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["mutate", str(EDITION), "--rule", "tax", "--budget", "3", "--workers", "1",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["totals"]["selected"] == 3 and data["settings"]["rule"] == "tax"
    printed = capsys.readouterr().out
    assert "mutation testing: mutation_demo (3 of " in printed
    assert "3 selected; 1 worker," in printed
    # coverage fed a partial run says so, in its output and on its page
    page = tmp_path / "c.html"
    assert main(["coverage", str(EDITION), "--mutation", str(out), "--html", str(page)]) == 0
    captured = capsys.readouterr()
    assert "a partial run: 3 of " in captured.out + captured.err
    assert f"wrote {page}" in captured.out  # coverage says where its page went
    assert "a partial run: 3 of " in page.read_text()
    assert main(["mutate", str(EDITION), "--rule", "no_such_rule"]) == 2
    assert main(["mutate", str(EDITION), "--budget", "0"]) == 2
    assert main(["mutate", str(EDITION), "--budget", "2", "--time", "5"]) == 2
    assert main(["coverage", str(EDITION), "--mutation", str(tmp_path / "none.json")]) == 2
    assert "cannot read mutation results" in capsys.readouterr().err



def test_a_run_out_of_time_counts_the_mutants_run_not_those_selected(tmp_path, capsys):
    """`--time` selects every mutant and runs what fits: the terminal and the page count
    the mutants run (beside those not run), and one worker is one worker."""
    out = tmp_path / "m.json"
    assert main(["mutate", str(EDITION), "--time", "0.001", "--workers", "1",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    totals = data["totals"]
    ran = totals["selected"] - totals["not_run"]
    assert totals["selected"] == totals["mutants"] and totals["not_run"] > 0
    printed = capsys.readouterr().out
    numbers = data["declared_numbers"]
    assert f"mutation_demo ({ran} of {totals['mutants']} mutants run, and " \
        f"{numbers['selected'] - numbers['not_run']} of {numbers['numbers']} declared " \
        "numbers; 1 worker," in printed
    assert f"{totals['not_run']} not run: out of time" in printed
    page = render_html(data)
    assert f'<dd class="stats">{ran} of {totals["mutants"]} run</dd>' in page
    assert f"{totals['not_run']} not run (out of time)" in page and "1 worker," in page
    assert "or noted as equivalent in the rules" in page  # not only "the same code"

@pytest.mark.parametrize("edition", ["disney_theme_park", "super_mario_celebration",
                                     "animal_crossing", "builder"])
def test_every_equivalent_note_names_a_mutant(edition):
    """A stale note (its code changed) leaves its mutant to survive again, and one naming
    several notes none of them: only a mutation run would say so."""
    checked = compile_rules(resolve_edition(edition), until="check")
    notes = match_notes(checked, mutants(checked))
    assert notes.stale == [] and notes.ambiguous == []  # none names no mutant, or several


def page_fits_a_phone(tmp_path: Path, html: str) -> None:
    """At 400 and 1400 px the page never scrolls sideways (the table may, in its box), and a
    `where` cell reads on one line."""
    path = tmp_path / "mutation.html"
    path.write_text(html)
    with headless_page(path) as driver:
        for width in (400, 1400):
            driver.set_window_size(width, 900)
            assert "the page" not in scrolls_sideways(driver, "table.summary"), width
            lines = driver.execute_script(
                "return [...document.querySelectorAll('td.where code')].map(c => "
                "Math.round(c.getBoundingClientRect().height / "
                "parseFloat(getComputedStyle(c).lineHeight || 20)))")
            assert lines and set(lines) == {1}, f"a where cell wraps at {width} px: {lines}"
