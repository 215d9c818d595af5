"""The built-in value `bankruptcy_ends_game`: whether a bankruptcy declared now would end
the game (the game block's `over at first bankruptcy` condition as it stands), read by rules
code and by scenarios, on both backends."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.harness.scenarios import run_edition
from boardrules.runtime.loader import load_module

SEEN = """
option sudden: bool = false "The first bankruptcy ends the game"
counter mode: int = 0
counter seen: bool = false
rule watch {
  on turn(p: player) {
    seen = bankruptcy_ends_game
  }
}
"""

# The condition reads an option and a counter the rules change during the game.
WHEN = SEEN + """game {
  over at first bankruptcy when sudden or mode == 2
}
scenario "without the option or the mode, a bankruptcy would not end the game" for watch {
  expect not bankruptcy_ends_game
  play p1
  expect not seen
}
scenario "with the option, it would" for watch {
  option sudden = true
  expect bankruptcy_ends_game
  play p1
  expect seen
}
scenario "the condition is read as it stands: a counter it reads changes it" for watch {
  play p1
  expect not seen
  given { mode = 2 }
  expect bankruptcy_ends_game
  play p2
  expect seen
  given { mode = 1 }
  expect not bankruptcy_ends_game
}
"""


def test_with_when_the_condition_decides_on_both_backends(module_editions):
    _, outcomes = run_edition(str(module_editions.write(WHEN, name="when")))
    assert len(outcomes) == 6 and all(o.passed for o in outcomes), \
        [o.message for o in outcomes]


@pytest.mark.parametrize(("game_block", "expected"), [
    ("", False),
    ("game {\n  over at first bankruptcy\n}\n", True),
])
def test_without_the_property_false_and_without_when_true(module_editions, game_block,
                                                          expected):
    name = "always" if expected else "never"
    path = module_editions.write(SEEN + game_block, name=name)
    game = load_module(str(path), "interpreted").Game(2, seed=1, options={"sudden": True})
    game.start()
    game.play_turn(0)
    assert game.state_get("g_game_seen", 0) == expected


def test_it_is_a_built_in_name(editions):
    assert editions.located("counter bankruptcy_ends_game: bool = false\n") \
        == [(E.BUILTIN_REDEFINED.code, 13, 1)]
