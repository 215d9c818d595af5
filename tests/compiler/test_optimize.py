"""The optimization passes (compiler/optimize/), each on a small program of its own.

Each test compiles a tiny edition up to the pass under test and looks at the IR it
produced; the last tests run generated modules to check that what the passes change
plays exactly as before (the golden digests check the shipped editions)."""

from __future__ import annotations

import random

import pytest

from boardrules.compiler import ir, ir_text
from boardrules.compiler.error_codes import ErrorCode as E
from boardrules.compiler.optimize import OPTIMIZATIONS, analyse
from boardrules.compiler.optimize.walk import body_exprs, walk_expr
from boardrules.compiler.pipeline import PASS_NAMES

DATA = """enum color { red, blue }
group reds "Reds"
field space.price: money = 5
field space.tone: color = blue
field space.group: group? = none
field space.special: bool = false
counter space.owner: player? = none
counter space.level: int = 0
param generous: bool = false
"""


def function(program: ir.Program, name: str) -> ir.Function:
    return next(f for f in program.functions if f.name == name)


def aggregate_texts(program: ir.Program) -> list[str]:
    return [ir_text.aggregate(a) for a in program.aggregates]


def calls(node_source) -> set[str]:
    return {n.function for n in node_source if isinstance(n, ir.CallProc | ir.KernelCall)}


def test_every_optimization_is_a_named_pass_of_the_pipeline():
    names = [name for name, _ in OPTIMIZATIONS]
    assert len(set(names)) == len(names)
    assert PASS_NAMES.index("check") < PASS_NAMES.index(names[0])
    assert PASS_NAMES.index(names[-1]) < PASS_NAMES.index("codegen")


# ---- fold-constants ---------------------------------------------------------------------------


def test_fold_removes_dead_branches_and_folds_arithmetic(editions):
    body = DATA + (
        "rule r { on turn(p: player) {\n"
        "  if generous { pay(bank, p, 10) }\n"
        "  pay(p, bank, 3 * (2 - 1) + 0)\n"
        "  if not generous { move(p, 1) } else { move(p, 2) }\n"
        "} }\n")
    before = function(editions.compile(body, until="capacity").program, "rule_r_0")
    after = function(editions.compile(body, until="fold-constants").program, "rule_r_0")
    assert any(isinstance(s, ir.If) for s in before.body)
    assert not any(isinstance(s, ir.If) for s in after.body)
    texts = ir_text.block(after.body)
    assert texts == ["  k_pay(p, -1, 3)", "  k_move(p, 1)"]


def test_fold_reports_a_constant_outside_the_integer_range(editions):
    located = editions.located(DATA + "rule r { on turn(p: player) {\n"
                               "  pay(p, bank, 2000000000 * 2)\n} }\n",
                               until="fold-constants")
    assert (E.CONSTANT_OUT_OF_RANGE.code, 23, 3) in located, located  # the pay


def test_fold_drops_statements_after_end_turn(editions):
    program = editions.compile(DATA + "rule r { on turn(p: player) {\n"
                               "  if true { end turn }\n  move(p, 1)\n} }\n",
                               until="fold-constants").program
    assert ir_text.block(function(program, "rule_r_0").body) == ["  end turn"]


# ---- eliminate-some -------------------------------------------------------------------------


def test_some_after_an_early_return_on_none_is_dropped(editions):
    body = DATA + (
        "proc first_of(g: group) -> bool { return count(t in spaces where t.group == g)"
        " > 0 }\n"
        "proc in_group(s: space) -> bool {\n"
        "  if s.group == none { return false }\n"
        "  return first_of(some(s.group))\n}\n"
        "proc unsure(s: space) -> bool { return first_of(some(s.group)) }\n"
        "rule r { on land(p: player, s: space) { if in_group(s) and unsure(s) { move(p, 1) } } }\n")
    program = editions.compile(body, until="eliminate-some").program
    assert "k_some" not in calls(body_exprs(function(program, "proc_in_group").body))
    assert "k_some" in calls(body_exprs(function(program, "proc_unsure").body))
    fx = analyse(program)
    assert "proc_in_group" not in fx.unsafe and "proc_unsure" in fx.unsafe


DECLARED_SOME = """field space.partner: space? = none
decision pick(p: player) by p -> space? where s: s.owner == p
    and (if s.group == reds then some(s.partner).price > 0 else true) {
  default none
}
decision risky(p: player) by p -> space? where s: s.owner == p and some(s.partner).price > 0 {
  default none
}
rule r { on land(p: player, s: space) {
  s.owner = p
  if ask pick(p) != none and ask risky(p) != none { move(p, 1) }
} }
"""


def test_some_of_declared_data_that_every_entity_passing_the_tests_has_is_dropped(editions):
    """s0 and s2, the reds, have a partner: `some(s.partner)` cannot fail for a red
    space, and the decision becomes lazy; s1 has none, so it can fail without the test."""
    board = DATA_BOARD.replace("special = true }", "special = true, partner = s1 }").replace(
        "{ group = reds }", "{ group = reds, partner = s0 }")
    text = board + DATA + DECLARED_SOME
    program = editions.compile(text, until="lazy-decisions", prelude=False).program
    pick, risky = (next(d for d in program.decisions if d.name == name)
                   for name in ("pick", "risky"))
    assert "k_some" not in calls(walk_expr(pick.where)) and pick.lazy
    assert "k_some" in calls(walk_expr(risky.where)) and not risky.lazy


# ---- effects ----------------------------------------------------------------------------------


def test_effects_of_functions(editions):
    program = editions.compile(DATA + (
        "proc reads(s: space) -> int { return s.price + s.level }\n"
        "proc writes(s: space) { s.level += 1 }\n"
        "proc deep(n: int) -> int { if n <= 0 { return 0 } return deep(n - 1) }\n"
        "proc ends() { end turn }\n"
        "proc calls_ends() { ends() }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  move(p, reads(s) + deep(2))\n  writes(s)\n  calls_ends()\n} }\n"),
        until="check").program
    fx = analyse(program)
    assert "proc_reads" not in fx.impure | fx.unsafe | fx.unwinding
    assert "proc_writes" in fx.impure and "proc_writes" not in fx.unsafe
    assert "proc_deep" in fx.unsafe  # recursion can exhaust the stack
    assert {"proc_ends", "proc_calls_ends", "rule_r_0"} <= fx.unwinding


# ---- inline-procedures -----------------------------------------------------------------------


def test_small_procedures_are_inlined_and_then_dropped(editions):
    body = DATA + (
        "proc cost(s: space) -> int { return s.price * 2 }\n"
        "rule r { on land(p: player, s: space) { pay(p, bank, cost(s)) } }\n")
    before = editions.compile(body, until="eliminate-some").program
    after = editions.compile(body, until="inline-procedures").program
    assert "proc_cost" in calls(body_exprs(function(before, "rule_r_0").body))
    assert ir_text.block(function(after, "rule_r_0").body) == [
        "  k_pay(p, -1, (s.space_price * 2))"]
    assert "proc_cost" not in {f.name for f in after.functions}


def test_an_argument_with_effects_is_not_inlined(editions):
    program = editions.compile(DATA + (
        "proc twice(n: int) -> int { return n + n }\n"
        "rule r { on land(p: player, s: space) { pay(p, bank, twice(random(6))) } }\n"),
        until="inline-procedures").program
    assert "proc_twice" in calls(body_exprs(function(program, "rule_r_0").body))


# ---- merge-aggregates ------------------------------------------------------------------------


def test_identical_aggregates_are_merged(editions):
    program = editions.compile(DATA + (
        "proc a(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "proc b(q: player) -> int { return count(t in spaces where t.owner == q) }\n"
        "proc c(q: player) -> int { return count(t in spaces where t.owner != q) }\n"
        "rule r { on turn(p: player) { move(p, a(p) + b(p) + c(p)) } }\n"),
        until="merge-aggregates").program
    assert len(program.aggregates) == 2


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


# ---- index-filters ---------------------------------------------------------------------------


def test_spaces_owned_by_someone_else_walk_the_other_owners(editions):
    """`s.owner != none and s.owner != p` in an aggregate whose order does not matter walks
    the members of every other owner; `best` keeps the scan's tie-break (first space)."""
    program = editions.compile(DATA_BOARD + DATA + (
        "proc dearest(p: player) -> space? {\n"
        "  return best(s.price for s in spaces where s.owner != none and s.owner != p) }\n"
        "proc noisy(p: player) -> int {\n"
        "  return count(s in spaces where s.owner != none and s.owner != p\n"
        "               and s.level / (s.price - 5) > 0) }\n"
        "rule r { on turn(p: player) { if dearest(p) != none { move(p, noisy(p)) } } }\n"),
        until="index-filters", prelude=False).program
    dearest, noisy = (next(a for a in program.aggregates if a.kind == kind)
                      for kind in ("best", "count"))
    assert dearest.domain.index and dearest.where is None
    assert [ir_text.expr(e) for e in dearest.domain.others] == ["none", "p"]
    assert not noisy.domain.others  # its filter may raise: the order it meets spaces matters


def test_a_filter_on_declared_data_becomes_an_index(editions):
    program = editions.compile(DATA_BOARD + DATA + (
        "proc members(g: group, p: player) -> int {"
        " return count(t in spaces where t.group == g and t.level == p.cash) }\n"
        "proc flagged() -> int { return count(t in spaces where t.special) }\n"
        "rule r { on turn(p: player) { move(p, members(reds, p) + flagged()) } }\n"),
        until="index-filters", prelude=False).program
    by_group, by_flag = program.aggregates
    assert by_group.domain.index and ir_text.expr(by_group.where) == (
        "(t.space_level == p.player_cash)")
    assert by_flag.domain.index and by_flag.where is None
    group_index = next(ix for ix in program.indexes if ix.name == by_group.domain.index)
    reds = 0 - group_index.offset
    members = group_index.items[group_index.starts[reds]:group_index.starts[reds + 1]]
    assert list(members) == [0, 2]  # s0 and s2, in board order


DATA_BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
board {
  space s0 "S0" plain { group = reds, special = true }
  space s1 "S1" plain
  space s2 "S2" plain { group = reds }
}
rule turn_rule { on turn(p: player) { move(p, 1) } }
"""


# ---- lazy-decisions ---------------------------------------------------------------------------


@pytest.mark.parametrize("where, lazy", [("s.owner == p", True), ("random(2) == 0", False)])
def test_a_decision_is_lazy_only_when_its_filter_is_pure(editions, where, lazy):
    program = editions.compile(DATA + (
        f"decision site(p: player) by p -> space? where s: {where} {{ default none }}\n"
        "rule r { on turn(p: player) { let s = ask site(p) } }\n"),
        until="lazy-decisions").program
    assert program.decisions[0].lazy is lazy


def test_walk_visits_every_node():
    e = ir.Binary(ir.INT, "+", ir.Const(ir.INT, 1), ir.Local(ir.INT, "x"))
    assert [type(n).__name__ for n in walk_expr(e)] == ["Binary", "Const", "Local"]


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
    assert len(picked.hoisted) == 1
    name, value = picked.hoisted[0]
    assert isinstance(value, ir.CallProc) and "hoisted" in ir_text.expr(picked.where)


# ---- the legal options of a decision ------------------------------------------------------


def test_a_default_ranges_over_the_decisions_legal_options(editions):
    program = editions.compile(DATA + (
        "decision site(p: player) by p -> space? where s: s.owner == p {\n"
        "  default best(s.price for s in legal where s.level < 2)\n}\n"
        "rule r { on turn(p: player) { let s = ask site(p) } }\n"), until="check").program
    default = program.decisions[0].default
    aggregate = next(a for a in program.aggregates if a.name == default.function)
    assert ir_text.expr(aggregate.where) == "((s.space_owner == p) and (s.space_level < 2))"


@pytest.mark.parametrize("text, where", [
    ("decision site(p: player) by p -> space? where s: s.owner == p {\n"
     "  default best(t.price for t in legal)\n}\n", (23, 33)),  # at `legal`, named `s`
    ("proc f(p: player) -> int { return count(s in legal) }\n", (22, 46)),
])
def test_legal_outside_its_place_is_an_error(editions, text, where):
    located = editions.located(DATA + text + "rule r { on turn(p: player) {"
                               " let s = ask site(p) } }\n" if "decision" in text else
                               DATA + text + "rule r { on turn(p: player) { move(p, f(p)) } }\n")
    assert (E.WRONG_KIND_OF_NAME.code, *where) in located, located


def test_an_aggregate_filtering_on_a_counter_uses_a_counter_index(editions):
    program = editions.compile(DATA + (
        "proc mine(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p))\n} }\n"), until="index-filters").program
    (index,) = program.counter_indexes
    assert (index.counter, index.offset, index.values) == ("space_owner", -1, 5)
    counting = next(a for a in program.aggregates if a.kind == "count")
    assert counting.domain.index == index.name and counting.where is None


HAND_RULES = DATA + """field card.tone: color = red
deck luck(p: player) "Luck" {
  card c0 "C0." keep
  card c1 "C1." keep { tone = blue }
  card c2 "C2." keep
}
proc red_cards(p: player) -> int {
  return count(c in cards where c.tone == red and holds(p, c))
}
rule r { on land(p: player, s: space) {
  draw luck(p)
  move(p, red_cards(p))
} }
"""


def test_a_question_about_a_players_cards_walks_that_players_hand(editions):
    """`holds(p, c)` in a question over the cards: the walk is p's hand, the list the
    kernel keeps in card order (`held`), over a table index (a card's tone); a memo of it
    reads who holds the cards."""
    program = editions.compile(HAND_RULES, until="memoize-aggregates").program
    counting = next(a for a in program.aggregates if a.kind == "count")
    assert counting.domain.index == "held" and ir_text.expr(counting.domain.key) == "p"
    assert "k_holds" not in calls(walk_expr(counting.where))
    assert counting.memo is not None and counting.memo.reads == ("card_holder",)


SMALL_GROUPS_BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 2
}
enum kind { plain }
group blues "Blues"
group greens "Greens"
group yellows "Yellows"
board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain { group = greens }
  space s4 "S4" plain { group = yellows }
  space s5 "S5" plain
}
rule turn_rule { on turn(p: player) { move(p, 1) } }
"""


def test_the_index_with_the_fewest_members_a_value_serves_the_filter(editions):
    """Six spaces in five groups (1.2 a group) beat two players and none (2 an owner), who
    beat a colour every space has (6)."""
    program = editions.compile(SMALL_GROUPS_BOARD + DATA + (
        "proc near(p: player, s: space) -> int {\n"
        "  return count(t in spaces where t.owner == p and t.group == s.group) }\n"
        "proc toned(p: player) -> int {\n"
        "  return count(t in spaces where t.tone == blue and t.owner == p) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, near(p, s) + toned(p))\n} }\n"),
        until="index-filters", prelude=False).program
    near, toned = (a for a in program.aggregates if a.kind == "count")
    assert near.domain.index.endswith("space_group")
    assert ir_text.expr(near.where) == "(t.space_owner == p)"
    assert toned.domain.index == "vx_space_owner"
    assert ir_text.expr(toned.where) == "(t.space_tone == 1)"
    assert [ix.table for ix in program.indexes] == ["space_group"]  # only the index used


def test_the_counter_index_follows_every_write(editions):
    """Writes by the rules and by the reflection API keep the members in entity order."""
    from boardrules.compiler.codegen import generate

    path = editions.write(DATA + (
        "proc owned(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "proc last_owned(p: player) -> space? { return best(0 for s in spaces where"
        " s.owner == p) }\n"
        "proc claim(p: player, s: space) { s.owner = p }\n"
        "rule r { on turn(p: player) { claim(p, s1)\n"
        "  if last_owned(p) != none { move(p, owned(p)) } } }\n"))
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(path)
    assert compilation.program.counter_indexes
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    names = {a.kind: a.name for a in compilation.program.aggregates}
    for seat, space in ((0, 2), (1, 0), (0, 0), (0, 1), (1, 2)):
        game.invoke("proc_claim", (seat, space))
        owners = [game.state_get("c_space_owner", s) for s in range(3)]
        for p in (0, 1):
            assert game.invoke(names["count"], (p,)) == owners.count(p)
            first = next((s for s in range(3) if owners[s] == p), -1)
            assert game.invoke(names["best"], (p,)) == first
    game.state_set("c_space_owner", 1, -1)  # owners now: p1, none, p2
    assert [game.invoke(names["count"], (p,)) for p in (0, 1)] == [1, 1]
    assert game.invoke(names["best"], (1,)) == 2
    copy = game.copy()
    assert [copy.invoke(names["count"], (p,)) for p in (0, 1)] == [1, 1]


# ---- pass events decided per space ---------------------------------------------------------


@pytest.mark.parametrize("guard, mask", [
    ("when s == s1", [0, 1, 0]),
    ("when s.special or s.price > 5", [0, 0, 0]),
    ("when p.cash > 0", [1, 1, 1]),
    ("", [1, 1, 1]),
])
def test_the_pass_mask_keeps_only_spaces_where_a_handler_may_run(editions, guard, mask):
    from boardrules.compiler.codegen import pass_mask

    program = editions.compile(DATA + (
        f"rule salary {{ on pass(p: player, s: space) {guard} {{ pay(bank, p, 1) }} }}\n"),
        until="lazy-decisions").program
    assert pass_mask(program, analyse(program)) == mask


# ---- split-unwinding-calls ---------------------------------------------------------------------


def test_a_call_that_may_end_the_turn_leaves_the_test_that_reads_it(editions):
    """`if not stuck(p)` becomes `let call_result_1 = stuck(p)` then `if not call_result_1`:
    the turn ends through the unwinding flag, not an exception from inside the test."""
    from boardrules.compiler.codegen import generate

    body = DATA + (
        "proc stuck(p: player) -> bool {\n  if p.cash < 5 { end turn }\n  return false\n}\n"
        "rule r { on turn(p: player) {\n  if not stuck(p) { pay(bank, p, 1) }\n} }\n")
    before = function(editions.compile(body, until="lazy-decisions").program, "rule_r_0")
    after = function(editions.compile(body, until="split-unwinding-calls").program, "rule_r_0")
    assert isinstance(before.body[0], ir.If)
    declare, test = after.body
    assert isinstance(declare, ir.Declare) and isinstance(declare.value, ir.CallProc)
    assert ir_text.expr(test.test) == f"(not {declare.name})"
    assert (declare.name, ir.BOOL) in after.locals
    code = generate(editions.compile(body, until="codegen").program, "ed.rules")
    assert "self.proc_stuck(v_p)\n" in code and "k_unwound(self.proc_stuck" not in code


def test_a_later_operand_that_may_end_the_turn_stays_in_place(editions):
    """Only what the statement evaluates first moves: `a and f()` must not call f early."""
    body = DATA + (
        "proc stuck(p: player) -> bool {\n  if p.cash < 5 { end turn }\n  return false\n}\n"
        "rule r { on turn(p: player) {\n  if p.cash > 3 and stuck(p) { pay(bank, p, 1) }\n} }\n")
    after = function(editions.compile(body, until="split-unwinding-calls").program, "rule_r_0")
    assert len(after.body) == 1 and isinstance(after.body[0], ir.If)


# ---- memoize-aggregates ------------------------------------------------------------------------


MEMO_RULES = DATA + (
    "proc owned(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
    "proc levels(p: player) -> int { return sum(s.level for s in spaces where s.owner == p) }\n"
    "proc rich(p: player) -> int { return count(s in spaces where s.price < p.cash) }\n"
    "proc seats() -> int { return count(q in players) }\n"
    "proc claim(p: player, s: space) { s.owner = p }\n"
    "proc raise_level(s: space) { s.level += 1 }\n"
    "rule r { on turn(p: player) {\n"
    "  claim(p, s1)\n  raise_level(s1)\n"
    "  move(p, owned(p) + levels(p) + rich(p) + seats())\n} }\n")


def test_aggregates_that_read_only_counters_are_memoized(editions):
    program = editions.compile(MEMO_RULES, until="memoize-aggregates").program
    memos = [a.memo for a in program.aggregates]
    assert sorted(memo.reads for memo in memos if memo) == [
        ("player_alive",), ("space_level", "space_owner"), ("space_owner",)]
    # reading cash (kernel state written every turn): never memoized
    assert sum(memo is None for memo in memos) == 1
    assert program.memo_slots == sum(memo.slots for memo in memos if memo)


def test_a_memo_over_the_players_follows_a_retirement(editions):
    """Who is still in is versioned by the kernel: a retirement outdates the count."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(MEMO_RULES))
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](3, seed=1)
    (seats,) = [a.name for a in compilation.program.aggregates
                if a.memo and a.memo.reads == ("player_alive",)]
    assert game.invoke(seats, ()) == 3
    game.k_retire(1)
    assert game.invoke(seats, ()) == 2
    game.state_set("alive", 1, 1)
    assert game.invoke(seats, ()) == 3


def test_a_memoized_value_follows_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: never a stale value."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(MEMO_RULES))
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    memoized = {a.memo.reads: a.name for a in compilation.program.aggregates if a.memo}
    owned, levels = memoized[("space_owner",)], memoized[("space_level", "space_owner")]

    def expected(p: int) -> tuple[int, int]:
        owners = [game.state_get("c_space_owner", s) for s in range(3)]
        return owners.count(p), sum(game.state_get("c_space_level", s)
                                    for s in range(3) if owners[s] == p)

    for step, (seat, space) in enumerate(((0, 2), (1, 0), (0, 0), (0, 1), (1, 2))):
        for p in (0, 1):
            assert (game.invoke(owned, (p,)), game.invoke(levels, (p,))) == expected(p)
        game.invoke("proc_claim", (seat, space))
        if step % 2:
            game.invoke("proc_raise_level", (space,))
    game.state_set("c_space_owner", 1, -1)
    game.state_set("c_space_level", 2, 7)
    copy = game.copy()
    for p in (0, 1):
        assert (game.invoke(owned, (p,)), game.invoke(levels, (p,))) == expected(p)
        assert copy.invoke(owned, (p,)) == expected(p)[0]


CASH_MEMO_RULES = DATA + (
    "proc affordable(p: player) -> int {\n"
    "  return count(s in spaces where s.owner == none and s.price + s.level <= p.cash)\n}\n"
    "proc both(p: player, q: player) -> int {\n"
    "  return count(s in spaces where s.owner == p and s.price <= p.cash + q.cash)\n}\n"
    "proc spend(p: player, n: int) { pay(p, bank, n) }\n"
    "proc claim(p: player, s: space) { s.owner = p }\n"
    "proc raise_level(s: space) { s.level += 1 }\n"
    "rule r { on turn(p: player) {\n"
    "  claim(p, s1)\n  raise_level(s1)\n  spend(p, 1)\n"
    "  move(p, affordable(p) + both(p, p))\n} }\n")


def test_an_aggregate_that_reads_its_players_cash_keeps_that_cash_in_its_memo(editions):
    program = editions.compile(CASH_MEMO_RULES, until="memoize-aggregates").program
    memos = {a.name.split("_in_proc_")[1]: a.memo for a in program.aggregates}
    assert memos["affordable"].cash_of == "p"
    assert memos["affordable"].reads == ("space_level", "space_owner")
    assert memos["both"] is None  # the cash of two players: not kept


def test_a_cash_keyed_memo_follows_every_payment(editions):
    """The rules' payments do not bump a version: the kept cash tells a stale value."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(CASH_MEMO_RULES))
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    (keyed,) = [a.name for a in compilation.program.aggregates if a.memo and a.memo.cash_of]

    def expected(p: int) -> int:
        cash = game.players_cash()[p]
        return sum(game.state_get("c_space_owner", s) == -1
                   and game.state_get("t_space_price", s) + game.state_get("c_space_level", s)
                   <= cash for s in range(3))

    game.state_set("cash", 0, 6)
    for step in range(4):
        assert game.invoke(keyed, (0,)) == expected(0)
        game.invoke("proc_spend", (0, 1))
        assert game.invoke(keyed, (0,)) == expected(0)
        if step == 2:
            game.invoke("proc_raise_level", (2,))
            game.invoke("proc_claim", (1, 0))


# ---- count-queries ----------------------------------------------------------------------------

COUNT_RULES = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
group reds "Reds"
group blues "Blues"
field space.group: group? = none
counter space.owner: player? = none
board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain
}
proc owns(p: player?, g: group?) -> bool {
  return all(t.owner == p for t in spaces where t.group == g)
}
proc completes(p: player?, s: space) -> bool {
  return all(t.owner == p for t in spaces where t.group == s.group and t != s)
}
proc owned_in(p: player?, s: space) -> int {
  return count(t in spaces where t.group == s.group and t.owner == p)
}
proc any_in(p: player?, s: space) -> bool {
  return any(t in spaces where t.owner == p and t.group == s.group and s != t)
}
proc claim(p: player?, s: space) {
  s.owner = p
}
rule turn { on turn(p: player) {
  claim(p, s0)
  if owns(p, reds) or completes(p, s1) or owned_in(p, s2) > 0 or any_in(p, s3) {
    move(p, 1)
  }
} }
"""


def test_group_questions_are_answered_from_counts(editions):
    program = editions.compile(COUNT_RULES, prelude=False, until="count-queries").program
    counted = {a.name.split("_in_proc_")[1]: a.counted for a in program.aggregates}
    assert set(counted) == {"owns", "completes", "owned_in", "any_in"}
    assert all(query is not None for query in counted.values())
    assert counted["completes"].excluded == ir.Local(ir.Type("space"), "s")
    assert counted["any_in"].excluded == ir.Local(ir.Type("space"), "s")
    assert counted["owns"].excluded is None
    (index,) = program.counter_indexes
    assert index.counted_by == (counted["owns"].table_index,)


def test_a_filter_with_another_test_is_not_answered_from_counts(editions):
    program = editions.compile(COUNT_RULES.replace(
        "where t.group == s.group and t.owner == p)", "where t.group == s.group and t.owner == p"
        " and t != s0 and t != s1)"), prelude=False, until="count-queries").program
    owned_in = next(a for a in program.aggregates if a.name.endswith("owned_in"))
    assert owned_in.counted is None


def test_the_counts_follow_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: answers as the scans'."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(COUNT_RULES, prelude=False))
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    aggregates = {a.name.split("_in_proc_")[1]: a for a in compilation.program.aggregates}
    groups = [0, 0, 1, -1]  # reds, reds, blues, none

    def ask(game, what: str, **args: int) -> int:
        a = aggregates[what]
        return game.invoke(a.name, tuple(args[name] for name, _ in a.params))

    def check(g) -> None:
        owners = [g.state_get("c_space_owner", s) for s in range(4)]
        for p in (-1, 0, 1):
            for key in (-1, 0, 1):
                members = [s for s in range(4) if groups[s] == key]
                assert ask(g, "owns", p=p, g=key) == all(owners[t] == p for t in members)
            for s in range(4):
                mates = [t for t in range(4) if groups[t] == groups[s]]
                assert ask(g, "completes", p=p, s=s) == all(owners[t] == p for t in mates
                                                            if t != s)
                assert ask(g, "owned_in", p=p, s=s) == sum(owners[t] == p for t in mates)
                assert ask(g, "any_in", p=p, s=s) == any(owners[t] == p for t in mates if t != s)

    for seat, space in ((0, 0), (1, 2), (0, 1), (-1, 0), (1, 3), (0, 0), (0, 2)):
        game.invoke("proc_claim", (seat, space))
        check(game)
    game.state_set("c_space_owner", 1, 1)
    check(game)
    check(game.copy())


# ---- guard-aggregates ------------------------------------------------------------------------

GUARD_RULES = DATA + """counter space.level2: int = 0
decision pick(p: player) by p -> space? where s: s.owner == p and s.level2 > 0
    and p.cash >= s.price {
  default best(s.price for s in legal where p.cash - s.price >= 10)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level2 = 0
    }
  }
}
proc outside(p: player) -> space? {
  return best(0 - s.price for s in spaces where s.owner == p and s.level2 > 1 and p.cash >= 3)
}
rule r { on turn(p: player) {
  offer(p)
  if outside(p) != none { move(p, 1) }
} }
"""


def test_a_question_windows_ask_is_guarded_by_its_memoized_part(editions):
    program = editions.compile(GUARD_RULES, until="memoize-aggregates").program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert guard.kind == "any" and guard.memo is not None
    assert ir_text.expr(guard.where) == "(s.space_level2 > 0)"
    outside = next(a for a in program.aggregates if a.name.endswith("in_proc_outside"))
    assert outside.guard is None  # asked outside windows only: no guard


STEADY_GUARD_RULES = DATA + """decision pick(p: player) by p -> space? where s: s.owner == p
    and s.level == 0 and paired(p, s) and p.cash >= s.price {
  default best(s.price for s in legal)
}
proc paired(p: player, s: space) -> bool {
  return any(t in spaces where t.owner == p and t.tone == s.tone and t != s)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level = 1
    }
  }
}
rule r { on turn(p: player) { offer(p) } }
"""


def test_a_guard_keeps_the_conjuncts_that_read_only_the_walked_counter(editions):
    """A level written at every pick would outdate a guard that read it; ownership
    (the counter whose index the domain walks) changes less often."""
    program = editions.compile(STEADY_GUARD_RULES, until="memoize-aggregates").program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert "space_level" not in ir_text.expr(guard.where)
    assert guard.memo is not None and guard.memo.reads == ("space_owner",)


def test_a_guarded_question_answers_as_before(editions):
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(GUARD_RULES))
    (asked,) = [a for a in compilation.program.aggregates if a.guard]
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    for owner, level, cash in ((0, 0, 50), (0, 1, 50), (1, 1, 50), (0, 2, 12), (0, 2, 14),
                               (-1, 3, 99), (0, 1, 0)):
        game.state_set("c_space_owner", 1, owner)
        game.state_set("c_space_level2", 1, level)
        game.state_set("cash", 0, cash)
        expected = 1 if owner == 0 and level > 0 and cash >= 5 and cash - 5 >= 10 else -1
        assert game.invoke(asked.name, (0,)) == expected


# ---- keep-candidates -------------------------------------------------------------------------

KEEP_RULES = DATA + """counter space.level2: int = 0
decision pick(p: player) by p -> space? where s: s.owner == p and s.level2 > 0 {
  default best(s.level for s in legal where p.cash >= 10 * s.level)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level2 = 0
    }
  }
}
proc claim(p: player, s: space) { s.owner = p }
proc raise_level(s: space) { s.level += 1 }
proc raise_level2(s: space) { s.level2 += 1 }
proc spend(p: player, n: int) { pay(p, bank, n) }
rule r { on turn(p: player) { offer(p) } }
rule writes { on land(p: player, s: space) {
  claim(p, s)
  raise_level(s)
  raise_level2(s)
  spend(p, 1)
} }
"""


def test_a_guarded_question_walks_the_members_its_guard_kept(editions):
    program = editions.compile(SMALL_GROUPS_BOARD + KEEP_RULES, until="keep-candidates",
                               prelude=False).program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert asked.domain.kept == guard.name and guard.kept is not None
    assert guard.kept.width == 6  # the board's spaces
    assert ir_text.expr(asked.where) == "k_cash_at_least(p.player_cash, (10 * s.space_level))"
    assert ir_text.aggregate(asked).count(f"kept by {guard.name}") == 1


def test_kept_members_follow_every_write(editions):
    """Whatever the rules write between two questions (owners, levels, cash), of either
    player, the kept members give the answer a walk of the whole board gives."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(SMALL_GROUPS_BOARD + KEEP_RULES, prelude=False))
    (asked,) = [a for a in compilation.program.aggregates if a.domain.kept]
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)

    def walked(p: int) -> int:  # the highest level, first on a tie, as the walk finds it
        cash, best, found = game.state_get("cash", p), -1, -1
        for s in range(6):
            level = game.state_get("c_space_level", s)
            if game.state_get("c_space_owner", s) == p and cash >= 10 * level \
                    and game.state_get("c_space_level2", s) > 0 and level > best:
                best, found = level, s
        return found

    rng = random.Random(7)
    for _ in range(300):
        name, args = rng.choice([("proc_claim", (rng.randrange(2), rng.randrange(6))),
                                 ("proc_raise_level", (rng.randrange(6),)),
                                 ("proc_raise_level2", (rng.randrange(6),)),
                                 ("proc_spend", (rng.randrange(2), rng.randrange(-60, 60)))])
        game.invoke(name, args)
        for p in rng.sample((0, 1), 2):
            assert game.invoke(asked.name, (p,)) == walked(p), (name, args, p)
    copy = game.copy()
    assert [copy.invoke(asked.name, (p,)) for p in (0, 1)] == [walked(0), walked(1)]


# ---- guard-loops -----------------------------------------------------------------------------

LOOP_RULES = DATA + """counter player.tokens: int = 0
proc offer(p: player) {
  window q from p {
    hand_out(q)
  }
}
proc hand_out(p: player) {
  for q in players where q != p and q.tokens > 0 and p.cash > q.cash {
    q.tokens -= 1
    pay(p, q, 1)
  }
  for s in spaces where s.owner == none and 10 / (s.level + 1) > 1 {
    s.level += 1
  }
  for q in players where q != p {
    move(q, 0)
  }
}
proc give(p: player) {
  p.tokens += 2
  pay(bank, p, p.seat * 3)
}
rule r { on turn(p: player) {
  offer(p)
  give(p)
} }
"""


def test_a_loop_windows_run_is_skipped_when_no_member_passes_its_kept_part(editions):
    program = editions.compile(LOOP_RULES, until="guard-loops").program
    hand_out = function(program, "proc_hand_out")
    tokens, levels, moves = hand_out.body
    assert isinstance(tokens, ir.If) and isinstance(tokens.then[0], ir.Loop)
    guard = next(a for a in program.aggregates if a.name == tokens.test.function)
    assert guard.kind == "any" and ir_text.expr(guard.where) == (
        "((q != p) and (q.player_tokens > 0))")  # not the cash: it changes every turn
    assert [name for name, _ in guard.params] == ["p"]
    assert isinstance(levels, ir.Loop)  # its filter may raise (a division)
    assert isinstance(moves, ir.Loop)  # it tests locals only: nothing to keep
    memoized = editions.compile(LOOP_RULES, until="memoize-aggregates").program
    assert next(a for a in memoized.aggregates if a.name == guard.name).memo is not None


def test_a_guarded_loop_plays_as_before(editions, monkeypatch):
    """The same seeded games with the guard as without it (the pass left out)."""
    from boardrules.compiler import pipeline
    from boardrules.compiler.codegen import generate

    def games(program: ir.Program) -> list:
        namespace: dict = {"__name__": "generated_under_test"}
        exec(compile(generate(program, "ed.rules"), "<generated>", "exec"), namespace)
        played = []
        for seed in range(5):
            game = namespace["Game"](3, seed=seed)
            game.play(12)
            played.append((game.turn, game.players_cash(), game.counter_values(),
                           [game.state_get("c_player_tokens", q) for q in range(3)]))
        return played

    path = editions.write(LOOP_RULES)
    guarded = pipeline.compile_rules(path).program
    assert any(a.name.startswith("agg_loop") for a in guarded.aggregates)
    monkeypatch.setattr(pipeline, "PASSES",
                        [p for p in pipeline.PASSES if p[0] != "guard-loops"])
    plain = pipeline.compile_rules(path).program
    assert not any(a.name.startswith("agg_loop") for a in plain.aggregates)
    played = games(guarded)
    assert played == games(plain)
    assert any(sum(tokens) < 2 * turns for turns, _, _, tokens in played)  # the loop ran


# ---- cash ranges (memoize-aggregates) ---------------------------------------------------------

RANGE_RULES = DATA + """decision pick(p: player) by p -> space? where s: s.owner == p {
  default best(s.price for s in legal where p.cash - s.price >= 10 and 3 + p.cash > s.level)
}
decision exact(p: player) by p -> space? where s: s.owner == p {
  default best(s.price for s in legal where p.cash % 2 == 0)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    let t = ask exact(q)
    if s != none and t != none {
      s.level += 1
    }
  }
}
proc claim(p: player, s: space) { s.owner = p }
proc spend(p: player, n: int) { pay(p, bank, n) }
rule r { on turn(p: player) { offer(p) } }
rule writes { on land(p: player, s: space) {
  claim(p, s)
  spend(p, 1)
} }
"""


def test_a_cash_keyed_memo_keeps_the_range_of_cash_with_the_same_answer(editions):
    program = editions.compile(RANGE_RULES, until="memoize-aggregates").program
    ranged = next(a for a in program.aggregates if "decide_pick" in a.name and a.memo)
    assert ranged.memo.cash_of == "p" and ranged.memo.cash_range
    assert "player_cash - " not in ir_text.expr(ranged.where)
    assert ir_text.expr(ranged.where).count("k_cash_at_least(p.player_cash, ") == 2
    exact = next(a for a in program.aggregates if "decide_exact" in a.name and a.memo)
    assert exact.memo.cash_of == "p" and not exact.memo.cash_range  # `%`: not a comparison


def test_a_cash_range_memo_answers_as_a_walk_does(editions):
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(RANGE_RULES))
    asked = next(a for a in compilation.program.aggregates
                 if "decide_pick" in a.name and a.memo and a.memo.cash_range)
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)

    def walked(p: int) -> int:
        cash, found = game.state_get("cash", p), -1
        for s in range(3):  # the prelude's spaces, all at the same price: the first wins
            if game.state_get("c_space_owner", s) == p and cash - 5 >= 10 \
                    and 3 + cash > game.state_get("c_space_level", s) and found < 0:
                found = s
        return found

    rng = random.Random(3)
    for s in range(3):
        game.invoke("proc_claim", (s % 2, s))
    for _ in range(300):
        p = rng.randrange(2)
        spent = rng.choice([rng.randrange(-3, 4), rng.randrange(-40, 40),
                            game.state_get("cash", p) - rng.randrange(0, 20)])
        game.invoke("proc_spend", (p, spent))
        if rng.random() < 0.2:
            game.invoke("proc_claim", (rng.randrange(2), rng.randrange(3)))
        for q in rng.sample((0, 1), 2):
            assert game.invoke(asked.name, (q,)) == walked(q), (p, spent, q)


KEYED_RULES = DATA_BOARD + DATA + """proc raised_group(s: space) -> bool {
  return any(t in spaces where t.group == s.group and t.level > 0)
}
proc others_owned(p: player, s: space) -> int {
  return sum(t.price for t in spaces where t.owner == p and t != s and t.group == s.group)
}
proc raise_level(s: space) { s.level += 1 }
proc claim(p: player, s: space) { s.owner = p }
rule r { on land(p: player, s: space) {
  raise_level(s)
  claim(p, s)
  if raised_group(s) and others_owned(p, s) > 0 { move(p, 1) }
} }
"""


def test_a_memo_keyed_by_the_declared_field_its_argument_is_read_through(editions):
    """`raised_group(s)` reads s only as s.group: the spaces of a group share one slot."""
    from boardrules.compiler.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(KEYED_RULES, prelude=False))
    by_kind = {a.kind: a for a in compilation.program.aggregates}
    grouped, counted = by_kind["any"], by_kind["sum"]
    assert grouped.memo.keys == (("space_group", 3),)
    assert grouped.memo.slots == 2  # reds and none
    assert not counted.memo.keys  # it reads s.group, but compares t with s itself too
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)

    def walked(s: int) -> bool:
        group = (0, None, 0)[s]  # s0 and s2 are reds
        return any(game.state_get("c_space_level", t) > 0 for t in range(3)
                   if (0, None, 0)[t] == group)

    def owned(p: int, s: int) -> int:
        return 5 * sum(game.state_get("c_space_owner", t) == p for t in range(3)
                       if t != s and (0, None, 0)[t] == (0, None, 0)[s])

    for step in (2, 1, 0, 2, 1):
        for s in range(3):
            assert game.invoke(grouped.name, (s,)) == walked(s), (step, s)
            assert [game.invoke(counted.name, (p, s)) for p in (0, 1)] == [
                owned(0, s), owned(1, s)]
        game.invoke("proc_raise_level", (step,))
        game.invoke("proc_claim", (step % 2, step))
    assert [game.invoke(grouped.name, (s,)) for s in range(3)] == [walked(s) for s in range(3)]


# ---- known-elements ---------------------------------------------------------------------------

ELEMENT_RULES = DATA + """enum tool { hammer, saw, drill }
counter player.tools: int[tool] = 0
counter player.slots: int[6] = 0
decision lend(p: player) by p -> tool? where t: p.tools[t] > 0 {
  default none
}
proc held(p: player) -> int {
  return count(t in each tool where p.tools[t] > 0)
}
proc spare(p: player, k: int) -> int {
  return p.slots[k] + p.tools[saw]
}
rule r { on turn(p: player) {
  for t in each tool {
    p.tools[t] += 1
  }
  if ask lend(p) == none { move(p, held(p) + spare(p, p.seat)) }
} }
"""


def test_a_list_read_by_a_variable_that_walks_its_range_is_not_bounds_checked(editions):
    program = editions.compile(ELEMENT_RULES, until="known-elements").program
    held = next(a for a in program.aggregates if a.kind == "count")
    assert next(n for n in walk_expr(held.where) if isinstance(n, ir.State)).element_known
    lend = next(d for d in program.decisions if d.name == "lend")
    assert next(n for n in walk_expr(lend.where) if isinstance(n, ir.State)).element_known
    spare = [n for n in body_exprs(function(program, "proc_spare").body)
             if isinstance(n, ir.State) and n.element is not None]
    assert {ir_text.expr(n.element): n.element_known for n in spare} == {"k": False, "1": True}
    loop_writes = [n for n in body_exprs(function(program, "rule_r_0").body)
                   if isinstance(n, ir.State) and n.element is not None]
    assert loop_writes and all(n.element_known for n in loop_writes)
    fx = analyse(program)
    assert held.name not in fx.unsafe and "proc_spare" in fx.unsafe
    compilation = editions.compile(ELEMENT_RULES, until="codegen")
    assert next(d for d in compilation.program.decisions if d.name == "lend").lazy
    code = compilation.code
    body = code[code.index(f"def {held.name}("):]
    assert "self.chk(" not in body[:body.index("\n    @cython")]


def test_a_list_read_by_a_value_of_its_enum_is_not_bounds_checked(editions):
    """`p.tools[t]`, t a tool (never none): one of the list's members, whatever the value,
    also once `uses(p, t)` is inlined into a loop over the tools (Builder's resources kept
    27 such checks); `some(t)` of an optional tool too (none fails in `some`). An int is
    still checked (`p.slots[k]` above)."""
    program = editions.compile(ELEMENT_RULES + (
        "proc uses(p: player, t: tool) -> int { return p.tools[t] }\n"
        "proc maybe(p: player, t: tool?) -> int { return p.tools[some(t)] }\n"
        "proc busy(p: player) -> int { return sum(uses(p, t) + maybe(p, t) for t in each tool) }\n"
        "rule busy_turns { on turn(p: player) { move(p, busy(p) % 2) } }\n"),
        until="known-elements").program
    reads = {f.name: [n.element_known for n in body_exprs(f.body)
                      if isinstance(n, ir.State) and n.element is not None]
             for f in program.functions if f.name in ("proc_uses", "proc_maybe")}
    assert reads == {"proc_uses": [True], "proc_maybe": [True]}


def test_a_memo_whose_walk_reads_the_cash_keeps_the_exact_cash(editions):
    """`count(k in 1 to p.cash ...)`: the cash decides the walk, not a comparison (a fuzzed
    program found the pass looking for it only in the filter)."""
    program = editions.compile(DATA + (
        "proc span(p: player) -> int { return count(k in 1 to p.cash where k > s1.level) }\n"
        "proc owned_span(p: player) -> int {\n"
        "  return count(s in spaces where s.owner == p and s.price < p.cash) }\n"
        "rule r { on turn(p: player) { move(p, span(p) % 3 + owned_span(p)) } }\n"),
        until="memoize-aggregates").program
    memos = {a.name: a.memo for a in program.aggregates if a.memo and a.memo.cash_of}
    ranged = {name: memo.cash_range for name, memo in memos.items()}
    assert sorted(ranged.values()) == [False, True], ranged
