"""The kernel's decision protocol: policies, forced answers, replay scripts, Suspend."""

from __future__ import annotations

from collections import Counter

import pytest

SPACES = ("start", "a", "b", "c", "d", "e", "lockup")
A, C, D = SPACES.index("a"), SPACES.index("c"), SPACES.index("d")
DECISIONS = ("yes", "amount", "exact", "pick", "maybe_pick")


def started(tiny, **kwargs):
    game = tiny.Game(2, seed=kwargs.pop("seed", 5), **kwargs)
    game.start()
    return game


def test_decision_names(tiny):
    assert tiny.DECISION_NAMES == DECISIONS


# ---- the default policy --------------------------------------------------------------------


def test_default_policy_takes_each_decisions_default(tiny):
    game = started(tiny, trace=True)
    assert game.decide_yes(0) is True
    assert game.decide_amount(0) == 2
    assert game.decide_exact(1) == 3
    assert game.decide_pick(1) == C
    assert game.decide_maybe_pick(0) == -1
    decided = [line for line in game.trace() if "decides" in line]
    assert [line.split("decides ")[1] for line in decided] == [
        "yes=yes", "amount=2", "pick=c", "maybe_pick=none"]  # `exact` had one option


def test_a_single_option_is_no_decision(tiny):
    calls = []
    game = started(tiny, policies=[lambda *a: calls.append(a) or 3, "default"])
    assert game.decide_exact(0) == 3
    assert calls == []


# ---- forced answers ---------------------------------------------------------------------------


def test_forced_answers_come_first_in_order(tiny):
    game = started(tiny, policies=["random", "random"])
    game.force_answers("amount", [4, -1])
    game.force_answers("yes", [0])
    assert game.decide_amount(1) == 4  # whoever takes it
    assert game.decide_yes(0) is False
    assert game.decide_amount(0) == -1
    assert game.n_forced == 0
    assert game.forced == {"amount": [], "yes": []}


def test_forced_answers_for_one_decision_leave_others_alone(tiny):
    game = started(tiny)
    game.force_answers("pick", [A])
    assert game.decide_amount(0) == 2  # the default: nothing forced for `amount`
    assert game.decide_pick(0) == A
    assert game.decide_pick(0) == C  # the queue is used up: the default again


def test_forced_answer_must_be_legal(tiny):
    game = started(tiny)
    game.force_answers("amount", [9])
    with pytest.raises(tiny.RuleError, match="not between 1 and 4"):
        game.decide_amount(0)
    game.force_answers("pick", [D])  # d is a toll space, not a plain one
    with pytest.raises(tiny.RuleError, match="not a legal option"):
        game.decide_pick(0)


def test_a_forced_answer_overrides_a_default_taken_inline(tiny):
    """`maybe_pick`'s default, none, is answered inline only while nothing is forced,
    scripted or traced; a forced answer, queued between two decisions, comes first, and
    a copy keeps the queue."""
    game = started(tiny)
    assert game.decide_maybe_pick(0) == -1
    game.force_answers("maybe_pick", [A, C])
    assert game.decide_maybe_pick(0) == A
    copy = game.copy()
    assert copy.decide_maybe_pick(1) == C and game.decide_maybe_pick(1) == C
    assert game.decide_maybe_pick(0) == -1 and copy.decide_maybe_pick(0) == -1


def test_forcing_an_unknown_decision(tiny):
    game = started(tiny)
    with pytest.raises(tiny.RuleError, match="no decision named 'nope'"):
        game.force_answers("nope", [1])


# ---- replay scripts -----------------------------------------------------------------------------


def test_script_replays_actions_at_the_next_decisions(tiny):
    game = started(tiny)  # default policies, which the script overrides
    game.set_script([0, 3, A, -1, C])
    assert game.decide_yes(0) is False
    assert game.decide_amount(1) == 3
    assert game.decide_pick(0) == A
    assert game.decide_maybe_pick(1) == -1
    assert game.decide_maybe_pick(1) == C
    assert game.decide_yes(0) is True  # the script is over: the default again


def test_script_action_must_be_legal(tiny):
    game = started(tiny)
    game.set_script([5])
    with pytest.raises(tiny.RuleError, match="not legal"):
        game.decide_amount(0)


def test_forced_answers_before_the_script(tiny):
    game = started(tiny)
    game.set_script([1])
    game.force_answers("amount", [4])
    assert game.decide_amount(0) == 4
    assert game.decide_amount(0) == 1


# ---- external (Python) policies ----------------------------------------------------------------


def test_external_policy_sees_the_legal_options(tiny):
    seen = []

    def policy(game, decision, player, options):
        seen.append((decision, player, list(options)))
        return options[-1]

    game = started(tiny, policies=["default", policy])
    assert game.decide_yes(1) is True
    assert game.decide_amount(1) == 4
    assert game.decide_pick(1) == C
    assert game.decide_maybe_pick(1) == C
    assert game.decide_amount(0) == 2  # seat 0 keeps the default policy
    assert seen == [
        ("yes", 1, [0, 1]),
        ("amount", 1, [-1, 1, 2, 3, 4]),
        ("pick", 1, [A, C]),
        ("maybe_pick", 1, [-1, A, C]),
    ]


def test_external_policy_gets_the_game(tiny):
    games = []
    game = started(tiny, policies=[lambda g, *rest: games.append(g) or 1, "default"])
    game.decide_yes(0)
    assert games == [game]


def test_external_policy_answer_must_be_legal(tiny):
    game = started(tiny, policies=[lambda *a: 7, "default"])
    with pytest.raises(tiny.RuleError):
        game.decide_amount(0)
    with pytest.raises(tiny.RuleError):
        game.decide_pick(0)


def test_unknown_policy(tiny):
    with pytest.raises(ValueError, match="unknown policy"):
        tiny.Game(2, policies=["clever", "default"])


# ---- Suspend -------------------------------------------------------------------------------------


def test_suspend_without_an_answer(tiny):
    game = started(tiny, policies=["external", "external"])
    assert game.pending is None
    with pytest.raises(tiny.Suspend):
        game.decide_maybe_pick(1)
    assert game.pending == ("maybe_pick", 1, [-1, A, C])
    with pytest.raises(tiny.Suspend):
        game.decide_yes(0)
    assert game.pending == ("yes", 0, [0, 1])


def test_suspend_during_play_then_answer_by_replay(tiny):
    game = tiny.Game(2, seed=9, policies=["external", "default"])
    game.start()
    game.script_rolls([4])  # player 0 to d, the toll space: asks `yes`
    before = game.copy()
    with pytest.raises(tiny.Suspend):
        game.play(1)
    assert game.pending == ("yes", 0, [0, 1])
    assert game.position[0] == D
    # answer it: replay the turn from the copy with the action as the script
    before.script_rolls([4])
    before.set_script([1])
    assert before.play(1) == 1
    assert before.players_cash() == [99, 100]
    assert before.current == 1
    assert before.pending is None


# ---- the random policy ---------------------------------------------------------------------


def test_random_policy_is_legal_reproducible_and_covers_the_options(tiny):
    def sample(seed):
        game = started(tiny, seed=seed, policies=["random", "random"])
        return [(game.decide_amount(0), game.decide_maybe_pick(1), game.decide_yes(0))
                for _ in range(300)]

    first = sample(21)
    assert first == sample(21)
    assert first != sample(22)
    amounts = Counter(a for a, _, _ in first)
    picks = Counter(p for _, p, _ in first)
    assert set(amounts) == {-1, 1, 2, 3, 4}
    assert set(picks) == {-1, A, C}
    assert {y for _, _, y in first} == {True, False}


def test_random_policy_does_not_touch_the_dice(tiny):
    """Decisions draw from their own generator: the game's chance stream is unchanged."""
    a = started(tiny, seed=3, policies=["random", "random"])
    b = started(tiny, seed=3, policies=["default", "default"])
    for _ in range(10):
        a.decide_amount(0)
        b.decide_amount(0)
    assert [a.k_roll(0) for _ in range(20)] == [b.k_roll(0) for _ in range(20)]


# ---- the primitives ---------------------------------------------------------------------------


def test_choose_range_without_options(tiny):
    game = started(tiny)
    assert game.choose_range(1, 0, 5, 4, True, -1) == -1
    with pytest.raises(tiny.RuleError, match="no legal option"):
        game.choose_range(1, 0, 5, 4, False, 5)


def test_choose_option_without_options(tiny):
    game = started(tiny)
    assert game.choose_option(4, 0, 0, True, -1) == -1
    with pytest.raises(tiny.RuleError, match="no legal option"):
        game.choose_option(3, 0, 0, False, -1)
    game.opts[0] = 6
    assert game.choose_option(3, 0, 1, False, -1) == 6  # one option: taken, no policy asked
