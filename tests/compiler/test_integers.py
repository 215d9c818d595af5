"""Integers are exact, kept in 32 bits, and the same on both backends (issue: reliability).

Each case of the issue runs as one probe turn of a small edition, on the interpreted
and on the compiled backend: both give the same value, or the same rules error."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.runtime.loader import load_module

PROBE = """
option level: int = 3 "Level"
option flag: bool = false "Flag"
counter mode: int = 0
counter arg1: int = 0
counter arg2: int = 0
counter result: int = 0
decision wide(p: player) by p -> int from 0 - 2147483647 - 1 to 2147483647 {
  prompt "Any 32-bit number?"
  default 0
}
decision small(p: player) by p -> int from 0 to 10 {
  prompt "A small number?"
  default 0
}
rule probe {
  on turn(p: player) when mode > 0 {
    if mode == 1 { pay(bank, p, arg1)
      pay(bank, p, arg1) }
    if mode == 2 { result = abs(arg1) }
    if mode == 3 { result = arg1 / arg2 }
    if mode == 4 { result = sum(i for i in 0 to arg1) }
    if mode == 5 { let c = 0
      for i in 0 to arg1 { c += 1 }
      result = c }
    if mode == 6 { if arg1 * 4 > arg1 * 3 { result = 1 } else { result = 2 } }
    if mode == 7 { result = arg1 * arg2 * arg2 / (arg2 * arg2) }
    if mode == 8 { result = ask wide(p) }
    if mode == 9 { result = 0 - arg1 }
    if mode == 10 { move(p, arg1) }
    if mode == 11 { result = ask small(p) }
    end turn
  }
}
"""

INT_MIN, INT_MAX = -(2**31), 2**31 - 1


@pytest.fixture(scope="module")
def modules(module_editions):
    path = module_editions.write(PROBE)
    return [load_module(str(path), backend) for backend in ("interpreted", "compiled")]


def probe(module, mode: int, arg1: int, arg2: int = 0, policy: str = "default"):
    """The result of one probe turn, or the rules error it raised."""
    game = module.Game(2, seed=11, policies=[policy, policy])
    for name, value in (("g_game_mode", mode), ("g_game_arg1", arg1), ("g_game_arg2", arg2)):
        game.state_set(name, 0, value)
    try:
        game.play(1)
    except module.RuleError as error:
        return ("error", str(error))
    return game.state_get("g_game_result", 0), game.state_get("cash", game.current)


CASES = [
    (1, 2_000_000_000, 0, "does not fit in 32 bits"),  # paid twice: 4e9 in cash
    (1, 1_000_000_000, 0, None),
    (2, INT_MIN, 0, "integer overflow: 2147483648"),  # abs of the most negative number
    (2, -5, 0, None),
    (3, INT_MIN, -1, "integer overflow: 2147483648"),  # its division by -1
    (3, -7, 2, None),  # floor division, as Python's
    (4, 100_000, 0, "integer overflow: 5000050000"),  # a sum over a large range
    (4, 1000, 0, None),
    (4, 2_000_000_000, 0, "more than 1000000 rounds"),  # the loop guard covers aggregates
    (5, INT_MAX - 1, 0, "more than 1000000 rounds"),  # a loop too long to finish
    (6, 2**30, 0, None),  # exact comparison: 4 * 2**30 > 3 * 2**30 though neither fits
    (7, 50_000, 70_000, "integer overflow"),  # a product of products is checked
    (7, 3, 70_000, None),
    (9, INT_MIN, 0, "integer overflow: 2147483648"),
    (10, 2_000_000_000, 0, "a move of 2000000000 spaces"),
]


@pytest.mark.parametrize("mode, arg1, arg2, error", CASES)
def test_both_backends_agree_on_every_integer_case(modules, mode, arg1, arg2, error):
    interpreted, compiled = (probe(m, mode, arg1, arg2) for m in modules)
    assert interpreted == compiled
    if error is None:
        assert interpreted[0] != "error", interpreted
    else:
        assert interpreted[0] == "error" and error in interpreted[1], interpreted


def test_exact_values_where_they_fit(modules):
    for module in modules:
        assert probe(module, 3, -7, 2)[0] == -4
        assert probe(module, 4, 1000, 0)[0] == 500500
        assert probe(module, 6, 2**30, 0)[0] == 1
        assert probe(module, 7, 3, 70_000)[0] == 3


def test_the_random_policy_draws_from_the_whole_32_bit_range_alike(modules):
    """`high - low + 1` of the widest decision is 2**32: no overflow on either backend."""
    answers = [[probe(m, 8, seed, policy="random")[0] for seed in range(3)] for m in modules]
    assert answers[0] == answers[1]
    assert all(INT_MIN <= a <= INT_MAX for a in answers[0])


def test_a_constant_out_of_range_is_a_compile_error(editions):
    # a param's value: at the param, and by check (not only when compiled)
    located = editions.located("param big: int = 2000000000 * 2\n"
                               "rule r { on turn(p: player) { pay(bank, p, big) } }\n")
    assert located == [(E.CONSTANT_OUT_OF_RANGE.code, 13, 18)], located
    # a range to the largest integer: at its end, by check, in the user's own number
    errors = editions.diagnostics("rule r { on turn(p: player) {\n"
                                  "  for i in 0 to 2147483647 { move(p, 1) } } }\n")
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [
        (E.CONSTANT_OUT_OF_RANGE.code, 14, 17)]
    assert "a range up to 2147483647 counts past the largest integer" in errors[0].message


def test_a_python_policy_answer_must_fit_in_32_bits(modules):
    for module in modules:
        game = module.Game(2, seed=1, policies=[lambda *args: 2**40] * 2)
        game.state_set("g_game_mode", 0, 11)
        with pytest.raises(module.RuleError, match="does not fit in 32 bits"):
            game.play(1)


@pytest.mark.parametrize("arguments, error", [
    (dict(seed=-1), "seed must be from 0 to 18446744073709551615, not -1"),
    (dict(seed=2**64), "seed must be from 0"),
    (dict(seed=1.5), "seed must be an integer, not float"),
    (dict(turn_cap=2**40), "turn_cap must be from -2147483648 to 2147483647"),
    (dict(options={"level": 2**40}), "option level must be from -2147483648"),
    (dict(options={"flag": 7}), "option flag must be from 0 to 1, not 7"),
    (dict(options={"level": "x"}), "option level must be an integer, not str"),
])
def test_game_arguments_are_checked_alike(modules, arguments, error):
    """A C conversion would raise its own error, or wrap around: both check first."""
    outcomes = []
    for module in modules:
        with pytest.raises((TypeError, ValueError)) as info:
            module.Game(2, **arguments)
        outcomes.append((type(info.value), str(info.value)))
    assert outcomes[0] == outcomes[1] and error in outcomes[0][1]
    assert [module.Game(2, seed=2**64 - 1).seed for module in modules] == [2**64 - 1] * 2
