"""memoize-aggregates: memos over counters, over the players, keyed by a player's cash
(exactly or by a range of cash with the same answer) and by a declared field, each
following every write."""

from __future__ import annotations

import random

from opt_programs import DATA, DATA_BOARD

from boardrules.compiler.ir import ir_text

# ---- memoize-aggregates ------------------------------------------------------------------------


MEMO_RULES = DATA + (
    "proc owned(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
    "proc levels(p: player) -> int { return sum(s.level for s in spaces where s.owner == p) }\n"
    "proc rich(p: player) -> int { return count(s in spaces where s.price < p.cash) }\n"
    "proc others(p: player) -> int { return count(q in players where q != p) }\n"
    "proc claim(p: player, s: space) { s.owner = p }\n"
    "proc raise_level(s: space) { s.level += 1 }\n"
    "rule r { on turn(p: player) {\n"
    "  claim(p, s1)\n  raise_level(s1)\n"
    "  move(p, owned(p) + levels(p) + rich(p) + others(p))\n} }\n")


def test_aggregates_that_read_only_counters_are_memoized(editions):
    program = editions.compile(MEMO_RULES, until="memoize-aggregates").program
    memos = [a.memo for a in program.aggregates]
    # what p owns: versioned per owner (regions.py); who is still in: by the kernel
    assert sorted((memo.reads, memo.per_owner) for memo in memos if memo) == [
        ((), (("space_level", "p"), ("space_owner", "p"))), ((), (("space_owner", "p"),)),
        (("player_alive",), ())]
    # reading cash (kernel state written every turn): never memoized
    assert sum(memo is None for memo in memos) == 1
    assert program.memo_slots == sum(memo.slots for memo in memos if memo)


def test_a_memo_over_the_players_follows_a_retirement(editions):
    """Who is still in is versioned by the kernel: a retirement outdates the count."""

    compilation, _, namespace = editions.module(MEMO_RULES)
    game = namespace["Game"](3, seed=1)
    (others,) = [a.name for a in compilation.program.aggregates
                 if a.memo and a.memo.reads == ("player_alive",)]
    assert game.invoke(others, (0,)) == 2
    game.k_retire(1)
    assert game.invoke(others, (0,)) == 1
    game.state_set("alive", 1, 1)
    assert game.invoke(others, (0,)) == 2


def test_a_memoized_value_follows_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: never a stale value."""

    compilation, _, namespace = editions.module(MEMO_RULES)
    game = namespace["Game"](2, seed=1)
    memoized = {a.name.split("_in_proc_")[1]: a.name for a in compilation.program.aggregates
                if a.memo}
    owned, levels = memoized["owned"], memoized["levels"]

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

    compilation, _, namespace = editions.module(CASH_MEMO_RULES)
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


# ---- cash ranges (memoize-aggregates) ---------------------------------------------------------

RANGE_RULES = DATA + """decision pick(p: player) by p -> space?
    where s: s.owner == p and p.cash >= s.price {
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
    # `p.cash >= s.price` (the legality) is implied by `p.cash - s.price >= 10` (the
    # default's): one test of the two, in the first one's place
    assert ir_text.expr(ranged.where).count("k_cash_at_least(p.player_cash, ") == 2
    assert "k_cash_at_least(p.player_cash, (10 + s.space_price))" in ir_text.expr(ranged.where)
    assert "k_cash_at_least(p.player_cash, s.space_price)" not in ir_text.expr(ranged.where)
    exact = next(a for a in program.aggregates if "decide_exact" in a.name and a.memo)
    assert exact.memo.cash_of == "p" and not exact.memo.cash_range  # `%`: not a comparison


def test_a_cash_range_memo_answers_as_a_walk_does(editions):
    from boardrules.compiler.back.codegen import generate
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
    from boardrules.compiler.back.codegen import generate
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


def test_a_walk_bounded_by_the_cash_is_not_memoized(editions):
    """`count(k in 1 to p.cash ...)`: the cash decides the walk, and the loop guard counts
    its rounds (effects.py: such a walk is impure), so no memo skips it; a comparison with
    the cash in a filter keeps the range with the same answer."""
    program = editions.compile(DATA + (
        "proc span(p: player) -> int { return count(k in 1 to p.cash where k > s1.level) }\n"
        "proc owned_span(p: player) -> int {\n"
        "  return count(s in spaces where s.owner == p and s.price < p.cash) }\n"
        "rule r { on turn(p: player) { move(p, span(p) % 3 + owned_span(p)) } }\n"),
        until="memoize-aggregates").program
    memos = {a.name: a.memo for a in program.aggregates}
    walked = next(name for name in memos if name.endswith("_in_proc_span"))
    owned = next(name for name in memos if name.endswith("_in_proc_owned_span"))
    assert memos[walked] is None
    assert memos[owned] is not None and memos[owned].cash_range


INT_PARAM_RULES = DATA + (
    "proc above(p: player, floor: int) -> int {\n"
    "  return count(s in spaces where s.owner == p and s.level >= floor)\n}\n"
    "proc over(p: player, n: int) -> int {\n"
    "  return count(s in spaces where s.owner == p and s.level > n)\n}\n"
    "proc claim(p: player, s: space) { s.owner = p }\n"
    "proc raise_level(s: space) { s.level += 1 }\n"
    "rule r { on turn(p: player) {\n"
    "  claim(p, s1)\n  raise_level(s1)\n"
    "  move(p, above(p, 2) + above(p, 4) + over(p, p.cash))\n} }\n")


def test_an_integer_parameter_of_a_small_range_in_every_call_has_slots(editions):
    """`floor` is 2 to 4 wherever `above` is called: a slot per value; `n` is a player's
    cash in `over`'s call: no memo (its slots would be unbounded)."""
    program = editions.compile(INT_PARAM_RULES, until="memoize-aggregates").program
    aggregates = {a.name.split("_in_proc_")[1]: a for a in program.aggregates}
    above = aggregates["above"]
    dims = dict(zip((name for name, _ in above.params), above.memo.dims, strict=True))
    assert dims == {"p": (0, 4), "floor": (-2, 3)}
    assert aggregates["over"].memo is None


def test_an_integer_argument_outside_the_slots_is_worked_out(editions):

    compilation, code, namespace = editions.module(INT_PARAM_RULES)
    assert "0 <= v_floor - 2 < 3" in code
    game = namespace["Game"](2, seed=1)
    (above,) = [a for a in compilation.program.aggregates if "_in_proc_above" in a.name]
    order = [name for name, _ in above.params]
    for step in range(6):
        game.invoke("proc_claim", (step % 2, step % 3))
        game.invoke("proc_raise_level", (step % 3,))
        for p in (0, 1):
            levels = [game.state_get("c_space_level", s) for s in range(3)
                      if game.state_get("c_space_owner", s) == p]
            for floor in range(-1, 7):  # within the slots (2 to 4) and outside them
                args = {"p": p, "floor": floor}
                answer = game.invoke(above.name, tuple(args[name] for name in order))
                assert answer == sum(v >= floor for v in levels)
