"""The Monopoly: Builder edition: both backends agree on whole games, games among
default players end with the penthouse, and the default strategy plays well.

The edition's scenarios (in scenarios/ and conformance/ beside the rules file) run in
tests/test_scenarios.py; these tests look at whole games.
"""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed

EDITION = "builder"


def test_backends_give_identical_traces_for_20_seeds(interpreted, compiled, assert_same_game,
                                                     play_on_both):
    for seed in range(20):
        games = play_on_both(interpreted, compiled, 4, seed)
        assert len(games[0].trace()) > 100, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}")


def test_backends_agree_with_random_players(interpreted, compiled, assert_same_game, play_on_both):
    policies = ["default", "random", "random", "default"]
    for index in range(5):
        seed = game_seed(11, index)
        games = play_on_both(interpreted, compiled, 4, seed, policies=policies)
        assert_same_game(*games, f"seed {seed}")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_games_end_with_the_penthouse(compiled, players):
    """Among default players the game ends because someone built the penthouse
    (or, rarely, everyone went bankrupt), never at the turn cap."""
    for index in range(40):
        game = compiled.Game(players, seed=game_seed(5, index))
        game.play()
        assert game.over and not game.capped, f"{players} players, game {index}"
        assert game.turn < 500


def test_default_strategy_beats_random_players(compiled, default_seat_wins):
    """One default seat against three random ones, the default seat rotating: a fair
    share would be 25% of the wins."""
    games = 200
    wins = default_seat_wins(compiled, games, cap_allowed=True)
    assert wins / games >= 0.8, f"the default seat won only {wins} of {games} games"
