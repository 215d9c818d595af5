"""Windows (`window q from p rounds n { }`): who is asked, in which order, and when a
window closes, played on the generated module as Python."""

from __future__ import annotations

import pytest

WINDOW = """
counter player.sold: int = 0
decision sell(p: player) by p -> bool {
  default p.sold < 2
}
proc offer(p: player) {
  window q from p rounds 3 {
    if ask sell(q) {
      q.sold += 1
    }
  }
}
rule twice { on turn(p: player) when p.seat == 1 {
  offer(p)
  offer(p)
} }
"""


@pytest.fixture
def game(editions):
    namespace: dict = {"__name__": "window_under_test"}
    code = editions.compile(WINDOW, until="codegen").code
    exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - the point of the test
    game = namespace["Game"](3, seed=1, trace=True)
    game.play(2)
    return game


def asked(game) -> list[str]:
    return [line.split()[0] for line in game.trace() if "decides sell=" in line]


def test_every_seat_from_the_start_round_after_round_until_a_round_changes_nothing(game):
    # p2's turn: p2, p3, p1 sell twice each (rounds 1 and 2), then all pass in round 3
    assert asked(game)[:9] == ["p2", "p3", "p1"] * 3
    assert [game.state_get("c_player_sold", p) for p in range(3)] == [2, 2, 2]


def test_a_window_opened_again_with_nothing_changed_asks_nobody(game):
    # the second offer() follows the first with no change in between: nobody is asked
    assert len(asked(game)) == 9


def test_a_change_from_outside_opens_a_closed_window_again(game):
    # every seat passed when the window last closed: offered again, it asks nobody...
    game.invoke("proc_offer", (1,))
    assert len(asked(game)) == 9
    # ...until the game is set from outside (a scenario's given, the state API): then it
    # asks round after round again, and p1 sells twice more
    game.state_set("c_player_sold", 0, 0)
    game.invoke("proc_offer", (1,))
    assert asked(game)[9:] == ["p2", "p3", "p1"] * 3
    assert game.state_get("c_player_sold", 0) == 2
