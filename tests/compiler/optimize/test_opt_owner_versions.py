"""memoize-aggregates (regions.py): a player's question over what that player owns is
versioned per owner, and by its comparisons of game counters with constants, so that
another player's build or the Bank's supply moving within a side of its comparisons
keeps the answer; every write still outdates what it changes."""

from __future__ import annotations

import random

from opt_programs import TWO_GROUPS, grouped_board

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.ir import ir_text
from boardrules.compiler.pipeline import compile_rules

BOARD = TWO_GROUPS + """counter space.level: int = 0
counter space.pledged: bool = false
counter supply: int = 3
board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain { group = blues }
  space s4 "S4" plain
}
"""

QUESTIONS = (
    "proc owns_group(p: player, g: group?) -> bool {\n"
    "  return all(t.owner == p for t in spaces where t.group == g)\n}\n"
    # what p owns, and the groups p owns wholly: per owner
    "proc wants(p: player) -> bool {\n"
    "  return any(s in spaces where s.owner == p and s.group != none\n"
    "    and owns_group(p, s.group)\n"
    "    and not any(t in spaces where t.group == s.group and t.pledged)\n"
    "    and s.level <= min_of(t.level for t in spaces where t.group == s.group)\n"
    "    and supply > 0)\n}\n"
    "proc level_of(p: player) -> int {\n"
    "  return sum(s.level for s in spaces where s.owner == p)\n}\n"
    # a question about two players' holdings: per owner, each player's version
    "proc ahead(p: player, q: player) -> bool {\n"
    "  return any(s in spaces where s.owner == p and s.level > level_of(q))\n}\n"
    # another player's spaces, a group not known to be p's, the supply read as a number
    "proc others(p: player) -> int {\n"
    "  return count(s in spaces where s.owner != p and s.level > 0)\n}\n"
    "proc tallest(p: player) -> int {\n"
    "  return max_of(t.level for t in spaces where t.group == reds and t.owner == p\n"
    "    or t.level > 2)\n}\n"
    "proc stock(p: player) -> int {\n"
    "  return count(s in spaces where s.owner == p and s.level < supply)\n}\n"
    # the other players' spaces that would complete a group of p's: per owner, and by the
    # changes of owner in the groups p owns all but one of
    "proc completes(p: player, s: space) -> bool {\n"
    "  return all(t.owner == p for t in spaces where t.group == s.group and t != s)\n}\n"
    # the levels of the group mates of what p owns, whoever owns them: per owner, and a
    # write bumps every owner in the group (the mates versions)
    "proc topped(p: player) -> int {\n"
    "  return count(s in spaces where s.owner == p\n"
    "    and all(t.level >= 2 for t in spaces where t.group == s.group))\n}\n"
    "proc partners(p: player) -> int {\n"
    "  return count(s in spaces where s.owner != none and s.owner != p and s.group != none\n"
    "    and completes(p, s))\n}\n")

ACTIONS = (
    "proc claim(p: player, s: space) { s.owner = p }\n"
    "proc raise_level(s: space) { s.level += 1 }\n"
    "proc pledge(s: space, on: bool) { s.pledged = on }\n"
    "proc take(n: int) { supply -= n }\n"
    "rule r { on turn(p: player) {\n"
    "  claim(p, s0)\n  raise_level(s0)\n  pledge(s1, true)\n  take(1)\n"
    "  move(p, level_of(p) + others(p) + tallest(p) + stock(p) + partners(p) + topped(p)"
    " + (if wants(p) then 1 else 0) + (if ahead(p, p) then 1 else 0))\n} }\n")

RULES = BOARD + QUESTIONS + ACTIONS


def questions(program) -> dict[str, str]:
    """Each procedure's question by the procedure's name: its outermost aggregate (the
    procedures are inlined by then; an aggregate's own come first)."""
    return {a.name.split("_in_proc_")[1]: a.name for a in program.aggregates
            if "_in_proc_" in a.name}


def memos(editions) -> dict:
    program = editions.compile(RULES, prelude=False, until="memoize-aggregates").program
    by_name = {a.name: a.memo for a in program.aggregates}
    return {name: by_name.get(aggregate) for name, aggregate in questions(program).items()}


def test_a_question_over_what_a_player_owns_is_versioned_per_owner(editions):
    memo = memos(editions)
    wants = memo["wants"]
    assert wants.owner == "space_owner"
    assert wants.per_owner == (("space_level", "p"), ("space_owner", "p"),
                               ("space_pledged", "p"))
    # the supply, compared with 0 only: by the comparison's outcome, not its version
    assert wants.reads == ("game_supply@sides",)
    assert [counter for counter, _ in wants.thresholds] == ["game_supply"]
    assert memo["level_of"].per_owner == (("space_level", "p"), ("space_owner", "p"))
    assert memo["partners"].per_owner == (("space_owner", "p"),)
    assert memo["partners"].near == ("ix0_space_group",)
    assert memo["topped"].per_owner == (("space_level", "p"), ("space_owner", "p"))
    assert memo["topped"].mates == ("ix0_space_group",)
    assert memo["topped"].mate_counters == ("space_level",)
    # neither player alone has every read: both players' versions
    assert memo["ahead"].owner == "space_owner"
    assert memo["ahead"].per_owner == (("space_level", "p"), ("space_level", "q"),
                                       ("space_owner", "p"), ("space_owner", "q"))
    assert memo["ahead"].reads == ()


def test_the_ir_dump_shows_what_a_memo_follows(editions):
    program = editions.compile(RULES, prelude=False, until="memoize-aggregates").program
    dump = ir_text.program(program)
    assert "space_level owned by p, space_owner owned by p, space_pledged owned by p " \
        "changes; side of (game.game_supply > 0)" in dump
    assert "kept until one of space_level owned by p, space_level owned by q, " \
        "space_owner owned by p, space_owner owned by q changes" in dump


def test_a_read_beyond_what_the_player_owns_keeps_the_whole_versions(editions):
    memo = memos(editions)
    # another player's spaces; the reds, not known to be p's
    for name in ("others", "tallest"):
        assert memo[name].per_owner == () and "space_level" in memo[name].reads, name
    # the supply read as a number, not compared with a constant: its version
    assert memo["stock"].per_owner == (("space_level", "p"), ("space_owner", "p"))
    assert memo["stock"].thresholds == () and "game_supply" in memo["stock"].reads


def test_the_generated_writes_bump_the_owners_versions(editions):
    code = generate(compile_rules(editions.write(RULES, prelude=False)).program, "ed.rules")
    lines = [line.strip() for line in code.splitlines()]
    # a level written: the versions of every set of counters with levels, for its owner
    at = lines.index("if 0 <= self.c_space_owner[v_s] < 4:  # the entity's owner's versions")
    assert lines[at + 1:at + 5] == ["self.mvos_0[self.c_space_owner[v_s]] += 1",
                                    "self.mvom_1[self.c_space_owner[v_s]] += 1",
                                    "self.mvos_2[self.c_space_owner[v_s]] += 1",
                                    "self.bump_mvom_1(v_s)  # and every owner in its group"]
    # an owner changed: the old and the new owner's (a mate's owner is not read: no bump)
    assert {"self.mvos_0[old] += 1", "self.mvom_1[old] += 1", "self.mvos_2[new] += 1",
            "self.mvos_0[new] += 1"} <= set(lines)
    assert "self.bump_mvom_1(x)  # and every owner in x's group, x's new one too" not in lines
    # an owner changed: every other owner of all but one of the group, for partners
    assert "if i != old and i != new and self.vxc_space_owner_by_ix0_space_group" \
        "[near_key * 4 + i] == near_size - 1:" in lines
    # the supply written: its side of `supply > 0` against the one at its last write
    at = lines.index("if (1 if (self.g_game_supply > 0) else 0) != self.sides_game_supply:  "
                     "# a comparison turned")
    assert lines[at + 1] == "self.sides_game_supply = (1 if (self.g_game_supply > 0) else 0)"


def test_per_owner_memos_follow_every_write(editions):
    """Random claims, builds, pledges and supply moves, by the rules, by the reflection API
    (levels, the supply) and in a copy: every memoized answer is the one worked out afresh."""
    compilation, _, namespace = editions.module(RULES, prelude=False)
    game = namespace["Game"](3, seed=1)
    names = questions(compilation.program)
    groups = [0, 0, 1, 1, -1]

    def state(counter: str, s: int) -> int:
        return game.state_get(f"c_space_{counter}", s)

    def expected(p: int) -> tuple:
        owner, level, pledged = ([state(name, s) for s in range(5)]
                                 for name in ("owner", "level", "pledged"))
        levels = [sum(level[s] for s in range(5) if owner[s] == q) for q in range(3)]
        supply = game.state_get("g_game_supply", 0)
        mates = {s: [t for t in range(5) if groups[t] == groups[s]] for s in range(5)}
        wants = any(owner[s] == p and groups[s] >= 0 and all(owner[t] == p for t in mates[s])
                    and not any(pledged[t] for t in mates[s])
                    and level[s] <= min(level[t] for t in mates[s]) and supply > 0
                    for s in range(5))
        return (wants, sum(level[s] for s in range(5) if owner[s] == p),
                sum(owner[s] != p and level[s] > 0 for s in range(5)),
                sum(owner[s] == p and level[s] < supply for s in range(5)),
                sum(owner[s] not in (-1, p) and groups[s] >= 0
                    and all(owner[t] == p for t in mates[s] if t != s) for s in range(5)),
                sum(owner[s] == p and all(level[t] >= 2 for t in mates[s]) for s in range(5)),
                [any(owner[s] == p and level[s] > levels[q] for s in range(5))
                 for q in range(3)])

    def answers(g, p: int) -> tuple:
        return (bool(g.invoke(names["wants"], (p,))), g.invoke(names["level_of"], (p,)),
                g.invoke(names["others"], (p,)), g.invoke(names["stock"], (p,)),
                g.invoke(names["partners"], (p,)), g.invoke(names["topped"], (p,)),
                [bool(g.invoke(names["ahead"], (p, q))) for q in range(3)])

    rng = random.Random(7)
    for step in range(300):
        for p in range(3):
            assert answers(game, p) == expected(p), (step, p)
        action = rng.randrange(7)
        s = rng.randrange(5)
        if action == 0:
            game.invoke("proc_claim", (rng.randrange(3), s))
        elif action == 1:
            game.invoke("proc_raise_level", (s,))
        elif action == 2:
            game.invoke("proc_pledge", (s, rng.random() < 0.5))
        elif action == 3:
            game.invoke("proc_take", (rng.choice((-2, -1, 1, 2)),))
        elif action == 4:
            game.state_set("c_space_level", s, rng.randrange(4))
        elif action == 5:
            game.state_set("g_game_supply", 0, rng.randrange(-1, 3))
        else:
            game = game.copy()


def test_a_side_set_from_outside_is_followed_by_the_next_write(editions):
    """The supply set to 0 through the reflection API, then raised to 1 by the rules: the
    side of `supply > 0` turned back since the last write by the rules, and the answer
    with it."""
    compilation, _, namespace = editions.module(RULES, prelude=False)
    game = namespace["Game"](2, seed=1)
    wants = questions(compilation.program)["wants"]
    for s in (0, 1):
        game.invoke("proc_claim", (0, s))
    game.invoke("proc_take", (1,))
    assert game.invoke(wants, (0,))
    game.state_set("g_game_supply", 0, 0)
    assert not game.invoke(wants, (0,))
    game.invoke("proc_take", (-1,))
    assert game.invoke(wants, (0,))


# groups of two, three and one space, and a space in none
NEAR_GROUPS = ("reds", "reds", "blues", "blues", "blues", "greens", None)
NEAR_RULES = TWO_GROUPS + 'group greens "Greens"\n' + grouped_board(NEAR_GROUPS) + """
proc completes(p: player, s: space) -> bool {
  return all(t.owner == p for t in spaces where t.group == s.group and t != s)
}
proc partners(p: player) -> int {
  return count(s in spaces where s.owner != none and s.owner != p and s.group != none
    and completes(p, s))
}
proc claim(p: player?, s: space) { s.owner = p }
rule r { on turn(p: player) {
  claim(p, s0)
  move(p, partners(p))
} }
"""


def test_near_versions_follow_owner_changes_in_groups_of_every_size(editions):
    """Random changes of owner (to players and back to none) in groups of one, two and
    three spaces: the partner search, stamped by the near versions, answers as worked out
    afresh."""
    compilation, _, namespace = editions.module(NEAR_RULES, prelude=False)
    game = namespace["Game"](4, seed=1)
    partners = questions(compilation.program)["partners"]
    rng = random.Random(11)
    for step in range(400):
        owner = [game.state_get("c_space_owner", s) for s in range(7)]
        for p in range(4):
            expected = sum(owner[s] not in (-1, p) and NEAR_GROUPS[s] is not None
                           and all(owner[t] == p for t in range(7)
                                   if NEAR_GROUPS[t] == NEAR_GROUPS[s] and t != s)
                           for s in range(7))
            assert game.invoke(partners, (p,)) == expected, (step, p, owner)
        game.invoke("proc_claim", (rng.randrange(-1, 4), rng.randrange(7)))
