"""Shared fixtures: compiled edition modules are built once per session (and cached on disk)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.runtime.loader import load_module

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"


@pytest.fixture(scope="session")
def disney_interpreted():
    return load_module("disney_theme_park", "interpreted")


@pytest.fixture(scope="session")
def disney_compiled():
    return load_module("disney_theme_park", "compiled")


@pytest.fixture(scope="session", params=["interpreted", "compiled"])
def disney(request):
    """The Disney module on each backend in turn."""
    return load_module("disney_theme_park", request.param)


def same_game(a, b, label: str = "") -> None:
    """Fail unless two played games (one per backend) are byte-identical."""
    first_trace, second_trace = a.trace(), b.trace()
    if first_trace != second_trace:
        line = next(i for i, (x, y) in enumerate(zip(first_trace, second_trace, strict=False))
                    if x != y)
        pytest.fail(f"{label}: traces differ at line {line}: "
                    f"{first_trace[line]!r} != {second_trace[line]!r}")
    assert a.payments() == b.payments(), label
    assert a.landings() == b.landings(), label
    assert a.counter_values() == b.counter_values(), label
    assert a.holders() == b.holders(), label
    assert [a.score(p) for p in range(a.n_players)] == [b.score(p) for p in range(b.n_players)]


@pytest.fixture
def assert_same_game():
    return same_game
