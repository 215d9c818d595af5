"""inline-procedures and merge-aggregates: small procedures inlined into their callers,
and identical aggregates merged into one."""

from __future__ import annotations

from opt_programs import DATA, calls, function

from boardrules.compiler import ir_text
from boardrules.compiler.optimize.walk import body_exprs

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
