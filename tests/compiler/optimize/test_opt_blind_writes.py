"""blind-writes (optimize/blind_writes.py): a counter that no window's code reads is
counted apart, and a window whose players all passed is closed at once while nothing it
reads changed: the same games, fewer questions."""

from __future__ import annotations

import pytest
from opt_programs import function, module_namespace

from boardrules.compiler import pipeline
from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize.walk import stmt_exprs, walk_expr, walk_stmts

RULES = """counter player.sold: int = 0
counter player.thrown: int = 0
decision sell(p: player) by p -> bool {
  default p.sold < 2
}
proc offer(p: player) {
  window q from p {
    if ask sell(q) {
      q.sold += 1
    }
  }
}
rule offers { on turn(p: player) {
  offer(p)
  p.thrown += 1
  offer(p)
} }
"""


def window_opens(program: ir.Program) -> list[str]:
    return [ir_text.expr(n) for s in walk_stmts(function(program, "proc_offer").body)
            for e in stmt_exprs(s) for n in walk_expr(e)
            if isinstance(n, ir.KernelCall) and n.function.startswith("k_window_open")]


@pytest.mark.parametrize(("default", "opened"), [
    ("p.sold < 2", "k_window_open_seen(0, false, false)"),
    # a default that reads a position: a move opens the window again
    ("p.sold < 2 and p.position != s1", "k_window_open_seen(0, true, false)"),
    # one that reads the turn: the next turn opens it again
    ("p.sold < turn", "k_window_open_seen(0, false, true)"),
])
def test_a_counter_no_window_reads_is_blind_and_the_window_compares_what_it_reads(
        editions, default, opened):
    program = editions.compile(RULES.replace("p.sold < 2", default),
                               until="blind-writes").program
    assert program.blind_counters == {"player_thrown"}
    assert window_opens(program) == [opened]


@pytest.mark.parametrize("default", [
    "p.sold < 2 and random(3) > 0",  # a draw: the next call may answer otherwise
    "p.sold < 2 and bankruptcies == 0",  # counted by no change the window compares
])
def test_a_window_whose_code_reads_what_changes_uncounted_is_left_alone(editions, default):
    program = editions.compile(RULES.replace("p.sold < 2", default),
                               until="blind-writes").program
    assert program.blind_counters == frozenset()
    assert window_opens(program) == ["k_window_open(0)"]


# a window that asks whether a bankruptcy would end the game: the game block's condition,
# which reads a counter the turn writes, is read by the window's code too
ENDS = RULES.replace("p.sold < 2", "p.sold < 2 and not bankruptcy_ends_game").replace(
    "p.thrown += 1", "p.thrown += 1\n  mode += 1") + """counter mode: int = 0
game {
  over at first bankruptcy when WHEN
}
"""


@pytest.mark.parametrize(("when", "blind", "opened"), [
    ("mode > 5", {"player_thrown"}, "k_window_open_seen(0, false, false)"),
    ("mode > turn", {"player_thrown"}, "k_window_open_seen(0, false, true)"),
    ("bankruptcies > mode", frozenset(), "k_window_open(0)"),
])
def test_a_window_reading_whether_a_bankruptcy_ends_the_game_reads_its_condition(
        editions, when, blind, opened):
    program = editions.compile(ENDS.replace("WHEN", when), until="blind-writes").program
    assert program.blind_counters == blind
    assert window_opens(program) == [opened]


def test_a_window_that_reads_a_local_from_outside_it_is_left_alone(editions):
    """The asking player's own limit: another turn's window asks other questions."""
    rules = RULES.replace("if ask sell(q) {", "if q.sold < p.seat and ask sell(q) {")
    program = editions.compile(rules, until="blind-writes").program
    assert program.blind_counters == {"player_thrown"}
    assert window_opens(program) == ["k_window_open(0)"]


def played(program: ir.Program, *, trace: bool) -> tuple[list, int]:
    """Six seeded games of 3 players, 12 turns each, and how often a seat was asked."""
    game_class = module_namespace(program)["Game"]
    asked = [0]
    decide = game_class.decide_sell

    def counted(self, p):
        asked[0] += 1
        return decide(self, p)

    game_class.decide_sell = counted
    games = []
    for seed in range(6):
        game = game_class(3, seed=seed, trace=trace)
        game.play(12)
        games.append((game.turn, game.players_cash(), game.counter_values(),
                      game.trace() if trace else None))
    return games, asked[0]


@pytest.mark.parametrize("default", ["p.sold < 2", "p.sold < turn / 3"])
def test_a_window_closed_at_once_plays_as_if_everyone_had_passed_again(
        editions, monkeypatch, default):
    path = editions.write(RULES.replace("p.sold < 2", default))
    shortened = pipeline.compile_rules(path).program
    monkeypatch.setattr(pipeline, "PASSES",
                        [p for p in pipeline.PASSES if p[0] != "blind-writes"])
    plain = pipeline.compile_rules(path).program
    games, asked = played(shortened, trace=False)
    plain_games, plain_asked = played(plain, trace=False)
    assert games == plain_games
    assert asked < plain_asked  # the second offer of a turn asks nobody
    # traced, every question is asked and written down, as before
    assert played(shortened, trace=True) == played(plain, trace=True)


def test_a_window_closed_at_once_counts_its_round_as_the_loop_guard_does(editions):
    """The round in which all would have passed is counted (a turn that loops without end
    fails after as many rounds as without the pass: found by the long differential fuzz,
    program 961 of seed 7); at the limit the window runs, and fails where it would have."""
    from boardrules.compiler.common.kernel_facts import kernel_constants

    program = editions.compile(RULES, until="codegen").program
    game = module_namespace(program)["Game"](3, seed=1)
    game.play(1)  # the turn's offers ran, and closed with every player passing
    game.blind_changes += 1  # a write of `thrown`, which no window reads
    game.rounds = 5
    assert not game.k_window_open_seen(0, False, False) and game.rounds == 6
    game.blind_changes += 1
    game.rounds = limit = kernel_constants("LOOP_LIMIT")["LOOP_LIMIT"]
    assert game.k_window_open_seen(0, False, False) and game.rounds == limit
