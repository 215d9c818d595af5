"""The kernel's money: k_pay between players and the Bank, and its ledger."""

from __future__ import annotations

import pytest

BANK = -1
SPACES = ("start", "a", "b", "c", "d", "e", "lockup")


def test_setup_pays_the_start_cash_from_the_bank(tiny):
    game = tiny.Game(3, seed=1, trace=True)
    assert game.players_cash() == [0, 0, 0]
    game.start()
    assert game.players_cash() == [100, 100, 100]
    assert game.payments() == [(0, BANK, 0, 100), (0, BANK, 1, 100), (0, BANK, 2, 100)]


def test_pay_between_players(game):
    before = len(game.payments())
    game.k_pay(0, 1, 30)
    assert game.players_cash() == [70, 130]
    assert game.payments()[before:] == [(0, 0, 1, 30)]
    assert "pay" in game.trace()[-1] and game.trace()[-1].endswith(" 30")


def test_the_bank_never_runs_out(game):
    game.k_pay(BANK, 0, 1_000_000)
    game.k_pay(1, BANK, 40)
    game.k_pay(BANK, BANK, 5)
    assert game.players_cash() == [1_000_100, 60]
    assert game.payments()[-3:] == [(0, BANK, 0, 1_000_000), (0, 1, BANK, 40),
                                    (0, BANK, BANK, 5)]


def test_cash_may_go_negative_and_amounts_may_be_negative(game):
    game.k_pay(0, BANK, 150)
    assert game.players_cash()[0] == -50
    game.k_pay(0, 1, -20)  # a negative payment flows the other way
    assert game.players_cash() == [-30, 80]


def test_payments_are_recorded_with_the_turn(tiny):
    game = tiny.Game(2, seed=4, trace=True)
    game.start()
    game.k_place(0, SPACES.index("e"))
    game.script_rolls([2])  # e -> passes start (salary 10) -> lands on a
    game.play(1)
    assert game.payments()[-1] == (1, BANK, 0, 10)
    assert game.players_cash() == [110, 100]


def test_ledger_is_kept_only_when_tracing(tiny):
    game = tiny.Game(2, seed=4)
    game.start()
    game.k_pay(0, 1, 5)
    assert game.players_cash() == [95, 105]
    assert game.payments() == []


def test_a_traced_game_keeps_its_ledger_even_when_told_not_to(tiny):
    """k_pay tests `ledgering` alone: tracing implies it."""
    game = tiny.Game(2, seed=4, trace=True)
    game.start()
    game.keep_ledger(False)
    game.k_pay(0, 1, 5)
    assert game.payments()[-1][1:] == (0, 1, 5)
    assert game.trace()[-1].endswith(" 5") and "pay" in game.trace()[-1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ledger_accounts_for_all_cash(tiny, seed):
    game = tiny.Game(3, seed=seed, trace=True, policies=["random", "default", "random"])
    game.play()
    assert game.capped and game.turn == 50
    expected = [0, 0, 0]
    for turn, payer, payee, amount in game.payments():
        assert 0 <= turn <= game.turn
        if payer >= 0:
            expected[payer] -= amount
        if payee >= 0:
            expected[payee] += amount
    assert game.players_cash() == expected
    assert len(game.payments()) > 10


def test_score_and_winner_default_to_cash(tiny):
    game = tiny.Game(3, seed=1)
    game.start()
    game.k_pay(0, 2, 10)
    assert [game.score(p) for p in range(3)] == [90, 100, 110]
    assert game.winner() == 2
    game.k_pay(2, 1, 10)
    assert game.winner() == 1  # 90, 110, 100
    game.k_pay(1, 0, 10)
    # a tie of 100s: a win all three share, not the first seat's
    assert game.winner() == -1 and game.winners() == [0, 1, 2]
    game.k_retire(0)
    assert game.winners() == [1, 2] and game.ranks() == [3, 1, 1] and game.n_alive == 2
    game.k_pay(1, 2, 1)
    assert game.winner() == 2 and game.ranking() == [[2], [1], [0]]
