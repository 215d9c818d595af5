"""A game state fast enough for search: C copies, serialization, chance nodes, rollouts."""

from __future__ import annotations

import json
import random

import pytest

from boardrules.runtime.state import CHANCE_SEAT, GameState, IllegalAction, play_random

OBJECT_FIELDS = {"chance", "policy_rng", "script", "script_dice", "script_for", "random_script",
                 "forced", "external", "trace_lines", "ledger", "pending"}


def played(module, actions: int, seed: int = 3, chance: bool = True,
           players: int = 4) -> GameState:
    """A state after `actions` uniformly random actions (chance outcomes included)."""
    return play_random(GameState(module, players, seed=seed, chance=chance), actions, seed)


def test_a_copy_keeps_every_field_of_the_game(disney):
    """STATE_FIELDS (read from the generated module) and the kernel's objects are all a
    game holds: a field declared and left out of the copy would fail here."""
    state = played(disney, 300, chance=False)
    game = state._checkpoint[0]
    copy = game.copy()
    assert copy.c_fields() == game.c_fields()
    assert copy.objects_state() == game.objects_state()
    if disney.__file__.endswith(".py"):  # interpreted: the instance's dict lists them all
        assert set(vars(game)) - OBJECT_FIELDS <= set(disney.STATE_FIELDS)
        assert {"cash", "queue", "unrevealed", "memo_stamp", "chance_mode"} <= set(
            disney.STATE_FIELDS)


def test_a_copy_plays_on_as_its_original(disney):
    game = disney.Game(4, seed=12, policies=["random"] * 4)
    game.play(6)
    twin = game.copy()
    game.play()
    twin.play()
    assert (twin.turn, twin.players_cash(), twin.winner()) == (
        game.turn, game.players_cash(), game.winner())


def test_serialization_round_trips_the_same_on_both_backends(disney_interpreted,
                                                             disney_compiled):
    states = [played(m, 250) for m in (disney_interpreted, disney_compiled)]
    data = [s.serialize() for s in states]
    assert data[0] == data[1]
    assert json.loads(data[0])["turn_start"]["objects"]["chance"]  # the generator's words
    for module in (disney_interpreted, disney_compiled):  # either backend reads either's
        loaded = GameState.deserialize(module, data[0])
        assert loaded.snapshot() == states[1].snapshot()
        assert loaded.legal_actions() == states[1].legal_actions()
        assert loaded.serialize() == data[0]
        action = loaded.legal_actions()[-1]
        loaded.apply(action)
        twin = states[1].clone()
        twin.apply(action)
        assert loaded.snapshot() == twin.snapshot()


def test_a_serialized_seeded_state_keeps_its_dice(disney_compiled):
    state = played(disney_compiled, 120, chance=False)
    loaded = GameState.deserialize(disney_compiled, state.serialize())
    pick = random.Random(5)
    for _ in range(150):
        if state.is_over:
            break
        action = pick.choice(state.legal_actions())
        state.apply(action)
        loaded.apply(action)
    assert loaded.snapshot() == state.snapshot()


def test_deserializing_another_editions_state_is_refused(disney_compiled):
    data = json.loads(played(disney_compiled, 10).serialize())
    data["edition"] = "Another"
    with pytest.raises(ValueError, match="not a serialized"):
        GameState.deserialize(disney_compiled, json.dumps(data))


def test_in_chance_mode_dice_and_cards_are_chance_nodes(disney_compiled):
    state = GameState(disney_compiled, 4, seed=1, chance=True)
    assert state.is_chance_node and state.current_player == CHANCE_SEAT
    assert state.decision.startswith("roll ")
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == state.legal_actions()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    game = state.game
    assert all(game.chance_cards(d) == len(game.deck_order(d))
               for d in range(len(disney_compiled.DECK_NAMES)))  # no deck in any order yet
    with pytest.raises(IllegalAction):
        state.apply(len(outcomes))


def test_in_chance_mode_the_seed_decides_nothing(disney_compiled):
    states = [GameState(disney_compiled, 4, seed=seed, chance=True) for seed in (1, 99)]
    pick = random.Random(8)
    for _ in range(400):
        if states[0].is_over:
            break
        action = pick.choice(states[0].legal_actions())
        for state in states:
            state.apply(action)
    assert states[0].snapshot() == states[1].snapshot()
    assert states[0].legal_actions() == states[1].legal_actions()


def test_a_clone_in_chance_mode_diverges_as_soon_as_the_dice_differ(disney_compiled):
    """A search cannot read future dice: they are not drawn until a chance node is
    answered, and the seed's generator is never drawn from."""
    state = played(disney_compiled, 200)
    pick = random.Random(2)
    while not state.is_chance_node or not state.decision.startswith("roll "):
        state.apply(pick.choice(state.legal_actions()))
    words = json.loads(state.serialize())["turn_start"]["objects"]["chance"]
    low, high = state.clone(), state.clone()
    while low.is_chance_node and low.decision.startswith("roll "):  # the throw's dice
        low.apply(low.legal_actions()[0])
        high.apply(high.legal_actions()[-1])
    assert low.snapshot()["players"] != high.snapshot()["players"]
    for _ in range(300):  # the generator's words stay those the game began with
        if high.is_over:
            break
        high.apply(pick.choice(high.legal_actions()))
    assert json.loads(high.serialize())["turn_start"]["objects"]["chance"] == words


def test_chance_mode_plays_the_same_on_both_backends(disney_interpreted, disney_compiled):
    states = [played(m, 400, seed=6) for m in (disney_interpreted, disney_compiled)]
    assert states[0].snapshot() == states[1].snapshot()
    assert states[0].actions == states[1].actions


def test_a_chance_mode_replay_equals_the_stepwise_state(disney_compiled):
    state = played(disney_compiled, 300, seed=4)
    again = GameState(disney_compiled, 4, seed=4, actions=state.actions, chance=True)
    assert again.snapshot() == state.snapshot()
    assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("chance", [True, False])
def test_a_rollout_plays_to_the_end_and_leaves_the_state_alone(disney_compiled, chance):
    state = played(disney_compiled, 300, chance=chance)
    before = state.serialize()
    ends = [state.rollout(seed) for seed in (1, 2, 1)]
    assert all(game.over for game in ends)
    assert ends[0].players_cash() == ends[2].players_cash()
    assert state.serialize() == before
    if chance:  # the dice to come are the rollout's
        assert (ends[0].turn, ends[0].players_cash()) != (ends[1].turn, ends[1].players_cash())


def test_rollouts_are_the_same_on_both_backends(disney_interpreted, disney_compiled):
    ends = [played(m, 200, seed=9).rollout(7) for m in (disney_interpreted, disney_compiled)]
    assert (ends[0].turn, ends[0].players_cash(), ends[0].winner()) == (
        ends[1].turn, ends[1].players_cash(), ends[1].winner())


def test_a_symbol_dies_faces_alike_are_one_outcome():
    """Mario's sound die shows the coin ping on two faces (so does Bowser's laugh): one
    outcome, a third of the throws."""
    from boardrules.runtime.loader import load_module

    state = GameState(load_module("super_mario_celebration"), 2, chance=True)
    pick = random.Random(1)
    while not (state.is_chance_node and state.decision == "roll sound"):
        state.apply(pick.choice(state.legal_actions()))
    outcomes = dict(state.chance_outcomes())
    words = [state.game.chance_words(outcome) for outcome in outcomes]
    assert len(set(words)) == len(words) and "coin_ping" in words
    assert outcomes[state.legal_actions()[words.index("coin_ping")]] == pytest.approx(2 / 6)
    assert sum(outcomes.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("edition", ["animal_crossing", "builder", "disney_theme_park",
                                     "super_mario_celebration"])
def test_every_edition_serializes_and_clones_alike_on_both_backends(edition):
    from boardrules.runtime.loader import load_module

    modules = [load_module(edition, backend) for backend in ("interpreted", "compiled")]
    states = [play_random(GameState(m, 2, chance=True), 150, 3) for m in modules]
    data = [state.serialize() for state in states]
    assert data[0] == data[1]
    for module, state in zip(modules, reversed(states), strict=True):
        loaded = GameState.deserialize(module, data[0])
        assert loaded.snapshot() == state.snapshot()
        assert state.clone().serialize() == data[0]


def test_a_game_with_a_python_policy_is_not_serialized(disney_compiled):
    game = disney_compiled.Game(2, seed=1, policies=[lambda game, name, who, options: options[0],
                                                     "random"])
    with pytest.raises(ValueError, match="Python policy cannot be serialized"):
        game.objects_state()
