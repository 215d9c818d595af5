"""lift-early-exits, order-conjuncts and hoist-invariants: how the filters of aggregates
are rearranged, and what does not depend on the candidate computed once."""

from __future__ import annotations

import pytest
from opt_programs import DATA, DATA_BOARD, function, random_traces

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir

# ---- lift-early-exits and order-conjuncts ----------------------------------------------------


def test_early_exits_are_lifted_and_cheap_tests_come_first(editions):
    program = editions.compile(DATA + (
        "proc busy(s: space) -> bool { return count(t in spaces where t.level > 0) > 1 }\n"
        "proc mine(p: player, s: space) -> bool {\n"
        "  if s.owner != p { return false }\n"
        "  let n = s.level\n  return n < 3 and not busy(s)\n}\n"
        "rule r { on turn(p: player) {\n"
        "  move(p, count(s in spaces where busy(s) and mine(p, s) and s.price > 2))\n"
        "} }\n"), until="order-conjuncts").program
    where = next(a for a in program.aggregates if "mine" in ir_text.aggregate(a)).where
    order = ir_text.expr(where)
    assert order.index("s.space_owner == p") < order.index("s.space_price > 2") < order.index(
        "proc_mine")
    assert "hoisted" in order  # busy(s) scans every t whatever s is: computed once


def test_no_operand_moves_across_a_test_for_none(editions):
    program = editions.compile(DATA + (
        "proc f(p: player, o: player?) -> bool { return o != none and o.cash > p.cash }\n"
        "rule r { on turn(p: player) { if f(p, s0.owner) { move(p, 1) } } }\n"),
        until="order-conjuncts").program
    text = ir_text.block(function(program, "rule_r_0").body)[0]  # f is inlined there
    assert "proc_f" not in text and text.index("!= none") < text.index("cash")


def test_the_same_clean_test_twice_in_a_chain_is_kept_once(editions):
    """Two inlined procedures that each test `s.price > 2`: the filter tests it once. Not
    across a test that may write or raise: there, the second could see another game."""
    program = editions.compile(DATA + (
        "proc pricey(s: space) -> bool { return s.price > 2 }\n"
        "proc worth(p: player, s: space) -> bool { return s.price > 2 and s.owner == p }\n"
        "rule r { on turn(p: player) {\n"
        "  move(p, count(s in spaces where pricey(s) and worth(p, s)))\n"
        "} }\n"), until="order-conjuncts").program
    where = next(a for a in program.aggregates if a.kind == "count").where
    assert ir_text.expr(where).count("s.space_price > 2") == 1


def test_a_test_common_to_every_alternative_is_factored_out(editions):
    """`(owner == p and A) or (owner == p and B)` becomes `owner == p and (A or B)`, which
    index-filters turns into a walk over p's spaces; not past a test that may raise."""
    program = editions.compile(DATA_BOARD + DATA + (
        "proc sellable(p: player) -> int {\n"
        "  return count(s in spaces where (s.owner == p and s.level > 0)\n"
        "               or (s.owner == p and s.price > 3)) }\n"
        "proc guarded(p: player) -> int {\n"
        "  return count(s in spaces where (s.level / (s.price - 5) > 0 and s.owner == p)\n"
        "               or (s.owner == p and s.price > 3)) }\n"
        "rule r { on turn(p: player) { move(p, sellable(p) + guarded(p)) } }\n"),
        until="index-filters", prelude=False).program
    factored, kept = (next(a for a in program.aggregates if name in ir_text.expr(a.where))
                      for name in ("s.space_level > 0", "/"))
    assert factored.domain.index and ir_text.expr(factored.where) == (
        "((s.space_level > 0) or (s.space_price > 3))")
    assert not kept.domain.index and "s.space_owner == p" in ir_text.expr(kept.where)


# ---- hoist-invariants ------------------------------------------------------------------------


def test_a_call_that_does_not_depend_on_the_candidate_is_computed_once(editions):
    program = editions.compile(DATA + (
        "proc floor(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "proc pick(p: player) -> space? {\n"
        "  let n = 0\n"
        "  return best(s.price for s in spaces where s.price > floor(p) + n)\n}\n"
        "rule r { on turn(p: player) { if pick(p) != none { move(p, 1) } } }\n"),
        until="hoist-invariants").program
    picked = next(a for a in program.aggregates if a.kind == "best")
    floor = next(a for a in program.aggregates if a.kind == "count")
    # the largest part that reads no candidate: the call and what it is added to
    assert [ir_text.expr(e) for _, e in picked.hoisted] == [f"({floor.name}(p) + n)"]
    assert "hoisted" in ir_text.expr(picked.where)


def _picked(editions, declarations: str, where: str) -> ir.Aggregate:
    """`pick(p)`'s walk, `best(s.price for s in spaces where ...)`, after hoisting."""
    program = editions.compile(DATA + declarations + (
        "proc pick(p: player) -> space? {\n"
        f"  return best(s.price for s in spaces where {where})\n}}\n"
        "rule r { on turn(p: player) { if pick(p) != none { move(p, 1) } } }\n"),
        until="hoist-invariants").program
    return next(a for a in program.aggregates if "pick" in a.name)


def test_a_call_made_only_on_a_condition_is_hoisted_with_its_condition(editions):
    """`if p.cash >= 10 then none else spare(p)` is the same for every candidate: computed
    once, whole, so that `spare(p)` is still asked only when the cash is short."""
    picked = _picked(editions, "proc spare(p: player) -> space? {\n"
                     "  return best(s.price for s in spaces where s.owner == p)\n}\n",
                     "s.price > 2 or s == (if p.cash >= 10 then none else spare(p))")
    spare = picked.hoisted[0][1].otherwise.function
    assert [ir_text.expr(e) for _, e in picked.hoisted] == [
        f"(if (p.player_cash >= 10) then none else {spare}(p))"]


def test_a_choice_by_the_games_own_state_is_computed_once(editions):
    """`if bonus > 0 then 3 else 4` (as a parameter that an option sets) is the same for
    every candidate: computed once; one that reads the candidate is not."""
    picked = _picked(editions, "counter bonus: int = 0\n", "s.level < (if bonus > 0 then 3"
                     " else 4) and s.price < (if s.special then 9 else 5)")
    assert [ir_text.expr(e) for _, e in picked.hoisted] == [
        "(if (game.game_bonus > 0) then 3 else 4)"]
    assert "s.space_special" in ir_text.expr(picked.where)


def test_a_nearest_space_is_computed_once_for_every_candidate(editions):
    """A distance is fewer steps than a board has spaces, so `0 - distance(...)` needs no
    range check and the nearest space's question cannot fail: computed once for the walk
    that compares every candidate with it."""
    program = editions.compile(DATA + (
        "proc nearest(p: player) -> space? {\n"
        "  return best(0 - distance(p.position, t) for t in spaces where t.special)\n}\n"
        "proc closer(p: player) -> space? {\n"
        "  return best(s.price for s in spaces\n"
        "    where distance(p.position, s) < distance(p.position, some(nearest(p))))\n}\n"
        "rule r { on turn(p: player) { if closer(p) != none { move(p, 1) } } }\n"),
        until="hoist-invariants").program
    nearest, closer = sorted((a for a in program.aggregates if a.kind == "best"),
                             key=lambda a: "nearest" not in a.name)
    assert "narrow" not in ir_text.expr(nearest.value)
    # with the distance to it, which `some` may fail: worked out where first needed
    assert [ir_text.expr(e) for _, e in closer.hoisted] == [
        f"k_distance(p.player_position, k_some({nearest.name}(p)))"]
    assert "lazy hoisted" in ir_text.expr(closer.where)


# ---- hoist-option-invariants -----------------------------------------------------------------

OPTIONS = DATA_BOARD + DATA + (
    "proc nearest(p: player) -> space? {\n"
    "  return best(0 - distance(p.position, t) for t in spaces where t.special)\n}\n"
    "decision fly(p: player) by p -> space? where s: s.price > 0\n"
    "    and distance(p.position, s) < distance(p.position, some(nearest(p))) {\n"
    "  default none\n}\n"
    "rule r { on turn(p: player) {\n"
    "  let to = ask fly(p)\n"
    "  if to != none { move_to(p, some(to)) } else { move(p, 1) }\n} }\n")
def test_a_decisions_options_walk_computes_what_no_option_changes_once(editions):
    program = editions.compile(OPTIONS, until="hoist-option-invariants", prelude=False).program
    (fly,) = program.decisions
    (nearest,) = (a for a in program.aggregates if "nearest" in a.name)
    assert [ir_text.expr(e) for _, e in fly.hoisted] == [
        f"k_distance(p.player_position, k_some({nearest.name}(p)))"]
    assert "hoisted" in ir_text.expr(fly.walk_where) and "hoisted" not in ir_text.expr(fly.where)


def test_hoisted_options_are_the_same_options(editions, monkeypatch):
    """The random policy lists every option: the same games with the pass as without."""
    from boardrules.compiler import pipeline

    path = editions.write(OPTIONS, prelude=False)
    hoisted = pipeline.compile_rules(path).program
    assert hoisted.decisions[0].hoisted
    monkeypatch.setattr(pipeline, "PASSES",
                        [p for p in pipeline.PASSES if p[0] != "hoist-option-invariants"])
    played = random_traces(hoisted, 20)
    assert played == random_traces(pipeline.compile_rules(path).program, 20)
    assert any("decides fly=s" in line for game in played for line in game)  # it flew


LAZY = DATA + (
    "proc share(p: player) -> int { return 100 / count(s in spaces where s.owner == p) }\n"
    "proc pick(p: player) -> space? {\n"
    "  return best(s.price for s in spaces where s.level > 0 and s.price < share(p))\n}\n"
    "rule r { on turn(p: player) { if pick(p) != none { move(p, 1) } } }\n")


def test_a_part_that_may_fail_is_hoisted_to_be_worked_out_where_first_needed(editions):
    """`share(p)` divides by a count that may be zero: computed before the walk, it would
    fail for a walk whose candidates never ask it. Hoisted lazily instead: worked out
    once, where the first candidate asks it."""
    program = editions.compile(LAZY, until="hoist-invariants").program
    share = next(a for a in program.aggregates if a.kind == "count")
    picked = next(a for a in program.aggregates if a.kind == "best")
    assert [ir_text.expr(e) for _, e in picked.hoisted] == [f"(100 / {share.name}(p))"]
    assert "lazy hoisted" in ir_text.expr(picked.where)


def test_a_lazy_hoisted_value_fails_only_where_the_walk_would_have(editions):
    from opt_programs import module_namespace

    program = editions.compile(LAZY).program
    game = module_namespace(program)["Game"](2, seed=1)
    assert game.invoke("proc_pick", (0,)) == -1  # no candidate asks share(p): no failure
    game.state_set("c_space_level", 1, 1)
    with pytest.raises(Exception, match="zero"):  # the first candidate asks it: it fails
        game.invoke("proc_pick", (0,))


# ---- settle-lazy-reads -------------------------------------------------------------------------


def test_a_lazy_value_read_again_after_a_certain_read_is_read_as_it_is():
    """In the branches of a conditional whose test read it, and right of `and`; not beside
    it in an operation whose parts C may evaluate in another order."""
    from boardrules.compiler.ir.optimize.hoist import _settled
    from boardrules.compiler.ir.optimize.walk import walk_expr

    lazy = ir.Hoisted(ir.INT, "h", lazy=True)
    three = ir.Const(ir.INT, 3)
    tested = ir.Binary(ir.BOOL, "==", lazy, three)
    chain = ir.Conditional(ir.INT, tested, ir.Binary(ir.INT, "+", lazy, three), lazy)
    settled, done = _settled(chain, frozenset())
    assert done == {"h"}
    assert [n.lazy for n in walk_expr(settled) if isinstance(n, ir.Hoisted)] == [
        True, False, False]
    beside, _ = _settled(ir.Binary(ir.INT, "+", lazy, lazy), frozenset())
    assert all(n.lazy for n in walk_expr(beside) if isinstance(n, ir.Hoisted))
    anded, _ = _settled(ir.Binary(ir.BOOL, "and", tested, tested), frozenset())
    assert [n.lazy for n in walk_expr(anded) if isinstance(n, ir.Hoisted)] == [True, False]
