"""The ranking at the end of a game: a score with tie-breakers (`score(p) = A then B`),
shared places and shared wins, players out ranked by when they went out, a winner named
by `end game winner p`, and `rank(p)`, `is_winner(p)` and `winner` in rules. One small
edition, on both backends."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.harness.scenarios import run_edition
from boardrules.runtime.loader import load_module

RANKED = """
counter player.points: int = 0
counter player.stars: int = 0
counter mode: int = 0
counter seen_rank: int = 0
counter seen_winner: bool = false
counter seen_sole: player? = none
rule outs {
  on turn(p: player) when mode == 1 { retire(p) }
  on turn(p: player) when mode == 2 { end game winner p }
  on turn(p: player) when mode == 3 {
    seen_rank = rank(p)
    seen_winner = is_winner(p)
    seen_sole = winner
  }
}
game {
  score(p: player) = p.points then p.stars then 0 - p.cash
}
scenario "equal on every part: the win is shared" for outs {
  players 3
  given {
    p1.points = 2
    p2.points = 2
    p3.points = 1
  }
  expect is_winner(p1) and is_winner(p2) and not is_winner(p3)
  expect winner == none
  expect rank(p1) == 1 and rank(p2) == 1 and rank(p3) == 3
  given { p2.stars = 1 }
  expect winner == p2 and rank(p1) == 2 and rank(p3) == 3
  given {
    p1.stars = 1
    p2.cash = 10
  }
  expect winner == p1 and rank(p2) == 2
}
"""

BACKENDS = ("interpreted", "compiled")


@pytest.fixture(scope="module")
def ranked_path(module_editions):
    return module_editions.write(RANKED)


@pytest.fixture(scope="module", params=BACKENDS)
def ranked(request, ranked_path):
    return load_module(str(ranked_path), request.param)


def _game(module, points, stars=None, cash=None):
    game = module.Game(len(points), seed=1)
    game.start()
    for seat, value in enumerate(points):
        game.state_set("c_player_points", seat, value)
        game.state_set("c_player_stars", seat, (stars or [0] * len(points))[seat])
        game.state_set("cash", seat, (cash or [100] * len(points))[seat])
    return game


def test_the_scenarios_pass_on_both_backends(ranked_path):
    _, outcomes = run_edition(str(ranked_path))
    assert len(outcomes) == 2 and all(o.passed for o in outcomes), \
        [o.message for o in outcomes]


def test_tie_breakers_are_compared_in_order(ranked):
    game = _game(ranked, [3, 3, 3, 1], stars=[1, 2, 2, 9], cash=[100, 50, 80, 0])
    assert game.score_parts(1) == [3, 2, -50]
    # p2 and p3 tie on points and stars: the third part (less cash is better) decides
    assert game.ranking() == [[1], [2], [0], [3]]
    assert game.winners() == [1] and game.winner() == 1


def test_a_tie_on_every_part_is_a_shared_win_and_a_shared_place(ranked):
    game = _game(ranked, [1, 4, 4, 4], stars=[0, 1, 1, 0])
    assert game.ranks() == [4, 1, 1, 3]
    assert game.ranking() == [[1, 2], [3], [0]]
    assert game.winners() == [1, 2]
    assert game.winner() == -1  # no one winner: the first seat no longer wins ties


def test_players_out_rank_below_those_in_the_last_out_highest(ranked):
    game = _game(ranked, [9, 0, 5, 0])
    game.state_set("g_game_mode", 0, 1)
    game.play_turn(0)  # p1, the best score, goes out first
    game.play_turn(2)  # then p3
    assert [game.out_order_of(p) for p in range(4)] == [1, 0, 2, 0]
    assert game.ranking() == [[1, 3], [2], [0]]
    assert game.winners() == [1, 3]
    twin = game.copy()
    assert twin.ranking() == game.ranking()


def test_nobody_still_in_means_no_winner_though_the_ranking_goes_on(ranked):
    game = _game(ranked, [0, 0])
    game.state_set("g_game_mode", 0, 1)
    game.play_turn(1)
    game.play_turn(0)
    assert game.ranking() == [[0], [1]] and game.winners() == [] and game.winner() == -1


def test_a_winner_named_by_the_rules_ranks_first_alone(ranked):
    game = _game(ranked, [5, 5, 5])
    game.state_set("g_game_mode", 0, 2)
    game.play_turn(2)
    assert game.over and game.winners() == [2] and game.winner() == 2
    assert game.ranking() == [[2], [0, 1]]


def test_the_rules_read_the_ranking(ranked):
    game = _game(ranked, [2, 7, 7])
    game.state_set("g_game_mode", 0, 3)
    game.play_turn(1)
    values = game.counter_values()
    assert values[3:6] == [1, 1, -1]  # rank(p2), is_winner(p2), winner: none (shared)
    game.state_set("c_player_points", 2, 6)
    game.play_turn(2)
    assert game.counter_values()[3:6] == [2, 0, 1]


def test_a_tie_breaker_is_an_int_of_the_player(module_editions):
    body = "game {\n  score(p: player) = p.cash then true\n}\n"
    assert module_editions.located(body, name="bad") == [(E.TYPE_MISMATCH.value, 14, 34)]


def test_then_needs_a_tie_breaker_after_it(module_editions):
    body = "game {\n  score(p: player) = p.cash then\n}\n"
    errors = module_editions.errors(body, until="parse", name="bad")
    assert errors and "expected" in errors[0]


def test_a_valuation_with_tie_breakers_replaces_the_score_part_by_part(module_editions):
    path = module_editions.write("""
option valued: bool = false "Score by valuation"
counter player.points: int = 0
game {
  score(p: player) = p.cash
  score(p: player) = p.points then 0 - p.cash when valued
}
""", name="valued")
    for backend in BACKENDS:
        module = load_module(str(path), backend)
        plain, valued = (module.Game(2, seed=1, options={"valued": v}) for v in (False, True))
        for game in (plain, valued):
            game.start()
            game.state_set("cash", 1, 30)
        assert plain.score_parts(1) == [30, 0] and plain.winners() == [1]
        assert valued.score_parts(1) == [0, -30] and valued.winners() == [0]


def test_a_procedure_named_rank_keeps_its_name(module_editions):
    """`rank` and `is_winner` came late to the language: an edition's own procedure of
    that name is the one called."""
    path = module_editions.write("""
counter seen: int = 0
proc rank(p: player, s: space) -> int {
  return s.track * 10
}
rule probe { on turn(p: player) { seen = rank(p, s2) } }
""", name="own_rank")
    game = load_module(str(path), "interpreted").Game(2, seed=1)
    game.start()
    game.play_turn(0)
    assert game.counter_values()[0] == 20
