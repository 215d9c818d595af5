"""A baseline between uniformly random and the default strategy: random answers, except
that in a window (where players act out of turn: trades, building, bids) it passes with
some probability. Uniformly random seats end classic games in about 21 turns by trading
everything away; passing in windows leaves the game to the dice and the rules.

A Python policy is called again for the same decisions whenever a state is replayed
(from a copy of the game taken at the turn's start), so its draws cannot come from one
generator that advances: each answer is drawn from the game's seed, the turn and how many
decisions this game object asked it during the turn (a replay is a new copy, so it counts
from the turn's start again), and the same game gets the same answers. (A draw from the
state alone repeats itself in a loop that asks again with nothing changed: an auction.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class WindowPasser:
    """`policy(game, decision, seat, options) -> answer`, for `Game(policies=[...])` or
    `SeatedState`. In a window decision it passes (none, or no for a yes/no question)
    with probability `pass_rate`; otherwise, and when passing is not an answer, it picks
    uniformly among the legal answers."""

    def __init__(self, window_decisions: Iterable[str], pass_rate: float = 0.5,
                 salt: int = 0):
        if not 0.0 <= pass_rate <= 1.0:
            raise ValueError(f"pass_rate is a probability, not {pass_rate}")
        self.window_decisions = frozenset(window_decisions)
        self.pass_rate = pass_rate
        self.salt = salt
        self._game = None  # the game object asking, its turn and its decisions so far
        self._turn = -1
        self._asked = 0

    def __call__(self, game, decision: str, seat: int, options: list[int]) -> int:
        if game is not self._game or game.turn != self._turn:
            self._game, self._turn, self._asked = game, game.turn, 0
        self._asked += 1
        draw = random.Random(f"{self.salt}:{game.seed}:{game.turn}:{self._asked}")
        if decision in self.window_decisions and draw.random() < self.pass_rate:
            passing = -1 if -1 in options else 0 if _yes_no(options) else None
            if passing is not None:
                return passing
        return options[draw.randrange(len(options))]


def _yes_no(options: list[int]) -> bool:
    return sorted(options) == [0, 1]


def window_decisions(edition: str) -> list[str]:
    """The decisions an edition asks inside its windows (describe's data: it runs the
    checking front end, cached after the first time)."""
    from ..compiler.build.obtain import compile_edition
    from ..harness.describe import describe
    from ..runtime.loader import resolve_edition

    data = describe(compile_edition(resolve_edition(edition)))
    return sorted({name for window in data["windows"] for name in window["asks"]})


# the Python policies `simulate --policy` offers, by name
PYTHON_POLICIES = ("window-passer",)


def playable(edition: str, policies: list[str] | None) -> list | None:
    """Policy names as `Game(policies=...)` takes them: the built-in ones as they are,
    a Python policy's name as the policy (picklable, for the simulation's workers)."""
    if policies is None or not set(policies) & set(PYTHON_POLICIES):
        return policies
    passer = WindowPasser(window_decisions(edition))
    return [passer if name == "window-passer" else name for name in policies]
