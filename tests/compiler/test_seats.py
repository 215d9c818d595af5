"""`seat(N)`: the player in a numbered seat, in rules as p1.. are in scenarios."""

from __future__ import annotations

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.ir.nodes import Type

BONUS = """rule bonus {
  on start() {
    pay(bank, seat(1), 5)
    let third = seat(3)
    if third != none { pay(bank, third, 100) }
  }
}
"""


def test_seat_one_is_a_player_and_a_later_seat_may_be_none(editions):
    lowered, _, _ = editions.lower("", "seat(2)")
    assert lowered.type == Type("player")
    lowered, _, _ = editions.lower("", "seat(4)")  # the edition has 2 to 4 players
    assert lowered.type == Type("player", True)


def test_the_seats_are_played_on_both_counts(editions):
    _, _, namespace = editions.module(BONUS)
    for players, expected in ((2, [5, 0]), (3, [5, 0, 100])):
        game = namespace["Game"](players, seed=1)
        game.play(1)  # the start handlers, and a turn that pays nobody
        cash = list(game.players_cash())
        assert [c - cash[1] for c in cash] == expected


def test_a_seat_beyond_the_edition_or_not_constant_is_an_error(editions):
    located = editions.located("rule r { on turn(p: player) { pay(bank, seat(5), 1) } }\n")
    assert [code for code, _, _ in located] == [E.CONSTANT_OUT_OF_RANGE.code]
    located = editions.located("rule r { on turn(p: player) { pay(bank, seat(p.cash), 1) } }\n")
    assert [code for code, _, _ in located] == [E.NOT_CONSTANT.code]
