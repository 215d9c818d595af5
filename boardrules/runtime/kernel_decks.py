# ruff: noqa: F405
# The decks the rules draw from, in Cython pure-Python mode: drawing, revealing and
# taking cards, who holds which, returning them and handing them out. Pasted between
# kernel_primitives.py (whose chance draw a card left in no order uses) and
# kernel_decisions.py (see kernel.py).
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_play import *  # noqa: F403
from .kernel_primitives import *  # noqa: F403
from .kernel_support import *  # noqa: F403


@cython.cclass
class Decks(Primitives):
    """The decks and the cards players hold, as the rules use them."""

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_draw(self, d: cython.int) -> cython.int:
        """Take the top card of deck d; -1 when the deck is empty."""
        card: cython.int
        if self.deck_count[d] == 0:
            return -1
        if self.unrevealed[d] > 0:
            self.k_reveal(d)
        card = self.queue[self.deck_first[d] + self.deck_head[d]]
        self.deck_head[d] = (self.deck_head[d] + 1) % self.deck_size[d]
        self.deck_count[d] -= 1
        if self.tracing:
            self.trace_lines.append(f"  draw {DECK_NAMES[d]}: {CARD_IDS[card]}")
        return card

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_reveal(self, d: cython.int) -> cython.int:
        """A shuffle left the top of deck d open: which of its unrevealed cards comes up, a
        chance node in chance mode (outcome i: the i-th of them from the top, as the deck
        lists them) and a draw from the generator otherwise; it is swapped to the top."""
        n: cython.int = self.unrevealed[d]
        size: cython.int = self.deck_size[d]
        top: cython.int = self.deck_first[d] + self.deck_head[d]
        i: cython.int
        other: cython.int
        tmp: cython.int
        if self.chance_mode:
            i = self.k_chance(CHANCE_DRAW, d, n)
        else:
            i = cython.cast(cython.int, self.chance.below(n))
        other = self.deck_first[d] + (self.deck_head[d] + i) % size
        tmp = self.queue[top]
        self.queue[top] = self.queue[other]
        self.queue[other] = tmp
        self.unrevealed[d] = n - 1
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_take_top(self, d: cython.int) -> cython.int:
        """Take the top card of deck d onto the table (held by nobody); -1 when empty."""
        card: cython.int = self.k_draw(d)
        if card >= 0:
            self.k_unhold(card)
            self.changes += 1
        return card

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_cards_left(self, d: cython.int) -> cython.int:
        return self.deck_count[d]

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_bottom(self, card: cython.int) -> cython.int:
        d: cython.int = self.card_deck[card]
        slot: cython.int = (self.deck_head[d] + self.deck_count[d]) % self.deck_size[d]
        self.queue[self.deck_first[d] + slot] = card
        self.deck_count[d] += 1
        self.k_unhold(card)
        self.changes += 1
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_unhold(self, card: cython.int) -> cython.int:
        """Nobody holds the card now (a card drawn from its deck or put back from the table
        was held by nobody already)."""
        return self.k_set_holder(card, -1)

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_set_holder(self, card: cython.int, p: cython.int) -> cython.int:
        """p holds the card now (-1: nobody). The holders' versions (what memoized questions
        about who holds a card read: of every card, of the old and the new holder's hands,
        and of their cards of the card's key and of its deck) move only when a holder really
        changes; each player's list of cards, in card order, follows."""
        old: cython.int = self.card_holder[card]
        key: cython.int = self.card_key[card]
        deck: cython.int = self.card_deck[card]
        at: cython.int
        if old == p:
            return 0
        if 0 <= old < CAP_PLAYERS:
            self.held_version[old] += 1
            self.held_key_version[old * CAP_CARD_KEYS + key] += 1
            self.held_deck_version[old * CAP_DECKS + deck] += 1
            at = self.held_first[old]
            if at == card:
                self.held_first[old] = self.held_next[card]
            else:
                while self.held_next[at] != card:
                    at = self.held_next[at]
                self.held_next[at] = self.held_next[card]
        if 0 <= p < CAP_PLAYERS:
            self.held_version[p] += 1
            self.held_key_version[p * CAP_CARD_KEYS + key] += 1
            self.held_deck_version[p * CAP_DECKS + deck] += 1
            at = self.held_first[p]
            if at < 0 or at > card:
                self.held_next[card] = at
                self.held_first[p] = card
            else:
                while self.held_next[at] >= 0 and self.held_next[at] < card:
                    at = self.held_next[at]
                self.held_next[card] = self.held_next[at]
                self.held_next[at] = card
        self.card_holder[card] = p
        self.holder_version += 1
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_holds(self, p: cython.int, card: cython.int) -> cython.bint:
        return self.card_holder[card] == p

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_return_card(self, card: cython.int) -> cython.int:
        """Put a held card (or one on the table) at the bottom of its deck."""
        if self.card_holder[card] < 0 and self.in_deck(card):
            raise RuleError(f"card {CARD_IDS[card]} is already in its deck")
        return self.k_bottom(card)

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_give_card(self, card: cython.int, p: cython.int) -> cython.int:
        """Hand a card to p: from another holder, or out of its deck."""
        d: cython.int = self.card_deck[card]
        if self.card_holder[card] < 0 and self.in_deck(card):
            self.k_take_from_deck(d, card)
        self.k_set_holder(card, p)
        self.changes += 1
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_take_from_deck(self, d: cython.int, card: cython.int) -> cython.int:
        """The deck without the card, the others in their order from its top (which is
        now the deck's first slot), in C."""
        rest: cython.int[512]  # CAP_CARDS
        n: cython.int = 0
        k: cython.int
        left: cython.int = self.deck_count[d]
        slot: cython.int = self.deck_head[d]
        other: cython.int
        if not cython.compiled:
            rest = [0] * CAP_CARDS
        while left > 0:
            other = self.queue[self.deck_first[d] + slot]
            if other != card:
                rest[n] = other
                n += 1
            elif n < self.unrevealed[d]:  # one card fewer in no order yet
                self.unrevealed[d] -= 1
            slot += 1
            if slot == self.deck_size[d]:
                slot = 0
            left -= 1
        for k in range(n):
            self.queue[self.deck_first[d] + k] = rest[k]
        self.deck_head[d] = 0
        self.deck_count[d] = n
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def in_deck(self, card: cython.int) -> cython.bint:
        """Whether the card is in its deck: a walk of the deck in C (the rules return and
        hand out cards often; a Python list of the deck's order cost more than the walk)."""
        d: cython.int = self.card_deck[card]
        size: cython.int = self.deck_size[d]
        slot: cython.int = self.deck_head[d]
        for _ in range(self.deck_count[d]):
            if self.queue[self.deck_first[d] + slot] == card:
                return True
            slot += 1
            if slot == size:
                slot = 0
        return False
