"""Options: variants chosen when a game is created, read-only in the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.options import parse_options
from boardrules.runtime.loader import load_module

DEMO = Path(__file__).parent / "editions" / "options_demo" / "options_demo.rules"


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def demo(request):
    return load_module(str(DEMO), request.param)


def test_options_are_listed_with_their_defaults(demo):
    assert demo.OPTIONS == (("generous", "bool", 0, "The generous variant"),)


@pytest.mark.parametrize(("options", "expected"), [(None, 5), ({"generous": True}, 50)])
def test_an_option_changes_the_game(demo, options, expected):
    game = demo.Game(2, seed=1, options=options)
    game.start()
    game.play_turn(0)
    assert game.players_cash()[0] == expected


def test_unknown_options_and_late_choices_are_refused(demo):
    with pytest.raises(ValueError, match="no option"):
        demo.Game(2, options={"stingy": 1})
    game = demo.Game(2)
    game.start()
    with pytest.raises(ValueError, match="before the game starts"):
        game.set_options({"generous": 1})


def test_command_line_settings_are_parsed(demo):
    assert parse_options(demo, ["generous=yes"]) == {"generous": 1}
    assert parse_options(demo, ["generous"]) == {"generous": 1}
    with pytest.raises(ValueError, match="takes a bool"):
        parse_options(demo, ["generous=maybe"])


def test_rules_cannot_assign_an_option(tmp_path):
    edition = tmp_path / "demo" / "demo.rules"
    edition.parent.mkdir()
    (edition.parent / "rulebook.txt").write_text((DEMO.parent / "rulebook.txt").read_text())
    edition.write_text(DEMO.read_text().replace("move(p, roll(one))",
                                                "move(p, roll(one))\n    generous = true"))
    with pytest.raises(CompileError, match="cannot change"):
        compile_rules(edition, until="check")


def test_disney_offers_its_two_short_games(disney_compiled):
    options = {name: (kind, default) for name, kind, default, _ in disney_compiled.OPTIONS}
    assert options == {"short_game": ("bool", 0), "time_limit": ("int", 0)}
    assert parse_options(disney_compiled, ["short_game", "time_limit=0"]) == {
        "short_game": 1, "time_limit": 0}
    for chosen, reason in (({"short_game": 1}, 2), ({"time_limit": 5}, 1)):
        game = disney_compiled.Game(4, seed=9, options=chosen)
        game.play()
        assert game.over and game.ended_by == reason, chosen


def test_disney_refuses_both_short_games_at_once(disney_compiled, capsys):
    """The Time Limit Game is "Another Good Short Game": its deal and its end replace the
    first Short Game's, so one game is never both (`excludes`). Refused by the API, by
    the command line's option parsing and by the command line itself (exit 2, one line,
    before any game is played)."""
    assert disney_compiled.OPTION_EXCLUSIONS == (("time_limit", "short_game"),)
    with pytest.raises(ValueError, match="'time_limit' and 'short_game' exclude each other"):
        disney_compiled.Game(4, seed=1, options={"short_game": True, "time_limit": 20})
    game = disney_compiled.Game(4, seed=1, options={"short_game": True})
    with pytest.raises(ValueError, match="exclude each other"):
        game.set_options({"time_limit": 20})
    with pytest.raises(ValueError, match="exclude each other"):
        parse_options(disney_compiled, ["short_game=true", "time_limit=20"])
    capsys.readouterr()
    assert main(["simulate", "disney_theme_park", "--games", "1", "--workers", "1",
                 "--option", "short_game=true", "--option", "time_limit=20"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "boardrules: error: options 'time_limit' and 'short_game' exclude each other\n")


def _excluding_demo(tmp_path, option_line: str, scenario: str = "") -> Path:
    """The options demo with a second option declared by option_line (and a scenario)."""
    edition = tmp_path / "demo" / "demo.rules"
    edition.parent.mkdir()
    (edition.parent / "rulebook.txt").write_text((DEMO.parent / "rulebook.txt").read_text())
    edition.write_text(DEMO.read_text().replace(
        'option generous: bool = false "The generous variant"',
        'option generous: bool = false "The generous variant"\n' + option_line) + scenario)
    return edition


def test_a_scenario_cannot_choose_options_that_exclude_each_other(tmp_path):
    edition = _excluding_demo(
        tmp_path, 'option stingy: int = 0 "Stingy" excludes generous',
        'scenario "both" for bonus {\n  option generous = true\n  option stingy = 2\n'
        '  play p1\n}\n'
        'scenario "one, the other at its default" for bonus {\n  option generous = true\n'
        '  option stingy = 0\n  play p1\n}\n')
    with pytest.raises(CompileError) as info:
        compile_rules(edition, until="check")
    found = [(d.code, d.span.line, d.message) for d in info.value.diagnostics]
    line = edition.read_text().splitlines().index("  option stingy = 2") + 1
    assert found == [("BR508", line, "options 'generous' and 'stingy' exclude each other")]


@pytest.mark.parametrize(("option_line", "code", "message"), [
    ('option stingy: int = 0 "Stingy" excludes generus', "BR201", "'generus' is not an option"),
    ('option stingy: int = 0 "Stingy" excludes stingy', "BR411",
     "option 'stingy' cannot exclude itself"),
])
def test_excludes_names_another_option(tmp_path, option_line, code, message):
    with pytest.raises(CompileError) as info:
        compile_rules(_excluding_demo(tmp_path, option_line), until="check")
    assert [(d.code, d.message) for d in info.value.diagnostics] == [(code, message)]


def test_options_excluded_from_both_sides_make_one_pair(tmp_path):
    edition = _excluding_demo(tmp_path, 'option stingy: bool = false "Stingy" excludes generous')
    edition.write_text(edition.read_text().replace(
        '"The generous variant"\n', '"The generous variant" excludes stingy\n', 1))
    module = load_module(str(edition), "interpreted")
    assert module.OPTION_EXCLUSIONS == (("generous", "stingy"),)
    assert module.option_conflict({"generous": 1}) == ""
    assert module.option_conflict({"generous": 1, "stingy": 1}) == (
        "options 'generous' and 'stingy' exclude each other")


def test_an_int_option_takes_only_its_declared_values(disney_compiled, capsys):
    """`option time_limit: int from 0 to 10000`: a value outside is refused wherever it is
    chosen, before any game (it used to play the standard game)."""
    assert main(["simulate", "disney_theme_park", "--option", "time_limit=-3",
                 "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "option 'time_limit' takes 0 to 10000, not -3" in err and err.count("\n") == 1
    with pytest.raises(ValueError, match="time_limit"):
        disney_compiled.Game(2, seed=0, options={"time_limit": 10001})
    assert parse_options(disney_compiled, ["time_limit=10000"]) == {"time_limit": 10000}


@pytest.mark.parametrize(("option_line", "scenario", "message"), [
    ('option stingy: int from 0 to 5 = 9 "Stingy"', "",
     "option 'stingy' defaults to 9, outside its values 0 to 5"),
    ('option stingy: int from 5 to 0 = 0 "Stingy"', "", "an option's values run from 5 to 0: none"),
    ('option stingy: int from 0 to 5 = 0 "Stingy"',
     'scenario "too stingy" for bonus {\n  option stingy = 6\n  play p1\n}\n',
     "option 'stingy' takes 0 to 5, not 6"),
])
def test_an_option_range_is_checked_where_it_is_written(tmp_path, option_line, scenario,
                                                        message):
    with pytest.raises(CompileError) as info:
        compile_rules(_excluding_demo(tmp_path, option_line, scenario), until="check")
    assert [(d.code, d.message) for d in info.value.diagnostics
            if d.severity == "error"][:1] == [("BR412", message)]
