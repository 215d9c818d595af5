"""The Animal Crossing edition: its default strategy plays well, and both backends agree.

The edition's scenarios (one per rule, from the rules file) run in
tests/test_scenarios.py; these tests look at whole games.
"""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed
from boardrules.runtime.loader import load_module

EDITION = "animal_crossing"


@pytest.fixture(scope="module")
def compiled():
    return load_module(EDITION, "compiled")


@pytest.fixture(scope="module")
def interpreted():
    return load_module(EDITION, "interpreted")


def test_default_strategy_beats_random_players(compiled):
    """One default seat against three random ones, the default seat rotating: a fair
    share would be 25% of the wins."""
    games = 500
    wins = 0
    for seed in range(games):
        seat = seed % 4
        policies = ["random"] * 4
        policies[seat] = "default"
        game = compiled.Game(4, seed=seed, policies=policies)
        game.play()
        assert game.over and not game.capped, f"seed {seed}: the game did not end"
        wins += game.winner() == seat
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
def test_backends_give_identical_traces(interpreted, compiled, policies, assert_same_game):
    for index in range(20 if policies is None else 5):
        seed = game_seed(11, index)
        games = [module.Game(4, seed=seed, policies=policies, trace=True)
                 for module in (interpreted, compiled)]
        for game in games:
            game.play()
        assert len(games[0].trace()) > 500, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}")
