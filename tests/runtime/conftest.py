"""The tiny test edition (tests/fixtures/tiny), compiled once per session, interpreted.

Board (track positions):  start(0) a(1) b(2) c(3) d(4) e(5), and `lockup`, offboard at c.
Kinds: start=home, a/c=plain, b/e=lucky (draw a `luck` card), d=toll (asks `yes`),
lockup=lockup. Passing start pays `salary` (10); each player starts with 100.
Deck luck: bonus (+7), fine (-3), token (keep), back (move -2), nothing.
Dice: d6 (1..6, rolled each turn), odd ([1, 3, 5]).
Decisions: yes (bool, default true), amount (int? 1..4, default 2), exact (int 3..3),
pick (space among plain, default c), maybe_pick (space? among plain, default none).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.runtime.loader import load_module

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "tiny" / "tiny.rules"

SPACES = ("start", "a", "b", "c", "d", "e", "lockup")
CARDS = ("bonus", "fine", "token", "back", "nothing")


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """The generated module of the tiny edition, imported with CPython."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOARDRULES_CACHE", str(tmp_path_factory.mktemp("cache")))
        module = load_module(str(TINY), "interpreted")
    assert module.SPACE_IDS == SPACES and module.CARD_IDS == CARDS
    return module


@pytest.fixture
def game(tiny):
    """A started two-player game (decks dealt, 100 each), traced, seed 7."""
    g = tiny.Game(2, seed=7, trace=True)
    g.start()
    return g
