"""A game played from the terminal, without the terminal: one seat answers from outside,
the others play the default policy; undo, and save and load as JSON (the seed, the
options and the answers given), and the turns of a simulated game for `replay`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.encoding import ActionCodec
from ..agents.seats import EXTERNAL, SeatedState
from ..runtime.loader import load_module
from ..runtime.state import snapshot
from .view import Described, decisions_described

SAVE_FORMAT = 1


@dataclass
class Session:
    edition: str
    players: int
    seat: int
    seed: int = 0
    options: dict[str, int] = field(default_factory=dict)
    answers: list[tuple[str, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.module = load_module(self.edition)
        if not 0 <= self.seat < self.players:
            raise ValueError(f"seat p{self.seat + 1} is not one of the {self.players} seats")
        policies = ["default"] * self.players
        policies[self.seat] = EXTERNAL
        self.state = SeatedState(self.module, policies, self.seed, options=self.options,
                                 answers=[tuple(a) for a in self.answers])
        self.codec = ActionCodec(self.module, self.players)
        self._described: Described | None = None

    @property
    def described(self) -> Described:
        if self._described is None:
            self._described = decisions_described(self.edition)
        return self._described

    def snapshot(self) -> dict[str, Any]:
        return self.state.snapshot()

    def answer(self, value: int) -> None:
        self.state.apply(value)

    def undo(self) -> None:
        self.state.undo()

    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "edition": self.edition, "players": self.players,
                "seat": self.seat, "seed": self.seed, "options": self.options,
                "answers": [list(a) for a in self.state.answers]}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """A saved game, replayed (a file that is not one: ValueError, said in one line)."""
        try:
            data = json.loads(Path(path).read_text())
            if data.get("format") != SAVE_FORMAT:
                raise KeyError(f"format {data.get('format')!r}, not {SAVE_FORMAT}")
            return cls(data["edition"], int(data["players"]), int(data["seat"]),
                       int(data["seed"]), dict(data["options"]),
                       [(str(d), int(s), int(a)) for d, s, a in data["answers"]])
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a saved game ({exc})") from None


def simulated_turns(edition: str, players: int, seed: int,
                    options: dict[str, int] | None = None,
                    policy: str = "default") -> list[dict[str, Any]]:
    """A simulated game's snapshot before its first turn and after each turn."""
    module = load_module(edition)
    game = module.Game(players, seed=seed, policies=[policy] * players, options=options or {})
    game.start()
    found = [snapshot(module, game)]
    while not game.over:
        game.play(1)
        found.append(snapshot(module, game))
    return found
