"""bound-counts: a count only ever compared with constants stops once the answer is settled."""

from __future__ import annotations

import pytest

COUNTS = """field space.price: money = 5
counter space.level: int = 0
proc levelled() -> int {
  return count(s in spaces where s.level > 0)
}
proc crowded() -> bool {
  return count(s in spaces where s.level > 0) >= 2 or 3 == count(t in spaces where t.level > 2)
}
proc some_levelled() -> bool {
  return count(s in spaces where s.level > 1) < 2
}
proc raise_level(s: space) {
  s.level += 1
}
rule tally {
  on turn(p: player) {
    if crowded() and some_levelled() {
      raise_level(s1)
    }
    s0.level += levelled()
  }
}
"""


def _limits(editions, body: str) -> dict[str, int]:
    program = editions.compile(body, until="bound-counts").program
    return {a.name: a.limit for a in program.aggregates if a.kind == "count"}


def test_counts_compared_with_constants_get_the_count_that_decides_them(editions):
    limits = _limits(editions, COUNTS)
    by_proc = {name.split("_in_proc_")[1]: limit for name, limit in limits.items()}
    # `count(s ... level > 0)` is merged with levelled's, which returns it: unbounded
    assert by_proc["levelled"] == 0
    assert by_proc["crowded"] == 4  # `3 == count(...)`: decided at 4, either way round
    assert by_proc["some_levelled"] == 2  # `< 2`: decided at 2


def test_a_count_read_as_a_number_anywhere_is_not_bounded(editions):
    body = COUNTS.replace("proc raise_level(s: space) {\n  s.level += 1",
                          "proc raise_level(s: space) {\n"
                          "  s.level += count(t in spaces where t.level > 1)")
    by_proc = {name.split("_in_proc_")[1]: limit
               for name, limit in _limits(editions, body).items()}
    assert by_proc.get("some_levelled", 0) == 0


def test_a_count_whose_filter_may_fail_is_not_bounded(editions):
    body = COUNTS + """counter space.holder: player? = none
proc held_twice() -> bool {
  return count(s in spaces where some(s.holder).cash > 0) < 2
}
rule held { on turn(p: player) { if held_twice() { raise_level(s2) } } }
"""
    by_proc = {name.split("_in_proc_")[1]: limit
               for name, limit in _limits(editions, body).items()}
    assert by_proc["held_twice"] == 0


@pytest.mark.parametrize("levels", [(0, 0, 0), (1, 0, 0), (1, 1, 0), (3, 3, 3), (0, 3, 1),
                                    (2, 2, 0)])
def test_a_bounded_count_answers_as_the_full_count(editions, levels):
    """The generated walks return at their limits; the turn plays as the full counts say."""
    _, code, namespace = editions.module(COUNTS)
    assert "if acc == 2:" in code and "if acc == 4:" in code
    game = namespace["Game"](2, seed=1)
    for s, level in enumerate(levels):
        game.state_set("c_space_level", s, level)
    game.invoke("event_turn", (0,))
    after = list(levels)
    if ((sum(v > 0 for v in after) >= 2 or sum(v > 2 for v in after) == 3)
            and sum(v > 1 for v in after) < 2):
        after[1] += 1
    after[0] += sum(v > 0 for v in after)
    assert [game.state_get("c_space_level", s) for s in range(3)] == after
