"""guard-aggregates, guards-before-lookups and keep-candidates: a question windows ask,
guarded by its memoized part (asked before the question's own lookup when it changes less
often), and walking the members that guard kept."""

from __future__ import annotations

import random

from opt_programs import DATA, SMALL_GROUPS_BOARD

from boardrules.compiler.ir import ir_text

# ---- guard-aggregates ------------------------------------------------------------------------

GUARD_RULES = DATA + """counter space.level2: int = 0
decision pick(p: player) by p -> space? where s: s.owner == p and s.level2 > 0
    and p.cash >= s.price {
  default best(s.price for s in legal where p.cash - s.price >= 10)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level2 = 0
    }
  }
}
proc outside(p: player) -> space? {
  return best(0 - s.price for s in spaces where s.owner == p and s.level2 > 1 and p.cash >= 3)
}
rule r { on turn(p: player) {
  offer(p)
  if outside(p) != none { move(p, 1) }
} }
"""


def test_a_question_windows_ask_is_guarded_by_its_memoized_part(editions):
    program = editions.compile(GUARD_RULES, until="memoize-aggregates").program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert guard.kind == "any" and guard.memo is not None
    assert ir_text.expr(guard.where) == "(s.space_level2 > 0)"
    outside = next(a for a in program.aggregates if a.name.endswith("in_proc_outside"))
    assert outside.guard is None  # asked outside windows only: no guard


STEADY_GUARD_RULES = DATA + """decision pick(p: player) by p -> space? where s: s.owner == p
    and s.level == 0 and paired(p, s) and p.cash >= s.price {
  default best(s.price for s in legal)
}
proc paired(p: player, s: space) -> bool {
  return any(t in spaces where t.owner == p and t.tone == s.tone and t != s)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level = 1
    }
  }
}
rule r { on turn(p: player) { offer(p) } }
"""


def test_a_guard_keeps_the_conjuncts_that_read_only_the_walked_counter(editions):
    """A level written at every pick would outdate a guard that read it; ownership
    (the counter whose index the domain walks) changes less often."""
    program = editions.compile(STEADY_GUARD_RULES, until="memoize-aggregates").program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert "space_level" not in ir_text.expr(guard.where)
    # who owns what p picks from: versioned per owner (regions.py), levels not at all
    assert guard.memo is not None and guard.memo.reads == ()
    assert guard.memo.per_owner == (("space_owner", "p"),)


def test_a_guarded_question_answers_as_before(editions):
    from boardrules.compiler.back.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(GUARD_RULES))
    (asked,) = [a for a in compilation.program.aggregates if a.guard]
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    for owner, level, cash in ((0, 0, 50), (0, 1, 50), (1, 1, 50), (0, 2, 12), (0, 2, 14),
                               (-1, 3, 99), (0, 1, 0)):
        game.state_set("c_space_owner", 1, owner)
        game.state_set("c_space_level2", 1, level)
        game.state_set("cash", 0, cash)
        expected = 1 if owner == 0 and level > 0 and cash >= 5 and cash - 5 >= 10 else -1
        assert game.invoke(asked.name, (0,)) == expected


# ---- guards-before-lookups ------------------------------------------------------------------

FIRST_RULES = "counter bar: int = 10\n" + GUARD_RULES.replace(
    "where p.cash - s.price >= 10)", "where p.cash - s.price >= bar)")


def test_a_guard_that_changes_less_often_than_its_question_is_asked_first(editions):
    """The default also reads the game's bar, which the guard (ownership, level2) does not:
    every write of it would miss the question's lookup, so the guard is asked first; when
    the question reads nothing its guard does not, its own lookup comes first."""
    program = editions.compile(FIRST_RULES, until="guards-before-lookups").program
    (asked,) = [a for a in program.aggregates if a.guard]
    assert "game_bar" in asked.memo.reads and asked.memo.guard_first
    program = editions.compile(GUARD_RULES, until="guards-before-lookups").program
    (asked,) = [a for a in program.aggregates if a.guard]
    assert not asked.memo.guard_first


def test_a_question_asking_its_guard_first_answers_as_before(editions):
    compilation, code, namespace = editions.module(FIRST_RULES)
    (asked,) = [a for a in compilation.program.aggregates if a.guard]
    assert "nothing passes its guard: no lookup" in code
    game = namespace["Game"](2, seed=1)
    rng = random.Random(3)
    for _ in range(60):
        owner, level2, bar, cash = (rng.choice((-1, 0, 1)), rng.randrange(3),
                                    rng.randrange(20), rng.randrange(40))
        game.state_set("c_space_owner", 1, owner)
        game.state_set("c_space_level2", 1, level2)
        game.state_set("g_game_bar", 0, bar)
        game.state_set("cash", 0, cash)
        passes = owner == 0 and level2 > 0 and cash >= 5 and cash - 5 >= bar
        assert game.invoke(asked.name, (0,)) == (1 if passes else -1)


# ---- keep-candidates -------------------------------------------------------------------------

KEEP_RULES = DATA + """counter space.level2: int = 0
decision pick(p: player) by p -> space? where s: s.owner == p and s.level2 > 0 {
  default best(s.level for s in legal where p.cash >= 10 * s.level)
}
proc offer(p: player) {
  window q from p {
    let s = ask pick(q)
    if s != none {
      s.level2 = 0
    }
  }
}
proc claim(p: player, s: space) { s.owner = p }
proc raise_level(s: space) { s.level += 1 }
proc raise_level2(s: space) { s.level2 += 1 }
proc spend(p: player, n: int) { pay(p, bank, n) }
rule r { on turn(p: player) { offer(p) } }
rule writes { on land(p: player, s: space) {
  claim(p, s)
  raise_level(s)
  raise_level2(s)
  spend(p, 1)
} }
"""


def test_a_guarded_question_walks_the_members_its_guard_kept(editions):
    program = editions.compile(SMALL_GROUPS_BOARD + KEEP_RULES, until="keep-candidates",
                               prelude=False).program
    by_name = {a.name: a for a in program.aggregates}
    (asked,) = [a for a in program.aggregates if "decide_pick" in a.name and a.guard]
    guard = by_name[asked.guard.function]
    assert asked.domain.kept == guard.name and guard.kept is not None
    assert guard.kept.width == 6  # the board's spaces
    assert ir_text.expr(asked.where) == "k_cash_at_least(p.player_cash, (10 * s.space_level))"
    assert ir_text.aggregate(asked).count(f"kept by {guard.name}") == 1


def test_kept_members_follow_every_write(editions):
    """Whatever the rules write between two questions (owners, levels, cash), of either
    player, the kept members give the answer a walk of the whole board gives."""
    from boardrules.compiler.back.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(editions.write(SMALL_GROUPS_BOARD + KEEP_RULES, prelude=False))
    (asked,) = [a for a in compilation.program.aggregates if a.domain.kept]
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)

    def walked(p: int) -> int:  # the highest level, first on a tie, as the walk finds it
        cash, best, found = game.state_get("cash", p), -1, -1
        for s in range(6):
            level = game.state_get("c_space_level", s)
            if game.state_get("c_space_owner", s) == p and cash >= 10 * level \
                    and game.state_get("c_space_level2", s) > 0 and level > best:
                best, found = level, s
        return found

    rng = random.Random(7)
    for _ in range(300):
        name, args = rng.choice([("proc_claim", (rng.randrange(2), rng.randrange(6))),
                                 ("proc_raise_level", (rng.randrange(6),)),
                                 ("proc_raise_level2", (rng.randrange(6),)),
                                 ("proc_spend", (rng.randrange(2), rng.randrange(-60, 60)))])
        game.invoke(name, args)
        for p in rng.sample((0, 1), 2):
            assert game.invoke(asked.name, (p,)) == walked(p), (name, args, p)
    copy = game.copy()
    assert [copy.invoke(asked.name, (p,)) for p in (0, 1)] == [walked(0), walked(1)]
