"""share-decision-bounds (optimize/decision_bounds.py): a number decision's upper bound that
its default reads again is worked out once."""

from __future__ import annotations

import re

import pytest
from opt_programs import DATA, module_namespace, random_traces

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.ir import ir_text
from boardrules.compiler.pipeline import compile_rules

RULES = DATA + """proc free_spaces(p: player) -> int {
  let n = 0
  for s in spaces where s.owner == none {
    n += 1
  }
  return n
}
proc counted_up(p: player) -> int {
  let n = 0
  while n < 2 {
    n += 1
  }
  return n
}
decision how_many(p: player, least: int) by p -> int from least to free_spaces(p) {
  default max(least, min(free_spaces(p), 2))
}
decision looped(p: player) by p -> int from 0 to counted_up(p) {
  default min(counted_up(p), 1)
}
decision apart(p: player) by p -> int from 0 to free_spaces(p) {
  default 1
}
rule r { on turn(p: player) {
  let n = ask how_many(p, 0)
  for s in spaces where s.owner == none {
    if n > 0 {
      s.owner = p
      n -= 1
    }
  }
  let m = ask looped(p)
  let k = ask apart(p)
  move(p, 1)
} }
"""


def decisions(program) -> dict:
    return {d.name: d for d in program.decisions}


def test_the_bound_its_default_reads_again_is_worked_out_once(editions):
    """`how_many`'s default asks `free_spaces(p)` again: it reads the bound's value.
    `looped`'s bound loops (the loop guard counts its rounds: asked once less, the guard
    would stop a turn later), and `apart`'s default does not read its bound: left alone."""
    program = editions.compile(RULES, until="share-decision-bounds").program
    found = decisions(program)
    shared = found["how_many"]
    assert shared.hoisted and ir_text.expr(shared.hoisted[0][1]) == "proc_free_spaces(p)"
    assert ir_text.expr(shared.high) == "hoisted how_many_high"
    assert "proc_free_spaces" not in ir_text.expr(shared.default)
    assert "let hoisted how_many_high = proc_free_spaces(p); least..hoisted how_many_high" \
        in ir_text.program(program)
    assert not found["looped"].hoisted and "counted_up" in ir_text.expr(found["looped"].default)
    assert not found["apart"].hoisted


def test_the_generated_decision_asks_its_bound_once(editions):
    code = generate(editions.compile(RULES, until="settle-lazy-reads").program, "ed.rules")
    body = re.search(r"def (?:ask|decide)_how_many\(.*?\n\n", code, re.DOTALL).group(0)
    assert body.count("proc_free_spaces(") == 1, body


@pytest.mark.parametrize("traced", [True, False])
def test_the_shared_bound_plays_as_before(editions, traced):
    path = editions.write(RULES)
    shared = compile_rules(path).program
    apart = compile_rules(path, skip=("share-decision-bounds",)).program
    assert decisions(shared)["how_many"].hoisted and not decisions(apart)["how_many"].hoisted

    def played(program):
        game_class = module_namespace(program)["Game"]
        games = []
        for seed in range(4):
            game = game_class(3, seed=seed, trace=traced)
            game.play(9)
            games.append((game.trace(), game.counter_values()))
        return games

    assert played(shared) == played(apart)
    assert random_traces(shared, 9) == random_traces(apart, 9)
