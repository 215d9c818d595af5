"""The game loop each edition generates (templates/game_loop.py.j2): an untraced game
plays its turns there, calling the edition's own methods directly, with no test of what the
edition has none of; a traced game takes the kernel's loop. Both play the same game."""

from __future__ import annotations

import re

import pytest

from boardrules.harness.digests import game_record

# The prelude's turn moves one space; landing on s1 rolls, the end of each turn counts.
RULES = """
counter player.ends: int = 0
counter rolled: int = 0
die d6 faces [1, 2, 3, 4, 5, 6]
rule lucky { on land(p: player, s: space) when s.kind == special { rolled += roll(d6) } }
rule ends { on turn_over(p: player) { p.ends += 1 } }
game { over after 4 rounds }
"""


def method(code: str, name: str) -> str:
    """The text of the edition's Game's method (not the kernel's), without comments."""
    game = code[code.index("\nclass Game("):]
    found = re.search(rf"\n    def {name}\(.*?(?=\n    @cython)", game, re.DOTALL)
    assert found, f"the edition's Game has its own {name}"
    return "\n".join(line for line in found.group(0).splitlines()
                     if not line.strip().startswith("#"))


def play_turns(code: str) -> str:
    """The generated loop's text."""
    return method(code, "play_turns")


def test_the_loop_calls_the_editions_handlers_and_tests_only_what_it_has(editions):
    _, code, _ = editions.module(RULES)
    loop = play_turns(code)
    assert "self.handlers_turn(p)" in loop and "self.handlers_turn_over(p)" in loop
    assert "self.round_limit()" in loop
    assert "self.tracing" not in loop and "self.unwinds" not in loop
    assert "turn_over_handled" not in loop

    _, code, _ = editions.module("")
    loop = play_turns(code)
    assert "self.handlers_turn(p)" in loop
    assert "turn_over" not in loop and "round_limit" not in loop


def test_a_program_whose_turn_can_end_inside_an_expression_runs_its_turn_in_a_try(editions):
    _, code, _ = editions.module("""
proc quit(p: player) -> bool { end turn }
rule early { on land(p: player, s: space) { if p.cash >= 0 and quit(p) { p.cash = 0 } } }
""")
    loop = play_turns(code)
    assert "self.k_turn_unwinding(p)" in loop and "self.handlers_turn(p)" not in loop


def test_the_editions_move_calls_its_own_land_event(editions):
    _, code, _ = editions.module(RULES)
    assert "def event_land(" not in code[:code.index("\nclass Game(")]  # no kernel hook
    assert "self.k_way(p, steps)" in method(code, "k_move")
    assert "self.k_way_to(p, s)" in method(code, "k_move_to")
    assert "self.event_land(p, s)" in method(code, "k_land")


def test_the_land_event_is_inline_in_the_move_and_the_other_events_are_not(editions):
    """C may take the landing's handlers into the move (a turn's landing then costs no
    frame); the events raised from many places stay calls."""
    _, code, _ = editions.module(RULES)
    game = code[code.index("\nclass Game("):]

    def decorators(name: str) -> str:
        return re.search(rf"((?:\n    @cython\.[^\n]*)+)\n    def {name}\(", game).group(1)

    assert "@cython.inline" in decorators("event_land")
    assert "@cython.inline" not in decorators("event_pass")


@pytest.fixture(scope="module")
def three_ways(module_editions):
    return module_editions.three_ways(RULES, "loop")


@pytest.mark.parametrize("way", range(3))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_untraced_game_plays_as_the_kernels_traced_loop_does(three_ways, way, seed):
    module = three_ways[way]
    untraced = module.Game(3, seed=seed)
    traced = module.Game(3, seed=seed, trace=True)
    played = [untraced.play(2), untraced.play(5), untraced.play()]
    assert played == [traced.play(2), traced.play(5), traced.play()]
    assert untraced.over and sum(played) == 12  # 4 rounds of 3 players
    assert game_record(untraced) == game_record(traced)
    assert (untraced.round_count, untraced.ended_by) == (traced.round_count, traced.ended_by)
