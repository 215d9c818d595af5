"""The Animal Crossing edition: its default strategy plays well, and both backends agree.

The edition's scenarios (in scenarios/ and conformance/ beside the rules file) run in
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


def test_the_hands_the_compiled_kernel_keeps_are_the_holders(compiled):
    """Its questions about a player's chips walk that player's hand (the kernel's list of
    the cards each player holds) instead of all 227 cards: the lists follow every game."""
    for index in range(10):
        game = compiled.Game(4, seed=game_seed(5, index), policies=["random"] * 4)
        for _ in range(12):
            game.play(5)
            holders = game.holders()
            for p in range(4):
                cards, c = [], game.state_get("held_first", p)
                while c >= 0:
                    cards.append(c)
                    c = game.state_get("held_next", c)
                assert cards == [c for c, h in enumerate(holders) if h == p]
            if game.over:
                break


@pytest.mark.parametrize("policies", [None, ["default", "random", "random", "default"]])
def test_backends_give_identical_traces(interpreted, compiled, policies, assert_same_game,
                                        play_on_both):
    for index in range(20 if policies is None else 5):
        seed = game_seed(11, index)
        games = play_on_both(interpreted, compiled, 4, seed, policies=policies)
        assert len(games[0].trace()) > 500, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}")
