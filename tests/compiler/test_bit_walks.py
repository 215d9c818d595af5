"""bit-walks (optimize/bits.py): a small domain's members walked as the set bits of a word,
the conjuncts on declared data worked out at compile time."""

from __future__ import annotations

import pytest

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.loader import load_module

BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
enum color { red, blue }
board {
  space s0 "S0" plain { price = 4, tone = red, special = true }
  space s1 "S1" plain { price = 6, tone = red }
  space s2 "S2" plain { price = 9, special = true }
  space s3 "S3" plain { price = 7, tone = red, special = true }
  space s4 "S4" plain { price = 0, special = true }
}
field space.price: money = 0
field space.tone: color = blue
field space.special: bool = false
counter space.owner: player? = none
counter space.level: int = 0
"""

QUERIES = """proc dearest_special(p: player) -> space? {
  return best(s.price for s in spaces where s.owner != none and s.owner != p and s.special
              and s.price > 0)
}
proc cheapest_red_left() -> space? {
  return best(0 - s.price for s in spaces where s.owner == none and s.tone == red)
}
proc blue_levels() -> int {
  return sum(s.level for s in spaces where s.tone == blue and s.level > 1)
}
proc held(p: player) -> int {
  return count(s in spaces where s.owner == p and s.level >= 0)
}
proc dear_levels() -> int {
  return sum(s.level for s in spaces where s.price > 6 and s.level > 0)
}
proc risky() -> int {
  return count(s in spaces where s.price > 6 and s.level / (s.price - 10) >= 0
               and s.tone == red)
}
rule take { on turn(p: player) {
  for s in spaces where s.owner == none and s.price > 0 {
    s.owner = p
    s.level += 1
    move(p, 1)
    end turn
  }
  let target = dearest_special(p)
  let seen = held(p) + dear_levels() + blue_levels() + risky()
  if target != none and cheapest_red_left() != none and seen > 0 {
    target.level += 1
  }
  move(p, 1)
} }
"""


def aggregate(program: ir.Program, function: str) -> ir.Aggregate:
    return next(a for a in program.aggregates if a.name.endswith(f"_in_proc_{function}"))


def test_conjuncts_on_declared_data_become_the_word_of_the_entities_that_pass(editions):
    """The other owners' spaces walk bits: the special spaces with a price (s0, s2, s3) are
    worked out at compile time and leave the filter. A walk of one value's members becomes
    a bit walk only because such a conjunct prunes it; a range's scan, only when they skip
    at least half of it (`s.price > 6`: two spaces of five; `s.tone == blue`: not)."""
    program = editions.compile(BOARD + QUERIES, until="bit-walks", prelude=False).program
    others = aggregate(program, "dearest_special")
    assert others.domain.mask == 0b01101 and others.where is None
    assert [ir_text.expr(c) for c in others.domain.masked] == [
        "s.space_special", "(s.space_price > 0)"]
    assert "as bits (of 3 passing s.space_special and (s.space_price > 0))" in \
        ir_text.aggregate(others)
    red = aggregate(program, "cheapest_red_left")
    assert red.domain.index and red.domain.mask == 0b01011 and red.where is None
    assert aggregate(program, "held").domain.mask is None  # nothing on declared data
    ranged = aggregate(program, "dear_levels")
    assert not ranged.domain.index and ranged.domain.mask == 0b01100
    assert ir_text.expr(ranged.where) == "(s.space_level > 0)"
    assert aggregate(program, "blue_levels").domain.mask is None  # skips 3 of 5 spaces
    indexes = {cx.name: cx for cx in program.counter_indexes}
    assert indexes[others.domain.index].bits


def test_a_conjunct_after_one_that_may_raise_stays_in_the_filter(editions):
    """Skipping a space must not skip a division by zero it might meet first (the compiler
    cannot tell that no price is 10), so `s.tone == red` stays; `s.price > 6`, before it,
    still leaves."""
    program = editions.compile(BOARD + QUERIES, until="bit-walks", prelude=False).program
    risky = aggregate(program, "risky")
    assert risky.domain.mask == 0b01100
    assert [ir_text.expr(c) for c in risky.domain.masked] == ["(s.space_price > 6)"]
    assert ir_text.expr(risky.where).endswith("and (s.space_tone == 0))")


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_bit_walks_find_what_a_scan_finds_as_owners_change(module_editions, backend):
    """The words kept by each owner's writes, by state_set and by copy() give the answers
    worked out here from the owners themselves, turn after turn."""
    module = load_module(str(module_editions.write(BOARD + QUERIES, prelude=False)), backend)
    price, special, red = [4, 6, 9, 7, 0], [1, 0, 1, 1, 1], [1, 1, 0, 1, 0]

    def owners(game) -> list[int]:
        return [game.state_get("c_space_owner", s) for s in range(5)]

    def expected_dearest(game, p: int) -> int:
        mine = [s for s, o in enumerate(owners(game))
                if o not in (-1, p) and special[s] and price[s] > 0]
        return max(mine, key=lambda s: (price[s], -s), default=-1)

    def named(function: str) -> str:
        return next(name for name in module.CALL_INDEX
                    if name.startswith("agg_") and name.endswith(f"_in_proc_{function}"))

    def check(game) -> None:
        for p in range(game.n_players):
            assert game.invoke(named("dearest_special"), (p,)) == expected_dearest(game, p)
        left = [s for s, o in enumerate(owners(game)) if o == -1 and red[s]]
        assert game.invoke(named("cheapest_red_left"), ()) == min(
            left, key=lambda s: (price[s], s), default=-1)

    game = module.Game(3, seed=5)
    for _ in range(8):
        game.play(1)
        check(game)
        check(game.copy())
    game.state_set("c_space_owner", 2, -1)
    game.state_set("c_space_owner", 0, 2)
    check(game)


def test_an_optimization_can_be_left_out_and_only_an_optimization(editions):
    """The fuzzer's reference leaves optimizations out (`skip`): without bit-walks, no
    domain is a word's bits; a pass the program needs cannot be left out."""
    path = editions.write(BOARD + QUERIES, prelude=False)
    program = compile_rules(path, until="bit-walks", skip=("bit-walks",)).program
    assert all(a.domain.mask is None for a in program.aggregates)
    assert not any(cx.bits for cx in program.counter_indexes)
    with pytest.raises(ValueError, match="not optimization passes: check"):
        compile_rules(path, skip=("check",))


WITHIN = """proc top_level(p: player, q: player) -> int {
  return max_of(s.level for s in spaces where s.owner == p and s.special
                and s.level < p.cash + q.cash)
}
proc dearest_within(p: player, q: player) -> space? {
  return best(s.price for s in spaces where s.owner == p and s.special
              and s.price <= p.cash + q.cash)
}
rule look { on turn(p: player) {
  let q = next_player(p)
  if top_level(p, q) > 0 and dearest_within(p, q) != none {
    p.cash -= 1
  }
  for s in spaces where s.owner == none and s.price > 0 {
    s.owner = p
    end turn
  }
  move(p, 1)
} }
"""


def test_an_empty_word_answers_inline_without_the_walk(editions):
    """The aggregate is its word's test, inline in its callers: an empty word gives what
    the aggregate gives over no members, and only a word with members calls the walk
    (`walk_`), which gets it. Not for a `max_of` (over nothing, an error the walk
    reports), nor for one kept in a memo (its lookup is inline already)."""
    compilation, code, _ = editions.module(BOARD + WITHIN, prelude=False)
    within = aggregate(compilation.program, "dearest_within").name
    entry = code.split(f"def {within}(")[1].split("@cython.cfunc")[0]
    assert "if not bits_s:\n            return -1\n" in entry
    assert f"return self.walk_{within}(v_p, v_q, bits_s)" in entry
    assert f"def walk_{within}(self, v_p: cython.int, v_q: cython.int, " \
        "bits_s: cython.ulonglong)" in code
    assert f"def walk_{aggregate(compilation.program, 'top_level').name}(" not in code
    compilation, code, _ = editions.module(BOARD + QUERIES, prelude=False)
    assert aggregate(compilation.program, "dearest_special").memo and "def walk_" not in code


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_word_tested_inline_gives_the_walks_answers(module_editions, backend):
    """Empty words (no owner yet) and words with members give the answers worked out here
    from the owners and the cash, turn after turn."""
    module = load_module(str(module_editions.write(BOARD + WITHIN, prelude=False)), backend)
    price, special = [4, 6, 9, 7, 0], [1, 0, 1, 1, 1]
    name = next(n for n in module.CALL_INDEX if n.startswith("agg_")
                and n.endswith("_in_proc_dearest_within"))
    game = module.Game(3, seed=5)
    for p in range(3):
        game.state_set("cash", p, 4)  # two players' cash: 8, more than some prices
    answers = set()
    for _ in range(10):
        for p in range(3):
            q = (p + 1) % 3
            cash = game.state_get("cash", p) + game.state_get("cash", q)
            mine = [s for s in range(5) if game.state_get("c_space_owner", s) == p
                    and special[s] and price[s] <= cash]
            expected = max(mine, key=lambda s: (price[s], -s), default=-1)
            assert game.invoke(name, (p, q)) == expected
            answers.add(expected)
        game.play(1)
    assert -1 in answers and len(answers) > 1
