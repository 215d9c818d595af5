"""What one seat may see of a game whose rules declare `hidden` decks.

A card of a hidden deck is face down: nobody sees which card it is while it lies in its
deck or on the table, and only its holder sees it while held. Everybody sees which deck a
held card came from (its face) and how many of them each seat holds. Agents' observations
(agents/encoding.py), the OpenSpiel information states and the action codec read this, so
that two states that differ only in what a seat cannot see look the same to it. Editions
without hidden decks see everything, as before.
"""

from __future__ import annotations

import random
import zlib
from types import ModuleType

_VIEWS: dict[int, Visibility] = {}


def visibility(module: ModuleType) -> Visibility:
    """The module's Visibility, worked out once."""
    found = _VIEWS.get(id(module))
    if found is None or found.module is not module:
        found = _VIEWS[id(module)] = Visibility(module)
    return found


def _zero(value):
    """0 in the shape of a counter's value (a list counter's list)."""
    return [0] * len(value) if isinstance(value, list) else 0


class Visibility:
    """Which cards are face down in an edition (`HIDDEN_DECKS`) and what a seat sees."""

    def __init__(self, module: ModuleType):
        self.module = module
        self.decks: tuple[int, ...] = tuple(getattr(module, "HIDDEN_DECKS", ()))
        ranges = getattr(module, "DECK_CARDS", ())
        # the hidden deck of each card (-1: a card anybody may see)
        self.deck_of = [-1] * len(module.CARD_IDS)
        for d in self.decks:
            first, size = ranges[d]
            for c in range(first, first + size):
                self.deck_of[c] = d
        self.first = {d: ranges[d][0] for d in self.decks}
        self.size = {d: ranges[d][1] for d in self.decks}
        self.card_counters = [i for i, (_, owner, _) in enumerate(module.COUNTERS)
                              if owner == "card"]

    @property
    def hidden(self) -> bool:
        """Whether some seat may not see everything (imperfect information)."""
        return bool(self.decks)

    def unseen(self, holders: list[int], seat: int) -> set[int]:
        """The cards `seat` cannot tell apart: hidden cards it does not hold."""
        return {c for c, d in enumerate(self.deck_of) if d >= 0 and holders[c] != seat}

    def holders_seen(self, holders: list[int], seat: int) -> list[int]:
        """Who holds each card as `seat` sees it: an unseen card is held by nobody it knows."""
        unseen = self.unseen(holders, seat)
        return [-1 if c in unseen else h for c, h in enumerate(holders)]

    def counts(self, holders: list[int], n_players: int) -> list[int]:
        """How many cards of each hidden deck each seat holds (deck by deck), which
        everybody sees."""
        found = [0] * (len(self.decks) * n_players)
        index = {d: i for i, d in enumerate(self.decks)}
        for c, d in enumerate(self.deck_of):
            if d >= 0 and holders[c] >= 0:
                found[index[d] * n_players + holders[c]] += 1
        return found

    def counters_seen(self, values: list, holders: list[int], seat: int) -> list:
        """Every counter's values, with the per-card ones of unseen cards set to 0."""
        if not self.decks:
            return values
        unseen = self.unseen(holders, seat)
        found = list(values)
        for i in self.card_counters:
            found[i] = [_zero(v) if c in unseen else v for c, v in enumerate(values[i])]
        return found

    def slots(self, options: list[int], holders: list[int], seat: int) -> dict[int, int]:
        """Unseen cards among a decision's options, each given a slot of its deck's card
        numbers that no seen option takes ({card: slot}): the seat picks "one of the
        face-down cards" and cannot tell which, whatever the cards are. The cards take the
        slots in an order shuffled by the cards themselves, which the seat cannot see, so
        that a slot says nothing of its card's value (in card order, the first slot would
        be the cheapest chip)."""
        unseen = self.unseen(holders, seat)
        chosen: dict[int, int] = {}
        for d in self.decks:
            hidden = sorted(c for c in options if c in unseen and self.deck_of[c] == d)
            if not hidden:
                continue
            key = zlib.crc32(repr([(c, holders[c]) for c in hidden]).encode())
            random.Random(key).shuffle(hidden)
            taken = {c for c in options if self.deck_of[c] == d and c not in unseen}
            free = [s for s in range(self.first[d], self.first[d] + self.size[d])
                    if s not in taken]
            chosen.update(zip(hidden, free, strict=False))
        return chosen

    def card_words(self, card: int, holders: list[int], seat: int) -> str:
        """A card as `seat` names it: its id, or its deck's title when it cannot see it."""
        module = self.module
        if card < 0 or self.deck_of[card] < 0 or holders[card] == seat:
            return "none" if card < 0 else module.CARD_IDS[card]
        return f"a card of {module.DECK_NAMES[self.deck_of[card]]}"

    def describe(self, holders: list[int], n_players: int, seat: int) -> str:
        """What `seat` sees of the hidden decks: its own cards, the others' counts."""
        module = self.module
        own = [module.CARD_IDS[c] for c, d in enumerate(self.deck_of)
               if d >= 0 and holders[c] == seat]
        counts = self.counts(holders, n_players)
        others = [f"p{p + 1} {module.DECK_NAMES[d]} {counts[i * n_players + p]}"
                  for i, d in enumerate(self.decks) for p in range(n_players)
                  if p != seat and counts[i * n_players + p]]
        return f"holds [{' '.join(own)}] others [{', '.join(others)}]"
