"""memoize-aggregates: counters versioned per entity (`mvk_`) for the memos that read them
only through their own parameters, so that a write of another entity's value keeps them."""

from __future__ import annotations

DATA = """enum resource { wood, stone }
counter player.res: int[resource] = 0
counter player.blocks: int = 0
counter space.owner: player? = none
"""

RULES = DATA + (
    "proc held(p: player) -> int { return sum(p.res[r] for r in each resource) }\n"
    "proc richer(p: player, q: player) -> bool {\n"
    "  return any(r in each resource where p.res[r] > q.res[r] and q.blocks < 3)\n}\n"
    "proc most() -> int { return max_of(held(q) for q in players) }\n"
    "proc anyone(p: player) -> int {\n"
    "  return count(q in players where q.res[resource.wood] > p.blocks)\n}\n"
    "proc gain(p: player, n: int) { p.res[resource.wood] += n }\n"
    "proc stack(p: player) { p.blocks += 1 }\n"
    "rule r { on turn(p: player) {\n"
    "  gain(p, 1)\n  stack(p)\n"
    "  move(p, held(p) + most() + anyone(p) + (if richer(p, p) then 1 else 0))\n} }\n")


def memos(editions, body: str = RULES) -> dict:
    program = editions.compile(body, until="memoize-aggregates").program
    return {a.name.split("_in_proc_")[1]: a.memo for a in program.aggregates}


def test_a_counter_read_only_through_parameters_is_versioned_per_entity(editions):
    memo = memos(editions)
    assert memo["held"].per_entity == (("player_res", "p"),) and memo["held"].reads == ()
    assert memo["richer"].per_entity == (
        ("player_blocks", "q"), ("player_res", "p"), ("player_res", "q"))
    # through a call: held(q) for every q reads every player's resources, as a whole
    assert "player_res" in memo["most"].reads and memo["most"].per_entity == ()
    # q.res for every q: as a whole; p.blocks through p alone: per entity
    assert "player_res" in memo["anyone"].reads
    assert memo["anyone"].per_entity == (("player_blocks", "p"),)


def test_a_counter_of_every_walked_entity_is_versioned_as_a_whole(editions):
    body = DATA + (
        "field space.group: group? = none\n"
        "counter space.level: int = 0\n"
        "proc top(s: space) -> int {\n"
        "  return max_of(t.level for t in spaces where t.group == s.group)\n}\n"
        "proc below(s: space, p: player) -> int {\n"
        "  return count(t in spaces where t.level < s.level and s.owner == p)\n}\n"
        "rule r { on turn(p: player) {\n"
        "  s1.level += 1\n  move(p, top(s1) + below(s2, p))\n} }\n")
    memo = memos(editions, body)
    # t.level of s's group only: per value of the group (optimize/field_versions.py)
    assert memo["top"].reads == () and memo["top"].per_entity == ()
    assert memo["top"].per_field == (("space_level", "s", "space_group", False),)
    # s.level and t.level of every space: as a whole; s.owner through s alone: per entity
    assert memo["below"].reads == ("space_level",)
    assert memo["below"].per_entity == (("space_owner", "s"),)


def test_a_per_entity_memo_follows_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: never a stale value."""
    compilation, code, namespace = editions.module(RULES)
    assert "self.mvk_player_res[v_p] += 1" in code
    game = namespace["Game"](3, seed=1)
    names = {a.name.split("_in_proc_")[1]: a.name for a in compilation.program.aggregates}

    def res(p: int, r: int) -> int:
        return game.state_get("c_player_res", p * 2 + r)

    def expected(p: int, q: int) -> tuple[int, bool]:
        blocks = game.state_get("c_player_blocks", q)
        return res(p, 0) + res(p, 1), any(res(p, r) > res(q, r) and blocks < 3 for r in (0, 1))

    def answers(p: int, q: int) -> tuple[int, bool]:
        return game.invoke(names["held"], (p,)), bool(game.invoke(names["richer"], (p, q)))

    for step, seat in enumerate((0, 1, 1, 2, 0, 2, 1)):
        for p in range(3):
            for q in range(3):
                assert answers(p, q) == expected(p, q)
        game.invoke("proc_gain", (seat, step % 3))
        if step % 2:
            game.invoke("proc_stack", (2 - seat,))
    game.state_set("c_player_res", 3, 9)  # player 1's stone
    copy = game.copy()
    for p in range(3):
        for q in range(3):
            assert answers(p, q) == expected(p, q)
            assert copy.invoke(names["held"], (p,)) == expected(p, q)[0]


HANDS = """deck chest(p: player) "Chest" {
  card c_a "A" keep
  card c_b "B" keep
  card c_c "C" keep
}
proc hand(p: player) -> int { return count(c in cards where holds(p, c)) }
proc or_c(p: player) -> int { return count(c in cards where holds(p, c) or c == c_c) }
proc anyone_holds() -> bool { return any(c in cards where c.holder != none) }
proc give(c: card, p: player) { give_card(c, p) }
rule r { on turn(p: player) {
  give(c_a, p)
  move(p, hand(p) + or_c(p) + (if anyone_holds() then 1 else 0))
} }
"""


def test_a_players_hand_is_versioned_per_player(editions):
    """`holds(p, c)` for a parameter p, or a walk of p's hand, reads p's hand alone: the
    kernel's version of it (`held_version[p]`) stamps the memo, not every card's."""
    memo = memos(editions, HANDS)
    assert memo["hand"].per_entity == (("card_holder", "p"),) and memo["hand"].reads == ()
    assert memo["or_c"].per_entity == (("card_holder", "p"),)  # holds() in the filter
    # who holds any card: every card's holder, as a whole
    assert memo["anyone_holds"].reads == ("card_holder",)


def test_a_hand_memo_follows_every_change_of_holder(editions):
    """Cards given, drawn back, set from outside and copied: never a stale hand."""
    compilation, code, namespace = editions.module(HANDS)
    assert "self.held_version[v_p]" in code
    game = namespace["Game"](3, seed=1)
    names = {a.name.split("_in_proc_")[1]: a.name for a in compilation.program.aggregates}

    def expected(p: int) -> tuple[int, int]:
        holders = game.holders()
        return holders.count(p), holders.count(p) + (holders[2] != p)

    def answers(g, p: int) -> tuple[int, int]:
        return g.invoke(names["hand"], (p,)), g.invoke(names["or_c"], (p,))

    for card, seat in ((0, 1), (1, 1), (0, 2), (2, 0), (1, 0), (2, 2)):
        for p in range(3):
            assert answers(game, p) == expected(p)
        game.invoke("proc_give", (card, seat))
    game.state_set("card_holder", 2, 1)
    copy = game.copy()
    for p in range(3):
        assert answers(game, p) == expected(p) == answers(copy, p)
