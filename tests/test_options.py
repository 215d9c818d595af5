"""Options: variants chosen when a game is created, read-only in the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.diagnostics import CompileError
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.simulate import parse_options
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
    assert parse_options(disney_compiled, ["short_game", "time_limit=30"]) == {
        "short_game": 1, "time_limit": 30}
    for chosen, reason in (({"short_game": 1}, 2), ({"time_limit": 5}, 1)):
        game = disney_compiled.Game(4, seed=9, options=chosen)
        game.play()
        assert game.over and game.ended_by == reason, chosen
