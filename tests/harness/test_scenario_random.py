"""A scenario scripts what random(n) gives with `random [..]`: the draws of the game's start
from the steps written before anything is given or played, a play's from those before it.
Like scripted dice, a scenario that scripts random(n) scripts every draw, and a value out of
range or never drawn fails it, named by its step.

The scenarios are added to a copy of the tiny edition and run on the interpreted backend
(tests/test_scenarios.py runs the shipped ones, Builder's lot among them, on both).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scenarios import cases, run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# A bonus drawn by lot when the game starts, to the first seat; another each time a player
# lands on C, to that player.
LOTS = """
rule bonus_by_lot {
  on start() {
    pay(bank, first_of(q in players), 10 * random(3))
  }
  on land(p: player, s: space) when s == c {
    pay(bank, p, random(4))
  }
}
"""

SCENARIOS = {
    "the start draws the lot": """
  random [2]
  expect p1.cash == 120
""",
    "a play draws after the start": """
  random [0]
  given { p1.position = b }
  random [3]
  dice [1]
  play p1
  expect p1.cash == 103
""",
    "a value out of range": """
  random [3]
  expect p1.cash == 100
""",
    "a draw with no value left": """
  random [1]
  given { p1.position = b }
  dice [1]
  play p1
""",
    "a value never drawn": """
  random [1, 2]
  expect p1.cash == 110
""",
    "a policy named random stays a policy": """
  random [1]
  policy p2 random
  expect p1.cash == 110
""",
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, tuple[bool, str]]:
    root = tmp_path_factory.mktemp("rulesets")
    rules = _edition(root, "".join(f'\nscenario "{title}" for toll {{{steps}}}\n'
                                   for title, steps in SCENARIOS.items()))
    compilation = compile_rules(rules)
    found = {}
    for case in cases(compilation):
        outcome = run_case(compilation, case, "interpreted")
        found[case.title] = (outcome.passed, outcome.message)
    return found


def _edition(root: Path, scenarios: str) -> Path:
    shutil.copytree(FIXTURES / "lib", root / "lib", dirs_exist_ok=True)
    shutil.copytree(FIXTURES / "tiny", root / "tiny", dirs_exist_ok=True)
    rules = root / "tiny" / "tiny.rules"
    rules.write_text((FIXTURES / "tiny" / "tiny.rules").read_text() + LOTS + scenarios)
    return rules


@pytest.mark.parametrize("title", ["the start draws the lot", "a play draws after the start",
                                   "a policy named random stays a policy"])
def test_scripted_values_are_drawn_where_they_stand(outcomes, title):
    passed, message = outcomes[title]
    assert passed, message


@pytest.mark.parametrize(("title", "said"), [
    ("a value out of range", "random [3] (line {}): 3 is not from 0 to 2, which random(3) in "
                             "rule bonus_by_lot at tiny.rules:"),
    ("a draw with no value left", "step at line {} (play) drew random(4) in rule bonus_by_lot"),
    ("a value never drawn", "random [1, 2] (line {}): 2 never drawn"),
])
def test_a_script_that_does_not_fit_the_draws_fails_by_its_step(outcomes, title, said):
    passed, message = outcomes[title]
    assert not passed
    steps = SCENARIOS[title].strip().splitlines()
    step = "play" if "play" in said else "random"
    scenario_line = next(i for i, line in enumerate(_lines(), 1) if f'"{title}"' in line)
    line = scenario_line + 1 + next(i for i, s in enumerate(steps) if s.strip().startswith(step))
    assert said.format(line) in message, message


def _lines() -> list[str]:
    text = (FIXTURES / "tiny" / "tiny.rules").read_text() + LOTS + "".join(
        f'\nscenario "{title}" for toll {{{steps}}}\n' for title, steps in SCENARIOS.items())
    return text.splitlines()
