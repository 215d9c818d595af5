"""flag-words (optimize/flags.py): a walk's test of a flag counter (`s.pledged`) as the word
of the entities whose flag is set, kept by the flag's writes."""

from __future__ import annotations

import pytest

from boardrules.compiler.ir import derived, ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.runtime.loader import load_module

RULES = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
board {
  space s0 "S0" plain { price = 4 }
  space s1 "S1" plain { price = 6 }
  space s2 "S2" plain { price = 9 }
  space s3 "S3" plain { price = 2 }
  space s4 "S4" plain { price = 7 }
}
field space.price: money = 0
counter space.owner: player? = none
counter space.pledged: bool = false
counter space.level: int = 0
proc dearest_pledged(p: player) -> space? {
  return best(s.price for s in spaces where s.owner == p and s.pledged and s.level < 3)
}
proc free_held(p: player) -> int {
  return count(s in spaces where s.owner == p and not s.pledged)
}
proc risky_pledged(p: player) -> int {
  return count(s in spaces where s.owner == p and s.level / (s.price - 10) >= 0
               and s.pledged)
}
rule take { on turn(p: player) {
  for s in spaces where s.owner == none and s.price > 0 {
    s.owner = p
    s.pledged = s.price > 5
    end turn
  }
  let target = dearest_pledged(p)
  if target != none and risky_pledged(p) + free_held(p) >= 0 {
    target.pledged = false
    target.level += 1
  }
  move(p, 1)
} }
"""


def aggregate(program: ir.Program, function: str) -> ir.Aggregate:
    return next(a for a in program.aggregates if a.name.endswith(f"_in_proc_{function}"))


def test_a_flag_test_leaves_the_filter_for_the_flags_word(editions):
    """The walk of p's spaces becomes the bits of p's word and the flag's word (of its value
    true, or false for `not`); the flag gets a counter index with words."""
    program = editions.compile(RULES, until="flag-words", prelude=False).program
    dearest = aggregate(program, "dearest_pledged")
    assert dearest.domain.mask == 0b11111
    (word,) = dearest.domain.words
    assert word == derived.Word("vx_space_pledged", "", ir.Const(ir.INT, 1))
    assert ir_text.expr(dearest.where) == "(s.space_level < 3)"
    assert "and vx_space_pledged[1]" in ir_text.aggregate(dearest)
    free = aggregate(program, "free_held")
    assert free.domain.words == (derived.Word("vx_space_pledged", "", ir.Const(ir.INT, 0)),)
    assert free.where is None
    indexes = {cx.counter: cx for cx in program.counter_indexes}
    assert indexes["space_pledged"].bits and not indexes["space_pledged"].listed
    assert indexes["space_owner"].bits and indexes["space_owner"].listed


def test_a_flag_test_after_one_that_may_raise_stays_in_the_filter(editions):
    """Skipping a space must not skip the division by zero it might meet first."""
    program = editions.compile(RULES, until="flag-words", prelude=False).program
    risky = aggregate(program, "risky_pledged")
    assert not risky.domain.words
    assert ir_text.expr(risky.where).endswith("and s.space_pledged)")


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_the_flag_words_answer_as_the_scan_does(module_editions, backend):
    """Turn after turn, after state_set and in a copy: the answers worked out here from the
    owners, flags and levels themselves."""
    module = load_module(str(module_editions.write(RULES, prelude=False)), backend)
    price = [4, 6, 9, 2, 7]

    def named(function: str) -> str:
        return next(n for n in module.CALL_INDEX
                    if n.startswith("agg_") and n.endswith(f"_in_proc_{function}"))

    def check(game) -> None:
        owners, pledged, levels = ([game.state_get(f"c_space_{c}", s) for s in range(5)]
                                   for c in ("owner", "pledged", "level"))
        for p in range(game.n_players):
            mine = [s for s in range(5) if owners[s] == p and pledged[s] and levels[s] < 3]
            assert game.invoke(named("dearest_pledged"), (p,)) == max(
                mine, key=lambda s: (price[s], -s), default=-1)
            assert game.invoke(named("free_held"), (p,)) == sum(
                1 for s in range(5) if owners[s] == p and not pledged[s])

    game = module.Game(2, seed=3)
    for _ in range(12):
        game.play(1)
        check(game)
        check(game.copy())
    for space, flag in ((0, 1), (1, 0), (2, 1), (4, 0)):
        game.state_set("c_space_pledged", space, flag)
        check(game)
        check(game.copy())
