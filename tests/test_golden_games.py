"""No seeded game changes by accident: the golden digests of every edition still hold.

Regenerate the file only in a commit that changes a rules file, and say so:
`python -m boardrules.harness.digests --write tests/golden/game_digests.json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardrules.compiler.build.build_settings import DEFAULT_OPT_LEVEL, OPT_LEVEL_ENV
from boardrules.harness.digests import CONFIGURATIONS, POLICIES, configuration_key, play_records

GOLDEN = json.loads((Path(__file__).parent / "golden" / "game_digests.json").read_text())


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("edition,options", CONFIGURATIONS,
                         ids=[configuration_key(e, o, "") for e, o in CONFIGURATIONS])
def test_seeded_games_unchanged(edition, options, policy):
    key = configuration_key(edition, options, policy)
    expected = GOLDEN[key]
    actual = play_records(edition, options, policy, games=len(expected))
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        assert got == want, (f"{key}: game {index} changed (turns winner cash... state): "
                             f"golden {want!r}, now {got!r}")


@pytest.mark.long
def test_shipped_optimization_level_plays_the_same_games(monkeypatch):
    """The suite builds its modules at -O0 (conftest.py); the C compiler's optimizations
    at the shipped level must not change a game either."""
    monkeypatch.setenv(OPT_LEVEL_ENV, DEFAULT_OPT_LEVEL)
    key = configuration_key("disney_theme_park", {}, "default")
    assert play_records("disney_theme_park", {}, "default", games=len(GOLDEN[key])) == GOLDEN[key]


def test_golden_file_covers_every_configuration():
    assert set(GOLDEN) == {configuration_key(e, o, p) for e, o in CONFIGURATIONS
                           for p in POLICIES}
