"""A baseline between uniformly random and the default strategy: random answers, except
that in a window (where players act out of turn: trades, building, bids) it passes with
some probability. Uniformly random seats end classic games in about 21 turns by trading
everything away; passing in windows leaves the game to the dice and the rules.

A Python policy is called again for the same decision whenever a state is replayed, so
its draws come from the game's own state (seed, turn, moves, cash, the decision and its
options) rather than from a generator that advances: the same game gets the same answer.
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class WindowPasser:
    """`policy(game, decision, seat, options) -> answer`, for `Game(policies=[...])` or
    `SeatedState`. In a window decision it passes (none, or no for a yes/no question)
    with probability `pass_rate`; otherwise, and when passing is not an answer, it picks
    uniformly among the legal answers."""

    def __init__(self, window_decisions: Iterable[str], pass_rate: float = 0.9,
                 salt: int = 0):
        if not 0.0 <= pass_rate <= 1.0:
            raise ValueError(f"pass_rate is a probability, not {pass_rate}")
        self.window_decisions = frozenset(window_decisions)
        self.pass_rate = pass_rate
        self.salt = salt

    def __call__(self, game, decision: str, seat: int, options: list[int]) -> int:
        draw = random.Random(
            f"{self.salt}:{game.seed}:{game.turn}:{game.moves}:{game.players_cash()}:"
            f"{decision}:{seat}:{options[:8]}:{len(options)}")
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
    from ..harness.describe import describe
    from ..runtime.loader import compile_edition, resolve_edition

    data = describe(compile_edition(resolve_edition(edition)))
    return sorted({name for window in data["windows"] for name in window["asks"]})
