"""`boardrules new`: the folder, the skeleton (every rulebook sentence as a comment, as
coverage counts them), a skeleton that compiles and reports 0%, and one line, exit 2,
for what it refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.front.parser import parse
from boardrules.compiler.front.rulebook import Rulebook
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.coverage import coverage
from boardrules.harness.scaffold import (
    PLACEHOLDERS,
    SENTENCES,
    ScaffoldError,
    new_edition,
    section_file,
)
from boardrules.harness.scenarios import run_edition
from boardrules.harness.sentences import rulebook_sentences

FIXTURE_LIB = Path(__file__).resolve().parents[1] / "fixtures" / "lib"
RULEBOOK = """The Little Game

Setting up

Each player takes 20 beans. Say "Go!" and start.

• Roll the die.
• Move that many spaces.

Winning

The richest player wins, e.g. after 10 turns. Keep the beans dry.
"""


@pytest.fixture
def rulebook(tmp_path) -> Path:
    path = tmp_path / "little.txt"
    path.write_bytes(RULEBOOK.encode("utf-8") + b"\r\n")  # copied byte for byte
    return path


def comments(skeleton: str) -> list[str]:
    """The sentences the skeleton lists, decoded from their string literals."""
    return [json.loads(m) for m in re.findall(r'^#   (".*")$', skeleton, re.M)]


def test_the_folder_holds_the_rulebook_copy_and_a_skeleton(tmp_path, rulebook):
    edition = new_edition("little", rulebook, [], tmp_path)
    assert edition == tmp_path / "little" / "little.rules"
    assert (edition.parent / "rulebook.txt").read_bytes() == rulebook.read_bytes()
    assert sorted(p.name for p in edition.parent.iterdir()) == [
        "conformance", "little.rules", "rulebook.txt", "scenarios"]
    assert not any((edition.parent / "conformance").iterdir())
    assert [p.name for p in (edition.parent / "scenarios").iterdir()] == ["setting_up.rules"]
    skeleton = edition.read_text(encoding="utf-8")
    assert 'edition "Little" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}' in skeleton
    assert skeleton.index(PLACEHOLDERS) < skeleton.index(SENTENCES)
    sentences = rulebook_sentences(rulebook.read_text(encoding="utf-8"))[1]
    assert comments(skeleton) == [s.text for s in sentences]
    assert "# -- Setting up" in skeleton and "# -- Winning" in skeleton
    assert skeleton.index("# -- Setting up") < skeleton.index("Roll the die.")


def test_every_comment_is_a_string_ready_to_quote(tmp_path, rulebook):
    skeleton = new_edition("little", rulebook, [], tmp_path).read_text(encoding="utf-8")
    book = Rulebook(rulebook, rulebook.read_text(encoding="utf-8"))
    for line in re.findall(r'^#   (".*")$', skeleton, re.M):
        (decl,) = parse(f"waive {line} because \"test\"\n", "t.rules").decls
        assert book.contains(decl.text)
    assert '"Say \\"Go!\\" and start."' in skeleton


def test_the_skeleton_compiles_and_covers_nothing(tmp_path, rulebook, monkeypatch):
    monkeypatch.setenv("BOARDRULES_PATH", str(FIXTURE_LIB))
    edition = new_edition("little", rulebook, ["tinylib"], tmp_path)
    skeleton = edition.read_text(encoding="utf-8")
    assert "import tinylib" in skeleton
    assert 'set start_cash = 0 assume "placeholder"' in skeleton
    assert "set salary" not in skeleton  # the library gives it a value
    assert "enum kind" not in skeleton and 'space placeholder "Placeholder" home' in skeleton
    assert "rule turn" not in skeleton  # the library plays the turn
    monkeypatch.chdir(tmp_path)
    report = coverage(*run_edition("little", ("interpreted",)))
    assert report.percent_done() == 0.0
    assert report.totals()["uncovered"] == len(comments(skeleton)) == 6


def test_a_skeleton_without_imports_plays_an_empty_turn(tmp_path, rulebook):
    edition = new_edition("bare", rulebook, None, tmp_path)
    skeleton = edition.read_text(encoding="utf-8")
    assert "enum kind { placeholder }" in skeleton and "rule turn {" in skeleton
    compile_rules(edition, until="check")


def test_a_rulebook_without_sentences(tmp_path):
    book = tmp_path / "title.txt"
    book.write_text("Only a Title\n", encoding="utf-8")
    skeleton = new_edition("titled", book, [], tmp_path).read_text(encoding="utf-8")
    assert "# (the rulebook has no sentences)" in skeleton


@pytest.mark.parametrize("args, message", [
    (["new", "little", "--rulebook", "little.txt"], "already exists"),
    (["new", "9lives", "--rulebook", "little.txt"], "letters, digits and _"),
    (["new", "other", "--rulebook", "missing.txt"], "cannot read the rulebook"),
    (["new", "other", "--rulebook", "little.txt", "--import", "clasic"], "did you mean 'classic'"),
    (["new", "other", "--rulebook", "little.txt", "--dir", "nowhere"], "no such folder"),
    (["new", "other"], "--rulebook"),
])
def test_refusals_are_one_line_and_exit_2(tmp_path, rulebook, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "little").mkdir()
    (tmp_path / "little" / "mine.txt").write_text("keep me", encoding="utf-8")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["little", "little.txt"]
    assert [p.name for p in (tmp_path / "little").iterdir()] == ["mine.txt"]


def test_new_on_the_command_line(tmp_path, rulebook, capsys):
    assert main(["new", "little", "--rulebook", str(rulebook), "--dir", str(tmp_path),
                 "--import", "classic"]) == 0
    out = capsys.readouterr().out
    assert "little.rules, rulebook.txt, scenarios/setting_up.rules (an example" in out
    assert "import classic" in (tmp_path / "little" / "little.rules").read_text()


def test_the_first_scenario_file_is_a_commented_example_that_checks(tmp_path, rulebook):
    """Scenarios live beside the rules: the skeleton's folder starts that file, named after
    the rulebook's first section, and the edition checks with it."""
    edition = new_edition("little", rulebook, ["classic"], tmp_path)
    starter = (edition.parent / "scenarios" / "setting_up.rules").read_text(encoding="utf-8")
    assert starter.startswith('# Scenarios of the rulebook\'s section "Setting up"')
    assert '# scenario "what the rule does, in a few words" for RULE {' in starter
    assert "scenario" not in edition.read_text(encoding="utf-8")
    compilation = compile_rules(edition, until="check")
    assert [m.path for m in compilation.sources.scenario_files] == [
        str(edition.parent / "scenarios" / "setting_up.rules")]


@pytest.mark.parametrize("section, name", [
    ("Deals & Trades", "deals_and_trades.rules"), ("Help! I Can't Pay!", "help_i_cant_pay.rules"),
    ("Rules for a Short Game (60 to 90 minutes)", "rules_for_a_short_game.rules"),
    ("Main Street U.S.A. Buildings", "main_street_usa_buildings.rules"), ('"GO"', "go.rules"),
    ("(Total = ₥900)", "total_900.rules"), ("???", "scenarios.rules")])
def test_section_file_names(section, name):
    assert section_file(section) == name


def test_scaffold_error_is_raised_before_anything_is_written(tmp_path, rulebook):
    with pytest.raises(ScaffoldError):
        new_edition("little", rulebook, ["no_such_library"], tmp_path)
    assert not (tmp_path / "little").exists()
