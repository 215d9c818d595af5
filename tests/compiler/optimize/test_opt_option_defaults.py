"""options-defaults (optimize/option_defaults.py): a decision whose options are listed (its
filter may fail) takes a default that walks its own domain and filter from the list."""

from __future__ import annotations

import pytest
from opt_programs import DATA, module_namespace

from boardrules.compiler.ir import ir_text
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.loader import load_module

RULES = DATA + """proc doubled(n: int) -> int {
  return n * 2
}
proc bump(s: space) -> int {
  s.level += 1
  return s.price
}
decision site(p: player) by p -> space? where s: doubled(s.level) >= 0 and s.owner == none {
  default best(s.price + s.level for s in spaces
               where doubled(s.level) >= 0 and s.owner == none and s.level < 3)
}
decision plain(p: player) by p -> space? where s: s.owner == none {
  default best(s.price for s in legal)
}
decision bumped(p: player) by p -> space? where s: doubled(s.level) >= 0 {
  default best(bump(s) for s in spaces where doubled(s.level) >= 0)
}
decision agree(p: player) by p -> bool {
  default true
}
decision asking(p: player) by p -> space? where s: doubled(s.level) >= 0 {
  default best(s.price for s in spaces where doubled(s.level) >= 0 and ask agree(p))
}
rule r { on turn(p: player) {
  let s = ask site(p)
  if s != none {
    let taken = some(s)
    taken.owner = p
  }
  let t = ask plain(p)
  if turn > 6 {
    let u = ask bumped(p)
    let v = ask asking(p)
  }
  move(p, 1)
} }
"""


def decisions(program) -> dict:
    return {d.name: d for d in program.decisions}


def test_a_listed_decisions_default_walks_the_list(editions):
    """`site`'s filter may fail (a doubled level may leave 32 bits), so its options are
    listed, and its default, which walks its domain and filter again, walks the list.
    `plain`'s default policy is checked lazily: nothing is listed, nothing added. `bumped`'s
    default writes a level, which its filter reads: walking the filter again might not give
    the list again, so it is left alone; `asking`'s asks a decision, which lists its own
    options in the same place."""
    program = editions.compile(RULES, until="settle-lazy-reads").program
    found = decisions(program)
    site = found["site"]
    assert not site.lazy and site.options_default is not None
    walk = next(a for a in program.aggregates if a.name == site.options_default.function)
    assert walk.name.endswith("_among_options") and "k_option(listed)" in ir_text.aggregate(walk)
    assert "doubled" not in ir_text.aggregate(walk)  # the filter is not worked out again
    assert found["plain"].lazy and found["plain"].options_default is None
    assert not any(a.name.endswith("_among_options") and "plain" in a.name
                   for a in program.aggregates)
    assert found["bumped"].options_default is None
    assert found["asking"].options_default is None  # a decision would list its own options
    assert "its default among the listed options" in ir_text.program(program)


def traces(program, seeds=range(4), turns=12, **settings) -> list:
    game_class = module_namespace(program)["Game"]
    played = []
    for seed in seeds:
        game = game_class(3, seed=seed, **settings)
        game.play(turns)
        played.append((game.trace(), game.counter_values()))
    return played


@pytest.mark.parametrize("traced", [True, False])
def test_the_list_gives_the_answers_the_walk_gave(editions, traced):
    path = editions.write(RULES)
    optimized = compile_rules(path).program
    unlisted = compile_rules(path, skip=("options-defaults",)).program
    assert any(d.options_default is not None for d in optimized.decisions)
    assert not any(d.options_default is not None for d in unlisted.decisions)
    assert traces(optimized, trace=traced) == traces(unlisted, trace=traced)


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_filter_that_fails_fails_as_before(module_editions, backend):
    """A level whose double leaves 32 bits: listing the options fails, on both backends,
    with the filter's own error; a level the filter can take gives the dearest site."""
    module = load_module(str(module_editions.write(RULES)), backend)
    game = module.Game(2, seed=3)
    game.state_set("c_space_level", 1, 2)
    game.play(1)
    assert game.state_get("c_space_owner", 1) == 0  # price 5 + level 2: the best site
    game.state_set("c_space_level", 2, 1500000000)
    with pytest.raises(module.RuleError, match="3000000000 does not fit in 32 bits"):
        game.play(1)
