"""Declared numbers as mutants (compiler/mutation/data.py): each number written in a
space's, group's or card's field values, + 1, and the report of those no scenario reads.

The operator on a small edition written here (checked only, no mutant runs); the runs on
tests/editions/mutation_demo, where a scenario reads the toll's fee and none the mill's."""

from __future__ import annotations

import json
from pathlib import Path

from boardrules.cli import main
from boardrules.compiler.mutation.mutation_text import mutated_line
from boardrules.compiler.mutation.mutations import DATA, apply, mutants
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.coverage import apply_mutation, coverage, format_table
from boardrules.harness.coverage_html import render_html as render_coverage
from boardrules.harness.mutate import mutate
from boardrules.harness.mutation_report import format_report, render_html, summary
from boardrules.harness.scenarios import run_edition

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "editions" / "mutation_demo" / "mutation_demo.rules"

NUMBERS = '''edition "Numbers" {
  rulebook "rulebook.txt"
  players 2 to 4
}

enum kind { plain, store }
enum res { wood, ore }

param base: money = 7
field space.rent: money[3]
field space.cost: int[res]
field space.price: money = 0
field space.hint: int = 0
field group.points: int = 0
field card.value: money = 0

group red "Red" { points = 4 }

board {
  space start "Start" plain
  space shop "Shop" store { rent = [1, 2, 2], cost = [3, -2], price = base, hint = 9 }
}

deck luck(p: player) "Luck" {
  card coin "Coin." copies 2 { value = 5 } do { pay(bank, p, c_value()) }
  card dud "Nothing." { value = 6 }
}

die six faces [1, 2, 3, 4, 5, 6]

decision browse(p: player) by p -> bool {
  default any(s in spaces where s.hint > 0)
}

proc c_value() -> money {
  return sum(c.value for c in cards where c.value < 6)
}

rule turn {
  on turn(p: player) {
    move(p, roll(six))
  }
}

rule shopping {
  on land(p: player, s: space) when s.kind == store and ask browse(p) {
    pay(p, bank, s.rent[2] + s.cost[ore] + s.price + sum(g.points for g in groups))
    draw luck(p)
  }
}

game {
  turn_limit 10
}
'''


def _numbers(tmp_path: Path):
    folder = tmp_path / "numbers"
    folder.mkdir()
    (folder / "rulebook.txt").write_text("Numbers\n\nPlay\n\nEach turn, roll and move.\n")
    (folder / "numbers.rules").write_text(NUMBERS)
    checked = compile_rules(folder / "numbers.rules", until="check")
    return checked, [m for m in mutants(checked) if m.operator == DATA]


def test_each_declared_number_read_by_rules_code_is_one_mutant(tmp_path):
    checked, found = _numbers(tmp_path)
    by_name = {m.number: m for m in found}
    # each element of a list, an enum-indexed list by its member, a negative number, a
    # group's and a card's; never a param's value (`price = base`: the param's own
    # mutants) nor a field only the default strategy reads (`hint`)
    assert list(by_name) == ["shop.rent[0]", "shop.rent[1]", "shop.rent[2]",
                             "shop.cost[wood]", "shop.cost[ore]", "red.points",
                             "coin.value", "dud.value"]
    rent = by_name["shop.rent[2]"]
    assert (rent.origin, rent.before, rent.after) == ("space shop", "rent[2] = 2",
                                                      "rent[2] = 3")
    assert rent.key == "space shop: rent[2] = 2 -> rent[2] = 3"
    assert rent.units == ("shop", "shopping")  # the entity, and the rule whose code reads it
    assert by_name["shop.cost[ore]"].after == "cost[ore] = -1"
    assert by_name["coin.value"].units == ("coin",)  # read by c_value(), which coin calls
    # the line diff changes that number, not the same digit written before it
    line = NUMBERS.splitlines()[rent.line - 1]
    assert mutated_line(line, DATA, *rent.change, region=rent.region) == line.replace(
        "rent = [1, 2, 2]", "rent = [1, 2, 3]")
    negative = by_name["shop.cost[ore]"]
    assert mutated_line(line, DATA, *negative.change, region=negative.region) == \
        line.replace("[3, -2]", "[3, -1]")


def test_a_number_mutant_changes_its_table_slots_only(tmp_path):
    checked, found = _numbers(tmp_path)
    program = checked.program
    tables = {t.name: t.values for t in program.tables}
    by_name = {m.number: m for m in found}
    shop = program.space_ids.index("shop")
    mutated = {t.name: t.values for t in apply(checked, by_name["shop.rent[2]"]).tables}
    assert mutated["space_rent"][shop * 3 + 2] == 3
    assert [t for t in mutated if mutated[t] != tables[t]] == ["space_rent"]
    assert sum(a != b for a, b in zip(mutated["space_rent"], tables["space_rent"],
                                      strict=True)) == 1
    coins = [i for i, c in enumerate(program.card_ids) if c.startswith("coin")]
    assert len(coins) == 2  # copies 2: one declaration, one number, both cards change
    values = dict(enumerate(apply(checked, by_name["coin.value"]).tables[
        [t.name for t in program.tables].index("card_value")].values))
    assert [values[i] for i in coins] == [6, 6]


def test_numbers_a_scenario_reads_are_killed_and_the_others_reported(tmp_path, html_problems):
    run = mutate(str(DEMO), rule="fee", workers=2)
    data = summary(run)
    numbers = data["declared_numbers"]
    assert (numbers["numbers"], numbers["read"], numbers["unread"]) == (2, 1, 1)
    toll = next(m for m in data["mutants"] if m["operator"] == DATA and
                m["before"] == "fee = 2")
    assert toll["status"] == "killed"  # the toll's scenario pays exactly 2
    assert toll["number"] == "toll.fee"
    assert all("number" not in m for m in data["mutants"] if m["operator"] != DATA)
    (mill,) = numbers["unread_by_entity"]
    assert (mill["kind"], mill["entity"]) == ("space", "mill")
    assert [(n["number"], n["value"], n["name"]) for n in mill["numbers"]] == [
        ("mill.fee", "60", "mill.fee")]
    # apart from the rules' score: the rules' mutants of `fee` are all killed
    assert data["totals"]["score"] == 100.0 and data["totals"]["survived"] == 0
    assert all(s["survived"] == 0 for s in data["sentences"])
    text = format_report(data)
    assert "declared numbers: 1 of 2 read by a scenario (50.0%)" in text
    assert "mutation_demo.rules:" in text and ": space mill: mill.fee = 60" in text
    assert 'equivalent "mill.fee" because "..."' in text
    assert "survivors (" not in text  # a number no scenario reads is not a rules survivor
    page = render_html(data)
    assert html_problems(page) == [] and 'id="numbers"' in page
    assert "mill.fee = 60" in page and "1 of 2 read by a scenario" in page
    # coverage --mutation says it too, in its summary and on its page
    compilation, outcomes = run_edition(str(DEMO), ("interpreted",))
    report = coverage(compilation, outcomes)
    apply_mutation(report, data, "m.json")
    line = "declared numbers: 1 of 2 read by a scenario; none reads mill.fee"
    assert line in format_table(report)
    page = render_coverage(report)
    assert html_problems(page) == [] and line in page


def test_a_number_that_does_not_matter_can_be_noted(tmp_path):
    folder = tmp_path / "mutation_demo"
    folder.mkdir()
    (folder / "rulebook.txt").write_text((DEMO.parent / "rulebook.txt").read_text())
    (folder / "mutation_demo.rules").write_text(
        DEMO.read_text() + '\nequivalent "mill.fee" because "no scenario lands on it"\n')
    data = summary(mutate(str(folder / "mutation_demo.rules"), rule="mill",
                          numbers="only", workers=1))
    numbers = data["declared_numbers"]
    assert (numbers["selected"], numbers["equivalent"], numbers["unread"]) == (1, 1, 0)
    assert data["stale_notes"] == [] and data["totals"]["selected"] == 0
    assert "no scenario lands on it" in data["equivalent_notes"][0]["reason"]
    page = render_html(data)  # the numbers alone: no empty table of the rules' mutants
    assert 'id="numbers"' in page and 'id="origins"' not in page
    assert "A number that truly does not matter" not in page  # none is unread
    assert "None: a scenario reads every declared number that ran." in page


def test_the_command_line_includes_skips_or_runs_only_the_numbers(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["mutate", str(DEMO), "--rule", "fee", "--numbers", "skip",
                 "--workers", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["declared_numbers"]["selected"] == 0 and data["totals"]["selected"] > 0
    assert data["settings"]["numbers"] == "skip"
    assert "declared numbers" not in capsys.readouterr().out
    assert main(["mutate", str(DEMO), "--numbers", "only", "--workers", "1",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["totals"]["selected"] == 0 and data["declared_numbers"]["selected"] == 2
    printed = capsys.readouterr().out
    assert "0 of 27 mutants run, 0 selected, and 2 of 2 declared numbers" in printed
    assert "mill.fee = 60" in printed and "origin" not in printed  # no empty rules table
    assert main(["mutate", str(DEMO), "--numbers", "only", "--rule", "tax"]) == 2
    assert "no declared-number mutants of 'tax'" in capsys.readouterr().err
    assert main(["mutate", str(DEMO), "--numbers", "some"]) == 2
