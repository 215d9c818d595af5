"""index-filters: a filter on declared data or a counter becomes a walk over an index
(table, counter or hand), and the counter indexes follow every write."""

from __future__ import annotations

from opt_programs import DATA, DATA_BOARD, SMALL_GROUPS_BOARD, calls, random_traces

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir.optimize.walk import walk_expr

# ---- index-filters ---------------------------------------------------------------------------


def test_spaces_owned_by_someone_else_walk_the_other_owners(editions):
    """`s.owner != none and s.owner != p` in an aggregate whose order does not matter walks
    the members of every other owner; `best` keeps the scan's tie-break (first space)."""
    program = editions.compile(DATA_BOARD + DATA + (
        "proc dearest(p: player) -> space? {\n"
        "  return best(s.price for s in spaces where s.owner != none and s.owner != p) }\n"
        "proc noisy(p: player) -> int {\n"
        "  return count(s in spaces where s.owner != none and s.owner != p\n"
        "               and s.level / (s.price - 5) > 0) }\n"
        "rule r { on turn(p: player) { if dearest(p) != none { move(p, noisy(p)) } } }\n"),
        until="index-filters", prelude=False).program
    dearest, noisy = (next(a for a in program.aggregates if a.kind == kind)
                      for kind in ("best", "count"))
    assert dearest.domain.index and dearest.where is None
    assert [ir_text.expr(e) for e in dearest.domain.others] == ["none", "p"]
    assert not noisy.domain.others  # its filter may raise: the order it meets spaces matters


def test_a_filter_on_declared_data_becomes_an_index(editions):
    program = editions.compile(DATA_BOARD + DATA + (
        "proc members(g: group, p: player) -> int {"
        " return count(t in spaces where t.group == g and t.level == p.cash) }\n"
        "proc flagged() -> int { return count(t in spaces where t.special) }\n"
        "rule r { on turn(p: player) { move(p, members(reds, p) + flagged()) } }\n"),
        until="index-filters", prelude=False).program
    by_group, by_flag = program.aggregates
    assert by_group.domain.index and ir_text.expr(by_group.where) == (
        "(t.space_level == p.player_cash)")
    assert by_flag.domain.index and by_flag.where is None
    group_index = next(ix for ix in program.indexes if ix.name == by_group.domain.index)
    reds = 0 - group_index.offset
    members = group_index.items[group_index.starts[reds]:group_index.starts[reds + 1]]
    assert list(members) == [0, 2]  # s0 and s2, in board order


def test_data_spread_over_a_wide_range_is_scanned_not_indexed(editions):
    """An index keeps an entry for every value between the lowest and the highest: over
    prices from 0 to 2,147,483,647 that would be two billion entries (the differential
    fuzzer's board ran the compiler out of memory). The filter stays a scan (here over
    prices up to 100,000: the same decision, without the memory)."""
    board = DATA_BOARD.replace('space s1 "S1" plain', 'space s1 "S1" plain { price = 100000 }')
    program = editions.compile(board + DATA + (
        "proc priced(x: int) -> int { return count(t in spaces where t.price == x) }\n"
        "rule r { on turn(p: player) { move(p, priced(p.cash)) } }\n"),
        until="index-filters", prelude=False).program
    (priced,) = program.aggregates
    assert not priced.domain.index and ir_text.expr(priced.where) == "(t.space_price == x)"
    assert not program.indexes


def test_an_aggregate_filtering_on_a_counter_uses_a_counter_index(editions):
    program = editions.compile(DATA + (
        "proc mine(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p))\n} }\n"), until="index-filters").program
    (index,) = program.counter_indexes
    assert (index.counter, index.offset, index.values) == ("space_owner", -1, 5)
    counting = next(a for a in program.aggregates if a.kind == "count")
    assert counting.domain.index == index.name and counting.where is None


HAND_RULES = DATA + """field card.tone: color = red
deck luck(p: player) "Luck" {
  card c0 "C0." keep
  card c1 "C1." keep { tone = blue }
  card c2 "C2." keep
}
proc red_cards(p: player) -> int {
  return count(c in cards where c.tone == red and holds(p, c))
}
rule r { on land(p: player, s: space) {
  draw luck(p)
  move(p, red_cards(p))
} }
"""


def test_a_question_about_a_players_cards_walks_that_players_hand(editions):
    """`holds(p, c)` in a question over the cards: the walk is p's hand, the list the
    kernel keeps in card order (`held`), over a table index (a card's tone); a memo of it
    reads p's hand (the kernel's version of each player's hand)."""
    program = editions.compile(HAND_RULES, until="memoize-aggregates").program
    counting = next(a for a in program.aggregates if a.kind == "count")
    assert counting.domain.index == "held" and ir_text.expr(counting.domain.key) == "p"
    assert "k_holds" not in calls(walk_expr(counting.where))
    assert counting.memo is not None and counting.memo.reads == ()
    assert counting.memo.per_entity == (("card_holder", "p"),)


def test_the_index_with_the_fewest_members_a_value_serves_the_filter(editions):
    """Six spaces in five groups (1.2 a group) beat two players and none (2 an owner), who
    beat a colour every space has (6)."""
    program = editions.compile(SMALL_GROUPS_BOARD + DATA + (
        "proc near(p: player, s: space) -> int {\n"
        "  return count(t in spaces where t.owner == p and t.group == s.group) }\n"
        "proc toned(p: player) -> int {\n"
        "  return count(t in spaces where t.tone == blue and t.owner == p) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, near(p, s) + toned(p))\n} }\n"),
        until="index-filters", prelude=False).program
    near, toned = (a for a in program.aggregates if a.kind == "count")
    assert near.domain.index.endswith("space_group")
    assert ir_text.expr(near.where) == "(t.space_owner == p)"
    assert toned.domain.index == "vx_space_owner"
    assert ir_text.expr(toned.where) == "(t.space_tone == 1)"
    assert [ix.table for ix in program.indexes] == ["space_group"]  # only the index used


def test_the_counter_index_follows_every_write(editions):
    """Writes by the rules and by the reflection API keep the members in entity order."""
    from boardrules.compiler.back.codegen import generate

    path = editions.write(DATA + (
        "proc owned(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
        "proc last_owned(p: player) -> space? { return best(0 for s in spaces where"
        " s.owner == p) }\n"
        "proc claim(p: player, s: space) { s.owner = p }\n"
        "rule r { on turn(p: player) { claim(p, s1)\n"
        "  if last_owned(p) != none { move(p, owned(p)) } } }\n"))
    from boardrules.compiler.pipeline import compile_rules

    compilation = compile_rules(path)
    assert compilation.program.counter_indexes
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    game = namespace["Game"](2, seed=1)
    names = {a.kind: a.name for a in compilation.program.aggregates}
    for seat, space in ((0, 2), (1, 0), (0, 0), (0, 1), (1, 2)):
        game.invoke("proc_claim", (seat, space))
        owners = [game.state_get("c_space_owner", s) for s in range(3)]
        for p in (0, 1):
            assert game.invoke(names["count"], (p,)) == owners.count(p)
            first = next((s for s in range(3) if owners[s] == p), -1)
            assert game.invoke(names["best"], (p,)) == first
    game.state_set("c_space_owner", 1, -1)  # owners now: p1, none, p2
    assert [game.invoke(names["count"], (p,)) for p in (0, 1)] == [1, 1]
    assert game.invoke(names["best"], (1,)) == 2
    copy = game.copy()
    assert [copy.invoke(names["count"], (p,)) for p in (0, 1)] == [1, 1]


WALK_RULES = DATA + """field card.tone: color = red
field card.steps: int = 1
deck luck(p: player) "Luck" {
  card c0 "C0." keep
  card c1 "C1." keep { tone = blue }
  card c2 "C2." keep { steps = 2 }
  card c3 "C3." keep { steps = 3 }
}
decision show(p: player) by p -> card? where c: holds(p, c) and c.tone == red {
  prompt "Show which red card?"
  default none
}
rule r { on land(p: player, s: space) {
  draw luck(p)
  let c = ask show(p)
  if c != none { move(p, some(c).steps) }
} }
"""


def test_a_decisions_options_walk_an_index_in_the_same_order(editions, monkeypatch):
    """The random policy lists `show`'s options from p's hand, not every card, and picks
    the same card as a scan of every card would (the legality of a given answer is still
    tested against the whole filter)."""
    from boardrules.compiler import pipeline
    from boardrules.compiler.back.codegen import generate
    from boardrules.compiler.ir.optimize import index

    path = editions.write(WALK_RULES)
    walked = pipeline.compile_rules(path).program
    show = next(d for d in walked.decisions if d.name == "show")
    assert show.walk.index == "held" and ir_text.expr(show.walk.key) == "p"
    assert ir_text.expr(show.walk_where) == "(c.card_tone == 0)"
    assert "k_holds" in calls(walk_expr(show.where))  # an answer's test: the whole filter
    code = generate(walked, "ed.rules")
    ask = code[code.index("def ask_show"):code.index("def ", code.index("def ask_show") + 4)]
    assert "ixk_c: cython.int" in ask  # the walk's locals are C ints, not Python objects
    monkeypatch.setattr(index, "_option_walk", lambda indexer, d, fx: d)
    scanned = pipeline.compile_rules(path).program
    assert next(d for d in scanned.decisions if d.name == "show").walk is None
    played = random_traces(walked, 12)
    assert played == random_traces(scanned, 12)
    assert any("decides show=c3" in line for trace in played for line in trace)


# an ordered walk of p's spaces, cheapest first, that writes what its filter reads (a
# level) and the owner its index follows, once every member is taken
ORDERED_RULES = DATA_BOARD.replace("rule turn_rule { on turn(p: player) { move(p, 1) } }\n", "") \
    + DATA + """field space.cost: money = 1
proc spend(p: player, funds: int) -> int {
  let left = funds
  for s in spaces where s.owner == p and s.level < 3 by s.cost desc {
    if left < s.cost {
      return left
    }
    left -= s.cost
    s.level += 1
    if s.level == 3 {
      s.owner = none
    }
  }
  return left
}
rule turn_rule { on turn(p: player) {
  let s = p.position
  if s.owner == none {
    s.owner = p
  }
  move(p, 1 + spend(p, p.cash / 200) % 3)
} }
"""


def test_an_ordered_walk_takes_its_members_from_an_index(editions, monkeypatch):
    """`for s in spaces where s.owner == p by KEY` takes p's spaces from the owners' index
    (its filter and key change nothing: they run before the body), in the same order, and
    plays as the scan of every space."""
    from boardrules.compiler import pipeline
    from boardrules.compiler.ir.optimize import index

    path = editions.write(ORDERED_RULES, prelude=False)
    walked = pipeline.compile_rules(path).program
    (loop,) = [s for f in walked.functions if f.name.endswith("spend")
               for s in f.body if getattr(s, "order", None) is not None]
    assert loop.domain.index == "vx_space_owner" and ir_text.expr(loop.domain.key) == "p"
    assert ir_text.expr(loop.order_where) == "(s.space_level < 3)"
    monkeypatch.setattr(index.Indexer, "ordered_rewrite",
                        lambda self, s: self.rewrite(s.var, s.domain, s.order_where))
    scanned = pipeline.compile_rules(path).program
    (loop,) = [s for f in scanned.functions if f.name.endswith("spend")
               for s in f.body if getattr(s, "order", None) is not None]
    assert not loop.domain.index
    played = random_traces(walked, 30)
    assert played == random_traces(scanned, 30)
