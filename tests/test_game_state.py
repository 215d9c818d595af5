"""The OpenSpiel-like API: decisions surface as legal actions; apply, clone, snapshot."""

from __future__ import annotations

import json

import pytest

from boardrules.runtime.state import GameState, IllegalAction


def test_a_new_game_waits_for_a_decision(disney_compiled):
    state = GameState(disney_compiled, 3, seed=11)
    assert not state.is_over
    assert 0 <= state.current_player < 3
    assert state.decision in disney_compiled.DECISION_NAMES
    assert state.legal_actions()


def test_apply_advances_and_rejects_illegal_actions(disney_compiled):
    state = GameState(disney_compiled, 2, seed=3)
    before = list(state.actions)
    with pytest.raises(IllegalAction):
        state.apply(10**9)
    action = state.legal_actions()[0]
    state.apply(action)
    assert state.actions == [*before, action]


def test_clone_is_independent_and_exact(disney_compiled):
    state = GameState(disney_compiled, 2, seed=5)
    for _ in range(5):
        state.apply(state.legal_actions()[-1])
    twin = state.clone()
    assert twin.snapshot() == state.snapshot()
    twin.apply(twin.legal_actions()[0])
    assert twin.actions != state.actions
    assert len(state.actions) == 5


def test_snapshot_is_json_in_the_editions_terms(disney_compiled):
    state = GameState(disney_compiled, 2, seed=5)
    snap = json.loads(json.dumps(state.snapshot()))
    assert snap["edition"] == "Monopoly: Disney Theme Park"
    assert {p["position"] for p in snap["players"]} <= set(disney_compiled.SPACE_IDS)
    assert snap["players"][0]["cash"] == 1500
    assert "owner" in snap["spaces"][1]
    assert snap["pending"]["decision"] == state.decision


def test_a_whole_game_played_through_the_api_ends(disney_compiled):
    state = GameState(disney_compiled, 2, seed=9, turn_cap=60)
    steps = 0
    while not state.is_over and steps < 2000:
        legal = state.legal_actions()
        state.apply(legal[steps % len(legal)])
        steps += 1
    assert state.is_over
    assert len(state.scores()) == 2
    assert state.winner() in (0, 1)


def test_resuming_from_a_turn_checkpoint_equals_a_full_replay(disney_compiled):
    """apply() resumes from the start of the turn; the result is that of a replay."""
    state = GameState(disney_compiled, 3, seed=21, turn_cap=120)
    for step in range(200):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[(step * 7) % len(legal)])
        if step % 40 == 39:
            fresh = GameState(disney_compiled, 3, seed=21, actions=state.actions, turn_cap=120)
            assert fresh.snapshot() == state.snapshot()
            assert fresh.legal_actions() == state.legal_actions()
