"""The fixed action encoding, mixed seats (SeatedState), the cheap GameState copy and the
window-passing baseline: what the PettingZoo, Gymnasium and OpenSpiel adapters build on."""

from __future__ import annotations

import pytest

from boardrules.agents.encoding import AMOUNT_SLOTS, ActionCodec, final_rewards, observation
from boardrules.agents.policies import WindowPasser
from boardrules.agents.seats import SeatedState, fast_clone
from boardrules.runtime.state import GameState, IllegalAction


def test_entities_are_their_index_plus_one_and_none_is_zero(disney_compiled):
    codec = ActionCodec(disney_compiled, 4)
    assert codec.answers("build_on", [-1, 3, 7]) == {0: -1, 4: 3, 8: 7}
    assert codec.answers("buy", [0, 1]) == {1: 0, 2: 1}
    assert codec.size == 1 + max(AMOUNT_SLOTS, len(disney_compiled.SPACE_IDS),
                                 len(disney_compiled.CARD_IDS))


def test_amounts_are_spread_over_the_slots_from_lowest_to_highest(disney_compiled):
    codec = ActionCodec(disney_compiled, 4)
    answers = codec.answers("bid", [-1, *range(10, 1511)])
    assert answers[0] == -1 and answers[1] == 10 and answers[AMOUNT_SLOTS] == 1510
    assert len(answers) == AMOUNT_SLOTS + 1
    assert list(answers.values())[1:] == sorted(answers.values())[1:]
    assert codec.answers("bid", [5, 6]) == {1: 5, 2: 6}


def test_answers_in_the_editions_words(disney_compiled):
    codec = ActionCodec(disney_compiled, 4)
    assert codec.words("buy", 1) == "buy: yes"
    assert codec.words("build_on", 1) == f"build_on: {disney_compiled.SPACE_NAMES[1]}"
    assert codec.words("propose_trade", -1) == "propose_trade: none"


def test_the_observation_has_one_length_for_a_game(disney_compiled):
    state = GameState(disney_compiled, 3, seed=5)
    first = observation(disney_compiled, state.game, state._pending, 0)
    for _ in range(30):
        state.apply(state.legal_actions()[-1])
    assert len(observation(disney_compiled, state.game, state._pending, 2)) == len(first)


def test_final_rewards_sum_to_zero():
    assert final_rewards([1], 3) == [-0.5, 1.0, -0.5]
    assert final_rewards([], 3) == [0.0, 0.0, 0.0]


def test_winners_sharing_a_win_share_the_reward():
    assert final_rewards([0, 2], 4) == [0.5, -0.5, 0.5, -0.5]
    assert final_rewards([0, 1, 2], 4) == [1 / 3, 1 / 3, 1 / 3, -1.0]
    assert final_rewards([0, 1], 2) == [0.0, 0.0]  # everybody shares it: nobody gains


def test_external_seats_replay_the_same_game_as_the_replay_script(disney_compiled):
    """Forced answers per seat and the replay script give the same game."""
    state = GameState(disney_compiled, 3, seed=9)
    seated = SeatedState(disney_compiled, ["external"] * 3, seed=9)
    for step in range(60):
        assert seated.pending == state._pending
        action = state.legal_actions()[step % len(state.legal_actions())]
        state.apply(action)
        seated.apply(action)
    assert seated.snapshot() == state.snapshot()


def first_answer(game, decision, seat, options):
    return options[0]


def test_seats_left_to_the_default_policy_keep_it(disney_compiled):
    """One external seat answering as a Python policy would, the others on the default
    policy: the same game as played by those policies (the external seat's answers never
    go to another seat's decisions)."""
    played = disney_compiled.Game(3, seed=4, turn_cap=15,
                                  policies=[first_answer, "default", "default"])
    played.play()
    seated = SeatedState(disney_compiled, ["external", "default", "default"], seed=4,
                         turn_cap=15)
    while not seated.is_over:
        assert seated.current_player == 0
        seated.apply(seated.legal_actions()[0])
    assert seated.game.players_cash() == played.players_cash()
    assert seated.game.turn == played.turn


def test_undo_takes_back_the_last_answer(disney_compiled):
    seated = SeatedState(disney_compiled, ["external", "default"], seed=2)
    before = seated.snapshot()
    seated.apply(seated.legal_actions()[-1])
    seated.undo()
    assert seated.snapshot() == before and seated.answers == []
    with pytest.raises(IllegalAction):
        seated.undo()


def test_a_fast_clone_is_exact_and_independent(disney_compiled):
    state = GameState(disney_compiled, 2, seed=8)
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    copy = fast_clone(state)
    copy.apply(copy.legal_actions()[-1])
    assert len(state.actions) == 40
    replayed = GameState(disney_compiled, 2, seed=8, actions=copy.actions)
    assert copy.snapshot() == replayed.snapshot()
    assert fast_clone(state).snapshot() == state.snapshot()


def test_window_passer_answers_the_same_on_a_replay(disney_compiled):
    """A state replayed from the turn's start gets the policy's same answers."""
    passer = WindowPasser(["propose_trade", "bid"], pass_rate=0.5)
    seated = SeatedState(disney_compiled, ["external", passer, passer], seed=3, turn_cap=12)
    while not seated.is_over:
        seated.apply(seated.legal_actions()[-1])
    again = SeatedState(disney_compiled, ["external", passer, passer], seed=3, turn_cap=12,
                        answers=seated.answers)
    assert again.snapshot() == seated.snapshot()


def test_window_passer_plays_longer_games_than_random(disney_compiled):
    """Passing half the time in windows: no more ruinous trades every turn."""
    windows = ["claim_rent", "dispose", "sell_castles_at_once", "offer_for_jail_card",
               "sell_jail_card", "unmortgage", "build_on", "bid", "place_won_building",
               "propose_trade", "trade_ask", "trade_give", "trade_card", "trade_pay",
               "trade_charge", "accept_trade", "lift_at_once"]
    turns = {}
    for name, policy in (("random", "random"), ("passer", WindowPasser(windows, 0.5))):
        turns[name] = 0
        for seed in range(4):
            game = disney_compiled.Game(4, seed=seed, policies=[policy] * 4)
            game.play()
            turns[name] += game.turn
    assert turns["passer"] > 2 * turns["random"]


def test_window_passer_passes_when_it_always_passes(disney_compiled):
    passer = WindowPasser(["bid"], pass_rate=1.0)
    game = disney_compiled.Game(2, seed=0)
    assert passer(game, "bid", 0, [-1, 5, 6]) == -1
    assert passer(game, "buy", 0, [0, 1]) in (0, 1)
    with pytest.raises(ValueError):
        WindowPasser([], pass_rate=2)


def test_simulate_plays_the_window_passer_the_same_in_any_chunks():
    """`simulate --policy window-passer`: the policy travels to the workers, and a game's
    answers do not depend on the chunk that plays it."""
    from boardrules.harness.simulate import simulate

    runs = [simulate("super_mario_celebration", 4, 2, seed=1, workers=workers,
                     policies=["window-passer"] * 2) for workers in (1, 2)]
    assert sorted(runs[0].tally.turns) == sorted(runs[1].tally.turns)
    assert runs[0].tally.wins == runs[1].tally.wins
    assert runs[0].settings["policies"] == ["window-passer"] * 2
    default = simulate("super_mario_celebration", 4, 2, seed=1, workers=1)
    assert default.tally.turns != runs[0].tally.turns
