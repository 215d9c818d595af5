"""An OpenSpiel-like state machine over a compiled edition, for agents and tests.

The rules run as straight-line code that asks for decisions as it goes, so a
state is defined by (players, seed, the actions taken so far). `apply` records
the action and replays the game up to the next decision nobody inside the
module takes. Replays are deterministic (same seed, same actions), so
`clone()` is exact; they resume from a copy of the game taken at the start of
the current turn, so an action costs one turn's replay, not the whole game's.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .errors import rules_location
from .values import named


class IllegalAction(ValueError):
    pass


class GameState:
    def __init__(self, module: ModuleType, n_players: int, seed: int = 0,
                 actions: list[int] | None = None, turn_cap: int | None = None,
                 options: dict[str, int] | None = None):
        self.module = module
        self.n_players = n_players
        self.seed = seed
        self.turn_cap = module.TURN_LIMIT if turn_cap is None else turn_cap
        self.actions: list[int] = list(actions or [])
        self.options = dict(options or {})
        self._checkpoint = None  # (a copy of the game at a turn's start, actions used by then)
        self._replay()

    def _replay(self) -> None:
        if self._checkpoint is None:
            game = self.module.Game(self.n_players, seed=self.seed, turn_cap=self.turn_cap,
                                    policies=["external"] * self.n_players,
                                    options=self.options)
            used = 0
        else:
            saved, used = self._checkpoint
            game = saved.copy()
        game.set_script(self.actions[used:])
        try:
            while not game.over:
                game.play(1)
                self._checkpoint = (game.copy(), used + game.script_consumed())
            self._pending = None
        except self.module.Suspend:
            self._pending = game.pending
        except Exception as exc:  # the rules failed: say where, as simulate and test do
            where = rules_location(self.module, exc)
            if where and len(exc.args) == 1 and isinstance(exc.args[0], str):
                exc.args = (f"in {where}: {exc.args[0]}",)
            raise
        self.game = game

    # ---- the OpenSpiel-like API ---------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._pending is None

    @property
    def current_player(self) -> int:
        """The seat that must act next, or -1 when the game is over."""
        return -1 if self._pending is None else self._pending[1]

    @property
    def decision(self) -> str:
        """The name of the decision being asked ('' when the game is over)."""
        return "" if self._pending is None else self._pending[0]

    def legal_actions(self) -> list[int]:
        """The legal answers: integers (0/1 for yes-no, amounts, entity indices, -1 for none)."""
        return [] if self._pending is None else list(self._pending[2])

    def apply(self, action: int) -> None:
        if self._pending is None:
            raise IllegalAction("the game is over")
        if action not in self._pending[2]:
            raise IllegalAction(
                f"{action} is not a legal answer to {self._pending[0]}: {self._pending[2]}"
            )
        self.actions.append(action)
        self._replay()

    def scores(self) -> list[int]:
        """Each seat's score as the rules define it (winner ranks highest)."""
        return [self.game.score(p) for p in range(self.n_players)]

    def winner(self) -> int:
        return self.game.winner() if self.is_over else -1

    def clone(self) -> GameState:
        return GameState(self.module, self.n_players, self.seed, self.actions, self.turn_cap,
                         self.options)

    def snapshot(self) -> dict[str, Any]:
        """The visible state as JSON-ready data, in the edition's own names."""
        return snapshot(self.module, self.game, self._pending)


def snapshot(module: ModuleType, game, pending=None) -> dict[str, Any]:
    values = game.counter_values()
    players = [
        {"seat": p, "cash": game.players_cash()[p], "alive": bool(game.alive_of(p)),
         "position": module.SPACE_IDS[game.position_of(p)]}
        for p in range(game.n_players)
    ]
    spaces = [{"id": sid, "name": name} for sid, name in zip(module.SPACE_IDS,
                                                                 module.SPACE_NAMES,
                                                                 strict=True)]
    counters: dict[str, Any] = {}
    for (label, owner, type_name), value in zip(module.COUNTERS, values, strict=True):
        name = label.split(".", 1)[-1]
        if owner == "player":
            for p in players:
                p[name] = named(module, type_name, value[p["seat"]])
        elif owner == "space":
            for i, space in enumerate(spaces):
                space[name] = named(module, type_name, value[i])
        else:
            counters[label] = named(module, type_name, value) if not owner else [
                named(module, type_name, v) for v in value]
    state: dict[str, Any] = {
        "edition": module.EDITION,
        "turn": game.turn,
        "current": game.current,
        "over": bool(game.over),
        "capped": bool(game.capped),
        "players": players,
        "spaces": spaces,
        "counters": counters,
        "decks": {name: [module.CARD_IDS[c] for c in game.deck_order(d)]
                  for d, name in enumerate(module.DECK_NAMES)},
        "held_cards": {module.CARD_IDS[c]: h for c, h in enumerate(game.holders()) if h >= 0},
    }
    if pending is not None:
        state["pending"] = {"decision": pending[0], "player": pending[1],
                            "options": list(pending[2])}
    return state
