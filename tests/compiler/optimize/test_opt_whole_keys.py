"""whole-keys (optimize/wholes.py): `owns(p, s.group)` in a bit walk's filter as the word of
the spaces whose group p owns whole, kept by the owner's writes."""

from __future__ import annotations

import pytest

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.runtime.loader import load_module

RULES = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
group reds "Reds"
group blues "Blues"
board {
  space s0 "S0" plain { group = reds, price = 4 }
  space s1 "S1" plain { group = reds, price = 6 }
  space s2 "S2" plain { group = blues, price = 9 }
  space s3 "S3" plain { price = 2 }
  space s4 "S4" plain { group = blues, price = 7 }
}
field space.group: group? = none
field space.price: money = 0
counter space.owner: player? = none
counter space.level: int = 0
proc owns(p: player, g: group) -> bool {
  return all(t.owner == p for t in spaces where t.group == g)
}
proc whole(p: player, s: space) -> bool {
  return owns(p, some(s.group))
}
proc dearest_whole(p: player) -> space? {
  return best(s.price for s in spaces where s.owner == p and s.group != none
              and s.level < 3 and whole(p, s))
}
proc risky_whole(p: player) -> int {
  return count(s in spaces where s.owner == p and s.group != none
               and s.level / (s.price - 10) >= 0 and owns(p, some(s.group)))
}
rule take { on turn(p: player) {
  for s in spaces where s.owner == none and s.price > 0 {
    s.owner = p
    end turn
  }
  let target = dearest_whole(p)
  if target != none and risky_whole(p) >= 0 {
    target.level += 1
  }
  move(p, 1)
} }
"""


def aggregate(program: ir.Program, function: str) -> ir.Aggregate:
    return next(a for a in program.aggregates if a.name.endswith(f"_in_proc_{function}"))


def test_a_whole_group_test_leaves_the_filter_for_a_kept_word(editions):
    """Through the one-line procedure `whole`, the counted `all` of `owns` becomes the
    owner's word of whole groups; the counter index keeps it by the group index."""
    program = editions.compile(RULES, until="whole-keys", prelude=False).program
    dearest = aggregate(program, "dearest_whole")
    (whole,) = dearest.domain.words
    assert whole.value == ir.Local(ir.Type("player"), "p")
    assert ir_text.expr(dearest.where) == "(s.space_level < 3)"
    assert f"and whole keys of {whole.table_index} at p in {whole.counter_index}" in \
        ir_text.aggregate(dearest)
    (cx,) = program.counter_indexes
    assert cx.whole_by == (whole.table_index,)


def test_a_whole_group_test_after_one_that_may_raise_stays_in_the_filter(editions):
    """Skipping a space must not skip the division by zero it might meet first."""
    program = editions.compile(RULES, until="whole-keys", prelude=False).program
    risky = aggregate(program, "risky_whole")
    assert risky.domain.mask is not None and not risky.domain.words
    assert ir_text.expr(risky.where).endswith("and proc_owns(p, s.space_group))")


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_the_kept_words_answer_as_the_scan_does(module_editions, backend):
    """Turn after turn, after state_set and in a copy: the answers worked out here from the
    owners and levels themselves."""
    module = load_module(str(module_editions.write(RULES, prelude=False)), backend)
    group, price = [0, 0, 1, -1, 1], [4, 6, 9, 2, 7]
    name = next(n for n in module.CALL_INDEX
                if n.startswith("agg_") and n.endswith("_in_proc_dearest_whole"))

    def check(game) -> None:
        owners = [game.state_get("c_space_owner", s) for s in range(5)]
        levels = [game.state_get("c_space_level", s) for s in range(5)]
        for p in range(game.n_players):
            mine = [s for s in range(5) if owners[s] == p and group[s] >= 0 and levels[s] < 3
                    and all(owners[t] == p for t in range(5) if group[t] == group[s])]
            assert game.invoke(name, (p,)) == max(mine, key=lambda s: (price[s], -s),
                                                  default=-1)

    game = module.Game(2, seed=3)
    for _ in range(12):
        game.play(1)
        check(game)
        check(game.copy())
    for space, owner in ((0, 1), (1, 1), (2, -1), (4, 0), (2, 0)):
        game.state_set("c_space_owner", space, owner)
        check(game)
        check(game.copy())
