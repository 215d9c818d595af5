"""Walking a domain in another order: `for x in D by KEY [desc]`, `first_of(... by KEY)` and
best's ties `by KEY`, on both backends, with their located errors, their IR and their
mutants (the Order Demo edition's scenarios show them in play)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front import ast
from boardrules.compiler.front.parser import parse
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.ir_text import block
from boardrules.compiler.mutation.mutation_text import mutated_line
from boardrules.compiler.mutation.mutations import apply, mutants
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness import describe_structures
from boardrules.harness.scenarios import cases, load_edition, run_case
from boardrules.runtime.loader import load_module

DEMO = Path(__file__).parents[1] / "editions" / "order_demo" / "order_demo.rules"
BACKENDS = ("interpreted", "compiled")

BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
field space.price: int = 0
board {
  space s0 "S0" plain { price = 3 }
  space s1 "S1" plain { price = 1 }
  space s2 "S2" plain { price = 2 }
  space s3 "S3" plain { price = 0 }
  space s4 "S4" plain { price = 2 }
  space s5 "S5" plain { price = 5 }
}
rule turn { on turn(p: player) { move(p, 1) } }
"""

# Each counter records the members in the order a walk met them, as digits (space s_i
# is i + 1, so that s0 shows).
PROBE = BOARD + """counter up: int = 0
counter down: int = 0
counter broken: int = 0
counter nested: int = 0
counter shadowed: int = 0
counter snapshot: int = 0
counter deep: int = 0
counter seats: int = 0
counter cheapest: int = 0
counter dearest_even: int = 0
counter first_plain: int = 0
counter tie_back: int = 0
counter space.bump: int = 0
proc digit(s: space) -> int {
  return s.track + 1
}
proc countdown(n: int) {
  for k in 1 to 3 where k <= n by 0 - k {
    deep = deep * 10 + k
    if k == n {
      countdown(n - 1)
    }
  }
}
rule probe {
  on start() {
    for s in spaces where s.price > 0 by s.price {
      up = up * 10 + digit(s)
    }
    for s in spaces by s.price desc {
      down = down * 10 + digit(s)
    }
    for s in spaces by s.price desc {
      if s.price < 2 { break }
      broken = broken * 10 + digit(s)
    }
    for a in 1 to 2 by 0 - a {
      for s in spaces where s.price == a by s.track desc {
        nested = nested * 10 + digit(s)
      }
    }
    for s in spaces where s.price == 2 by s.track {
      shadowed = shadowed * 10 + digit(s)
      for t in spaces where t.price <= 1 by t.price desc {
        shadowed = shadowed * 10 + digit(t)
      }
    }
    for s in spaces where s.price >= 2 by s.price + s.bump {
      s4.bump = 100
      snapshot = snapshot * 10 + digit(s)
    }
    countdown(3)
    for q in players by q.cash desc {
      seats = seats * 10 + q.seat + 1
    }
    cheapest = digit(some(first_of(s in spaces where s.price > 0 by s.price)))
    dearest_even = digit(some(first_of(s in spaces where s.price % 2 == 0 by s.price desc)))
    first_plain = digit(some(first_of(s in spaces where s.price == 2)))
    tie_back = digit(some(best(s.price % 3 for s in spaces by s.price desc)))
  }
}
"""
# ascending prices, ties in board order: s1 (1), s2 and s4 (2), s0 (3), s5 (5); s3 (0) fails
EXPECTED = {
    "up": 23516,
    "down": 613524,  # descending, ties still in board order: s5, s0, s2, s4, s1, s3
    "broken": 6135,  # stops at s1 (price 1 < 2)
    "nested": 532,  # a = 2 then 1; within each, by track descending: s4, s2, then s1
    "shadowed": 324524,  # an inner walk has arrays of its own (a same name is BR222)
    "snapshot": 3516,  # keys taken before the body bumps s4's: s2, s4, s0, s5
    "deep": 321121,  # each call walks its own members: 3 (2 (1) 1) 2 1
    "seats": 12,  # equal cash: seat order
    "cheapest": 2,  # s1
    "dearest_even": 3,  # s2 (price 2), the first of the dearest even prices (s3 has 0)
    "first_plain": 3,  # first_of without by: the first in board order
    "tie_back": 6,  # price % 3 == 2: s2, s4 and s5; by price desc: s5
}


def _after_a_turn(editions, text: str, name: str, backend: str) -> dict[str, int]:
    """The counters of a two-player game of the edition after its first turn."""
    module = load_module(str(editions.write(text, prelude=False, name=name)), backend)
    game = module.Game(2, seed=1)
    game.play(1)
    return dict(zip([label for label, _, _ in module.COUNTERS], game.counter_values(),
                    strict=True))


@pytest.mark.parametrize("backend", BACKENDS)
def test_walks_in_key_order_on_both_backends(module_editions, backend):
    values = _after_a_turn(module_editions, PROBE, "ordered", backend)
    assert {name: values[name] for name in EXPECTED} == EXPECTED


# ---- the Order Demo edition ------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo():
    return load_edition(str(DEMO))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_demo_scenarios_pass(demo, backend):
    found = cases(demo)
    assert len(found) == 6
    for case in found:
        outcome = run_case(demo, case, backend)
        assert outcome.passed, outcome.message


@pytest.mark.parametrize("players", [2, 4])
def test_both_backends_play_the_demo_alike(players):
    for seed in (1, 7):
        games = [load_module(str(DEMO), b).Game(players, seed=seed, trace=True) for b in BACKENDS]
        for game in games:
            game.play()
        assert games[0].trace() == games[1].trace()
        assert games[0].counter_values() == games[1].counter_values()


# ---- syntax, checks and lowering -------------------------------------------------------------

def test_the_parser_keeps_the_order():
    module = parse("proc f() {\n  for s in spaces where s.price > 0 by s.price desc { }\n"
                   "  let x = first_of(s in spaces by 0 - s.price)\n}\n", "t.rules")
    loop, let = module.decls[0].body
    assert isinstance(loop, ast.For) and loop.where is not None
    assert isinstance(loop.order, ast.Order) and loop.order.desc
    assert (loop.order.span.line, loop.order.span.column) == (2, 37)
    assert let.value.kind == "first_of" and not let.value.order.desc


@pytest.mark.parametrize(("body", "where"), [
    # desc without by
    ("proc f() { for s in spaces desc { } }\n", (E.DESC_WITHOUT_ORDER, 13, 28)),
    ("proc f() -> space? { return first_of(s in spaces desc) }\n",
     (E.DESC_WITHOUT_ORDER, 13, 50)),
    # a key that is not an int: at the key
    ("proc f() { for s in spaces by s { } }\n", (E.TYPE_MISMATCH, 13, 31)),
    ("proc f() -> space? { return best(1 for s in spaces by s.kind) }\n",
     (E.TYPE_MISMATCH, 13, 55)),
    # an order that cannot change the value: at `by`
    ("proc f() -> int { return sum(p.cash for p in players by p.cash) }\n",
     (E.ORDER_CHANGES_NOTHING, 13, 54)),
    ("proc f() -> bool { return any(p in players by p.cash desc) }\n",
     (E.ORDER_CHANGES_NOTHING, 13, 44)),
    ("proc f() -> int { return max_of(p.cash for p in players by p.cash) }\n",
     (E.ORDER_CHANGES_NOTHING, 13, 57)),
    # first_of takes no value
    ("proc f() -> space? { return first_of(1 for s in spaces) }\n",
     (E.AGGREGATE_VALUE, 13, 38)),
    # a range the arrays cannot be sized for: at the domain
    ("proc f(n: int) { for k in 1 to n by k { } }\n", (E.ORDERED_WALK_SIZE, 13, 27)),
    ("proc f() { for k in 1 to 5000 by k { } }\n", (E.ORDERED_WALK_SIZE, 13, 21)),
])
def test_ordering_mistakes_are_located(editions, body, where):
    kind, line, column = where
    assert editions.located(body) == [(kind.code, line, column)]


def test_first_of_and_best_by_lower_to_the_aggregates_every_pass_knows(editions):
    c = editions.compile("proc f() -> player? {\n"
                         "  return best(p.cash % 2 for p in players by p.position.track desc)\n}\n"
                         "proc g() -> player? { return first_of(p in players by p.cash) }\n")
    top, best, first = c.program.aggregates
    assert [a.kind for a in c.program.aggregates] == ["max_of", "best", "best"]
    # of the members whose value is the largest (the max_of), the best by the key itself
    assert best.where == ir.Binary(ir.BOOL, "==", top.value, ir.CallProc(ir.INT, top.name, ()))
    assert isinstance(best.value, ir.Derived) and best.value.what == "space_track"
    assert first.value == ir.Binary(ir.INT, "-", ir.Const(ir.INT, -1), first.value.right)


def test_an_ordered_walk_lowers_to_a_loop_with_its_order_and_the_break_flag(editions):
    c = editions.compile("counter n: int = 0\nrule r { on start() {\n"
                         "  for s in spaces where s != s1 by s.track desc {\n"
                         "    if n > 1 { break }\n    n += 1\n  }\n} }\n")
    function = next(f for f in c.program.functions if f.name.startswith("rule_r"))
    loop = next(s for s in function.body if isinstance(s, ir.Loop))
    assert loop.desc and loop.order is not None and loop.order_where is not None
    # the filter picks the members before the walk; the flag is tested as each is visited
    assert loop.where == ir.Unary(ir.BOOL, "not", ir.Local(ir.BOOL, "break_0_"))
    assert "by" in block((loop,))[0] and "desc" in block((loop,))[0]


# ---- mutation testing: asc <-> desc -----------------------------------------------------------

def test_reversing_an_ordered_walk_is_a_mutant(editions):
    path = editions.write("counter n: int = 0\nrule r { on start() {\n"
                          "  for s in spaces by s.track desc { n = n * 10 + s.track }\n} }\n")
    c = compile_rules(path, until="check")
    found = [m for m in mutants(c) if m.operator == "order"]
    assert [(m.line, m.before, m.after) for m in found] == [
        (15, "by s.track desc", "by s.track")]
    mutant = apply(c, found[0])
    loop = next(s for f in mutant.functions if f.name.startswith("rule_r")
                for s in f.body if isinstance(s, ir.Loop))
    assert not loop.desc


@pytest.mark.parametrize(("line", "old", "new", "after"), [
    ("  for s in spaces where s.price > 0 by s.price {",
     "", "desc", "  for s in spaces where s.price > 0 by s.price desc {"),
    ("  for s in spaces by s.price desc { n += 1 }",
     "desc", "", "  for s in spaces by s.price { n += 1 }"),
    ("  return some(first_of(s in spaces where s.owner == p by some(s.group).order))",
     "", "desc", "  return some(first_of(s in spaces where s.owner == p by "
     "some(s.group).order desc))"),
])
def test_the_reversed_order_shows_on_the_rules_line(line, old, new, after):
    assert mutated_line(line, "order", old, new) == after


def test_a_negated_filter_of_an_ordered_walk_keeps_its_order():
    line = "  for s in spaces where s.price > 0 by s.price {"
    assert mutated_line(line, "negate", "", "", "where") == (
        "  for s in spaces where not (s.price > 0) by s.price {")


def test_reversing_an_aggregates_order_is_a_mutant_and_its_constants_are_not(editions):
    path = editions.write("proc f() -> player? { return first_of(q in players by q.cash + 1) }\n"
                          "proc g() -> space? { return first_of(s in spaces where s.track > 0) }\n"
                          "proc h() -> player? { return best(1 for q in players by q.cash desc) }\n"
                          "counter c: player? = none\ncounter d: space? = none\n"
                          "rule r { on start() { c = f()\n d = g()\n c = h() } }\n")
    c = compile_rules(path, until="check")
    found = [(m.operator, m.line, m.before, m.after) for m in mutants(c)
             if m.origin in ("proc f", "proc g", "proc h")]
    assert ("order", 13, "by q.cash + 1", "by q.cash + 1 desc") in found
    assert ("order", 15, "by q.cash desc", "by q.cash") in found
    # the key's own constant is; the constants the lowering wrote (-1 - key, 0) are not
    assert ("const", 13, "1", "2") in found
    assert [m for m in found if m[1] == 14 and m[0] == "const"] == [
        ("const", 14, "0", "1"), ("const", 14, "0", "-1")]
    flipped = next(m for m in mutants(c) if m.operator == "order" and m.line == 13)
    best = next(a for a in apply(c, flipped).aggregates if a.name.endswith("proc_f"))
    assert best.value == ir.Binary(ir.INT, "+", best.value.left, ir.Const(ir.INT, 1))


def test_describe_tells_a_scenario_writer_the_order_of_a_walk():
    module = parse("proc f() {\n  for q in players where q.cash > 0 by q.cash desc { }\n"
                   "  for s in spaces by s.price { }\n  for k in 1 to 3 { }\n}\n", "t.rules")
    frames = [describe_structures._frame(loop) for loop in module.decls[0].body]
    assert frames == [
        "for each player q, by q.cash descending (ties in seat order from p1) (those a "
        "condition leaves out skipped)",
        "for each space s, by s.price ascending (ties in board order)",
        "for each number k of a range"]


DEFAULTS = BOARD + """counter dearest: space? = none
counter cheapest_odd: space? = none
decision pick(p: player) by p -> space? where s: s.price > 0 {
  default first_of(s in legal by s.price desc)
}
decision pick_odd(p: player) by p -> space where s: s.price % 2 == 1 {
  default some(first_of(s in legal where s != s1 by s.price))
}
rule picking {
  on turn(p: player) {
    dearest = ask pick(p)
    cheapest_odd = ask pick_odd(p)
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_decisions_default_picks_among_its_options_in_an_order(module_editions, backend):
    values = _after_a_turn(module_editions, DEFAULTS, "defaults", backend)
    assert (values["dearest"], values["cheapest_odd"]) == (5, 0)  # s5 (5); s0 (3), not s1


def test_a_best_by_a_key_is_mutated_as_written_in_both_aggregates_it_lowers_to(editions):
    path = editions.write("proc f() -> player? {\n  return best(q.cash % 7 for q in players "
                          "where q.seat > 2 by q.position.track)\n}\ncounter c: player? = none\n"
                          "rule r { on start() { c = f() } }\n")
    c = compile_rules(path, until="check")
    found = [m for m in mutants(c) if m.origin == "proc f"]
    shown = sorted((m.operator, m.before, m.after) for m in found)
    # the value's 7 and the filter's 2 and > once each (not once per aggregate), no mutant
    # of the == the lowering wrote, and the order reversed
    assert [m for m in shown if m[0] == "const"] == sorted([
        ("const", "7", "8"), ("const", "7", "6"), ("const", "7", "14"), ("const", "7", "0"),
        ("const", "2", "3"), ("const", "2", "1"), ("const", "2", "4"), ("const", "2", "0")])
    assert [m for m in shown if m[0] == "compare"] == [("compare", "q.seat > 2", "q.seat >= 2")]
    assert ("order", "by q.position.track", "by q.position.track desc") in shown
    seven = next(m for m in found if m.operator == "const" and m.after == "8")
    top, best = apply(c, seven).aggregates[:2]
    assert "8" in str(top.value) and "8" in str(best.where.right.left)
