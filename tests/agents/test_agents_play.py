"""`boardrules play` and `replay`, driven headless through textual's pilot: answers, undo,
save and load, stepping through a simulated game's turns."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("textual")

from boardrules.cli import main  # noqa: E402
from boardrules.play.app import PlayApp, ReplayApp  # noqa: E402
from boardrules.play.session import Session, simulated_turns  # noqa: E402
from boardrules.play.view import rulebook_sentences  # noqa: E402


def test_play_answers_undoes_saves_and_loads(tmp_path):
    saved = tmp_path / "game.json"
    session = Session("super_mario_celebration", 2, 0, seed=4)

    async def drive() -> tuple[str, int, int]:
        app = PlayApp(session, str(saved))
        async with app.run_test() as pilot:
            status = str(app.query_one("#status").render())
            await pilot.press("enter")
            after_one = len(session.state.answers)
            await pilot.press("end", "enter")
            await pilot.press("u")
            await pilot.press("s")
        return status, after_one, len(session.state.answers)

    status, after_one, kept = asyncio.run(drive())
    decision = session.module.DECISION_NAMES
    assert status.startswith("p1 decides ") and status.split()[2].rstrip(":") in decision
    assert after_one == 1 and kept == 1  # two answers given, one undone
    data = json.loads(saved.read_text())
    assert data["seed"] == 4 and len(data["answers"]) == 1
    again = Session.load(saved)
    assert again.snapshot() == session.snapshot()


def test_only_the_players_seat_is_asked():
    session = Session("disney_theme_park", 3, 1, seed=2)
    for _ in range(25):
        assert session.snapshot()["pending"]["player"] == 1
        session.answer(session.state.legal_actions()[-1])


def test_the_status_quotes_the_rulebook():
    session = Session("disney_theme_park", 2, 0, seed=0)
    info = session.described["buy"]
    sentences = rulebook_sentences(info)
    assert sentences and all(isinstance(s, str) and s for s in sentences)
    assert any("buy" in s.lower() for s in sentences)


def test_replay_steps_through_the_turns():
    turns = simulated_turns("super_mario_celebration", 2, seed=1)
    assert turns[-1]["over"] and [t["turn"] for t in turns] == list(range(len(turns)))

    async def drive() -> list[int]:
        app = ReplayApp(_module(), turns, 1)
        seen = []
        async with app.run_test() as pilot:
            for key in ("n", "n", "p"):
                await pilot.press(key)
                seen.append(app.at)
        return seen

    assert asyncio.run(drive()) == [1, 2, 1]


def _module():
    from boardrules.runtime.loader import load_module

    return load_module("super_mario_celebration")


@pytest.mark.parametrize("argv, says", [
    (["play", "disney_theme_park", "--seat", "p9", "--players", "2"], "2 seats"),
    (["play", "disney_theme_park", "--seat", "x"], "a seat is p1"),
    (["replay", "disney_theme_park", "--option", "nope=1"], "no option 'nope'"),
    (["replay", "disney_theme_park", "--players", "9"], "not 9"),
])
def test_bad_play_arguments_exit_2_with_one_line(argv, says, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_file_that_is_no_saved_game_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["play", "disney_theme_park", "--load", str(bad)]) == 1
    assert "not a saved game" in capsys.readouterr().err


def test_the_readme_screenshot_is_drawn(tmp_path):
    """scripts/play_screenshot.py draws the play screen the README shows, as SVG."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "play_screenshot.py"
    spec = importlib.util.spec_from_file_location("play_screenshot", script)
    shot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shot)
    out = tmp_path / "play.svg"
    asyncio.run(shot.shoot(out, answers=3, seed=7, size=(140, 44)))
    text = out.read_text()
    assert text.startswith("<svg") and "you&#160;are&#160;p1" in text and "decides" in text
