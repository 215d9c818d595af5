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
