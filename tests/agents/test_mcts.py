"""OpenSpiel's MCTS plays boardrules games: whole games of every edition, leaves valued by
rollouts in C (agents/search.py), and against the default strategy (`others=default`)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardrules.openspiel  # noqa: E402,F401
from boardrules.agents.search import mcts_bot, sample_chance  # noqa: E402

EDITIONS = ["disney_theme_park", "super_mario_celebration", "animal_crossing", "builder"]


def play_out(game, bots: dict, seed: int):
    chance = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("edition", EDITIONS)
def test_mcts_plays_a_whole_two_player_game(edition):
    """Both seats MCTS (a few simulations a move, a short game): the game ends, rewarded."""
    game = pyspiel.load_game(f"boardrules_{edition}", {"players": 2, "turn_cap": 8})
    state = play_out(game, {0: mcts_bot(game, 4, seed=1), 1: mcts_bot(game, 4, seed=2)}, 3)
    assert state.is_terminal() and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_mcts_against_the_default_strategy_acts_for_its_seat_alone():
    """With `others=default` only p1 (and chance) acts in OpenSpiel; the other seat's
    decisions are the default strategy's, inside the game, replayed alike after a clone."""
    game = pyspiel.load_game("boardrules_super_mario_celebration",
                             {"players": 2, "turn_cap": 12, "others": "default"})
    seen = set()

    class Watching:
        def __init__(self):
            self.bot = mcts_bot(game, 8, seed=5)

        def step(self, state):
            seen.add(state.current_player())
            return self.bot.step(state)

    state = play_out(game, {0: Watching()}, 7)
    assert state.is_terminal() and seen == {0}


def test_a_state_with_default_opponents_replays_clones_and_serializes_alike():
    """Only p1's answers are replayed (the default seat answers itself again, as it did):
    a clone and a deserialized copy stand where the state stands, many turns in."""
    from boardrules.runtime.loader import load_module
    from boardrules.runtime.state import GameState, play_random

    module = load_module("disney_theme_park")
    state = play_random(GameState(module, 2, chance=True, policies=["external", "default"]),
                        400, seed=3)
    assert state.game.turn > 5 and {state.current_player} <= {0, -2}
    for copy in (state.clone(), GameState.deserialize(module, state.serialize())):
        assert copy.snapshot() == state.snapshot()
        assert copy.legal_actions() == state.legal_actions()
