"""`boardrules describe`: an edition's vocabulary, never its logic."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.diagnostics import source_lines
from boardrules.harness.describe import describe, format_text
from boardrules.harness.describe_text import expr_text
from boardrules.runtime.loader import compile_edition, resolve_edition

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("disney_theme_park", "super_mario_celebration", "animal_crossing", "builder")
TOP_KEYS = {"schema", "edition", "title", "currency", "players", "options", "params", "enums",
            "builtin_attributes", "fields", "counters", "groups", "spaces", "dice", "decks",
            "grid", "events", "decisions", "procedures", "rules", "other_targets"}
DECISION_KEYS = {"name", "params", "prompt", "asked_of", "answer", "legal_answers", "quotes",
                 "assumes", "asked_in", "reached_from"}


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
        assert set(space) == {"name", "title", "kind", "track", "offboard_at", "values"}


def test_a_decision_shows_its_answer_type_asker_and_the_rules_asking_it(capsys):
    assert main(["describe", "disney_theme_park"]) == 0
    text = capsys.readouterr().out
    start = text.index("\n  bid(")
    bid = text[start:re.compile(r"\n  \S").search(text, start + 1).start()]
    assert "bid(p: player, s: space?, what: lot, low: money) -> int?" in bid
    assert "asked of: p (the parameter)" in bid
    assert "a whole number from low to p.cash, or none" in bid
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
