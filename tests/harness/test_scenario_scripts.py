"""Scripted dice and answers are checked: by type and face when the file is checked, and when
the scenario runs, so that a scenario cannot pass while testing nothing.

The scenarios are added to a copy of the tiny edition and run on the interpreted backend
(the checks live in the kernel, the test layer and the harness, the same on both backends;
tests/test_scenarios.py runs every shipped scenario on both).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scenarios import cases, run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# After a throw of the six-sided die, a lucky space rolls the weather die when the player
# has 100 beans or more, and the six-sided die again otherwise: which die is rolled second
# is known only when the game runs.
WEATHER = """
enum sky { sun, storm }
die weather faces [sun, storm]

rule lucky_weather {
  on land(p: player, s: space) when s.kind == lucky {
    if p.cash >= 100 {
      if roll(weather) == storm {
        pay(p, bank, 1)
      }
    } else {
      pay(bank, p, roll(d6))
    }
  }
}
"""

# The weather die rolled once when the game starts: a turn rolls the six-sided die alone.
START_WEATHER = """
enum sky { sun, storm }
die weather faces [sun, storm]

rule forecast {
  on start() {
    if roll(weather) == storm {
      log("storm")
    }
  }
}
"""

SCENARIOS = {
    "unused answer": """
  dice [1]
  answer yes [true]
  play p1
  expect p1.position == a
""",
    "answer asked once of two": """
  given { p1.position = c }
  dice [1]
  answer yes [true, false]
  play p1
  expect paid(p1, bank) == 1
""",
    "an answer for the seat asked": """
  given { p1.position = c }
  dice [1]
  answer yes by p1 [true]
  play p1
  expect paid(p1, bank) == 1
""",
    "an answer for another seat": """
  given { p1.position = c }
  answer yes by p2 [true]
  dice [1]
  play p1
""",
    "a decision that is not asked": """
  dice [1]
  play p1
  expect not asked yes
  expect not asked pick by p2
""",
    "a decision asked after all": """
  given { p1.position = c }
  dice [1]
  answer yes by p1 [true]
  play p1
  expect not asked yes by p2
  expect not asked yes
""",
    "dice left after a play": """
  dice [1, 2]
  play p1
  expect p1.position == a
""",
    "a roll with none left": """
  dice [1]
  play p1
  play p1
""",
    "a named face rolled as a number": """
  given { p1.cash = 10 }
  cards luck [nothing]
  dice [2, storm]
  play p1
""",
    "the weather after a lucky throw": """
  cards luck [nothing]
  dice [2, storm]
  play p1
  expect paid(p1, bank) == 1
""",
    "legal answers": """
  given { p1.position = c }
  answer pick [c]
  expect legal(pick(p1), a)
  expect not legal(pick(p1), b)
  expect legal(exact(p1), 3)
  expect not legal(exact(p1), 4)
  expect legal(maybe_pick(p1), none)
  expect legal(amount(p1), none)
  expect not legal(amount(p1), 5)
  expect legal(yes(p1), false)
  given {
    let s = ask pick(p1)
    s.landings = 7
  }
  expect c.landings == 7
""",
    "legal answers while one seat's answer is queued": """
  given { p1.position = c }
  answer pick by p1 [c]
  expect legal(pick(p1), a)
  given {
    let s = ask pick(p1)
    s.landings = 7
  }
  expect c.landings == 7
""",
    "an answer the rules refuse": """
  expect legal(pick(p1), b)
""",
    "what play leaves behind": """
  players 3
  expect current == p1 and turn == 0
  dice [1]
  play p1
  expect current == p1 and turn == 1 and p1.position == a
  dice [1]
  play p3
  expect current == p3 and turn == 2 and p3.position == a
""",
}


def _edition(root: Path, text: str) -> Path:
    shutil.copytree(FIXTURES / "lib", root / "lib", dirs_exist_ok=True)
    shutil.copytree(FIXTURES / "tiny", root / "tiny", dirs_exist_ok=True)
    rules = root / "tiny" / "tiny.rules"
    rules.write_text((FIXTURES / "tiny" / "tiny.rules").read_text() + text)
    return rules


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, tuple[bool, str, Path]]:
    text = WEATHER + "".join(f'\nscenario "{title}" for toll {{{steps}}}\n'
                             for title, steps in SCENARIOS.items())
    rules = _edition(tmp_path_factory.mktemp("rulesets"), text)
    compilation = compile_rules(rules)
    found = {}
    for case in cases(compilation):
        outcome = run_case(compilation, case, "interpreted")
        found[case.title] = (outcome.passed, outcome.message, rules)
    return found


def _line(rules: Path, title: str, text: str) -> int:
    """The line of `text` in the scenario `title`."""
    lines = rules.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if f'"{title}"' in line)
    return next(i + 1 for i in range(start + 1, len(lines)) if text in lines[i])


def _failure(outcomes, title: str) -> list[str]:
    passed, message, _ = outcomes[title]
    assert not passed, f"{title} passed"
    return message.splitlines()


def test_an_answer_never_asked_fails_the_scenario(outcomes):
    rules = outcomes["unused answer"][2]
    line = _line(rules, "unused answer", "answer yes")
    assert _failure(outcomes, "unused answer")[2] == (
        f"answer yes [true] (line {line}) was never asked")


def test_an_answer_left_over_is_named(outcomes):
    rules = outcomes["answer asked once of two"][2]
    line = _line(rules, "answer asked once of two", "answer yes")
    assert _failure(outcomes, "answer asked once of two")[2] == (
        f"answer yes [true, false] (line {line}): false never asked (yes was asked once)")


def test_an_answer_by_a_seat_is_taken_by_that_seat_only(outcomes):
    """`answer D by p2`: a scenario notices which seat the rules ask (a rule that asks
    the wrong player fails it, where an answer for anyone would be taken all the same)."""
    assert outcomes["an answer for the seat asked"][0], outcomes["an answer for the seat asked"]
    rules = outcomes["an answer for another seat"][2]
    line = _line(rules, "an answer for another seat", "answer yes")
    assert _failure(outcomes, "an answer for another seat")[2] == (
        f"answer yes by p2 [true] (line {line}) was never asked")


def test_expect_not_asked_fails_when_the_rules_ask(outcomes):
    """`expect not asked D [by pN]`: a rule that asks a decision it should not is noticed
    (no answer could show it: the unmutated rules never take one)."""
    assert outcomes["a decision that is not asked"][0], outcomes["a decision that is not asked"]
    rules = outcomes["a decision asked after all"][2]
    line = _line(rules, "a decision asked after all", "expect not asked yes by p2") + 1
    assert _failure(outcomes, "a decision asked after all")[2] == (
        f"expect not asked yes (line {line}): p1 was asked it")


def test_an_answer_by_a_seat_names_a_seat_of_the_scenario(tmp_path):
    rules = _edition(tmp_path, '\nscenario "no such seat" for toll {\n  players 2\n'
                     '  answer yes by p3 [true]\n  play p1\n}\n')
    with pytest.raises(CompileError) as error:
        compile_rules(rules)
    (found,) = error.value.diagnostics
    assert (found.code, found.span.line, found.span.column) == ("BR501", _line(
        rules, "no such seat", "answer yes by p3"), len("  answer yes by ") + 1)


def test_a_play_must_roll_every_die_scripted_for_it(outcomes):
    rules = outcomes["dice left after a play"][2]
    dice, play = (_line(rules, "dice left after a play", text) for text in ("dice", "play"))
    assert _failure(outcomes, "dice left after a play")[2] == (
        f"scripted dice never rolled: 2 of dice [1, 2] (line {dice}): the play at line {play} "
        "did not roll them")


def test_a_scenario_that_scripts_dice_scripts_every_roll(outcomes):
    message = _failure(outcomes, "a roll with none left")
    assert re.fullmatch(r"play at line \d+ rolled die d6 in rule walk at tinylib\.rules:\d+ with "
                        r"no scripted roll left: .*", message[2]), message[2]


def test_a_named_face_rolled_by_another_die_fails_by_name(outcomes):
    rules = outcomes["a named face rolled as a number"][2]
    dice = _line(rules, "a named face rolled as a number", "dice")
    message = _failure(outcomes, "a named face rolled as a number")[2]
    assert message.startswith(f"dice [2, storm] (line {dice}): storm is not a face of die d6, "
                              "which the rules rolled in rule lucky_weather at tiny.rules:")


def test_scripted_named_faces_and_legal_answers_pass(outcomes):
    for title in ("the weather after a lucky throw", "legal answers",
                  "legal answers while one seat's answer is queued"):
        passed, message, _ = outcomes[title]
        assert passed, message


def test_an_answer_the_rules_refuse_fails_expect_legal(outcomes):
    message = _failure(outcomes, "an answer the rules refuse")
    assert message[2].endswith("legal(pick(p1), b)")
    assert message[3:5] == ["  expected: the rules accept b", "  actual:   they refuse it"]


@pytest.mark.parametrize(("steps", "error"), [
    ("dice [7]", "7 is not a face of any die"),
    ("dice [storm, 1]", "storm is not a face of die d6, which the turn rolls first"),
    ("dice [1, 2]", "one die too many: the turn rolls no die after 1"),
    ("answer yes [a]", "an answer to 'yes' is a bool, not a space"),
    ("answer pick [p2]", "an answer to 'pick' is a space, not a player"),
    ("answer pick [none]", "'pick' cannot be answered none: it is not optional"),
    ("answer amount [9]", "9 is not an answer to 'amount'"),
    ("answer pick [a.kind]", "an answer to 'pick' is a space, not a kind"),
    ("expect legal(yes(p1), 3)", "an answer to 'yes' is a bool, not an int"),
    ("random [-1]", "random(n) gives a number from 0 to n - 1, not -1"),
    ("random [a]", "expected int, got space"),
])
def test_scripts_are_checked_with_the_file(tmp_path, steps, error):
    rules = _edition(tmp_path, START_WEATHER
                     + f'\nscenario "s" for toll {{\n  {steps}\n  play p1\n}}\n')
    with pytest.raises(CompileError) as caught:
        compile_rules(rules, until="check")
    rendered = caught.value.render()
    assert f"tiny.rules:{len(rules.read_text().splitlines()) - 2}:" in rendered
    assert f"error: {error}" in rendered, rendered


def test_boardrules_test_names_the_unused_answer(tmp_path, capsys):
    rules = _edition(tmp_path, '\nscenario "never asked" for toll {\n  dice [1]\n'
                     "  answer yes [true]\n  play p1\n}\n")
    assert main(["test", str(rules), "--backend", "interpreted"]) == 1
    out = capsys.readouterr().out
    assert "answer yes [true] (line" in out and "was never asked" in out


# ---- the `policy` step ----------------------------------------------------------------
# From a `policy` step on, the seats it names answer what no queued answer answers with the
# default strategy, random legal answers, or by doing nothing (`passive`: none for an
# optional decision, false for a yes/no one, the default's answer for any other), on both
# backends. The tiny edition asks `yes` (default true: pay a toll of 1) on its toll space.
POLICY_SCENARIOS = {
    "passive declines the toll": """
  given { p1.position = c }
  policy passive
  dice [1]
  play p1
  expect paid(p1, bank) == 0
""",
    "the default pays it": """
  given { p1.position = c }
  dice [1]
  play p1
  expect paid(p1, bank) == 1
""",
    "a queued answer comes before the policy": """
  given { p1.position = c }
  policy p1 passive
  answer yes [true]
  dice [1]
  play p1
  expect paid(p1, bank) == 1
""",
    "an unused queued answer still fails": """
  policy passive
  answer yes [true]
  dice [1]
  play p1
""",
    "a policy for another seat leaves p1 alone": """
  given { p1.position = c }
  policy p2 passive
  dice [1]
  play p1
  expect paid(p1, bank) == 1
""",
    "back to the default": """
  given { p1.position = c }
  policy passive
  policy p1 default
  dice [1]
  play p1
  expect paid(p1, bank) == 1
""",
    "passive answers none, or the default where there is no none": """
  policy passive
  given {
    let s = ask pick(p1)
    s.landings = 7
    let m = ask maybe_pick(p1)
    if m == none {
      a.landings = 3
    }
    let n = ask amount(p1)
    if n == none {
      b.landings = 4
    }
  }
  expect c.landings == 7
  expect a.landings == 3
  expect b.landings == 4
""",
}


def _passed_message(outcome) -> tuple[bool, str]:
    return outcome.passed, outcome.message


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def policy_outcomes(tmp_path_factory, request) -> dict[str, tuple[bool, str]]:
    text = "".join(f'\nscenario "{title}" for toll {{{steps}}}\n'
                   for title, steps in POLICY_SCENARIOS.items())
    compilation = compile_rules(_edition(tmp_path_factory.mktemp("rulesets"), text))
    return {case.title: _passed_message(run_case(compilation, case, request.param))
            for case in cases(compilation)}


@pytest.mark.parametrize("title", [t for t in POLICY_SCENARIOS if "still fails" not in t])
def test_the_policy_answers_what_no_queued_answer_does(policy_outcomes, title):
    passed, message = policy_outcomes[title]
    assert passed, message


def test_an_answer_queued_and_never_asked_still_fails(policy_outcomes):
    passed, message = policy_outcomes["an unused queued answer still fails"]
    assert not passed and "answer yes [true] (line" in message and "was never asked" in message


@pytest.mark.parametrize("step, error", [
    ("policy lazy", "unknown policy 'lazy'"),
    ("policy p7 passive", "'p7' is not a seat of this scenario"),
    ("policy bank passive", "'bank' is not a seat of this scenario"),
])
def test_the_policy_and_its_seat_are_checked_with_the_file(tmp_path, step, error):
    rules = _edition(tmp_path, f'\nscenario "s" for toll {{\n  {step}\n  play p1\n}}\n')
    with pytest.raises(CompileError) as caught:
        compile_rules(rules, until="check")
    rendered = caught.value.render()
    assert f"tiny.rules:{len(rules.read_text().splitlines()) - 2}:" in rendered, rendered
    assert f"error: {error}" in rendered, rendered


def test_a_random_policy_plays_the_same_on_both_backends(tmp_path):
    steps = "\n  policy random\n" + "  given { p1.position = c }\n  dice [1]\n  play p1\n" * 8
    steps += "  expect p1.cash >= 0\n"
    compilation = compile_rules(_edition(tmp_path, f'\nscenario "r" for toll {{{steps}}}\n'))
    case = cases(compilation)[0]
    played = [run_case(compilation, case, backend) for backend in ("interpreted", "compiled")]
    assert all(outcome.passed for outcome in played), played[0].message
    assert played[0].trace == played[1].trace
    answers = {line for line in played[0].trace if " decides yes=" in line}
    assert answers == {"p1 decides yes=yes", "p1 decides yes=no"}  # drawn, not the default


def test_play_leaves_the_turn_played_as_current(outcomes):
    """After `play P` the game stands at the end of P's turn: `current` is still P (no next
    turn has begun) and `turn` counts the turns played; the next `play` names its player."""
    passed, message, _ = outcomes["what play leaves behind"]
    assert passed, message

