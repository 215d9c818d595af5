"""Game-end constructs: rounds, `over after N rounds`, `over at first bankruptcy`,
`declare_bankrupt`, a valuation (`score(p) = V when C`), `end game winner p`, and params
whose value reads an option. One small edition, played on the interpreted backend."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front import ast
from boardrules.compiler.front.parser import parse
from boardrules.harness.simulate import end_reason
from boardrules.runtime.loader import load_module

ENDS = """
option limit: int = 0 "Rounds before the end (0: none)"
option sudden: bool = false "The first bankruptcy ends the game"
option valued: bool = false "Score by valuation"
param step: int = if sudden then 2 else 1
counter mode: int = 0
counter after_bankruptcy: int = 0
counter seen_rounds: int = 0
rule play {
  on turn(p: player) when mode == 0 {
    seen_rounds = rounds
    move(p, step)
  }
  on turn(p: player) when mode == 1 and p.seat == 1 {
    retire(p)
    declare_bankrupt(p)
    after_bankruptcy = 1
  }
  on turn(p: player) when mode == 2 {
    end game winner next_player(p)
  }
}
game {
  over at first bankruptcy when sudden
  over after limit rounds
  score(p: player) = 1000 - p.cash when valued
}
"""


@pytest.fixture(scope="module")
def ends(module_editions):
    return load_module(str(module_editions.write(ENDS)), "interpreted")


def test_a_round_ends_when_every_player_still_in_has_had_a_turn(ends):
    game = ends.Game(3, seed=1)
    game.start()
    for seat, rounds in ((0, 0), (1, 0), (0, 0), (2, 1), (1, 1), (0, 1), (2, 2)):
        game.play_turn(seat)
        assert game.round_count == rounds, (seat, rounds)
    game.play(3)
    assert game.counter_values()[2] == 2  # the rules read `rounds` during the turn
    assert game.round_count == 3


def test_a_retired_player_does_not_hold_up_the_round(ends):
    game = ends.Game(3, seed=1, options={"sudden": False})
    game.start()
    game.play_turn(0)
    game.state_set("g_game_mode", 0, 1)
    game.play_turn(1)  # p2 retires during its own turn
    assert game.round_count == 0
    game.state_set("g_game_mode", 0, 0)
    game.play_turn(2)
    assert game.round_count == 1 and not game.over


@pytest.mark.parametrize("limit", [1, 4])
def test_the_game_ends_after_the_rounds_agreed(ends, limit):
    game = ends.Game(3, seed=2, options={"limit": limit})
    game.play()
    assert game.over and not game.capped
    assert (game.turn, game.round_count) == (3 * limit, limit)
    assert end_reason(game) == "round limit"
    unlimited = ends.Game(3, seed=2, turn_cap=50)
    unlimited.play()
    assert unlimited.capped and end_reason(unlimited) == "turn cap"


def test_the_first_bankruptcy_ends_the_game_at_once(ends):
    game = ends.Game(3, seed=3, options={"sudden": True}, trace=True)
    game.start()
    game.state_set("g_game_mode", 0, 1)
    game.play_turn(1)
    assert game.over and game.bankruptcies == 1
    assert game.state_get("g_game_after_bankruptcy", 0) == 0  # nothing after it ran
    assert end_reason(game) == "first bankruptcy"
    assert "  p2 bankrupt: the game ends" in game.trace()


def test_without_it_a_bankruptcy_is_only_counted(ends):
    game = ends.Game(3, seed=3)
    game.start()
    game.state_set("g_game_mode", 0, 1)
    game.play_turn(1)
    assert not game.over and game.bankruptcies == 1
    assert game.state_get("g_game_after_bankruptcy", 0) == 1


def test_a_valuation_replaces_the_score_while_its_condition_holds(ends):
    plain, valued = ends.Game(2, seed=4), ends.Game(2, seed=4, options={"valued": True})
    for game in (plain, valued):
        game.start()
        game.state_set("cash", 1, 30)
    assert [plain.score(p) for p in (0, 1)] == [0, 30] and plain.winner() == 1
    assert [valued.score(p) for p in (0, 1)] == [1000, 970] and valued.winner() == 0


def test_end_game_winner_names_the_winner(ends):
    game = ends.Game(3, seed=5, trace=True)
    game.start()
    game.state_set("g_game_mode", 0, 2)
    game.play_turn(2)
    assert game.over and game.winner() == 0
    assert end_reason(game) == "winner named"
    assert "  p1 wins" in game.trace()
    twin = game.copy()
    assert twin.winner() == 0 and twin.ended_by == game.ended_by


def test_a_param_that_reads_an_option_is_read_where_it_is_used(ends):
    steps = []
    for sudden in (False, True):
        game = ends.Game(2, seed=6, options={"sudden": sudden})
        game.start()
        game.play_turn(0)
        steps.append(game.position_of(0))
    assert steps == [2, 0]  # the prelude's move of 1, then `step` on a three-space track


@pytest.mark.parametrize(("body", "code", "where"), [
    ("option o: bool = false \"O\"\nparam x: int = if o then 1 else 2\n"
     "param y: int = x + 1\nfield space.f: int = x\n", E.NOT_CONSTANT, (16, 22)),
    ("counter c: int = 0\nparam x: int = c + 1\n", E.NOT_CONSTANT, (14, 16)),
    ("game { over after true rounds }\n", E.TYPE_MISMATCH, (13, 19)),
    ("game { over at first bankruptcy when 3 }\n", E.TYPE_MISMATCH, (13, 38)),
    ("game { score(p: player) = p.cash when p.alive }\n", E.UNKNOWN_NAME, (13, 39)),
    ("rule r { on turn(p: player) { end game winner 3 } }\n", E.TYPE_MISMATCH, (13, 47)),
])
def test_what_the_constructs_refuse(editions, body, code, where):
    assert (code.code, *where) in editions.located(body)


def test_an_option_read_where_a_constant_is_needed_says_so(editions):
    body = ("option o: bool = false \"O\"\nparam x: int = if o then 1 else 2\n"
            "game { turn_limit x }\n")
    diagnostics = editions.diagnostics(body)
    assert any("reads an option" in (d.hint or "") for d in diagnostics)


def test_the_rounds_and_bankruptcies_are_built_in_names(editions):
    assert editions.located("counter rounds: int = 0\n") == [(E.BUILTIN_REDEFINED.code, 13, 1)]
    located = editions.located("option bankruptcies: int = 0 \"B\"\n")
    assert located == [(E.BUILTIN_REDEFINED.code, 13, 1)]


def test_the_forms_parse():
    decls = parse("game {\n  over at first bankruptcy\n    assume \"x\"\n  over after 3 rounds\n"
                  "  score(p: player) = p.cash when true\n}\n"
                  "rule r { on turn(p: player) { end game winner p } }\n", "t.rules").decls
    props = {prop.kind: prop for prop in decls[0].props}
    assert set(props) == {"bankruptcy", "rounds", "valuation"}
    assert isinstance(props["bankruptcy"].value, ast.BoolLit) and props["bankruptcy"].provenance
    assert isinstance(props["valuation"].condition, ast.BoolLit)
    (stmt,) = decls[1].handlers[0].body
    assert isinstance(stmt, ast.EndGame) and isinstance(stmt.winner, ast.Name)
