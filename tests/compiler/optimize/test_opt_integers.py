"""narrow-integers: a kept integer is checked to fit in 32 bits unless its range proves it
does; a local read where its last assignment is known has that assignment's range."""

from __future__ import annotations

import pytest
from opt_programs import DATA, function

from boardrules.compiler.ir import ir_text

DIE = "die d6 faces [1, 2, 3, 4, 5, 6]\n"


def narrowed(editions, body: str) -> list[str]:
    """The rule's statements after narrow-integers."""
    program = editions.compile(DATA + DIE + "rule r { on turn(p: player) {\n" + body
                               + "\n} }\n", until="narrow-integers").program
    return ir_text.block(function(program, "rule_r_0").body)


def test_a_sum_of_two_faces_set_in_order_is_not_checked(editions):
    assert narrowed(editions, "let t = roll(d6)\n let u = roll(d6)\n t = t + u\n move(p, t)") == [
        "  let t: int = k_roll(0)", "  let u: int = k_roll(0)", "  t = (t + u)",
        "  k_move(p, t)"]


def test_a_local_a_loop_sets_is_checked_in_it_and_after_it(editions):
    lines = narrowed(editions, "let t = 0\n while t < 100 { t = t + roll(d6) }\n move(p, t + 1)")
    assert "    t = narrow((t + k_roll(0)))" in lines
    assert "  k_move(p, narrow((t + 1)))" in lines


@pytest.mark.parametrize(("branch", "checked"), [
    ("t = 2 } else { t = 3", False),  # either branch leaves a small value
    ("t = p.player_cash", True),  # one branch leaves any 32-bit value
    ("t = 2", False),  # or the value from before the test
])
def test_after_a_test_a_local_has_either_branchs_range(editions, branch, checked):
    branch = branch.replace("p.player_cash", "p.cash")
    lines = narrowed(editions, "let t = roll(d6)\n if p.cash > 0 { " + branch + " }\n"
                     " t = t + t")
    assert lines[-1] == ("  t = narrow((t + t))" if checked else "  t = (t + t)")


def test_a_compound_assignment_forgets_the_range(editions):
    lines = narrowed(editions, "let t = roll(d6)\n t *= p.cash\n t = t + 1")
    assert lines[-1] == "  t = narrow((t + 1))"


def test_a_count_a_while_steps_by_a_constant_is_not_checked(editions):
    """Each round is ticked: at most LOOP_LIMIT rounds, so `n + 1` stays far within 32 bits."""
    lines = narrowed(editions, "let n = 0\n let again = true\n while again {\n"
                     "  n = n + 1\n  again = roll(d6) == 6 and n < 3\n }\n move(p, n + 1)")
    assert "    n = (n + 1)" in lines and "  k_move(p, (n + 1))" in lines


@pytest.mark.parametrize("body", [
    "while n < 5 { for i in 0 to 3 { n += 1 } }",  # stepped in a loop of its own
    "while n < 5 { n += 1\n n = n * 2 }",  # set otherwise too
    "while n < 5 { n += p.cash }",  # stepped by any amount
])
def test_a_count_a_while_sets_otherwise_is_checked(editions, body):
    lines = narrowed(editions, "let n = 0\n " + body + "\n move(p, n + 1)")
    assert lines[-1] == "  k_move(p, narrow((n + 1)))"


def test_a_count_is_at_most_its_domains_length(editions):
    lines = narrowed(editions, "let n = count(t in spaces where t.owner == p)\n move(p, n - 1)")
    assert lines[-1] == "  k_move(p, (n - 1))"
