"""The Animal Crossing edition: its default strategy plays well, and both backends agree.

The edition's scenarios (one per rule, from the rules file) run in
tests/test_scenarios.py; these tests look at whole games.
"""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed

EDITION = "animal_crossing"


def test_default_strategy_beats_random_players(compiled, default_seat_wins):
    """One default seat against three random ones, the default seat rotating: a fair
    share would be 25% of the wins."""
    games = 500
    wins = default_seat_wins(compiled, games)
    assert wins / games >= 0.75, f"the default seat won only {wins} of {games} games"


def test_default_games_end_by_the_rules(compiled):
    """Games among default players end because someone bought a seventh decoration and
    everybody came home to GO, well before the turn cap."""
    for players in (2, 3, 4):
        for index in range(30):
            game = compiled.Game(players, seed=game_seed(3, index))
            game.play()
            assert game.over and not game.capped, f"{players} players, game {index}"
            assert game.turn < 1000


@pytest.mark.parametrize("policies", [None, ["default", "random", "random", "default"]])
def test_backends_give_identical_traces(interpreted, compiled, policies, assert_same_game,
                                        play_on_both):
    for index in range(20 if policies is None else 5):
        seed = game_seed(11, index)
        games = play_on_both(interpreted, compiled, 4, seed, policies=policies)
        assert len(games[0].trace()) > 500, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}")
