"""skip-idle-loops (optimize/idle.py): a loop that its askers' default answers leave with
nothing to do runs only when one of them would answer otherwise."""

from __future__ import annotations

import pytest

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.runtime.loader import load_module

RULES = """counter player.bought: int = 0
counter space.level: int = 0
decision offer(p: player, q: player) by p -> int? from 1 to p.cash {
  default none
}
decision swap(p: player, q: player) by q -> bool {
  default false
}
decision grab(p: player) by p -> int? from 1 to 9 {
  default 2
}
decision gamble(p: player) by p -> space? where s: random(2) == 0 {
  default none
}
rule purses { on start() {
  for p in players {
    pay(bank, p, 100)
  }
} }
rule offers { on turn(p: player) {
  for q in players where q != p {
    let price = ask offer(p, q)
    if price != none and price < 50 {
      pay(p, q, price)
      p.bought += 1
    }
  }
  for q in players where q != p {
    if ask swap(p, q) {
      p.bought += 10
    }
  }
  for q in players where q != p {
    let price = ask offer(p, q)
    s0.level += 1
  }
  for q in players where q != p {
    let got = ask grab(p)
    if got != none {
      p.bought += 100
    }
  }
  for q in players where q != p {
    if ask gamble(p) != none {
      p.bought += 1000
    }
  }
  move(p, 1)
} }
"""


def test_a_loop_the_default_answers_leave_idle_is_skipped_under_them(editions):
    """Only the offers' loop is tested first: p asks there, and its default, none, buys
    nothing. The swaps are asked of q, the loop's own variable (one test before the loop
    cannot stand for every round); the third loop raises a level whatever the answer; the
    fourth decision's default, 2, is not a constant it may take without checking; the
    fifth is eager (its filter draws at random), so its none is not answered inline."""
    program = editions.compile(RULES, until="skip-idle-loops").program
    handler = next(f for f in program.functions if f.name == "rule_offers_0")
    wrapped = [s for s in handler.body if isinstance(s, ir.If)]
    assert len(wrapped) == 1
    assert ir_text.expr(wrapped[0].test) == "(not k_default_answers(p))"
    (loop,) = wrapped[0].then
    assert isinstance(loop, ir.Loop) and loop == program_before(editions).body[0]
    assert sum(isinstance(s, ir.Loop) for s in handler.body) == 4


def program_before(editions) -> ir.Function:
    program = editions.compile(RULES, until="lazy-decisions").program
    return next(f for f in program.functions if f.name == "rule_offers_0")


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_an_answer_other_than_the_default_still_runs_the_loop(module_editions, backend):
    """Under the default policy the offers buy nothing (the loop is skipped; the grab
    gives 100); a forced offer is taken (the loop runs), on both backends alike."""
    module = load_module(str(module_editions.write(RULES)), backend)
    game = module.Game(2, seed=1)
    game.play(1)
    assert game.state_get("c_player_bought", 0) == 100
    game = module.Game(2, seed=1)
    game.force_answers("offer", [7])
    game.play(1)
    assert game.state_get("c_player_bought", 0) == 101
    assert game.state_get("cash", 1) - game.state_get("cash", 0) == 14
