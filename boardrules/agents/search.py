"""Monte Carlo tree search over an edition's OpenSpiel game, its leaves valued by games
played to the end in C.

OpenSpiel's `RandomRolloutEvaluator` plays a leaf out one random action at a time through
Python: on a board game whose trade windows ask every seat for hundreds of answers, a
dozen rollouts a second. `CRolloutEvaluator` asks the state for the same thing played
inside the compiled module (`BoardrulesState.rollout_returns`): thousands a second. It
needs the `agents` extra (open_spiel).
"""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import mcts


class CRolloutEvaluator(mcts.Evaluator):
    """A leaf's value: the mean returns of `rollouts` random games played to the end in C;
    the prior: uniform over the legal actions, the chance outcomes' own probabilities."""

    def __init__(self, rollouts: int = 1, random_state: np.random.RandomState | None = None):
        self.rollouts = rollouts
        self._random = random_state or np.random.RandomState()

    def evaluate(self, state) -> np.ndarray:
        seeds = self._random.randint(0, 2**31 - 1, size=self.rollouts)
        return np.mean([state.rollout_returns(int(seed)) for seed in seeds], axis=0)

    def prior(self, state) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def mcts_bot(game, simulations: int, seed: int = 0, rollouts: int = 1,
             uct_c: float = 2.0) -> mcts.MCTSBot:
    """An MCTS bot for a boardrules game: `simulations` a move, leaves valued in C."""
    random_state = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c=uct_c, max_simulations=simulations,
                        evaluator=CRolloutEvaluator(rollouts, random_state),
                        random_state=random_state, solve=False)


def sample_chance(state, random_state: np.random.RandomState) -> int:
    """A chance node's outcome, drawn with its probability."""
    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
    return int(random_state.choice(actions, p=probabilities))
