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
