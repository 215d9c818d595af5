"""The invariant checker (boardrules/harness/invariants.py): it finds each kind of
violation in an edition made to break them, and random-policy games of every shipped
edition keep the invariants that apply to it (issues 11 and 13)."""

from __future__ import annotations

import pytest

from boardrules.cli import main
from boardrules.harness.invariants import (
    INVARIANTS,
    GameCheck,
    check_games,
    facts,
    first_per_game,
)
from boardrules.runtime.loader import load_module

# Random-policy games per edition in CI, some 0.2 to 1 s each (compiled): Builder's last
# about 750 turns, Disney's and Animal Crossing's 260, Mario's 40.
GAMES = {"disney_theme_park": 150, "super_mario_celebration": 300, "animal_crossing": 150,
         "builder": 40}

BROKEN = """edition "Broken" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
param max_houses: int = 4
group pair "Pair"
field space.group: group? = none
counter space.owner: player? = none
counter space.buildings: int = 0
counter houses_left: int = 32
counter hotels_left: int = 12
counter victim: player? = none
board {
  space s0 "S0" plain
  space s1 "S1" plain { group = pair }
  space s2 "S2" plain { group = pair }
}
rule breaking {
  on turn(p: player) {
    if turn == 1 { p.cash += 5 }
    if turn == 2 { s1.buildings = 2 }
    if turn == 3 { pay(p, bank, p.cash + 10) }
    if turn == 4 {
      s0.owner = p
      victim = p
      retire(p)
    }
    if turn == 5 { pay(bank, some(victim), 1) }
    if turn == 6 { pay(p, p, 1) }
  }
}
"""


def test_each_kind_of_violation_is_found(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "rulebook.txt").write_text("Broken.\n\nEvery rule here breaks one.\n")
    (folder / "broken.rules").write_text(BROKEN)
    module = load_module(str(folder / "broken.rules"), "interpreted")
    assert facts(module).applicable == INVARIANTS
    found = check_games(module, 1, 4, seed=1, turn_cap=7)
    firsts = {(v.turn, v.invariant) for v in first_per_game(found)}
    assert firsts == {(1, "ledger"), (2, "supply"), (2, "even-building"),
                      (3, "negative-cash"), (4, "retired-owner"), (5, "paid-retired"),
                      (6, "self-payment")}, found
    assert "p4" in next(str(v) for v in found if v.invariant == "retired-owner")
    # simulate --check-invariants replays the run's games, lists them and exits 1
    assert main(["simulate", str(folder), "--games", "2", "--players", "4", "--workers", "1",
                 "--backend", "interpreted", "--turn-limit", "6", "--check-invariants"]) == 1


@pytest.mark.parametrize("edition", sorted(GAMES))
def test_random_games_keep_the_invariants(edition):
    """Every invariant that applies holds in every game, and no game fails."""
    module = load_module(edition, "compiled")
    games = GAMES[edition]
    found = list(first_per_game(check_games(module, games, 4, seed=13,
                                            policies=["random"] * 4)))
    assert {v.invariant for v in found} <= {*facts(module).applicable, "rules-error"}
    assert not found, f"{len(found)} violations in {games} games: {[str(v) for v in found[:5]]}"


def test_check_invariants_plays_a_python_policy(capsys):
    """`--check-invariants` plays the run's policy, also one written in Python."""
    assert main(["simulate", "animal_crossing", "--games", "3", "--workers", "1",
                 "--policy", "window-passer", "--check-invariants"]) == 0
    assert "violations         none" in capsys.readouterr().out


class _Finished:
    """A finished game as the ranking invariant reads it: four seats, p4 out, the scores'
    parts given, and the places and winners the game claims."""

    n_players, turn, declared_winner = 4, 9, -1

    def __init__(self, ranks: list[int], winners: list[int]):
        self._ranks, self._winners = ranks, winners

    def alive_of(self, p: int) -> bool:
        return p < 3

    def out_order_of(self, p: int) -> int:
        return 1 if p == 3 else 0

    def score_parts(self, p: int) -> list[int]:
        return [[5, 1], [5, 1], [5, 0], [0, 0]][p]

    def ranks(self) -> list[int]:
        return self._ranks

    def winners(self) -> list[int]:
        return self._winners

    def winner(self) -> int:
        return self._winners[0] if len(self._winners) == 1 else -1


@pytest.mark.parametrize("ranks,winners,wrong", [
    ([1, 1, 3, 4], [0, 1], False),  # a tie on every part: a shared win is valid
    ([1, 2, 3, 4], [0], True),  # the tie broken by seat
    ([1, 1, 1, 4], [0, 1, 2], True),  # the tie-breaker ignored
    ([1, 1, 3, 4], [0], True),  # first place shared, the win not
])
def test_the_ranking_invariant_accepts_shared_wins_and_nothing_else(ranks, winners, wrong):
    check = GameCheck(None, None, 0, 1)
    check.ranking(_Finished(ranks, winners))
    assert bool(check.violations) == wrong, check.violations
    assert all(v.invariant == "ranking" for v in check.violations)
