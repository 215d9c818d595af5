"""guard-aggregates: the guard of an any() that a filter calls is tested before that call,
so the caller's own guard keeps it too (`sale_for`: the spaces no other player could
complete are left out before anyone's cash is read)."""

from __future__ import annotations

from boardrules.compiler.ir import ir_text

RULES = """field space.price: money = 5
counter space.owner: player? = none
counter space.level: int = 0
proc buyer_for(p: player, s: space) -> bool {
  return any(q in players where q != p and s.level > 0 and q.cash >= s.price)
}
proc sale(p: player) -> space? {
  return best(s.price for s in spaces where s.owner == p and buyer_for(p, s))
}
proc offer(p: player) {
  window q from p {
    let s = sale(q)
    if s != none {
      s.owner = none
    }
  }
}
rule r { on turn(p: player) {
  s1.owner = p
  if p.cash > 100 { s1.level += 1 }
  offer(p)
  move(p, 1)
} }
"""


def test_the_guard_of_a_called_any_joins_the_callers_guard(editions):
    program = editions.compile(RULES, until="memoize-aggregates").program
    by_name = {a.name: a for a in program.aggregates}
    buyer = next(a for a in program.aggregates if a.name.endswith("in_proc_buyer_for"))
    sale = next(a for a in program.aggregates if a.name.endswith("in_proc_sale"))
    assert buyer.guard is not None and sale.guard is not None
    # the caller tests the callee's guard first, with the call's arguments
    assert ir_text.expr(sale.where).startswith(f"({buyer.guard.function}(p, s) and ")
    sale_guard = by_name[sale.guard.function]
    assert buyer.guard.function in ir_text.expr(sale_guard.where)
    assert sale_guard.memo is not None and "player_cash" not in sale_guard.memo.reads


def test_a_guarded_caller_answers_as_before(editions):
    """Whoever owns what, at whatever level and cash: the same answer as the filter's."""
    compilation, _, namespace = editions.module(RULES)
    game = namespace["Game"](3, seed=1)
    sale = next(a.name for a in compilation.program.aggregates
                if a.name.endswith("in_proc_sale"))

    def expected(p: int) -> int:
        cash = game.players_cash()
        found = [s for s in range(3) if game.state_get("c_space_owner", s) == p
                 and game.state_get("c_space_level", s) > 0
                 and any(q != p and cash[q] >= 5 for q in range(3))]
        return found[0] if found else -1

    for step in range(12):
        for p in range(3):
            assert game.invoke(sale, (p,)) == expected(p)
        space, seat = step % 3, (step * 2) % 3
        game.state_set("c_space_owner", space, seat if step % 4 else -1)
        game.state_set("c_space_level", (space + 1) % 3, step % 2)
        game.state_set("cash", (seat + 1) % 3, 3 if step % 3 else 50)
