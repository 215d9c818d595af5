"""The legal options of a decision (lowered by check) and lazy-decisions."""

from __future__ import annotations

import pytest
from opt_programs import DATA

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.ir import ir_text

# ---- the legal options of a decision ------------------------------------------------------


def test_a_default_ranges_over_the_decisions_legal_options(editions):
    program = editions.compile(DATA + (
        "decision site(p: player) by p -> space? where s: s.owner == p {\n"
        "  default best(s.price for s in legal where s.level < 2)\n}\n"
        "rule r { on turn(p: player) { let s = ask site(p) } }\n"), until="check").program
    default = program.decisions[0].default
    aggregate = next(a for a in program.aggregates if a.name == default.function)
    assert ir_text.expr(aggregate.where) == "((s.space_owner == p) and (s.space_level < 2))"


@pytest.mark.parametrize("default, from_legal", [
    ("best(s.price for s in legal where s.level < 2)", True),
    ("some(best(0 - s.price for s in legal))", True),
    ("best(s.price for s in spaces where s.level < 2)", False),  # any space: checked
    ("if p.cash > 3 then best(s.price for s in legal) else none", False),
])
def test_a_default_drawn_from_the_legal_options_is_not_checked_again(editions, default,
                                                                      from_legal):
    """Its answer is one of the options or none by construction: the default policy
    returns it without testing it against the filter (the others' answers are tested)."""
    program = editions.compile(DATA + (
        "decision site(p: player) by p -> space? where s: s.owner == p {\n"
        f"  default {default}\n}}\n"
        "rule r { on turn(p: player) { let s = ask site(p) } }\n"), until="check").program
    assert program.decisions[0].default_legal is from_legal


@pytest.mark.parametrize("text, where", [
    ("decision site(p: player) by p -> space? where s: s.owner == p {\n"
     "  default best(t.price for t in legal)\n}\n", (23, 33)),  # at `legal`, named `s`
    ("proc f(p: player) -> int { return count(s in legal) }\n", (22, 46)),
])
def test_legal_outside_its_place_is_an_error(editions, text, where):
    located = editions.located(DATA + text + "rule r { on turn(p: player) {"
                               " let s = ask site(p) } }\n" if "decision" in text else
                               DATA + text + "rule r { on turn(p: player) { move(p, f(p)) } }\n")
    assert (E.WRONG_KIND_OF_NAME.code, *where) in located, located


# ---- lazy-decisions ---------------------------------------------------------------------------


@pytest.mark.parametrize("where, lazy", [("s.owner == p", True), ("random(2) == 0", False)])
def test_a_decision_is_lazy_only_when_its_filter_is_pure(editions, where, lazy):
    program = editions.compile(DATA + (
        f"decision site(p: player) by p -> space? where s: {where} {{ default none }}\n"
        "rule r { on turn(p: player) { let s = ask site(p) } }\n"),
        until="lazy-decisions").program
    assert program.decisions[0].lazy is lazy


@pytest.mark.parametrize("default, bounded, answer", [
    ("if p.cash - low >= 5 and low < 20 then low else none", True,
     lambda cash, low: low if cash - low >= 5 and low < 20 else None),
    ("if low < 20 and p.cash >= low + 3 then low else none", True,
     lambda cash, low: low if low < 20 and cash >= low + 3 else None),
    ("if p.cash >= low then low else none", True, lambda cash, low: low if cash >= low else None),
    ("if low < 20 then low else none", False,  # low may exceed p.cash: checked
     lambda cash, low: low if low < 20 else None),
    ("if p.cash - low >= -1 then low else none", False,
     lambda cash, low: low if cash - low >= -1 else None),
    ("if p.cash - low >= 5 then low + 1 else none", False,
     lambda cash, low: low + 1 if cash - low >= 5 else None),
])
def test_a_number_default_bounded_by_its_test_is_not_checked_again(editions, default,
                                                                    bounded, answer):
    """`if p.cash - low >= 5 then low else none`, for an answer from low to p.cash, is in
    range or none by construction: the default policy returns it unchecked; and answers as
    before (an answer out of range is none)."""
    body = DATA + (
        "decision bid(p: player, low: int) by p -> int? from low to p.cash {\n"
        f"  default {default}\n}}\n"
        "rule r { on turn(p: player) { let n = ask bid(p, 7) } }\n")
    program = editions.compile(body, until="lazy-decisions").program
    assert program.decisions[0].default_legal is bounded
    _, code, namespace = editions.module(body)
    assert ("within its range or none, by construction" in code) is bounded
    game = namespace["Game"](2, seed=1)
    for cash in (0, 6, 7, 8, 9, 11, 12, 13, 30):
        game.state_set("cash", 0, cash)
        expected = answer(cash, 7)
        in_range = expected is not None and 7 <= expected <= cash
        assert game.invoke("decide_bid", (0, 7)) == (expected if in_range else -1), cash
