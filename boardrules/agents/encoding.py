"""A fixed action space and a numeric observation for every edition, from the module's
tables and the game's reflection API alone (no edition's names).

Learning libraries want one `Discrete(N)` per seat, while an edition's decisions answer
with entities, yes/no or amounts. Action 0 is always "none"; an entity, enum member or
yes/no answer v is action v + 1 (so action 1 is "no" and 2 is "yes"); an amount (or an
answer of a type without a known domain) is action i + 1 for the i-th of at most
`AMOUNT_SLOTS` of its legal values in increasing order, spread evenly over them when
there are more (the lowest and the highest are always among them).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ..runtime.values import named
from .views import visibility

AMOUNT_SLOTS = 64
NONE_ACTION = 0

_TABLES = {"space": "SPACE_IDS", "card": "CARD_IDS", "group": "GROUP_NAMES",
           "deck": "DECK_NAMES"}


def domain_size(module: ModuleType, type_name: str, n_players: int) -> int | None:
    """How many values an answer of this type has (None: amounts and unknown domains)."""
    base = type_name.rstrip("?")
    if base == "bool":
        return 2
    if base == "player":
        return n_players
    if base in _TABLES:
        return len(getattr(module, _TABLES[base]))
    if base in module.ENUMS:
        return len(module.ENUMS[base])
    return None


class ActionCodec:
    """Between the actions of a fixed `Discrete(size)` space and a decision's answers."""

    def __init__(self, module: ModuleType, n_players: int):
        self.module = module
        self.n_players = n_players
        self.domains = {name: domain_size(module, type_name, n_players)
                        for name, type_name in zip(module.DECISION_NAMES, module.DECISION_TYPES,
                                                   strict=True)}
        self.size = 1 + max([AMOUNT_SLOTS, *(d for d in self.domains.values() if d)])
        self.types = {name: type_name.rstrip("?") for name, type_name
                      in zip(module.DECISION_NAMES, module.DECISION_TYPES, strict=True)}
        self.view = visibility(module)

    def answers(self, decision: str, options: list[int],
                seen: tuple[list[int], int] | None = None) -> dict[int, int]:
        """The legal answers by action: {action: answer}. With `seen` (who holds each
        card, the seat answering) in an edition with hidden decks, a face-down card the
        seat does not hold is a slot of its deck's actions (views.Visibility.slots), so
        the legal actions do not tell which cards they are."""
        found = {NONE_ACTION: -1} if -1 in options else {}
        values = [v for v in options if v != -1]
        if self.domains.get(decision) is not None:
            slots = self._slots(decision, values, seen)
            found.update({slots.get(v, v) + 1: v for v in values})
            return found
        values.sort()
        if len(values) > AMOUNT_SLOTS:
            last = len(values) - 1
            values = [values[round(i * last / (AMOUNT_SLOTS - 1))] for i in range(AMOUNT_SLOTS)]
        found.update({i + 1: v for i, v in enumerate(values)})
        return found

    def _slots(self, decision: str, values: list[int],
               seen: tuple[list[int], int] | None) -> dict[int, int]:
        if seen is None or not self.view.hidden or self.types[decision] != "card":
            return {}
        return self.view.slots(values, *seen)

    def mask(self, decision: str, options: list[int],
             seen: tuple[list[int], int] | None = None) -> list[int]:
        """1 for each legal action, 0 for the others (size entries)."""
        legal = self.answers(decision, options, seen)
        return [1 if a in legal else 0 for a in range(self.size)]

    def words(self, decision: str, answer: int,
              seen: tuple[list[int], int] | None = None) -> str:
        """An answer in the edition's words: "buy: yes", "build_on: <space name>"; with
        `seen`, a face-down card the seat does not hold by its deck alone."""
        type_name = self.types[decision]
        if type_name == "card" and seen is not None and answer >= 0 and self.view.hidden:
            return f"{decision}: {self.view.card_words(answer, *seen)}"
        if answer == -1:
            text = "none"
        elif type_name == "bool":
            text = "yes" if answer else "no"
        elif type_name == "space":
            text = self.module.SPACE_NAMES[answer]
        elif type_name == "player":
            text = f"p{answer + 1}"
        else:
            text = str(named(self.module, type_name, answer))
        return f"{decision}: {text}"


def observation(module: ModuleType, game, pending, seat: int) -> np.ndarray:
    """The state as numbers, the same length for every state of a game of n seats: the
    turn and players still in; who observes, who must act and which decision (one-hot;
    none at a chance node);
    per seat its cash, space and whether it is in; every counter's raw values; who holds
    each card (-1: nobody). Deck order (hidden from players) is left out. In an edition
    with `hidden` decks (agents/views.py) a face-down card the seat does not hold is held
    by nobody it knows and its per-card counters read 0, and a last part counts each
    hidden deck's cards held by each seat."""
    n = game.n_players
    acting = pending[1] if pending is not None else -1
    names = module.DECISION_NAMES
    asked = names.index(pending[0]) if pending is not None and pending[0] in names else -1
    found = [float(game.turn), float(game.n_alive)]
    found += [1.0 if p == seat else 0.0 for p in range(n)]
    found += [1.0 if p == acting else 0.0 for p in range(n)]
    found += [1.0 if d == asked else 0.0 for d in range(len(module.DECISION_NAMES))]
    cash = game.players_cash()
    for p in range(n):
        found += [float(cash[p]), float(game.position_of(p)), float(game.alive_of(p))]
    parts = [np.asarray(found, np.float64)]
    view = visibility(module)
    holders = game.holders()
    counters = view.counters_seen(game.counter_values(), holders, seat)
    parts += [np.asarray(values, np.float64).ravel() for values in counters]
    if view.hidden:
        parts.append(np.asarray(view.holders_seen(holders, seat), np.float64))
        parts.append(np.asarray(view.counts(holders, n), np.float64))
    else:
        parts.append(np.asarray(holders, np.float64))
    return np.concatenate(parts)


def final_rewards(winners: list[int], n_players: int) -> list[float]:
    """Zero-sum rewards from the edition's winners: the winners share 1 (1/k each of k
    sharing the win), the others share -1 (-1/(n-k) each); 0 for all when nobody wins or
    everybody shares the win. One winner: 1, and -1/(n-1) for each other seat."""
    shared = len(winners)
    if not 0 < shared < n_players:
        return [0.0] * n_players
    return [1.0 / shared if p in winners else -1.0 / (n_players - shared)
            for p in range(n_players)]
