"""The kernel's `turn_over(p)` event: after every turn, however it ended (its handlers
returned, an `end turn` anywhere, a bankruptcy), once, for the player whose turn it was
while they are still in the game and the game is not over; before `over when` is checked.
Both backends run it alike, the trace shows it, and a scenario's `play` runs it."""

from __future__ import annotations

import pytest

from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scenarios import cases, run_case

# The prelude's turn moves one space: from s0 a token lands on s1 (special), whose rule
# ends the turn, then on s2, where the turn's handlers return; the tests count the ends.
RULES = """
counter player.ends: int = 0
counter player.turn_seen: int = 0
counter rolled: int = 0
die d6 faces [1, 2, 3, 4, 5, 6]
rule stop { on land(p: player, s: space) when s.kind == special { end turn } }
rule ends { on turn_over(p: player) {
  p.ends += 1
  p.turn_seen = turn
} }
"""

SCENARIOS = """
scenario "an end turn in a land handler ends the turn, and turn_over follows" for ends {
  players 2
  play p1
  expect p1.ends == 1 and p2.ends == 0
  expect p1.turn_seen == 1
}
scenario "a turn whose handlers return ends with turn_over too, once" for ends {
  players 2
  given { p1.position = s1 }
  play p1
  play p1
  expect p1.ends == 2
}
"""


@pytest.fixture(scope="module")
def compilation(module_editions):
    return compile_rules(module_editions.write(RULES + SCENARIOS, name="over"))


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_turn_over_follows_every_turn_however_it_ended_in_scenarios(compilation, backend):
    found = cases(compilation)
    assert len(found) == 2
    for case in found:
        outcome = run_case(compilation, case, backend, trace_lines=None)
        assert outcome.passed, outcome.message
    # the trace says when the handlers run: after the turn's end
    trace = [line.strip() for line in outcome.trace]
    assert trace.count("turn over p1") == 2


def _game(editions, body: str, n_players: int = 2, **kwargs):
    _, _, namespace = editions.module(RULES + body)
    return namespace, namespace["Game"](n_players, seed=1, **kwargs)


def _counter(namespace, game, label: str) -> list:
    names = [name for name, _, _ in namespace["COUNTERS"]]
    return game.counter_values()[names.index(label)]


def test_once_per_turn_for_the_player_whose_turn_it_was(editions):
    namespace, game = _game(editions, "")
    game.play(6)  # each player: s1 (ended), s2 (returned), s0 (returned)
    assert _counter(namespace, game, "player.ends")[:2] == [3, 3]
    assert _counter(namespace, game, "player.turn_seen")[:2] == [5, 6]


def test_not_for_a_player_who_left_nor_after_the_game_ended(editions):
    namespace, game = _game(editions, """
rule leave { on land(p: player, s: space) before stop when s.kind == special and p == seat(1) {
  retire(p)
} }
rule finish { on land(p: player, s: space) before stop when s.kind == special and p == seat(2) {
  end game
} }
""", n_players=3)
    game.play()
    assert game.over and game.turn == 2
    assert _counter(namespace, game, "player.ends")[:3] == [0, 0, 0]


def test_over_when_sees_what_turn_over_did_and_end_turn_ends_only_its_handlers(editions):
    namespace, game = _game(editions, """
rule roll_after { on turn_over(p: player) {
  rolled = roll(d6)
  end turn
} }
rule never { on turn_over(p: player) after roll_after { rolled = 0 } }
game { over when rolled > 0 }
""")
    game.play()
    assert game.turn == 1 and game.over
    assert _counter(namespace, game, "rolled") > 0


def test_an_edition_without_a_handler_does_not_call_it(editions):
    _, code, _ = editions.module("")
    assert "self.turn_over_handled = False" in code
    _, code, _ = editions.module(RULES)
    assert "self.turn_over_handled = True" in code


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_scenario_scripts_the_dice_turn_over_rolls(module_editions, backend):
    """The scenario's dice check knows the turn's rolls go on in turn_over's handlers."""
    compilation = compile_rules(module_editions.write(RULES + """
rule roll_after { on turn_over(p: player) { rolled = roll(d6) } }
scenario "the end of the turn rolls" for roll_after {
  players 2
  dice [4]
  play p1
  expect rolled == 4
}
""", name="rolls"))
    (case,) = cases(compilation)
    outcome = run_case(compilation, case, backend)
    assert outcome.passed, outcome.message


@pytest.mark.parametrize("ends_game", [False, True])
def test_after_a_bankruptcy_unless_it_ended_the_game(editions, ends_game):
    namespace, game = _game(editions, """
rule broke { on land(p: player, s: space) before stop when s.kind == special {
  declare_bankrupt(p)
  end turn
} }
""" + ("game { over at first bankruptcy }\n" if ends_game else ""))
    game.play(1)
    assert game.over == ends_game
    assert _counter(namespace, game, "player.ends")[0] == (0 if ends_game else 1)


def test_an_end_turn_inside_an_expression_ends_its_handlers_too(editions):
    # the call ends the turn inside the `and`: the program's turns (and turn_over) run in a try
    namespace, game = _game(editions, """
proc quit(p: player) -> bool {
  rolled += 1
  end turn
}
rule early { on turn_over(p: player) before ends {
  if p.ends >= 0 and quit(p) { rolled = 100 }
} }
""")
    game.play(2)
    assert _counter(namespace, game, "rolled") == 2
    assert _counter(namespace, game, "player.ends")[:2] == [0, 0]
    assert not game.over
