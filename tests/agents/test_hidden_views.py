"""Face-down cards (`deck ... hidden`): a seat sees its own hidden cards and only how many
the others hold, in the observation vector (PettingZoo, OpenSpiel), the action codec and
OpenSpiel's observation and information states; editions without hidden decks see all."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardrules.agents.encoding import ActionCodec, observation
from boardrules.agents.views import visibility
from boardrules.runtime.loader import load_module
from boardrules.runtime.state import snapshot

DEMO = Path(__file__).parents[1] / "editions" / "features_demo" / "features_demo.rules"


@pytest.fixture(scope="module")
def demo():
    return load_module(str(DEMO), "interpreted")


def holding(module, card: str, seat: int, players: int = 2):
    """A new game in which `seat` holds `card`."""
    game = module.Game(players, seed=3)
    game.invoke("k_give_card", (module.CARD_IDS.index(card), seat))
    return game


def test_the_module_lists_its_hidden_decks(demo):
    assert demo.HIDDEN_DECKS == (0,)  # bugs is hidden, fishes is not
    assert demo.DECK_CARDS == ((0, 4), (4, 2))
    assert visibility(demo).hidden


def test_a_seat_cannot_tell_which_hidden_card_another_holds(demo):
    common, rare = holding(demo, "bug_1", 1), holding(demo, "bug_5", 1)
    assert (observation(demo, common, None, 0) == observation(demo, rare, None, 0)).all()
    assert (observation(demo, common, None, 1) != observation(demo, rare, None, 1)).any()
    nobody = demo.Game(2, seed=3)  # but it sees that the other holds one of them
    assert (observation(demo, common, None, 0) != observation(demo, nobody, None, 0)).any()


def test_cards_of_other_decks_stay_seen_by_everybody(demo):
    one, other = holding(demo, "fish_2", 1), holding(demo, "fish_2_2", 1)
    assert (observation(demo, one, None, 0) != observation(demo, other, None, 0)).any()


def test_another_seats_hidden_cards_are_slots_of_their_deck(demo):
    view = visibility(demo)
    for card in ("bug_1", "bug_5"):
        game = holding(demo, card, 1)
        index = demo.CARD_IDS.index(card)
        assert view.slots([index], game.holders(), 0) == {index: 0}  # the deck's first slot
        assert view.slots([index], game.holders(), 1) == {}  # its holder sees it
        assert view.card_words(index, game.holders(), 0) == "a card of bugs"
        assert view.card_words(index, game.holders(), 1) == card


@pytest.fixture(scope="module")
def crossing():
    return load_module("animal_crossing", "interpreted")


def test_a_decision_on_another_seats_chips_does_not_name_them(crossing):
    codec = ActionCodec(crossing, 2)
    seen = []
    for card in ("brown_bug_a", "brown_bug_c"):
        game = holding(crossing, card, 1)
        options = [crossing.CARD_IDS.index(card)]
        seen.append(sorted(codec.answers("trade_card", options, (game.holders(), 0))))
        assert codec.words("trade_card", options[0], (game.holders(), 1)) == f"trade_card: {card}"
    assert seen[0] == seen[1]
    assert ActionCodec(load_module("disney_theme_park", "interpreted"), 2).view.hidden is False


pyspiel = pytest.importorskip("pyspiel")


def test_editions_report_their_kind_of_information():
    import boardrules.openspiel  # noqa: F401

    information = pyspiel.GameType.Information
    kinds = {edition: pyspiel.load_game(f"boardrules_{edition}").get_type().information
             for edition in ("animal_crossing", "disney_theme_park")}
    assert kinds == {"animal_crossing": information.IMPERFECT_INFORMATION,
                     "disney_theme_park": information.PERFECT_INFORMATION}


def hidden_draw(game, seed: int):
    """A state at a chance node that draws a hidden chip, reached by random play."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    module = game.module
    while not state.is_terminal():
        decision = state._state.decision
        if state.is_chance_node() and decision.startswith("draw ") and \
                module.DECK_NAMES.index(decision[5:]) in module.HIDDEN_DECKS and \
                len(state.chance_outcomes()) > 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no hidden chip was drawn")


def views(state, seat: int) -> tuple:
    return (state.observation_string(seat), state.information_state_string(seat),
            list(state.observation_tensor(seat)), list(state.information_state_tensor(seat)))


def test_a_drawn_chip_is_seen_by_its_holder_alone():
    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_animal_crossing", {"players": 2})
    state = hidden_draw(game, seed=5)
    outcomes = [a for a, _ in state.chance_outcomes()]
    first, last = outcomes[0], outcomes[-1]
    names = {state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in (first, last)}
    assert len(names) == 2  # the chance player names the chip
    for seat in (0, 1):
        assert state.action_to_string(seat, first) == state.action_to_string(seat, last)
    one, other = state.clone(), state.clone()
    one.apply_action(first)
    other.apply_action(last)
    holders = one._state.game.holders()
    drawer = next(a for a, b in zip(holders, other._state.game.holders(), strict=True)
                  if a != b and a >= 0)
    looker = 1 - drawer
    assert views(one, looker) == views(other, looker)
    assert all(a != b for a, b in zip(views(one, drawer), views(other, drawer), strict=True))


def test_describe_says_which_decks_are_hidden():
    from boardrules.compiler.build.obtain import compile_edition
    from boardrules.harness.describe import describe, format_text
    from boardrules.runtime.loader import resolve_edition

    data = describe(compile_edition(resolve_edition(str(DEMO))))
    assert {d["name"]: d["hidden"] for d in data["decks"]} == {"bugs": True, "fishes": False}
    assert 'deck bugs(p: player) "Bug chips" hidden' in format_text(data)


def trade_card(seed: int = 0):
    """An Animal Crossing OpenSpiel state asking a seat which chip to add to a bundle, one
    of the other's (face down) among them."""
    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_animal_crossing", {"players": 2})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not _asks_for_a_face_down_chip(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _asks_for_a_face_down_chip(state) -> bool:
    if state.is_chance_node() or state._state.decision != "trade_card":
        return False
    seat = state.current_player()
    return any("face down" in state.action_to_string(seat, a) for a in state.legal_actions())


def test_asking_for_another_seats_chip_names_it_to_its_holder_alone():
    state = trade_card()
    asker = state.current_player()
    words = {state.action_to_string(asker, a): a for a in state.legal_actions()}
    face_down = [w for w in words if "face down" in w]
    assert face_down and all(w.startswith("trade_card: a card of ") for w in face_down)
    state.apply_action(words[face_down[0]])
    seen_by_asker = state.information_state_string(asker).splitlines()[-1]
    seen_by_holder = state.information_state_string(1 - asker).splitlines()[-1]
    assert seen_by_asker.endswith(f" | p{asker + 1} {face_down[0]}")
    assert "a card of" not in seen_by_holder and f" | p{asker + 1} " in seen_by_holder


def test_the_terminal_shows_the_others_face_down_cards_by_deck(demo):
    from boardrules.play.view import seat_lines

    game = holding(demo, "bug_5", 1)
    game.invoke("k_give_card", (demo.CARD_IDS.index("fish_2"), 1))
    snap = snapshot(demo, game)
    assert seat_lines(demo, snap, 0)[1].endswith("; cards fish_2, 1 face-down bugs")
    assert seat_lines(demo, snap, 1)[1].endswith("; cards bug_5, fish_2")
    assert seat_lines(demo, snap)[1] == seat_lines(demo, snap, 1)[1]  # a replay shows all


def test_the_terminal_asks_for_face_down_chips_without_naming_them():
    from boardrules.play.view import answer_labels

    state = trade_card()
    game = state._state
    codec = ActionCodec(game.module, 2)
    labels = [label for _, label in answer_labels(codec, snapshot(game.module, game.game,
                                                                  game._pending))]
    face_down = [label for label in labels if label.startswith("a card of ")]
    assert face_down and len(set(labels)) == len(labels)
    assert not any(label in game.module.CARD_IDS for label in labels)


def test_a_slot_says_nothing_of_its_cards_order(crossing):
    """Slots in card order would give the cheapest chip (the deck's first cards) the first
    slot: over every pair of Brown Bug chips p2 may hold, either card takes it."""
    view = visibility(crossing)
    first = [crossing.CARD_IDS.index(f"brown_bug_{x}") for x in ("a", "a_2", "a_3", "b",
                                                                    "b_2", "c")]
    lower_first = set()
    for i, low in enumerate(first):
        for high in first[i + 1:]:
            holders = [-1] * len(crossing.CARD_IDS)
            holders[low] = holders[high] = 1
            slots = view.slots([low, high], holders, 0)
            assert sorted(slots.values()) == [0, 1]
            lower_first.add(slots[low] == 0)
    assert lower_first == {True, False}


def test_a_long_game_pickles_with_its_information_states():
    import pickle

    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_animal_crossing", {"players": 2})
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(2500):
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert [again.information_state_string(p) for p in (0, 1)] == \
        [state.information_state_string(p) for p in (0, 1)]


def test_a_sale_shows_the_others_its_bells_but_not_its_chip():
    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_animal_crossing", {"players": 2})
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or state._state.decision != "sell_chip" or \
            state.legal_actions() == [0]:
        state.apply_action(rng.choice(state.legal_actions()))
    seller = state.current_player()
    chip = state.action_to_string(seller, state.legal_actions()[-1]).partition(": ")[2]
    state.apply_action(state.legal_actions()[-1])
    line = state.information_state_string(1 - seller).splitlines()[-1]
    before, _, words = line.partition(" | ")
    module = game.module
    deck = module.DECK_NAMES[visibility(module).deck_of[module.CARD_IDS.index(chip)]]
    assert words == f"p{seller + 1} sell_chip: a card of {deck}"  # not which chip
    after = state._state.game.players_cash()[seller]
    assert after > int(before.split()[1 + seller])  # the Bells paid: the chip's value shown
    assert all("face down" not in line for line in
               state.information_state_string(seller).splitlines()
               if "trade_card" not in line)  # only a face-down card chosen says so
