"""span-cash (cash_spans.py): a question about other players' cash, asked through what it
calls (whether any other player could pay for a deed), keeps its value over a range of
each player's cash instead of until the next payment; a read of cash that is not such a
comparison keeps the memo stamped by every payment."""

from __future__ import annotations

import random

from opt_programs import DATA

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir.optimize.memo import CASH
from boardrules.compiler.ir.optimize.walk import aggregate_nodes


def _rules(test: str) -> str:
    return DATA + (
        f"proc takes(q: player, s: space) -> bool {{ return {test} }}\n"
        "proc sale(p: player) -> int { return count(s in spaces where s.owner == p and "
        "any(q in players where q != p and takes(q, s))) }\n"
        "proc claim(p: player, s: space) { s.owner = p }\n"
        "rule r { on turn(p: player) {\n  claim(p, s1)\n  move(p, sale(p) + 1)\n} }\n")


SPANNED = _rules("q.cash - s.price * 2 >= 100")
NOT_SPANNED = _rules("q.cash * 2 - s.price >= 100")
# the comparison in a question that keeps its own values (over q's cash): a kept value
# would skip the comparison, and the ranges would stay too wide
KEPT_INSIDE = _rules("count(t in spaces where t.owner == q and q.cash - t.price >= 100) > 0")


def _sale(program):
    return next(a for a in program.aggregates
                if a.name.endswith("in_proc_sale") and a.kind == "count")


def test_the_comparisons_of_each_players_cash_keep_a_range(editions):
    program = editions.compile(SPANNED, until="span-cash").program
    sale = _sale(program)
    assert sale.memo is not None and sale.memo.spans == 0 and CASH not in sale.memo.reads
    assert program.span_slots == sale.memo.slots
    tests = [n for a in program.aggregates for n in aggregate_nodes(a)
             if getattr(n, "function", "") == "k_player_cash_at_least"]
    assert len(tests) == 1
    assert ir_text.expr(tests[0]) == "k_player_cash_at_least(q, (100 + (s.space_price * 2)))"
    assert "every player's cash, its range" in ir_text.memo(sale.memo)


def test_another_read_of_cash_keeps_the_payment_stamp(editions):
    for rules in (NOT_SPANNED, KEPT_INSIDE):
        program = editions.compile(rules, until="span-cash").program
        sale = _sale(program)
        assert sale.memo is not None and sale.memo.spans == -1 and CASH in sale.memo.reads
        assert program.span_slots == 0
    kept = [a.memo for a in program.aggregates if a.memo is not None and a.memo.cash_of]
    assert kept and kept[0].cash_of == "q"


def test_a_kept_value_holds_while_every_cash_stays_in_its_range(editions):
    """Payments that leave each player's cash on the same side of every threshold keep the
    value (no slot written); one across a threshold outdates it; and every value equals
    the one worked out afresh, in random games of payments and claims."""
    compilation, _, namespace = editions.module(SPANNED)
    name = _sale(compilation.program).name
    game = namespace["Game"](3, seed=1)
    for s in range(3):
        game.state_set("c_space_owner", s, 0)
    first = game.invoke(name, (0,))
    stamps = game.memo_stamp[:]
    game.k_pay(1, 2, 1)  # player 1's and 2's cash move by 1: well within the ranges
    assert game.invoke(name, (0,)) == first and game.memo_stamp == stamps
    rng = random.Random(5)
    hits = 0
    for _ in range(300):
        payer, payee = rng.sample(range(-1, 3), 2)
        game.k_pay(payer, payee, rng.choice((1, 3, 50, 400, 1500)))
        if rng.random() < 0.1:
            game.state_set("c_space_owner", rng.randrange(game.n_spaces), rng.randrange(3))
        stamps = game.memo_stamp[:]
        kept = game.invoke(name, (0,))
        hits += stamps == game.memo_stamp
        fresh = game.copy()
        fresh.memo_forget()
        assert kept == fresh.invoke(name, (0,))
    assert 30 < hits < 290
