"""`boardrules describe`: an edition's vocabulary, never its logic."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.build.obtain import compile_edition
from boardrules.compiler.common.diagnostics import source_lines
from boardrules.harness.describe import describe, format_text
from boardrules.harness.describe_format import SECTIONS as DESCRIBED
from boardrules.harness.describe_text import expr_text
from boardrules.runtime.loader import resolve_edition

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("disney_theme_park", "super_mario_celebration", "animal_crossing", "builder")
TOP_KEYS = {"schema", "edition", "title", "currency", "players", "options", "params", "enums",
            "builtin_attributes", "fields", "counters", "groups", "spaces", "dice", "decks",
            "grid", "events", "decisions", "procedures", "rules", "other_targets",
            "game_properties", "windows", "library_modules"}
DECISION_KEYS = {"name", "params", "prompt", "asked_of", "answer", "legal_answers", "quotes",
                 "assumes", "asked_in", "reached_from", "asked_where", "passive_answer"}


@pytest.fixture(scope="module", params=EDITIONS)
def described(request):
    compilation = compile_edition(resolve_edition(request.param))
    data = describe(compilation)
    return compilation, data, format_text(data)


def test_every_edition_is_described_without_a_procedure_body(described):
    compilation, data, text = described
    assert data["edition"] == compilation.edition and data["decisions"] and data["spaces"]
    shown = set(text.splitlines())
    body_lines = set()
    for proc in compilation.symbols.procs.values():
        for stmt in proc.body:
            lines = source_lines(compilation.sources.texts[stmt.span.path])
            body_lines |= {lines[i].strip()
                           for i in range(stmt.span.line - 1, stmt.span.end_line)}
    body_lines = {line for line in body_lines if len(line) > 12}
    assert body_lines  # the editions' procedures have bodies...
    assert not any(line.strip() in body_lines for line in shown)  # ...never shown
    hidden = {expr_text(code) for d in compilation.symbols.decisions.values()
              for code in (d.where, d.default)} - {""}
    hidden = {code for code in hidden if len(code) > 12}
    assert hidden  # nor the decisions' filters and default strategies
    assert not any(code in text for code in hidden)
    for proc in compilation.symbols.procs.values():
        assert f"  {proc.name}(" in text  # but every procedure's signature is


def test_the_json_schema_is_stable(described):
    _, data, _ = described
    data = json.loads(json.dumps(data))
    assert set(data) == TOP_KEYS and data["schema"] == 1
    for decision in data["decisions"]:
        assert set(decision) == DECISION_KEYS
    for space in data["spaces"]:
        assert set(space) == {"name", "title", "kind", "track", "offboard_at", "values",
                              "quotes", "assumes"}


def test_a_decision_shows_its_answer_type_asker_and_the_rules_asking_it(capsys):
    assert main(["describe", "disney_theme_park"]) == 0
    text = capsys.readouterr().out
    start = text.index("\n  bid(")
    bid = text[start:re.compile(r"\n  \S").search(text, start + 1).start()]
    assert "bid(p: player, s: space?, what: lot, low: money) -> int?" in bid
    assert "asked of: p (the parameter)" in bid
    assert "a whole number from low to p.cash, or none; under policy passive: none" in bid
    assert "(true or false); under policy passive: false" in text
    assert "under policy passive: the default strategy's" in text
    assert "asked in: proc auction" in bid
    assert "asked when rule buy_or_auction runs (through auction)" in text
    assert "send_to_jail(p: player)  [jail]" in text
    assert "players 2 to 8, currency Wishes" in text.splitlines()[1]


def test_json_output_parses(capsys):
    assert main(["describe", "super_mario_celebration", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    buy = next(d for d in data["decisions"] if d["name"] == "buy")
    assert buy["answer"] == "bool" and buy["asked_of"] == "p (the parameter)"
    assert {"kind": "rule", "name": "buy_or_auction"} in buy["asked_in"]
    sound = next(d for d in data["dice"] if d["name"] == "sound")
    assert "coin_ping" in sound["faces"]


def test_a_section_alone_shows_the_options_with_the_players(capsys):
    """`--section options`: an edition's options (types, ranges, defaults) and its players."""
    assert main(["describe", "disney_theme_park", "--section", "options"]) == 0
    text = capsys.readouterr().out
    assert "players 2 to 8" in text and "time_limit: int = 0" in text
    assert "(from 0 to 10000)" in text and "\nparams" not in text and "\nrules" not in text
    assert main(["describe", "disney_theme_park", "--section", "options",
                 "--section", "params", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"schema", "edition", "title", "currency", "players", "options",
                         "params"}
    assert set(DESCRIBED) == TOP_KEYS - set(data) | {"options", "params"}
    assert main(["describe", "disney_theme_park", "--section", "optoins"]) == 2
    assert "did you mean 'options'" in capsys.readouterr().err


def test_an_unknown_edition_is_one_line_and_exit_2(capsys):
    assert main(["describe", "no_such_edition"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardrules: error: unknown edition") and err.count("\n") == 1


def test_a_scenario_file_that_does_not_check_leaves_the_vocabulary_described(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BOARDRULES_CACHE", str(tmp_path / "cache"))
    demo = tmp_path / "conformance_demo"
    shutil.copytree(ROOT / "tests" / "editions" / "conformance_demo", demo)
    (demo / "conformance" / "draft.rules").write_text(
        'scenario "being written" for no_such_rule {\n  play p1\n}\n', encoding="utf-8")
    assert main(["describe", str(demo)]) == 0
    out, err = capsys.readouterr()
    assert "rules (scenario targets" in out and "  bonus  [edition]" in out
    assert err.startswith("boardrules: warning: described without the scenario files")
    edition = demo / "conformance_demo.rules"  # an error in the rules is an error
    edition.write_text(edition.read_text(encoding="utf-8") + "proc f() { zz() }\n",
                       encoding="utf-8")
    assert main(["describe", str(demo)]) == 1
    assert "unknown procedure 'zz'" in capsys.readouterr().err


def _quoted_definitions(data) -> dict[str, list[str]]:
    """Each scenario target's quotes as describe shows them beside its definition."""
    found: dict[str, list[str]] = {}
    for key in ("options", "params", "enums", "groups", "spaces", "dice", "decks",
                "decisions"):
        for item in data[key]:
            found[item["name"]] = found.get(item["name"], []) + item["quotes"]
    for deck in data["decks"]:
        for card in deck["cards"]:
            found[card["name"]] = card["quotes"]
    for counter in data["counters"]:
        found[counter["target"]] = counter["quotes"]
    if data["grid"]:
        found[data["grid"]["name"]] = data["grid"]["quotes"]
    for prop in data["game_properties"]:
        found[prop["target"]] = prop["quotes"]
    return found


def test_every_quoted_target_shows_its_quotes_beside_its_definition(described):
    _, data, text = described
    beside = _quoted_definitions(data)
    for target in data["other_targets"]:
        name = target["name"]
        assert name in beside, f"{name}: a target whose definition describe does not show"
        replaced = next((p["replaced_default"] for p in data["params"] if p["name"] == name
                         and p["replaced_default"]), None)
        shown = beside[name] + (replaced["quotes"] if replaced else [])
        assert sorted(set(shown)) == sorted(set(target["quotes"])), name
    for prop in data["game_properties"]:
        assert f"  {prop['target']}: " in text
    for rule in data["rules"]:
        if not rule["quotes"]:
            start = text.index(f"\n  {rule['name']}  [{rule['defined_in']}]") + 1
            block = text[start:re.compile(r"\n  \S").search(text, start).start()]
            assert "\n      no quote: it implements" in block, rule["name"]


def _mario():
    data = describe(compile_edition(resolve_edition("super_mario_celebration")))
    return data, format_text(data)


def test_a_set_value_shows_its_own_assumes_and_the_replaced_defaults_apart():
    data, text = _mario()
    params = {p["name"]: p for p in data["params"]}
    refund = params["refund_rounds_up"]
    assert refund["value"] == "true" and refund["set_in"] == "edition"
    assert refund["quotes"] == ["Sell Toad Houses to the Bank for half the cost price, "
                                "rounding up if needed."]
    assert refund["assumes"] == []  # the library's "rounded down" is not in force
    assert refund["replaced_default"]["value"] == "false"
    assert any("rounded down" in a for a in refund["replaced_default"]["assumes"])
    dice = params["dice_count"]
    assert dice["value"] == "1" and dice["assumes"][0].startswith("one die for everything")
    assert "two six-sided dice" in dice["replaced_default"]["assumes"][0]
    block = text[text.index("\n  dice_count: int = 1"):]
    block = block[:block.index("\n  keep_reserve")]
    assert block.index('assume "one die') < block.index("replaces the default of dice, 2, "
                                                        "whose reasons are not in force:")
    assert block.index("not in force") < block.index('assume "classic: two six-sided dice')
    utility = params["utility_rerolls"]
    assert utility["assumes"] == [] and "Roll the die to determine rent." in utility["quotes"][0]
    unset = params["doubles_to_jail"]  # a default in force keeps its own provenance
    assert unset["set_in"] is None and unset["replaced_default"] is None


def test_the_structures_a_scenario_writer_must_know():
    data, text = _mario()
    params = {p["name"]: p for p in data["params"]}
    assert "a hotel counts as max_houses + 1 buildings" in params["max_houses"]["note"]
    assert "# The houses a lot takes before a hotel: a hotel counts as max_houses + 1" in text
    buildings = next(c for c in data["counters"] if c["target"] == "space_buildings")
    assert buildings["note"] == "The buildings on a lot: its houses, or max_houses + 1 for a hotel."
    modules = {m["name"]: m["description"] for m in data["library_modules"]}
    assert modules["buying"].startswith("Buying: a player who lands on a property nobody")
    window = next(w for w in data["windows"] if w["in"] == "proc manage_window")
    assert window["from"] == "p" and window["rounds"] == "manage_rounds (= 2)"
    asks = window["asks"]
    assert asks.index("dispose") < asks.index("build_on") < asks.index("propose_trade")
    assert "window in proc manage_window: each player still in as q, in seat order from p" \
        in text
    bid = next(d for d in data["decisions"] if d["name"] == "bid")
    assert bid["asked_where"] == [{"in": "proc auction", "inside": [
        "repeated while a condition holds",
        "for each player q, by seats_after(current, q) ascending (ties in seat order from p1)"]}]
    first = next(g for g in data["game_properties"] if g["target"] == "game_first")
    assert first["written"] == "first highest_roller()" and first["quotes"]
    rounds = next(g for g in data["game_properties"] if g["target"] == "game_rounds")
    assert rounds == {"target": "game_rounds", "given": False, "written": "over after N rounds",
                      "when_absent": "no round limit", "quotes": [], "assumes": []}


def test_a_scores_tie_breakers_are_shown_but_not_their_formulas(described):
    compilation, data, _ = described
    score = next(g for g in data["game_properties"] if g["target"] == "game_score")
    expected = {"builder": "score(p: player) = ... then ..."}.get(
        compilation.edition, "score(p: player) = ...")
    assert score["written"] == expected
