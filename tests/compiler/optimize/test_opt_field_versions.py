"""Memos versioned per value of a declared field (field_versions.py): one group's question
keeps its answer across a write in another group, and follows every write in its own."""

from __future__ import annotations

import random

from opt_programs import DATA, SMALL_GROUPS_BOARD

GROUP_RULES = SMALL_GROUPS_BOARD + DATA + """proc raised_group(s: space) -> bool {
  return any(t in spaces where t.group == s.group and t.level > 0)
}
proc held_group(p: player, s: space) -> bool {
  return all(t.owner == p and t.level < 3 for t in spaces where t.group == s.group)
}
proc top_level(g: group) -> int {
  return max_of(t.level for t in spaces where t.group == g)
}
proc raise_level(s: space) { s.level += 1 }
proc claim(p: player, s: space) { s.owner = p }
rule r { on land(p: player, s: space) {
  raise_level(s)
  claim(p, s)
  if raised_group(s) and held_group(p, s) and top_level(reds) < 5 { move(p, 1) }
} }
"""


def _groups(compilation) -> tuple[int, ...]:
    """Each space's group (s0 and s1 are reds, then blues, greens, yellows; s5 none: -1)."""
    return next(t.values for t in compilation.program.tables if t.name == "space_group")


def test_a_question_about_one_group_is_versioned_per_group(editions):
    compilation, _, namespace = editions.module(GROUP_RULES, prelude=False)
    memos = {a.kind: a for a in compilation.program.aggregates if a.memo}
    raised, held, top = memos["any"], memos["all"], memos["max_of"]
    assert raised.memo.per_field == (("space_level", "s", "space_group", False),)
    assert held.memo.per_field == (("space_level", "s", "space_group", False),
                                   ("space_owner", "s", "space_group", False))
    # a walk keyed by the parameter itself: the group's own version
    assert top.memo.per_field == (("space_level", "g", "space_group", True),)
    assert "space_level" not in raised.memo.reads + held.memo.reads + top.memo.reads

    game_class = namespace["Game"]
    computed: list[tuple] = []
    compute = getattr(game_class, f"compute_{raised.name}")
    setattr(game_class, f"compute_{raised.name}",
            lambda game, s: computed.append((s,)) or compute(game, s))
    game = game_class(2, seed=1)
    assert game.invoke(raised.name, (0,)) is False and len(computed) == 1
    game.invoke("proc_raise_level", (2,))  # the blues: the reds' answer is kept
    assert game.invoke(raised.name, (0,)) is False and len(computed) == 1
    game.invoke("proc_raise_level", (1,))  # a red
    assert game.invoke(raised.name, (0,)) is True and len(computed) == 2


def test_a_group_versioned_memo_answers_as_its_walk_after_every_write(editions):
    """Writes by the rules, from outside (state_set) and in a copy, at random."""
    compilation, _, namespace = editions.module(GROUP_RULES, prelude=False)
    memos = {a.kind: a for a in compilation.program.aggregates if a.memo}
    raised, held, top = memos["any"].name, memos["all"].name, memos["max_of"].name
    groups = _groups(compilation)

    def members(s: int) -> list[int]:
        return [t for t in range(6) if groups[t] == groups[s]]
    game = namespace["Game"](2, seed=1)
    rng = random.Random(5)

    def level(t: int) -> int:
        return game.state_get("c_space_level", t)

    for step in range(200):
        s = rng.randrange(6)
        if rng.random() < 0.4:
            game.invoke("proc_raise_level", (s,))
        elif rng.random() < 0.6:
            game.invoke("proc_claim", (rng.randrange(2), s))
        elif rng.random() < 0.5:
            game.state_set("c_space_level", s, rng.randrange(4))
        else:
            game = game.copy()
        for g in range(4):
            assert game.invoke(top, (g,)) == max(level(u) for u in range(6) if groups[u] == g)
        for t in range(6):
            assert game.invoke(raised, (t,)) == any(level(u) > 0 for u in members(t)), step
            for p in (0, 1):
                assert game.invoke(held, (p, t)) == all(
                    game.state_get("c_space_owner", u) == p and level(u) < 3
                    for u in members(t)), (step, p, t)


def test_a_read_through_a_call_names_the_callers_own_parameter(editions):
    """`raised_in(s.group)` in a procedure whose first parameter it assigns: the read is of
    s's group, s counted among all the procedure's parameters (the assigned one too)."""
    from boardrules.compiler.ir.optimize.field_versions import Within
    from boardrules.compiler.ir.optimize.memo import ReadSets

    program = editions.compile(GROUP_RULES + (
        "proc raised_in(g: group?) -> int {\n"
        "  return count(t in spaces where t.group == g and t.level > 0)\n}\n"
        "proc offset_raised(n: int, s: space) -> int {\n  n = n + 1\n"
        "  return n + raised_in(s.group)\n}\n"
        "rule r2 { on land(p: player, s: space) { move(p, offset_raised(1, s)) } }\n"),
        until="memoize-aggregates", prelude=False).program
    reads = ReadSets(program).keyed_of("proc_offset_raised")
    assert ("space_level", Within("space_group", 1)) in reads
