"""The Monopoly: Builder edition: both backends agree on whole games, games among
default players end with the penthouse, and the default strategy plays well.

The edition's scenarios (one or more per rule, from the rules file) run in
tests/test_scenarios.py; these tests look at whole games.
"""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed
from boardrules.runtime.loader import load_module

EDITION = "builder"


@pytest.fixture(scope="module")
def compiled():
    return load_module(EDITION, "compiled")


@pytest.fixture(scope="module")
def interpreted():
    return load_module(EDITION, "interpreted")


def test_backends_give_identical_traces_for_20_seeds(interpreted, compiled, assert_same_game):
    for seed in range(20):
        games = [module.Game(4, seed=seed, trace=True) for module in (interpreted, compiled)]
        for game in games:
            game.play()
        assert len(games[0].trace()) > 100, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}")


def test_backends_agree_with_random_players(interpreted, compiled, assert_same_game):
    policies = ["default", "random", "random", "default"]
    for index in range(5):
        seed = game_seed(11, index)
        games = [module.Game(4, seed=seed, policies=policies, trace=True)
                 for module in (interpreted, compiled)]
        for game in games:
            game.play()
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


def test_default_strategy_beats_random_players(compiled):
    """One default seat against three random ones, the default seat rotating: a fair
    share would be 25% of the wins."""
    games = 200
    wins = 0
    for seed in range(games):
        seat = seed % 4
        policies = ["random"] * 4
        policies[seat] = "default"
        game = compiled.Game(4, seed=seed, policies=policies)
        game.play()
        assert game.over, f"seed {seed}: the game did not end"
        wins += game.winner() == seat
    assert wins / games >= 0.8, f"the default seat won only {wins} of {games} games"
