"""Deep and wide trees of calls: both backends play the same games, or stop with the same
located rules error, at any depth and size the language allows."""

from __future__ import annotations

import pytest

from boardrules.runtime.errors import rules_location
from boardrules.runtime.loader import load_module

BACKENDS = ("interpreted", "compiled")

# A turn moves by a die; landing moves back 3 and so lands again, `bound` times in a row
# (each level a land event, a counted rule and a move: several Python frames).
LANDINGS = """die six faces [1, 2, 3, 4, 5, 6]
counter player.depth: int = 0
counter bound: int = 199
rule walk { on turn(p: player) { move(p, roll(six)) } }
rule probe { on land(p: player, s: space) { if p.depth < bound { p.depth += 1
  move(p, -3) } } }
"""


def outcome(module, setup=None, turns: int = 40) -> tuple:
    """What a seeded game did: its trace, or its rules error's message and location."""
    game = module.Game(2, seed=3, trace=True)
    if setup:
        setup(game)
    try:
        game.play(turns)
    except module.RuleError as exc:
        return ("error", str(exc), rules_location(module, exc), len(game.trace()))
    return ("played", tuple(game.trace()))


@pytest.fixture(scope="module")
def landings(module_editions):
    path = module_editions.write(LANDINGS, name="landings")
    return [load_module(str(path), backend) for backend in BACKENDS]


def test_a_recursion_that_ends_by_itself_plays_alike(landings):
    """199 landings deep: within the rules' 200, past CPython's default recursion limit
    when interpreted (it raised RecursionError there)."""
    interpreted, compiled = (outcome(module) for module in landings)
    assert compiled[0] == "played" and any(line.count("at s") for line in compiled[1])
    assert interpreted == compiled


def test_an_endless_recursion_stops_alike(landings):
    """Unbounded: the same rules error in `probe` on both backends (interpreted once gave a
    RecursionError somewhere else)."""
    def unbounded(game):
        game.state_set("g_game_bound", 0, 1_000_000)

    interpreted, compiled = (outcome(module, unbounded) for module in landings)
    assert compiled[:2] == ("error", "rule probe at landings.rules:17: calls nested more "
                            "than 200 deep (endless recursion?)")
    assert interpreted == compiled
