"""The optimizer's frame and effects: every optimization a named pass of the pipeline,
the IR walk, the effects of functions (optimize/effects.py), the pass mask codegen takes
from them, and split-unwinding-calls."""

from __future__ import annotations

import pytest
from opt_programs import DATA, function

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize import OPTIMIZATIONS, analyse
from boardrules.compiler.ir.optimize.walk import walk_expr
from boardrules.compiler.pipeline import PASS_NAMES


def test_every_optimization_is_a_named_pass_of_the_pipeline():
    names = [name for name, _ in OPTIMIZATIONS]
    assert len(set(names)) == len(names)
    assert PASS_NAMES.index("check") < PASS_NAMES.index(names[0])
    assert PASS_NAMES.index(names[-1]) < PASS_NAMES.index("codegen")


def test_walk_visits_every_node():
    e = ir.Binary(ir.INT, "+", ir.Const(ir.INT, 1), ir.Local(ir.INT, "x"))
    assert [type(n).__name__ for n in walk_expr(e)] == ["Binary", "Const", "Local"]


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


def test_a_walk_the_loop_guard_counts_is_impure(editions):
    """Its rounds count toward the turn's million: kept in a memo or hoisted out of a loop,
    it would be counted fewer times, and a looping turn would fail later or elsewhere
    (found by the long differential fuzz, programs 1735 and 1907 of seed 7)."""
    program = editions.compile(DATA + (
        "proc spread(a: int, b: int) -> int { return sum(x for x in a to b) }\n"
        "proc listed() -> int { return count(s in spaces where s.price > 1) }\n"
        "rule r { on land(p: player, s: space) { move(p, spread(s.price, s.level) + listed()) }"
        " }\n"), until="narrow-integers").program  # which marks the walks counted
    walked = {a.name: a.domain.guarded for a in program.aggregates}
    fx = analyse(program)
    assert {name for name, guarded in walked.items() if guarded} <= fx.impure
    assert {name for name, guarded in walked.items() if not guarded} & fx.impure == set()
    assert any(walked.values()) and not all(walked.values())


def test_recursion_through_several_procedures_and_only_theirs_is_unsafe(editions):
    """A cycle of three procedures, one calling itself, and a caller of the cycle that is
    on no cycle: each function of a cycle, and only those, may recurse without end."""
    program = editions.compile(DATA + (
        "proc a(n: int) -> int { if n <= 0 { return 0 } return b(n - 1) }\n"
        "proc b(n: int) -> int { return c(n) }\n"
        "proc c(n: int) -> int { return a(n) }\n"
        "proc itself(n: int) -> int { if n <= 0 { return 0 } return itself(n - 1) }\n"
        "proc caller(n: int) -> int { return a(n) + itself(n) }\n"
        "rule r { on land(p: player, s: space) { s.level = caller(2) } }\n"),
        until="check").program
    assert analyse(program).recursive == {"proc_a", "proc_b", "proc_c", "proc_itself"}


def test_a_bankruptcy_may_end_the_game_but_closes_no_cycle_through_the_land_event(editions):
    """`declare_bankrupt(p)` may end the game but runs no pass or land event: a land rule
    that reaches it is on no cycle (its depth is not counted); one that moves is."""
    program = editions.compile(DATA + (
        "proc broke(p: player) { declare_bankrupt(p) }\n"
        "proc hop(p: player) { move(p, 1) }\n"
        "rule r { on land(p: player, s: space) { broke(p) } }\n"
        "rule m { on land(p: player, s: space) { hop(p) } }\n"),
        until="check").program
    fx = analyse(program)
    assert {"proc_broke", "rule_r_0"} <= fx.unwinding
    assert {"proc_broke", "rule_r_0"}.isdisjoint(fx.recursive)
    assert {"proc_hop", "rule_m_0", "event_land"} <= fx.recursive


# ---- pass events decided per space ---------------------------------------------------------


@pytest.mark.parametrize("guard, mask", [
    ("when s == s1", [0, 1, 0]),
    ("when s.special or s.price > 5", [0, 0, 0]),
    ("when p.cash > 0", [1, 1, 1]),
    ("", [1, 1, 1]),
])
def test_the_pass_mask_keeps_only_spaces_where_a_handler_may_run(editions, guard, mask):
    from boardrules.compiler.back.codegen import pass_mask

    program = editions.compile(DATA + (
        f"rule salary {{ on pass(p: player, s: space) {guard} {{ pay(bank, p, 1) }} }}\n"),
        until="lazy-decisions").program
    assert pass_mask(program, analyse(program)) == mask


# ---- split-unwinding-calls ---------------------------------------------------------------------


def test_a_call_that_may_end_the_turn_leaves_the_test_that_reads_it(editions):
    """`if not stuck(p)` becomes `let call_result_1 = stuck(p)` then `if not call_result_1`:
    the turn ends through the unwinding flag, not an exception from inside the test."""
    from boardrules.compiler.back.codegen import generate

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


def test_a_turn_runs_inside_a_try_only_when_it_can_end_inside_an_expression(editions):
    """`p.cash > 3 and stuck(p)` keeps stuck(p) inside the test: the turn then ends by the
    Unwind exception, which only a turn run inside a try catches; with the call taken out
    (`not stuck(p)`), no turn needs one (saving the exception state every turn)."""
    stuck = "proc stuck(p: player) -> bool {\n  if p.cash < 5 { end turn }\n  return false\n}\n"
    for test, unwinds in (("p.cash > 3 and stuck(p)", True), ("not stuck(p)", False)):
        _, code, namespace = editions.module(DATA + stuck + (
            f"rule r {{ on turn(p: player) {{\n  if {test} {{ pay(bank, p, 1) }}\n"
            "  pay(p, bank, 1)\n} }\n"))
        assert f"self.unwinds = {unwinds}" in code
        game = namespace["Game"](2, seed=1)
        game.state_set("cash", 0, 4)
        game.play(max_turns=1)  # p1 has 4: stuck(p) ends the turn before either payment
        assert game.players_cash()[0] == 4 and game.turn == 1
