"""factor-masks (optimize/masks.py): an `any`/`count` over a few members whose filter splits
into parts that each read one of its parameters is asked as words of bits, one per part,
each memoized per argument; a word that fails keeps -1 and the aggregate itself answers."""

from __future__ import annotations

import pytest

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.loader import load_module

RULES = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
enum resource { wood, clay, iron, wool }
board {
  space s0 "S0" plain
  space s1 "S1" plain
}
counter player.res: int[resource] = 0
proc boosted(n: int) -> int {
  return n * 1000000
}
proc lacks_what_q_spares(p: player, q: player) -> bool {
  return any(r in each resource where p.res[r] == 0 and q.res[r] > 1)
}
proc shared(p: player, q: player) -> int {
  return count(r in each resource where p.res[r] == 0 and q.res[r] > 1)
}
proc partner(p: player) -> player? {
  return best(shared(p, q) for q in players where q != p and lacks_what_q_spares(p, q))
}
proc boosted_spare(p: player, q: player) -> bool {
  return any(r in each resource where p.res[r] > 0 and boosted(q.res[r]) > 5)
}
counter player.base: int = 0
proc level(p: player) -> int {
  return p.base * 1000000
}
proc under_level(p: player, q: player) -> bool {
  return any(r in each resource where q.res[r] > 0 and p.res[r] < level(p))
}
field space.cost: int[resource]
counter seen: int = 0
proc with_kind(p: player, k: int) -> bool {
  return any(r in each resource where p.res[r] > 0 and k > seen)
}
proc priced(p: player, s: space) -> bool {
  return any(r in each resource where p.res[r] > 0 and s.cost[r] > 0)
}
proc both_read(p: player, q: player) -> bool {
  return any(r in each resource where p.res[r] > q.res[r] and q.res[r] > 0)
}
rule turn_rule { on turn(p: player) {
  let other = partner(p)
  if other != none and boosted_spare(p, some(other)) and both_read(p, some(other))
      and under_level(p, some(other)) and with_kind(p, p.res[iron])
      and priced(p, s1) {
    p.res[wood] += 1
  }
  move(p, 1)
} }
"""


def named(program: ir.Program, suffix: str) -> ir.Aggregate:
    return next(a for a in program.aggregates if a.name.endswith(suffix))


def test_a_filter_split_by_parameter_is_asked_as_words_of_bits(editions):
    """`lacks_what_q_spares` and `shared` have the same parts: one word of p's and one of
    q's serve both; the walk of partners asks p's word once, before it (a precheck: an
    empty word, no partner). Left alone: a filter whose part reads both parameters, one
    with an integer parameter (no memo slot per value), one with a part on declared data
    alone (no memo keeps its word)."""
    program = editions.compile(RULES, until="settle-lazy-reads", prelude=False).program
    masks = [a for a in program.aggregates if a.kind == "mask"]
    assert sorted(a.params[0][0] for a in masks) == ["p", "p", "p", "q", "q", "q"]
    assert {"(p.player_res[r] == 0)", "(q.player_res[r] > 1)"} <= {
        ir_text.expr(a.where) for a in masks}
    assert all(a.memo is not None for a in masks)
    by_bits = {f.name for f in program.functions if f.name.endswith("_by_bits")}
    assert len(by_bits) == 4  # lacks_what_q_spares, shared, boosted_spare, under_level
    partner = named(program, "_in_proc_partner")
    assert any(f in ir_text.aggregate(partner) for f in by_bits)
    hoisted = dict(partner.hoisted)
    assert [ir_text.expr(hoisted[c.name]) for c in partner.prechecks] == [
        "(agg_0_in_proc_lacks_what_q_spares_bits0(p) != 0)"]
    assert not any(name in ir_text.program(program) for name in (
        "both_read_by_bits", "with_kind_by_bits", "priced_by_bits"))


def test_without_the_pass_no_word_is_asked(editions):
    path = editions.write(RULES, prelude=False)
    program = compile_rules(path, until="settle-lazy-reads", skip=("factor-masks",)).program
    assert not any(a.kind == "mask" for a in program.aggregates)


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_words_answer_what_the_walks_answer_as_resources_change(module_editions, backend):
    """The words, and the partner search that asks them, give the answers worked out here
    from the resources themselves, as the game plays, after writes from outside
    (state_set) and in a copy."""
    module = load_module(str(module_editions.write(RULES, prelude=False)), backend)

    def res(game, p: int) -> list[int]:
        return [game.state_get("c_player_res", p * 4 + r) for r in range(4)]

    def named(suffix: str) -> str:
        return next(name for name in module.CALL_INDEX if name.endswith(suffix))

    def check(game) -> None:
        for p in range(game.n_players):
            mine = res(game, p)
            assert game.invoke(named("_in_proc_lacks_what_q_spares_bits0"), (p,)) == sum(
                1 << r for r in range(4) if mine[r] == 0)
            assert game.invoke(named("_in_proc_lacks_what_q_spares_bits1"), (p,)) == sum(
                1 << r for r in range(4) if mine[r] > 1)
            shared = {q: sum(1 for r in range(4) if mine[r] == 0 and res(game, q)[r] > 1)
                      for q in range(game.n_players) if q != p}
            shared = {q: n for q, n in shared.items() if n}
            assert game.invoke(named("_in_proc_partner"), (p,)) == max(
                shared, key=lambda q: (shared[q], -q), default=-1)

    game = module.Game(3, seed=2)
    for step, (p, r, value) in enumerate([(0, 0, 2), (1, 1, 3), (2, 0, 0), (1, 0, 5),
                                          (0, 2, 4), (2, 3, 2), (0, 0, 0), (1, 1, 1)]):
        game.state_set("c_player_res", p * 4 + r, value)
        check(game)
        game.play(1)
        check(game)
        check(game.copy() if step % 2 else game)


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_word_that_fails_leaves_the_answer_to_the_walk(module_editions, backend):
    """q's word fails on clay (5000 boosted leaves 32 bits): where the walk stops at wood
    before it, the answer stands; where it reaches clay, the walk's own overflow error."""
    module = load_module(str(module_editions.write(RULES, prelude=False)), backend)
    game = module.Game(2, seed=1)
    for r, value in enumerate([1, 5000, 0, 0]):
        game.state_set("c_player_res", 4 + r, value)
    game.state_set("c_player_res", 0, 1)  # p has wood: the walk answers at wood
    assert game.invoke("proc_boosted_spare", (0, 1)) is True
    game.state_set("c_player_res", 0, 0)
    game.state_set("c_player_res", 1, 1)  # p has clay only: the walk boosts q's 5000
    with pytest.raises(module.RuleError, match="5000000000 does not fit in 32 bits"):
        game.invoke("proc_boosted_spare", (0, 1))
    game.state_set("c_player_res", 4 + 1, 7)  # q's word no longer fails
    assert game.invoke("proc_boosted_spare", (0, 1)) is True


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_value_a_word_works_out_before_its_walk_fails_only_where_the_walk_would(
        module_editions, backend):
    """p's word works out `level(p)` once, before its walk, where the aggregate works it
    out only for a resource q holds: while q holds none, p's overflowing level is no
    error; once q holds one, it is the walk's own."""
    module = load_module(str(module_editions.write(RULES, prelude=False)), backend)
    game = module.Game(2, seed=1)
    game.state_set("c_player_base", 0, 5000)
    assert game.invoke("proc_under_level", (0, 1)) is False
    game.state_set("c_player_res", 4, 1)  # q holds wood: the walk asks p's level
    with pytest.raises(module.RuleError, match="5000000000 does not fit in 32 bits"):
        game.invoke("proc_under_level", (0, 1))
    game.state_set("c_player_base", 0, 1)
    assert game.invoke("proc_under_level", (0, 1)) is True
