"""The invariant checker (boardrules/harness/invariants.py): it finds each kind of
violation in an edition made to break them, and random-policy games of every shipped
edition keep the invariants that apply to it (issues 11 and 13)."""

from __future__ import annotations

import pytest

from boardrules.cli import main
from boardrules.harness.invariants import INVARIANTS, check_games, facts, first_per_game
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
