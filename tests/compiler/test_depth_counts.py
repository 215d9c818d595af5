"""depth_counts.py: on a cycle of calls, only a feedback set of functions counts its depth,
the ones entered least from outside the cycle; an endless recursion still stops alike."""

from __future__ import annotations

import pytest

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.ir.depth_counts import depth_counted
from boardrules.compiler.ir.optimize import OPTIMIZATIONS
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.errors import rules_location

# A payment every turn and every landing calls; short of cash, the debtor's settlement
# charges again while a debt is left: the cycle charge -> short -> insolvent -> settle.
DEBTS = """die six faces [1, 2, 3, 4, 5, 6]
counter player.debt: int = 0
event short(p: player, amount: money)
proc charge(p: player, amount: money) {
  if p.cash < amount {
    trigger short(p, amount)
  } else {
    pay(p, bank, amount)
  }
}
rule insolvent { on short(p: player, amount: money) { settle(p) } }
proc settle(p: player) {
  if p.debt > 0 {
    p.debt -= 1
    charge(p, 1)
  }
}
rule walk { on turn(p: player) {
  charge(p, 2)
  move(p, roll(six))
} }
rule toll { on land(p: player, s: space) { charge(p, 1) } }
"""


def test_the_payment_every_turn_calls_counts_no_depth(editions):
    """One function of the cycle counts: not charge, which the turn and the landing call,
    but one only the cycle enters; and the generated charge has no depth count."""
    path = editions.write(DEBTS, name="debts")
    compilation = compile_rules(path)
    counted = depth_counted(compilation.program)
    assert len(counted) == 1 and counted < {"rule_insolvent_0", "proc_settle"}
    assert compilation.program.depth_counted == counted
    code = generate(compilation.program, "debts.rules")
    charge = code.split("def proc_charge(")[1].split("@cython.cfunc")[0]
    assert "k_enter" not in charge and "body_proc_charge" not in code
    reference = compile_rules(path, skip=[name for name, _ in OPTIMIZATIONS])
    assert depth_counted(reference.program) == counted


def outcome(module, debt: int) -> tuple:
    game = module.Game(2, seed=3, trace=True)
    for p in range(2):
        game.state_set("cash", p, 0)
        game.state_set("c_player_debt", p, debt)
    try:
        game.play(20)
    except module.RuleError as exc:
        return ("error", str(exc), rules_location(module, exc))
    return ("played", tuple(game.trace()))


@pytest.fixture(scope="module")
def debts(module_editions):
    return module_editions.three_ways(DEBTS, "debts")


def test_a_recursion_through_an_uncounted_payment_plays_alike(debts):
    """150 settlements deep, within the limit: the same game everywhere."""
    played = [outcome(module, 150) for module in debts]
    assert played[0][0] == "played" and played[0] == played[1] == played[2]


def test_an_endless_recursion_through_it_stops_alike(debts):
    """Past the limit: the counted function's located rules error, on both backends and
    without the optimizations."""
    stopped = [outcome(module, 1_000_000) for module in debts]
    assert stopped[1][0] == "error" and "calls nested more than 200 deep" in stopped[1][1]
    assert stopped[0] == stopped[1] == stopped[2]
