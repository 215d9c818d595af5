"""An OpenSpiel-like state machine over a compiled edition, for agents and tests.

The rules run as straight-line code that asks for decisions as it goes, and a decision
nobody inside the module takes unwinds the turn (architecture.md), so a state is a copy
of the game taken at the start of the current turn plus the actions taken since. `apply`
records the action and replays the turn from that copy, in C, up to the next decision:
a C copy of the game and a turn's replay cost some microseconds. The copy and the game
suspended at the decision are never changed once made, so `clone()` shares them and
copies only the list of actions.

In chance mode (`chance=True`) each die throw, each `random(n)` and each card a shuffle
left in no order is a chance node: `is_chance_node`, `chance_outcomes()`, and `apply`
takes the outcome. The seed then decides nothing, and a clone cannot know the dice to
come, for they are not drawn yet. The seeded mode (the default) draws them from the seed
and is the game `simulate` plays.
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

from .errors import rules_location
from .values import named

CHANCE_SEAT = -2  # current_player at a chance node (the kernel's)
SEEDED, CHANCE_NODES, CHANCE_SAMPLED = 0, 1, 2  # the kernel's chance modes
FORMAT = 1  # of serialize()


class IllegalAction(ValueError):
    pass


class GameState:
    def __init__(self, module: ModuleType, n_players: int, seed: int = 0,
                 actions: list[int] | None = None, turn_cap: int | None = None,
                 options: dict[str, int] | None = None, chance: bool = False,
                 policies: list[str] | None = None):
        self.module = module
        self.n_players = n_players
        # each seat's policy: "external" where the caller answers (every seat by default),
        # else a built-in one the module plays itself ("default", "random")
        self.policies = list(policies or ["external"] * n_players)
        self._answered_seats = answered_seats(self.policies)
        self.seed = seed
        self.turn_cap = module.TURN_LIMIT if turn_cap is None else turn_cap
        self.actions: list[int] = list(actions or [])
        self.options = dict(options or {})
        self.chance = bool(chance)
        self._checkpoint = (self._new_game(), 0)  # (the game at a turn's start, actions before)
        self._replay()

    def _new_game(self):
        game = self.module.Game(self.n_players, seed=self.seed, turn_cap=self.turn_cap,
                                policies=self.policies, options=self.options)
        if self.chance:
            game.set_chance_mode(CHANCE_NODES)
        return game

    def _replay(self) -> None:
        """Play on from the turn's copy with the actions taken since, to the next decision
        or chance node (or the end); a turn that ends leaves its copy as the next one's."""
        saved, used = self._checkpoint
        game = saved.copy()
        game.use_script(self.actions[used:], self._answered_seats)
        try:
            while not game.over:
                game.play(1)
                saved = game.copy()
                saved.use_script([])  # (each replay gives it its own)
                self._checkpoint = (saved, used + game.script_consumed())
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
        """The seat that must act next, CHANCE_SEAT at a chance node, or -1 when the game
        is over."""
        return -1 if self._pending is None else self._pending[1]

    @property
    def is_chance_node(self) -> bool:
        return self._pending is not None and self._pending[1] == CHANCE_SEAT

    @property
    def decision(self) -> str:
        """The name of the decision being asked, or of the chance node (`roll DIE`,
        `draw DECK`, `random`); '' when the game is over."""
        return "" if self._pending is None else self._pending[0]

    def legal_actions(self) -> list[int]:
        """The legal answers: integers (0/1 for yes-no, amounts, entity indices, -1 for none);
        at a chance node its outcomes (a die's face by index, the i-th of the cards a
        shuffle left in no order from the deck's top, random(n)'s value)."""
        return [] if self._pending is None else list(self._pending[2])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome with its probability: equally likely, but for a
        die's faces alike, which are one outcome (the first such face's index)."""
        if not self.is_chance_node:
            return []
        return list(zip(self._pending[2], self.game.chance_probabilities(), strict=True))

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
        """Each seat's score as the rules define it (its first part: `score_parts(p)` has
        the tie-breakers too; the ranking compares them all)."""
        return [self.game.score(p) for p in range(self.n_players)]

    def winner(self) -> int:
        """The one winner of a finished game; -1 while it goes on, when nobody wins or when
        several share the win (winners() names them)."""
        return self.game.winner() if self.is_over else -1

    def winners(self) -> list[int]:
        """The seats that won a finished game (several on a shared win); [] until it ends."""
        return self.game.winners() if self.is_over else []

    def ranking(self) -> list[list[int]]:
        """A finished game's places in order, each the seats sharing it; [] until it ends."""
        return self.game.ranking() if self.is_over else []

    def clone(self) -> GameState:
        """An independent copy, in microseconds: it shares the copy of the game taken at the
        turn's start (replays copy it again, never change it) and the game suspended at
        the current decision (only read); the actions are its own."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.actions = list(self.actions)
        return other

    def rollout(self, seed: int):
        """The game played on to its end from here, in C, by the random policy on every seat
        the caller answers (the others keep their own): the module's finished Game
        (winner(), score(p), players_cash()). In chance mode the chance nodes to come are
        drawn from `seed`; a seeded game's dice stay its own."""
        saved, used = self._checkpoint
        game = saved.copy()
        game.use_script(self.actions[used:], self._answered_seats)
        game.set_policies(["random" if p == "external" else p for p in self.policies])
        if self.chance:
            game.set_chance_mode(CHANCE_SAMPLED)
        game.reseed(seed, dice=self.chance)
        game.play()
        return game

    def snapshot(self) -> dict[str, Any]:
        """The visible state as JSON-ready data, in the edition's own names."""
        return snapshot(self.module, self.game, self._pending)

    # ---- serialization --------------------------------------------------------------
    def serialize(self) -> bytes:
        """The state as JSON bytes: the game at the turn's start (every field, its
        generators included) and the actions; the same on both backends."""
        saved, used = self._checkpoint
        data = {"format": FORMAT, "edition": self.module.EDITION, "players": self.n_players,
                "seed": self.seed, "turn_cap": self.turn_cap, "options": self.options,
                "chance": self.chance, "policies": self.policies,
                "actions": self.actions, "used": used,
                "turn_start": {"fields": _numbers(saved.c_fields()),
                               "objects": saved.objects_state()}}
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()

    @classmethod
    def deserialize(cls, module: ModuleType, data: bytes | str) -> GameState:
        """A state serialize() gave, of this module's edition (either backend's)."""
        found = json.loads(data)
        if found.get("format") != FORMAT or found.get("edition") != module.EDITION:
            raise ValueError(f"not a serialized {module.EDITION} state")
        state = object.__new__(cls)
        state.module = module
        state.n_players = int(found["players"])
        state.seed = int(found["seed"])
        state.turn_cap = int(found["turn_cap"])
        state.actions = [int(a) for a in found["actions"]]
        state.options = {str(k): int(v) for k, v in found["options"].items()}
        state.chance = bool(found["chance"])
        state.policies = [str(p) for p in found.get("policies", ["external"] * state.n_players)]
        state._answered_seats = answered_seats(state.policies)
        game = module.Game.__new__(module.Game)
        game.load_c_fields(found["turn_start"]["fields"])
        game.load_objects_state(found["turn_start"]["objects"])
        state._checkpoint = (game, int(found["used"]))
        state._replay()
        return state


def answered_seats(policies: list[str]) -> int:
    """A bit per seat the caller answers: the seats whose answers a replay script holds."""
    return sum(1 << seat for seat, policy in enumerate(policies) if policy == "external")


def play_random(state: GameState, actions: int, seed: int) -> GameState:
    """Apply `actions` uniformly random legal actions (chance outcomes too), fewer if the
    game ends: a mid-game state for benchmarks and tests. The state, changed."""
    pick = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(pick.choice(state.legal_actions()))
    return state


def _numbers(fields: dict[str, Any]) -> dict[str, Any]:
    """C fields as plain integers (a flag is a bool on one backend, an int on the other)."""
    return {name: [int(v) for v in value] if isinstance(value, list) else int(value)
            for name, value in fields.items()}


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
    if game.over:  # the seats that won (several on a shared win), and each one's place
        state["winners"] = game.winners()
        for p, place in zip(players, game.ranks(), strict=True):
            p["rank"] = place
    return state
