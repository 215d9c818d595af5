"""The project's strongest check: both backends play byte-identical games for a seed."""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed

SEEDS = [game_seed(7, i) for i in range(50)]


def test_fifty_seeded_games_give_identical_traces(disney_interpreted, disney_compiled,
                                                  assert_same_game, play_on_both):
    for seed in SEEDS:
        interpreted, compiled = play_on_both(disney_interpreted, disney_compiled, 4, seed)
        assert len(interpreted.trace()) > 100, "a whole game leaves a long trace"
        assert_same_game(interpreted, compiled, f"seed {seed}")


@pytest.mark.parametrize("policy", ["random", "default"])
def test_identical_with_each_builtin_policy(disney_interpreted, disney_compiled, policy,
                                            play_on_both):
    for seed in SEEDS[:5]:
        games = play_on_both(disney_interpreted, disney_compiled, 3, seed,
                             policies=[policy] * 3)
        assert games[0].trace() == games[1].trace()


def test_different_seeds_play_different_games(disney_compiled):
    a = disney_compiled.Game(4, seed=1, trace=True)
    b = disney_compiled.Game(4, seed=2, trace=True)
    a.play()
    b.play()
    assert a.trace() != b.trace()


@pytest.mark.parametrize("options", [{"short_game": 1}, {"time_limit": 20}],
                         ids=["short_game", "time_limit"])
def test_identical_in_each_variant(disney_interpreted, disney_compiled, options,
                                   assert_same_game, play_on_both):
    """The variants' deals, valuation, rounds and endings play alike on both backends."""
    for seed in SEEDS[:4]:
        interpreted, compiled = play_on_both(disney_interpreted, disney_compiled, 4, seed,
                                             options=options)
        assert compiled.over and not compiled.capped and compiled.ended_by > 0
        assert_same_game(interpreted, compiled, f"{options} seed {seed}")
        assert interpreted.winner() == compiled.winner()


def test_invoke_answers_alike_on_both_backends(disney_interpreted, disney_compiled):
    """The reflection API's calls, by name, give the same values; the compiled module hands
    a truth value over as a bool and a number as an int, whatever C type it had."""
    names = [name for name in disney_compiled.CALL_INDEX
             if name.startswith(("agg_", "decide_", "proc_", "k_holds", "k_distance"))
             and disney_compiled.CALL_ARITY[disney_compiled.CALL_INDEX[name]] <= 2]
    games = [module.Game(4, seed=SEEDS[0]) for module in (disney_interpreted, disney_compiled)]
    kinds = set()
    for name in names:
        arity = disney_compiled.CALL_ARITY[disney_compiled.CALL_INDEX[name]]
        for args in ((0,) * arity, (1,) * arity):
            answers = []
            for game in games:
                try:
                    answers.append(game.invoke(name, args))
                except Exception as exc:  # an argument out of range: the same error
                    answers.append(type(exc).__name__)
            assert answers[0] == answers[1], name
            kinds.add(type(answers[1]))
    assert {bool, int} <= kinds <= {bool, int, str}
