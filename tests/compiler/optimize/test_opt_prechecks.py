"""invariant-prechecks (optimize/prechecks.py): what an aggregate's filter tests that no
candidate changes is tested once, before the walk; and fold-constants (fold-lifted, after
inlining) turns a comparison with a branch that is a constant into logic, so that such
tests show."""

from __future__ import annotations

import pytest
from opt_programs import DATA, DATA_BOARD, function, module_namespace

from boardrules.compiler import pipeline
from boardrules.compiler.ir import ir_text

RULES = DATA_BOARD + DATA + (
    "counter player.seen: int = 0\n"
    "rule purse { on start() { for q in players { pay(bank, q, 130) } } }\n"
    "proc cheapest(p: player) -> space? {\n"
    "  return best(0 - s.price for s in spaces where p.cash > 103 and s.owner == none\n"
    "    and p.seat < 3)\n}\n"
    "proc levels(p: player) -> int {\n"
    "  return sum(s.level for s in spaces\n"
    "    where s.level / (s.level + 1000) >= 0 and p.cash > 3)\n}\n"
    "proc highest(p: player) -> int {\n"
    "  return max_of(s.level for s in spaces where p.cash > 100)\n}\n"
    "rule buy { on land(p: player, s: space) {\n"
    "  let pick = cheapest(p)\n"
    "  if pick != none {\n"
    "    let t = some(pick)\n"
    "    t.owner = p\n"
    "    t.level += levels(p) % 2\n"
    "    pay(p, bank, 7)\n"
    "  }\n"
    "  p.seen += if p.cash > 100 then highest(p) % 2 else 0\n"
    "} }\n")


def aggregates(program) -> dict:
    return {a.name.split("_in_proc_")[1]: a for a in program.aggregates if "_in_proc_" in a.name}


def test_the_tests_no_candidate_changes_are_made_once_before_the_walk(editions):
    program = editions.compile(RULES, until="invariant-prechecks", prelude=False).program
    found = aggregates(program)
    cheapest = found["cheapest"]
    assert [ir_text.expr(c) for c in cheapest.prechecks] == [  # (its cash range kept)
        "k_cash_at_least(p.player_cash, (103 + 1))", "(p.seat < 3)"]
    assert "p." not in ir_text.expr(cheapest.where)  # what is left reads the candidate
    # a division that may fail comes first: what follows it stays in the walk
    assert not found["levels"].prechecks
    # over no candidates max_of is a rules error, which the walk reports
    assert not found["highest"].prechecks


@pytest.mark.parametrize(("branches", "tests"), [
    ("none else s", ["((p.player_cash <= 9) and (s != none))",
                     "((p.player_cash > 9) or (s == none))"]),
    # the constant in the other branch
    ("s else none", ["((p.player_cash > 9) and (s != none))",
                     "((p.player_cash <= 9) or (s == none))"]),
])
def test_a_comparison_with_a_constant_branch_becomes_logic(editions, branches, tests):
    program = editions.compile(DATA + (
        "proc pick(p: player, s: space) -> space? {\n"
        f"  return if p.cash > 9 then {branches}\n}}\n"
        "rule r { on land(p: player, s: space) {\n"
        "  if pick(p, s) != none { move(p, 1) }\n"
        "  if pick(p, s) == none { move(p, 2) }\n} }\n"), until="fold-lifted").program
    assert [ir_text.expr(s.test) for s in function(program, "rule_r_0").body] == tests


def test_prechecked_walks_play_as_before(editions, monkeypatch):
    """The same seeded games with the prechecks as without them (the pass left out)."""
    path = editions.write(RULES, prelude=False)

    def games() -> list:
        game_class = module_namespace(pipeline.compile_rules(path).program)["Game"]
        played = []
        for seed in range(6):
            game = game_class(3, seed=seed, trace=True)
            game.play(30)
            played.append((game.trace(), game.counter_values(), game.players_cash()))
        return played

    prechecked = games()
    monkeypatch.setattr(pipeline, "PASSES",
                        [p for p in pipeline.PASSES if p[0] != "invariant-prechecks"])
    assert prechecked == games()
    assert any(owner != -1 for _, counters, _ in prechecked for owner in counters[0])
