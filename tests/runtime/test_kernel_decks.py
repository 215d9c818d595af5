"""The kernel's decks: dealing, shuffling, draw to the bottom, kept cards, stacking."""

from __future__ import annotations

import pytest

from boardrules.runtime import kernel

DECK = 0  # luck, the only deck
SPACES = ("start", "a", "b", "c", "d", "e", "lockup")
CARDS = ("bonus", "fine", "token", "back", "nothing")


def space(name: str) -> int:
    return SPACES.index(name)


def card(name: str) -> int:
    return CARDS.index(name)


def fisher_yates(seed: int, n: int) -> list[int]:
    """The kernel's shuffle, written independently: j = below(i + 1), i from n-1 down to 1."""
    rng = kernel.Rng(seed)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def test_start_deals_a_shuffled_deck(tiny):
    for seed in (0, 1, 7, 1234):
        g = tiny.Game(2, seed=seed)
        assert g.deck_order(DECK) == []  # nothing dealt before the game starts
        g.start()
        assert g.deck_order(DECK) == fisher_yates(seed, len(CARDS))
        assert g.holders() == [-1] * len(CARDS)


def test_same_seed_same_deck_and_seeds_differ(tiny):
    orders = set()
    for seed in range(12):
        a, b = tiny.Game(2, seed=seed), tiny.Game(2, seed=seed)
        a.start()
        b.start()
        assert a.deck_order(DECK) == b.deck_order(DECK)
        orders.add(tuple(a.deck_order(DECK)))
    assert len(orders) > 6


def test_start_deals_only_once(game):
    order = game.deck_order(DECK)
    game.start()
    assert game.deck_order(DECK) == order


def test_drawn_card_goes_to_the_bottom(game):
    game.stack_cards(DECK, [card("nothing"), card("bonus")])
    before = game.deck_order(DECK)
    game.draw_luck(1)
    assert game.deck_order(DECK) == before[1:] + before[:1]
    assert game.trace()[-1] == "  draw luck: nothing"
    game.draw_luck(1)
    assert game.deck_order(DECK) == before[2:] + before[:2]
    assert game.players_cash() == [100, 107]  # bonus paid to the drawer
    assert game.holders() == [-1] * len(CARDS)


def test_card_effects(game):
    game.stack_cards(DECK, [card("fine"), card("back")])
    game.draw_luck(0)
    assert game.players_cash() == [97, 100]
    game.k_place(0, space("b"))
    game.draw_luck(0)  # back 2: from b to start, landing there
    assert game.position[0] == space("start")
    assert game.counter_values()[2][space("start")] == 1  # landed on start
    assert game.players_cash() == [97, 100]  # going back over nothing pays nothing


def test_kept_card_leaves_the_deck_until_returned(game):
    game.stack_cards(DECK, [card("token")])
    rest = game.deck_order(DECK)[1:]
    game.draw_luck(1)
    assert game.holders()[card("token")] == 1
    assert game.k_holds(1, card("token")) and not game.k_holds(0, card("token"))
    assert game.deck_order(DECK) == rest
    assert card("token") not in game.deck_order(DECK)
    game.k_return_card(card("token"))
    assert game.holders()[card("token")] == -1
    assert game.deck_order(DECK) == rest + [card("token")]


def test_returning_a_card_that_is_in_its_deck_is_an_error(tiny, game):
    with pytest.raises(tiny.RuleError, match="already in its deck"):
        game.k_return_card(card("bonus"))


def test_give_card_moves_a_held_card(game):
    game.stack_cards(DECK, [card("token")])
    game.draw_luck(0)
    game.k_give_card(card("token"), 1)
    assert game.holders()[card("token")] == 1


def test_giving_a_card_from_inside_its_deck_keeps_the_others_in_their_order(game):
    """After draws (the deck's top has moved round its slots), a card given out of the
    deck leaves the rest in the order they would have been drawn."""
    game.draw_luck(0)
    game.draw_luck(1)
    before = game.deck_order(DECK)
    taken = before[len(before) // 2]
    game.k_give_card(taken, 1)
    assert game.deck_order(DECK) == [c for c in before if c != taken]
    assert game.holders()[taken] == 1


def test_stack_cards_puts_cards_on_top_in_order(game):
    before = game.deck_order(DECK)
    top = [card("back"), card("token"), card("fine")]
    game.stack_cards(DECK, top)
    assert game.deck_order(DECK) == top + [c for c in before if c not in top]


def test_stack_cards_after_draws_and_a_kept_card(tiny, game):
    game.stack_cards(DECK, [card("token"), card("nothing")])
    game.draw_luck(0)  # token kept
    game.draw_luck(0)  # nothing, to the bottom
    remaining = game.deck_order(DECK)
    assert len(remaining) == 4 and card("token") not in remaining
    game.stack_cards(DECK, [card("nothing")])
    assert game.deck_order(DECK) == [card("nothing")] + [
        c for c in remaining if c != card("nothing")]
    with pytest.raises(tiny.RuleError, match="not in deck"):
        game.stack_cards(DECK, [card("token")])  # held, not in the deck


def test_empty_deck_draws_nothing(game):
    for _ in range(len(CARDS)):
        assert game.k_draw(DECK) >= 0
    assert game.deck_order(DECK) == []
    assert game.k_draw(DECK) == -1
    cash = game.players_cash()
    assert game.draw_luck(0) == 0
    assert game.players_cash() == cash


def test_reshuffle_keeps_the_cards_in_the_deck(game):
    game.stack_cards(DECK, [card("token")])
    game.draw_luck(0)
    before = game.deck_order(DECK)
    game.k_shuffle(DECK)
    after = game.deck_order(DECK)
    assert sorted(after) == sorted(before)
    assert card("token") not in after


def test_wrap_around_of_the_circular_queue(game):
    """Many draws move the head around the queue; the deck stays a rotation."""
    order = game.deck_order(DECK)
    for k in range(1, 13):
        drawn = game.k_draw(DECK)
        assert drawn == order[(k - 1) % 5]
        game.k_bottom(drawn)
        assert game.deck_order(DECK) == order[k % 5:] + order[:k % 5]


def test_whether_a_card_is_in_its_deck_after_draws_returns_and_wrap_arounds(game):
    """in_deck walks the deck's ring from its head: the same as looking in its order."""
    rng = kernel.Rng(5)
    for step in range(60):
        if rng.below(2) and game.deck_order(DECK):
            game.draw_luck(step % 2)
        held = [c for c in range(len(CARDS)) if game.holders()[c] >= 0]
        if held and rng.below(2):
            game.k_return_card(held[rng.below(len(held))])
        for c in range(len(CARDS)):
            assert game.in_deck(c) == (c in game.deck_order(DECK)), (step, c)


def hand(game, p: int) -> list[int]:
    """The cards p holds, walked as generated questions walk them (held_first, held_next)."""
    cards, c = [], game.state_get("held_first", p)
    while c >= 0:
        cards.append(c)
        c = game.state_get("held_next", c)
    return cards


def held_by(game, p: int) -> list[int]:
    return [c for c, holder in enumerate(game.holders()) if holder == p]


def test_each_players_hand_follows_every_change_of_holder(game):
    """The kernel keeps each player's cards in a list, in card order, which questions like
    `count(c in cards where holds(p, c))` walk instead of every card: it follows gives,
    returns, kept draws, a copy and holders set from outside the rules."""
    rng = kernel.Rng(11)
    for step in range(300):
        c = rng.below(len(CARDS))
        action = rng.below(3)
        if action == 0:
            game.k_give_card(c, rng.below(2))
        elif action == 1 and game.holders()[c] >= 0:
            game.k_return_card(c)
        elif action == 2 and game.deck_order(DECK):
            game.draw_luck(step % 2)
        for p in range(2):
            assert hand(game, p) == held_by(game, p), (step, p)
    copy = game.copy()
    assert [hand(copy, p) for p in range(2)] == [held_by(game, p) for p in range(2)]
    game.state_set("card_holder", card("fine"), 1)
    assert [hand(game, p) for p in range(2)] == [held_by(game, p) for p in range(2)]
