"""keep-sums: sums over an owner's entities answered from sums the writes keep."""

from __future__ import annotations

from opt_programs import TWO_GROUPS

from boardrules.compiler.ir import ir_text

SUM_RULES = TWO_GROUPS + """counter space.level: int = 0
board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain
}
proc value(t: space) -> int {
  return t.level * 3 + count(k in 0 to 3 where k < t.level)
}
proc held(p: player?) -> int {
  return sum(value(t) for t in spaces where t.owner == p)
}
proc outside(p: player?, s: space) -> int {
  return sum(value(t) for t in spaces where t.owner == p and t.group != s.group)
}
proc inside(p: player?, s: space) -> int {
  return sum(value(t) for t in spaces where t.owner == p and t.group == s.group)
}
proc levels(p: player?) -> int {
  return sum(t.level for t in spaces where t.owner == p)
}
proc with_cash(p: player) -> int {
  return sum(value(t) + p.cash for t in spaces where t.owner == p)
}
proc claim(p: player?, s: space) {
  s.owner = p
}
proc raise_level(s: space) {
  s.level += 1
}
rule turn { on turn(p: player) {
  claim(p, s0)
  raise_level(s0)
  if held(p) + outside(p, s1) + inside(p, s2) + levels(p) + with_cash(p) > 1000 {
    move(p, 1)
  }
} }
"""


def _summed(program) -> dict:
    return {a.name.split("_in_proc_")[1]: a.summed for a in program.aggregates
            if "_in_proc_" in a.name}


def test_an_owners_sums_of_a_costly_contribution_are_kept(editions):
    program = editions.compile(SUM_RULES, prelude=False, until="keep-sums").program
    summed = _summed(program)
    assert summed["held"].keyed == "" and summed["held"].key is None
    assert summed["outside"].keyed == "!=" and summed["inside"].keyed == "=="
    # a contribution of a few operations (a memo costs as much), or one that reads the
    # player's cash: scanned as before
    assert summed["levels"] is None and summed["with_cash"] is None
    (kept,) = program.kept_sums  # one sum, shared, also per group
    assert {q.kept_sum for q in summed.values() if q} == {kept.name}
    assert kept.reads == ("space_level",) and kept.table_index
    assert f"kept sum {kept.name}: sum(" in ir_text.program(program)
    assert not any(a.memo for a in program.aggregates if a.summed)


def test_a_contribution_that_reads_the_owner_or_a_game_counter_is_not_kept(editions):
    for value in ("value(t) + (if t.owner == p then 1 else 0)", "value(t) + rounds_played"):
        rules = SUM_RULES.replace("sum(value(t) for t in spaces where t.owner == p)",
                                  f"sum({value} for t in spaces where t.owner == p)")
        rules = rules.replace("counter space.level", "counter rounds_played: int = 0\n"
                              "counter space.level")
        program = editions.compile(rules, prelude=False, until="keep-sums").program
        assert _summed(program)["held"] is None, value


def test_the_kept_sums_follow_every_write(editions):
    """Writes by the rules, by the reflection API and in a copy: answers as the scans'."""
    compilation, _, namespace = editions.module(SUM_RULES, prelude=False)
    assert compilation.program.kept_sums
    game = namespace["Game"](2, seed=1)
    aggregates = {a.name.split("_in_proc_")[1]: a for a in compilation.program.aggregates
                  if "_in_proc_" in a.name}
    groups = [0, 0, 1, -1]  # reds, reds, blues, none

    def ask(g, what: str, *args: int) -> int:
        return g.invoke(aggregates[what].name, args)

    def check(g) -> None:
        owners = [g.state_get("c_space_owner", s) for s in range(4)]
        values = [3 * n + min(n, 4) for n in (g.state_get("c_space_level", s)
                                              for s in range(4))]
        for p in (-1, 0, 1):
            mine = [t for t in range(4) if owners[t] == p]
            assert ask(g, "held", p) == sum(values[t] for t in mine)
            for s in range(4):
                assert ask(g, "outside", p, s) == sum(values[t] for t in mine
                                                      if groups[t] != groups[s])
                assert ask(g, "inside", p, s) == sum(values[t] for t in mine
                                                     if groups[t] == groups[s])

    steps = (("proc_claim", (0, 0)), ("proc_raise_level", (0,)), ("proc_claim", (1, 2)),
             ("proc_raise_level", (2,)), ("proc_claim", (0, 1)), ("proc_raise_level", (0,)),
             ("proc_claim", (-1, 0)), ("proc_claim", (1, 3)), ("proc_raise_level", (3,)),
             ("proc_claim", (0, 0)), ("proc_claim", (0, 2)))
    for name, args in steps:
        game.invoke(name, args)
        check(game)
    game.state_set("c_space_level", 1, 7)
    check(game)
    game.state_set("c_space_owner", 3, 0)
    check(game)
    copy = game.copy()
    check(copy)
    copy.invoke("proc_raise_level", (1,))
    check(copy)
    check(game)
