"""The trace in the game's terms: a die's faces and a decision's answers by name (yes/no,
none, p2, a space's id, an enum member), and where in the rules an `end turn` or `end game`
was reached, so that a skipped turn says why. Both backends write the same lines."""

from __future__ import annotations

import pytest

from boardrules.runtime.loader import import_compilation

DATA = "counter pot: int = 0\n"


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_the_trace_names_faces_and_answers_and_says_where_a_turn_ends(editions, backend):
    compilation = editions.compile(DATA + (
        "enum weather { sun, storm }\n"
        "die sky faces [sun, storm]\n"
        "counter player.waiting: bool = false\n"
        "decision wait(p: player) by p -> bool { default true }\n"
        "decision where_to(p: player) by p -> space? where s: s != p.position { default none }\n"
        "rule skip { on turn(p: player) when p.waiting {\n  end turn\n} }\n"
        "rule weather { on land(p: player, s: space) {\n"
        "  if roll(sky) == storm and ask where_to(p) == none { pot = 1 }\n"
        "  p.waiting = ask wait(p)\n} }\n"), until="codegen")
    module = import_compilation(compilation, backend)
    game = module.Game(2, seed=1, trace=True)
    game.play(3)
    trace = [line.strip() for line in game.trace()]
    assert "roll sky=storm" in trace  # a face by name (seed 1 rolls a storm first)
    assert "p1 decides where_to=none" in trace and "p1 decides wait=yes" in trace
    assert "end turn at ed.rules:20" in trace  # the `end turn` of rule skip
