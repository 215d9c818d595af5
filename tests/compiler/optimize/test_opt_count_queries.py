"""count-queries: group questions answered from counts kept per group."""

from __future__ import annotations

from opt_programs import TWO_GROUPS

from boardrules.compiler.ir import nodes as ir

# ---- count-queries ----------------------------------------------------------------------------

COUNT_RULES = TWO_GROUPS + """board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain
}
proc owns(p: player?, g: group?) -> bool {
  return all(t.owner == p for t in spaces where t.group == g)
}
proc completes(p: player?, s: space) -> bool {
  return all(t.owner == p for t in spaces where t.group == s.group and t != s)
}
proc owned_in(p: player?, s: space) -> int {
  return count(t in spaces where t.group == s.group and t.owner == p)
}
proc any_in(p: player?, s: space) -> bool {
  return any(t in spaces where t.owner == p and t.group == s.group and s != t)
}
proc claim(p: player?, s: space) {
  s.owner = p
}
rule turn { on turn(p: player) {
  claim(p, s0)
  if owns(p, reds) or completes(p, s1) or owned_in(p, s2) > 0 or any_in(p, s3) {
    move(p, 1)
  }
} }
"""


def test_group_questions_are_answered_from_counts(editions):
    program = editions.compile(COUNT_RULES, prelude=False, until="count-queries").program
    counted = {a.name.split("_in_proc_")[1]: a.counted for a in program.aggregates}
    assert set(counted) == {"owns", "completes", "owned_in", "any_in"}
    assert all(query is not None for query in counted.values())
    assert counted["completes"].excluded == ir.Local(ir.Type("space"), "s")
    assert counted["any_in"].excluded == ir.Local(ir.Type("space"), "s")
    assert counted["owns"].excluded is None
    (index,) = program.counter_indexes
    assert index.counted_by == (counted["owns"].table_index,)


def test_a_filter_with_another_test_is_not_answered_from_counts(editions):
    program = editions.compile(COUNT_RULES.replace(
        "where t.group == s.group and t.owner == p)", "where t.group == s.group and t.owner == p"
        " and t != s0 and t != s1)"), prelude=False, until="count-queries").program
    owned_in = next(a for a in program.aggregates if a.name.endswith("owned_in"))
    assert owned_in.counted is None


def test_the_counts_follow_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: answers as the scans'."""

    compilation, _, namespace = editions.module(COUNT_RULES, prelude=False)
    game = namespace["Game"](2, seed=1)
    aggregates = {a.name.split("_in_proc_")[1]: a for a in compilation.program.aggregates}
    groups = [0, 0, 1, -1]  # reds, reds, blues, none

    def ask(game, what: str, **args: int) -> int:
        a = aggregates[what]
        return game.invoke(a.name, tuple(args[name] for name, _ in a.params))

    def check(g) -> None:
        owners = [g.state_get("c_space_owner", s) for s in range(4)]
        for p in (-1, 0, 1):
            for key in (-1, 0, 1):
                members = [s for s in range(4) if groups[s] == key]
                assert ask(g, "owns", p=p, g=key) == all(owners[t] == p for t in members)
            for s in range(4):
                mates = [t for t in range(4) if groups[t] == groups[s]]
                assert ask(g, "completes", p=p, s=s) == all(owners[t] == p for t in mates
                                                            if t != s)
                assert ask(g, "owned_in", p=p, s=s) == sum(owners[t] == p for t in mates)
                assert ask(g, "any_in", p=p, s=s) == any(owners[t] == p for t in mates if t != s)

    for seat, space in ((0, 0), (1, 2), (0, 1), (-1, 0), (1, 3), (0, 0), (0, 2)):
        game.invoke("proc_claim", (seat, space))
        check(game)
    game.state_set("c_space_owner", 1, 1)
    check(game)
    check(game.copy())


# ---- count(q in players): the kernel's count of the players still in ------------------------

PLAYERS_RULES = """counter player.seen: int = 0
counter player.richer: int = 0
rule counting { on turn(p: player) {
  p.seen = count(q in players)
  p.richer = count(q in players where q.cash > 50)
} }
"""


def test_counting_the_players_reads_the_kernels_count(editions):
    program = editions.compile(PLAYERS_RULES, until="count-queries").program
    assert [a.kind for a in program.aggregates] == ["count"]  # the one with a filter
    (rule,) = [f for f in program.functions if f.name.startswith("rule_counting")]
    assert rule.body[0].value == ir.Builtin(ir.INT, "players_in")


def test_the_players_count_follows_retirements(editions):
    compilation, code, namespace = editions.module(PLAYERS_RULES)
    assert "self.n_alive" in code
    (rule,) = [f.name for f in compilation.program.functions if f.name.startswith("rule_counting")]
    game = namespace["Game"](4, seed=1)
    for leaving, left in ((2, 3), (0, 2), (3, 1)):
        game.invoke("k_retire", (leaving,))
        for g in (game, game.copy()):
            g.invoke(rule, (1,))
            assert g.state_get("c_player_seen", 1) == left
    game.state_set("alive", 2, 1)  # back in, set from outside the rules: counted again
    game.invoke(rule, (1,))
    assert game.state_get("c_player_seen", 1) == 2
