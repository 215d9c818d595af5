"""entry_tests.py: a procedure that is all a loop over a question's answers, which the
default answer none never enters, is left inline in its callers when that default is
none (the end of every turn asks where to build and which mortgage to lift)."""

from __future__ import annotations

import pytest

from boardrules.runtime.loader import load_module

LOOP_RULES = """counter space.owner: player? = none
counter player.taken: int = 0
proc first_free(p: player) -> space? {
  return best(0 for s in spaces where s.owner == none and s.kind == special)
}
decision pick(p: player) by p -> space? where s: s.owner == none {
  prompt "Take which space (or none)?"
  default first_free(p)
}
proc take_all(p: player) {
  let s = ask pick(p)
  while s != none {
    let t = some(s)
    t.owner = p
    p.taken += 1
    s = ask pick(p)
  }
}
proc take_then_move(p: player) {
  let s = ask pick(p)
  while s != none {
    let t = some(s)
    t.owner = p
    s = ask pick(p)
  }
  move(p, 1)
}
rule r { on turn(p: player) {
  take_all(p)
  take_then_move(p)
  move(p, 1)
} }
"""


def test_a_loop_the_default_none_never_enters_is_tested_inline(editions):
    """`take_all` is its loop: when the asker takes the defaults and the default is none,
    the callers return at once, and call the rest for an answer. `take_then_move` does
    more after its loop: a call."""
    code = editions.compile(LOOP_RULES, until="codegen").code
    entry = code.split("def proc_take_all(")[1].split("@cython.cfunc")[0].splitlines()
    assert [line.strip() for line in entry[2:5]] == [
        "if (self.k_default_answers(v_p) and (self.agg_0_in_proc_first_free() == -1)):",
        "return 0", "return self.rest_proc_take_all(v_p)"]
    assert "v_s = self.decide_pick(v_p)" in code.split("def rest_proc_take_all(")[1]
    assert "def rest_proc_take_then_move(" not in code


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_answers_other_than_the_default_still_run_the_loop(module_editions, backend):
    """Under the default policy the special space s1 is taken, and the loop ends at the
    default none; forced answers take s2 and s0 first, then the default s1, alike on
    both backends."""
    module = load_module(str(module_editions.write(LOOP_RULES)), backend)
    game = module.Game(2, seed=1)
    game.play(2)
    assert [game.state_get("c_space_owner", s) for s in range(3)] == [-1, 0, -1]
    assert game.state_get("c_player_taken", 0) == 1
    game = module.Game(2, seed=1)
    game.force_answers("pick", [2, 0])
    game.play(1)
    assert [game.state_get("c_space_owner", s) for s in range(3)] == [0, 0, 0]
    assert game.state_get("c_player_taken", 0) == 3


TWICE = LOOP_RULES.replace("rule r {", """proc note(p: player) {
  p.taken += 0
}
proc once(p: player) {
  p.taken += 1
}
rule q { on land(p: player, s: space) { note(p) } }
rule r {""").replace("  take_then_move(p)\n", "  take_then_move(p)\n  note(p)\n  once(p)\n")


def inline(code: str, name: str) -> bool:
    return code[:code.index(f"    def {name}(")].rstrip().endswith("@cython.inline")


def test_a_procedure_or_handler_called_from_one_place_is_inline(editions):
    """C inlines a short function called from one place: a rule's handler into its
    event's dispatch, a procedure into the one rule that calls it; not one called from
    two places, nor one with a loop."""
    code = editions.compile(TWICE, until="codegen").code
    assert inline(code, "proc_once") and inline(code, "rule_q_0") and inline(code, "rule_r_0")
    assert not inline(code, "proc_note") and not inline(code, "proc_take_then_move")


SETTLE_RULES = """counter player.owed: int = 0
event short(p: player, amount: int)
proc settle(p: player, amount: int) {
  if p.cash < amount {
    p.owed += amount - p.cash
    trigger short(p, p.cash)
  } else {
    pay(p, none, amount)
  }
}
rule shortfall { on short(p: player, amount: int) {
  settle(p, amount)
} }
rule r { on turn(p: player) {
  settle(p, 600)
  move(p, 1)
} }
"""


def test_a_plain_second_branch_is_inline_and_the_first_a_call(editions):
    """`settle` is all one test: its second branch, a payment, runs inline in the callers
    (the common case costs no call), the first, which calls back into `settle` through an
    event, is the rest."""
    code = editions.compile(SETTLE_RULES, until="codegen").code
    entry = code.split("def proc_settle(")[1].split("@cython.cfunc")[0].splitlines()
    assert [line.strip() for line in entry[2:6]] == [
        "if (self.cash[v_p] >= v_amount):", "self.k_pay(v_p, -1, v_amount)", "return 0",
        "return self.rest_proc_settle(v_p, v_amount)"]
    assert "trigger" not in entry and "self.event_short(" in code.split("def rest_proc_settle(")[1]


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_both_branches_of_a_split_procedure_still_run(module_editions, backend):
    """Each player pays 600 at each turn while the cash lasts, then what is left, the
    rest counted as owed, alike on both backends."""
    module = load_module(str(module_editions.write(SETTLE_RULES)), backend)
    game = module.Game(2, seed=1)
    start = game.state_get("cash", 0)
    turns = start // 600 + 1
    game.play(2 * turns)
    assert game.state_get("cash", 0) == 0
    assert game.state_get("c_player_owed", 0) == 600 * turns - start
