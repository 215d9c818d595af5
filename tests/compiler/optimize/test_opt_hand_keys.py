"""hand_keys.py (in memoize-aggregates): a question about one player's cards of one kind is
stamped by that player's version of that kind, which the kernel bumps only when a card of
that kind changes hands; one about a player's cards of one deck, by that player's version of
that deck."""

from __future__ import annotations

from opt_programs import DATA, module_namespace

from boardrules.compiler.ir import ir_text

TONES = DATA + """deck luck(p: player) "Luck" {
  card c0 "C0." keep
  card c1 "C1." keep { tone = blue }
}
deck fate(p: player) "Fate" {
  card f0 "F0." keep
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
proc lucky(p: player) -> int {
  return count(c in cards luck where holds(p, c))
}
rule r { on land(p: player, s: space) {
  draw luck(p)
  draw fate(p)
  move(p, of_tone(p, red) + of_tone(p, blue) + worth_of_tone(p, red) + lucky(p))
} }
"""


def _memos(editions) -> tuple:
    program = editions.compile(TONES, until="memoize-aggregates").program
    by_kind = {a.kind: a for a in program.aggregates if "lucky" not in a.name}
    return program, by_kind["count"], by_kind["sum"]


def _lucky(program) -> str:
    return next(a.name for a in program.aggregates if "lucky" in a.name)


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


def test_a_question_about_a_players_cards_of_one_deck_is_versioned_per_deck(editions):
    program, _, _ = _memos(editions)
    memo = next(a.memo for a in program.aggregates if a.name == _lucky(program))
    luck = [d.name for d in program.decks].index("luck")
    assert memo.held_decks == ("p", ((luck, "luck"),)) and memo.per_entity == ()
    assert "card_holder of p's cards of luck changes" in ir_text.memo(memo)


def test_a_card_of_another_deck_keeps_the_answer_and_one_of_the_deck_moves_it(editions):
    """The kernel bumps a player's version of a deck only for a card of that deck; the
    memo's answers follow every change (the interpreted module)."""
    compiled = editions.compile(TONES, until="codegen").program
    game = module_namespace(compiled)["Game"](2, seed=1)
    lucky = getattr(game, _lucky(compiled))
    decks = [d.name for d in compiled.decks]
    luck, fate = decks.index("luck"), decks.index("fate")
    fate_card = compiled.decks[fate].cards[0]
    luck_cards = compiled.decks[luck].cards
    assert lucky(0) == 0
    before = list(game.held_deck_version)
    game.k_set_holder(fate_card, 0)
    after = list(game.held_deck_version)
    assert [i for i in range(len(after)) if after[i] != before[i]] == [0 * 32 + fate]
    assert lucky(0) == 0
    game.k_set_holder(luck_cards[0], 0)
    assert lucky(0) == 1 and lucky(1) == 0
    game.k_set_holder(luck_cards[0], 1)
    game.k_set_holder(luck_cards[1], 0)
    assert lucky(0) == 1 and lucky(1) == 1
    game.k_set_holder(luck_cards[1], -1)
    assert lucky(0) == 0
    before = list(game.held_deck_version)
    game.memo_forget()  # state set from outside: every version moves
    assert all(now > then for now, then in zip(game.held_deck_version, before, strict=True))
