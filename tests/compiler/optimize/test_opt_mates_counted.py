"""memoize-aggregates (regions.py): a player's question that counts what another player
owns in the groups of the player's own spaces (whether any other player would complete a
group with one of p's deeds: the trade partner search) is versioned per owner, a change
of owner in such a group bumping every owner in it (the mates versions); every answer
equals the one worked out afresh."""

from __future__ import annotations

import random

from opt_programs import TWO_GROUPS, grouped_board

GROUPS = ("reds", "reds", "blues", "blues", "blues", None)
RULES = TWO_GROUPS + grouped_board(GROUPS) + """
proc completes(p: player, s: space) -> bool {
  return all(t.owner == p for t in spaces where t.group == s.group and t != s)
}
proc sellable(p: player) -> int {
  return count(s in spaces where s.owner == p and s.group != none
    and any(q in players where q != p and completes(q, s)))
}
proc claim(p: player?, s: space) { s.owner = p }
rule r { on turn(p: player) {
  claim(p, s0)
  move(p, sellable(p) + 1)
} }
"""


def _sellable(program):
    return next(a for a in program.aggregates
                if a.name.endswith("in_proc_sellable") and a.kind == "count")


def test_a_count_of_another_players_mates_is_versioned_per_owner(editions):
    program = editions.compile(RULES, prelude=False, until="memoize-aggregates").program
    memo = _sellable(program).memo
    assert memo.owner == "space_owner" and memo.per_owner == (("space_owner", "p"),)
    assert memo.mates == ("ix0_space_group",) and memo.mate_counters == ("space_owner",)
    assert "space_owner" not in memo.reads


def test_every_answer_follows_the_changes_of_owner(editions):
    compilation, _, namespace = editions.module(RULES, prelude=False)
    name = _sellable(compilation.program).name
    game = namespace["Game"](3, seed=1)

    def expected(p: int) -> int:
        owner = [game.state_get("c_space_owner", s) for s in range(len(GROUPS))]
        return sum(owner[s] == p and GROUPS[s] is not None and any(
            q != p and all(owner[t] == q for t in range(len(GROUPS))
                           if GROUPS[t] == GROUPS[s] and t != s) for q in range(3))
            for s in range(len(GROUPS)))

    rng = random.Random(3)
    kept = 0
    for step in range(400):
        for p in range(3):
            stamps = game.memo_stamp[:]
            assert game.invoke(name, (p,)) == expected(p), (step, p)
            kept += stamps == game.memo_stamp
        game.invoke("proc_claim", (rng.randrange(-1, 3), rng.randrange(len(GROUPS))))
        if rng.random() < 0.05:
            game = game.copy()
    assert kept > 100


# two questions reading the levels of the group mates of what p owns, with other counters
# apart: a level written bumps both sets' versions for every owner in the group, in one walk
LEVELS = TWO_GROUPS + """counter space.level: int = 0
counter space.pledged: bool = false
""" + grouped_board(GROUPS) + """
proc topped(p: player) -> int {
  return count(s in spaces where s.owner == p
    and all(t.level >= 2 for t in spaces where t.group == s.group))
}
proc open(p: player) -> int {
  return count(s in spaces where s.owner == p
    and not any(t in spaces where t.group == s.group and t.pledged)
    and all(t.level < 3 for t in spaces where t.group == s.group))
}
proc claim(p: player?, s: space) { s.owner = p }
proc raise_level(s: space) { s.level += 1 }
proc pledge(s: space, on: bool) { s.pledged = on }
rule r { on turn(p: player) {
  claim(p, s0)
  raise_level(s1)
  pledge(s2, true)
  move(p, topped(p) + open(p) + 1)
} }
"""


def test_one_walk_of_the_group_bumps_every_set_a_write_is_in(editions):
    compilation, code, namespace = editions.module(LEVELS, prelude=False)
    lines = [line.strip() for line in code.splitlines()]
    def walk(line: str) -> bool:
        return line.startswith("self.bump_") and line.endswith("# and every owner in its group")

    # a level written: one walk for both sets; never two walks after one write
    assert any(walk(line) and line.count("mvom_") == 2 for line in lines)
    assert not any(walk(line) and walk(after)
                   for line, after in zip(lines, lines[1:], strict=False))
    names = {a.name.split("_in_proc_")[1]: a.name for a in compilation.program.aggregates
             if "_in_proc_" in a.name and a.kind == "count"}
    game = namespace["Game"](3, seed=1)
    spaces = range(len(GROUPS))

    def expected(p: int) -> tuple[int, int]:
        owner, level, pledged = ([game.state_get(f"c_space_{name}", s) for s in spaces]
                                 for name in ("owner", "level", "pledged"))
        mates = {s: [t for t in spaces if GROUPS[t] == GROUPS[s]] for s in spaces}
        return (sum(owner[s] == p and all(level[t] >= 2 for t in mates[s]) for s in spaces),
                sum(owner[s] == p and not any(pledged[t] for t in mates[s])
                    and all(level[t] < 3 for t in mates[s]) for s in spaces))

    rng = random.Random(11)
    for step in range(300):
        for p in range(3):
            got = (game.invoke(names["topped"], (p,)), game.invoke(names["open"], (p,)))
            assert got == expected(p), (step, p)
        action, s = rng.randrange(4), rng.choice(spaces)
        if action == 0:
            game.invoke("proc_claim", (rng.randrange(-1, 3), s))
        elif action == 1:
            game.invoke("proc_raise_level", (s,))
        elif action == 2:
            game.invoke("proc_pledge", (s, rng.random() < 0.5))
        else:
            game.state_set("c_space_level", s, rng.randrange(4))
