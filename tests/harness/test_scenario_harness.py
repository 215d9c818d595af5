"""The harness catches a wrong amount: GO paying 100 instead of 200 fails the GO scenarios."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.harness.scenarios import cases, load_edition, run_case

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


@pytest.fixture(scope="module")
def altered_edition(tmp_path_factory) -> Path:
    """A copy of the Disney ruleset whose GO pays 100 Wishes."""
    root = tmp_path_factory.mktemp("rulesets")
    shutil.copytree(RULESETS / "lib", root / "lib")
    shutil.copytree(RULESETS / "disney_theme_park", root / "disney_theme_park")
    rules = root / "disney_theme_park" / "disney_theme_park.rules"
    text = rules.read_text()
    assert "set salary = 200" in text
    rules.write_text(text.replace("set salary = 200", "set salary = 100"))
    return rules


def test_go_paying_100_fails_the_go_scenarios(altered_edition):
    compilation = load_edition(str(altered_edition))
    go_cases = [c for c in cases(compilation) if c.target == "go_salary"]
    assert go_cases
    # one backend is enough here: the backends' identity is tested on their own
    outcomes = [run_case(compilation, case, "interpreted") for case in go_cases]
    failed = [o for o in outcomes if not o.passed]
    assert failed, "GO paying 100 must fail a GO scenario"
    message = failed[0].message
    assert "the Banker pays him/her 200 Wishes" in message  # the quoted sentence
    assert "expected:" in message and "actual:" in message
    assert "100" in message  # the actual amount, in the game's terms


def test_the_unaltered_edition_passes_the_same_scenarios():
    compilation = load_edition("disney_theme_park")
    for case in cases(compilation):
        if case.target == "go_salary":
            assert run_case(compilation, case, "interpreted").passed
