"""hand_keys.py (in memoize-aggregates): a question about one player's cards of one kind is
stamped by that player's version of that kind, which the kernel bumps only when a card of
that kind changes hands."""

from __future__ import annotations

from opt_programs import DATA, module_namespace

from boardrules.compiler import ir_text

TONES = DATA + """deck luck(p: player) "Luck" {
  card c0 "C0." keep
  card c1 "C1." keep { tone = blue }
}
field card.tone: color = red
field card.worth: int = 1
proc of_tone(p: player, t: color) -> int {
  return count(c in cards where holds(p, c) and c.tone == t)
}
proc weight(c: card) -> int {
  let n = c.worth
  for q in players where holds(q, c) { n += 1 }
  return n
}
proc worth_of_tone(p: player, t: color) -> int {
  return sum(weight(c) for c in cards where holds(p, c) and c.tone == t)
}
rule r { on land(p: player, s: space) {
  draw luck(p)
  move(p, of_tone(p, red) + of_tone(p, blue) + worth_of_tone(p, red))
} }
"""


def _memos(editions) -> tuple:
    program = editions.compile(TONES, until="memoize-aggregates").program
    by_kind = {a.kind: a for a in program.aggregates}
    return program, by_kind["count"], by_kind["sum"]


def test_a_question_about_a_players_cards_of_one_kind_is_versioned_per_kind(editions):
    program, counting, _ = _memos(editions)
    assert program.card_key == "card_tone"
    assert counting.memo.held_key == ("p", "t") and counting.memo.per_entity == ()
    assert "card_holder of p's cards of t" in ir_text.memo(counting.memo)


def test_a_question_that_calls_a_procedure_keeps_the_whole_hands_version(editions):
    """What the procedure reads could be any card's holder (here, it is)."""
    _, _, summing = _memos(editions)
    assert summing.memo.held_key == () and "card_holder" in summing.memo.reads


def test_a_card_changing_hands_bumps_only_its_kinds_versions(editions):
    """And the memo's answers follow every change (the interpreted module)."""
    compiled = editions.compile(TONES, until="codegen").program
    game = module_namespace(compiled)["Game"](2, seed=1)
    red, blue = 0, 1  # the enum's values
    before = list(game.held_key_version)
    game.k_set_holder(1, 0)  # c1, blue, to player 0
    after = list(game.held_key_version)
    changed = [i for i in range(len(after)) if after[i] != before[i]]
    assert changed == [0 * 16 + blue]
    count = next(a.name for a in compiled.aggregates if a.kind == "count")
    assert getattr(game, count)(0, red) == 0 and getattr(game, count)(0, blue) == 1
    game.k_set_holder(0, 0)  # c0, red: the red answer follows, the blue one is kept
    assert getattr(game, count)(0, red) == 1 and getattr(game, count)(0, blue) == 1
    game.k_set_holder(1, 1)  # c1 to player 1: both players' blue versions move
    assert getattr(game, count)(0, blue) == 0 and getattr(game, count)(1, blue) == 1
