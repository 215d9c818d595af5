"""Games where some seats are played from outside and the others by a policy, and a cheap
copy of a GameState.

`GameState` makes every seat external and replays its actions as the kernel's replay
script, which answers the next decision whoever is asked: a seat left to the default
policy would take a scripted answer. `SeatedState` gives the outside seats' answers as
forced answers queued for that decision and seat instead (the kernel's `force_answers`,
which scenarios use), so the other seats keep their policies. Like `GameState`, it
replays from a copy of the game taken at the start of the current turn.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from ..runtime.state import GameState, IllegalAction

Policy = str | Callable[..., int]
EXTERNAL = "external"


class SeatedState(GameState):
    """A game with a policy per seat: "external" seats are asked through `apply`; the
    others play "default", "random" or a Python policy (one that answers the same to the
    same game, or replays would differ: agents.policies.WindowPasser). The rest of the
    GameState API (current_player, legal_actions, scores, snapshot...) is GameState's."""

    def __init__(self, module: ModuleType, policies: list[Policy], seed: int = 0,
                 turn_cap: int | None = None, options: dict[str, int] | None = None,
                 answers: list[tuple[str, int, int]] | None = None):
        self.module = module
        self.n_players = len(policies)
        self.policies = list(policies)
        self.seed = seed
        self.turn_cap = module.TURN_LIMIT if turn_cap is None else turn_cap
        self.options = dict(options or {})
        self.chance = False  # (forced answers are per decision: no chance nodes here)
        self.answers: list[tuple[str, int, int]] = []  # (decision, seat, answer)
        self.actions: list[int] = []  # the answers alone, as GameState keeps them
        game = module.Game(self.n_players, seed=seed, turn_cap=self.turn_cap,
                           policies=self.policies, options=self.options)
        self._checkpoint = (game, 0)
        self._replay()
        for answer in answers or []:
            self.apply(answer[2])

    def _replay(self) -> None:
        saved, used = self._checkpoint
        game = saved.copy()
        for decision, seat, answer in self.answers[used:]:
            game.force_answers(decision, [answer], seat)
        self._pending = None
        try:
            while not game.over:
                game.play(1)
                self._checkpoint = (game.copy(), len(self.answers))
        except self.module.Suspend:
            self._pending = game.pending
        self.game = game

    def apply(self, action: int) -> None:
        """GameState's apply (it checks the action), the answer noted with its decision and
        seat first: the replay queues it for them."""
        pending = self._pending
        if pending is not None and action in pending[2]:
            self.answers.append((pending[0], pending[1], action))
        super().apply(action)

    def undo(self) -> None:
        """Take back the last answer given from outside (replayed from the start)."""
        if not self.answers:
            raise IllegalAction("nothing to undo")
        kept = self.answers[:-1]
        fresh = SeatedState(self.module, self.policies, self.seed, self.turn_cap,
                            self.options, kept)
        self.__dict__.update(fresh.__dict__)

    def clone(self) -> SeatedState:
        """GameState's clone, with its own answers too."""
        other = super().clone()
        other.answers = list(self.answers)
        return other

    @property
    def pending(self) -> tuple[str, int, list[int]] | None:
        return self._pending


def fast_clone(state: GameState) -> GameState:  # a SeatedState too
    """A copy of a GameState without replaying the game: its clone() (which once
    replayed the whole game)."""
    return state.clone()
