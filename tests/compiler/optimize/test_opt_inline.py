"""inline-procedures, lets-as-arguments, inline-hoisted and merge-aggregates: small
procedures inlined into their callers, a procedure's leading lets passed as arguments
(hoisted out of an aggregate's loop, then inlined), and identical aggregates merged."""

from __future__ import annotations

from opt_programs import DATA, calls, function

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize.walk import body_exprs, walk_expr

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


def test_an_argument_that_calls_a_procedure_is_not_copied_to_several_uses(editions):
    program = editions.compile(DATA + (
        "proc squared(n: int) -> int { return n * n }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  pay(p, bank, squared(count(t in spaces where t.owner == p)))\n} }\n"),
        until="inline-procedures").program
    assert "proc_squared" in calls(body_exprs(function(program, "rule_r_0").body))


# ---- lets-as-arguments, inline-hoisted -------------------------------------------------------

TIER = ("proc tier(p: player) -> int {\n"
        "  let n = count(t in spaces where t.owner == p)\n"
        "  if n == 1 { return 5 }\n  if n == 2 { return 7 }\n  return 0\n}\n")


def test_leading_lets_become_arguments_of_a_variant(editions):
    program = editions.compile(DATA + TIER + (
        "rule r { on land(p: player, s: space) { pay(p, bank, tier(p)) } }\n"),
        until="inline-procedures").program
    variant = function(program, "proc_tier__given_n")
    assert [name for name, _ in variant.params] == ["p", "n"] and not variant.locals
    assert ir_text.block(variant.body) == [
        "  return (if (n == 1) then 5 else (if (n == 2) then 7 else 0))"]
    # the count, made once, is the variant's argument where tier was called
    (line,) = ir_text.block(function(program, "rule_r_0").body)
    assert line.startswith("  k_pay(p, -1, proc_tier__given_n(p, agg_")
    assert "proc_tier" not in {f.name for f in program.functions}


def _summed(editions, procedures: str, summed: str) -> ir.Aggregate:
    """The sum a rule pays, after inline-hoisted, with these procedures."""
    program = editions.compile(DATA + procedures + (
        "rule r { on land(p: player, s: space) {\n"
        f"  pay(p, bank, sum({summed}))\n}} }}\n"), until="inline-hoisted").program
    (total,) = [a for a in program.aggregates if a.kind == "sum"]
    return total


def test_a_lets_argument_hoisted_out_of_an_aggregate_inlines_the_variant(editions):
    """`rank(p, t)` for each space t: p's count is made once, before the loop, and the
    variant, one expression of it and of t, is inlined."""
    total = _summed(editions, (
        "proc rank(p: player, t: space) -> int {\n"
        "  let n = count(u in spaces where u.owner == p)\n"
        "  if n == 1 { return t.price }\n  if n == 2 { return 1 }\n  return 0\n}\n"
    ), "rank(p, t) for t in spaces")
    ((hoisted, value),) = total.hoisted
    assert ir_text.expr(value).startswith("agg_")  # the count
    assert ir_text.expr(total.value) == (f"(if (hoisted {hoisted} == 1) then t.space_price "
                                         f"else (if (hoisted {hoisted} == 2) then 1 else 0))")


def test_a_variant_that_may_fail_stays_a_call_after_hoisting(editions):
    """Its error then names the procedure, as it does where nothing is hoisted."""
    total = _summed(editions, (
        "proc rank(p: player, t: space) -> int {\n"
        "  let n = count(u in spaces where u.owner == p)\n"
        "  if n == 1 { return 10 / t.level }\n  if n == 2 { return 1 }\n  return 0\n}\n"
    ), "rank(p, t) for t in spaces")
    assert total.hoisted and calls(walk_expr(total.value)) == {"proc_rank__given_n"}


def test_a_value_that_may_fail_is_inlined_only_where_the_body_reads_it_first(editions):
    """Hoisted to be worked out where first needed, it fails where the call would have."""
    total = _summed(editions, (
        "proc share(p: player, t: space) -> int {\n"
        "  let part = p.cash / count(u in spaces where u.owner == p)\n"
        "  if part > t.price { return 1 }\n  return 0\n}\n"
        "proc late(p: player, t: space) -> int {\n"
        "  let part = p.cash / count(u in spaces where u.owner == p)\n"
        "  if t.price > 100 { return 2 }\n  if part > 10 { return 1 }\n  return 0\n}\n"
    ), "share(p, t) + late(p, t) for t in spaces")
    assert calls(walk_expr(total.value)) - {"narrow"} == {"proc_late__given_part"}
    assert "(if (lazy hoisted" in ir_text.expr(total.value)


# ---- merge-aggregates ------------------------------------------------------------------------


def test_identical_aggregates_are_merged(editions):
    program = editions.compile(DATA + (
        "proc a(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "proc b(q: player) -> int { return count(t in spaces where t.owner == q) }\n"
        "proc c(q: player) -> int { return count(t in spaces where t.owner != q) }\n"
        "rule r { on turn(p: player) { move(p, a(p) + b(p) + c(p)) } }\n"),
        until="merge-aggregates").program
    assert len(program.aggregates) == 2
