"""fold-constants and eliminate-some: constant arithmetic and dead branches folded, and
`some()` and bounds checks dropped where they cannot fail."""

from __future__ import annotations

from opt_programs import DATA, DATA_BOARD, calls, function

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize import analyse
from boardrules.compiler.ir.optimize.walk import body_exprs, walk_expr

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


def test_fold_drops_an_addition_of_zero_and_a_product_by_one(editions):
    """What inlining a procedure that returns 0 or 1 leaves (`bundle_worth + goods_worth`);
    `0 - x` is a negation and stays."""
    body = DATA + (
        "proc nothing(p: player) -> int { return 0 }\n"
        "proc once(p: player) -> int { return 1 }\n"
        "rule r { on turn(p: player) {\n"
        "  pay(p, bank, p.cash + nothing(p))\n"
        "  pay(p, bank, once(p) * p.cash - nothing(p))\n"
        "  pay(p, bank, (p.cash / once(p)) - 0)\n"
        "  pay(p, bank, 0 - p.cash)\n"
        "} }\n")
    after = function(editions.compile(body, until="drop-proven-checks").program, "rule_r_0")
    assert ir_text.block(after.body) == [  # and no range check left on the cash alone
        "  k_pay(p, -1, p.player_cash)", "  k_pay(p, -1, p.player_cash)",
        "  k_pay(p, -1, p.player_cash)", "  k_pay(p, -1, narrow((0 - p.player_cash)))"]


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
        "proc has_spaces(g: group) -> bool { return count(t in spaces where t.group == g)"
        " > 0 }\n"
        "proc in_group(s: space) -> bool {\n"
        "  if s.group == none { return false }\n"
        "  return has_spaces(some(s.group))\n}\n"
        "proc unsure(s: space) -> bool { return has_spaces(some(s.group)) }\n"
        "rule r { on land(p: player, s: space) { if in_group(s) and unsure(s) { move(p, 1) } } }\n")
    program = editions.compile(body, until="eliminate-some").program
    assert "k_some" not in calls(body_exprs(function(program, "proc_in_group").body))
    assert "k_some" in calls(body_exprs(function(program, "proc_unsure").body))
    fx = analyse(program)
    assert "proc_in_group" not in fx.unsafe and "proc_unsure" in fx.unsafe


NONE_TESTED = """proc price_of(s: space?) -> money {
  if s != none { return s.price }
  return 0
}
decision offer(p: player, s: space?) by p -> bool {
  default (if s != none then s.price + s.level else 0) > 3
    and (if s == none then 0 else s.price) > 1 and price_of(s) > 2
}
decision unsure(p: player, s: space?) by p -> bool {
  default (if s == none then s.price else 0) > 3
}
rule r { on land(p: player, s: space) { if ask offer(p, s) and ask unsure(p, s) { move(p, 1) } } }
"""


def _checked_reads(e: ir.Expr) -> list[ir.Expr]:
    """The field reads of e through an entity that may be none (bounds-checked)."""
    return [n for n in walk_expr(e) if isinstance(n, ir.Table) and n.entity.type.optional
            or isinstance(n, ir.State) and n.checked]


def test_a_field_read_where_its_entity_was_tested_for_none_is_not_checked(editions):
    """`if s != none then s.price` (also once a procedure is inlined into the decision) reads
    the price without the bounds check; read where s is none, it keeps it (a rules error)."""
    program = editions.compile(DATA + NONE_TESTED, until="eliminate-inlined-some").program
    offer, unsure = (next(d for d in program.decisions if d.name == name)
                     for name in ("offer", "unsure"))
    assert len(_checked_reads(offer.default)) == 0
    assert [n.type.name for n in walk_expr(offer.default) if isinstance(n, ir.Table)] == \
        ["int"] * 3
    assert len(_checked_reads(unsure.default)) == 1


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
