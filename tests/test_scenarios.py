"""Every scenario of every edition under rulesets/, on both backends, as one test each.

Test ids read `<edition>::<rule>::<scenario>[<backend>]`, and for a scenario of a
file beside the rules `<edition>::<folder>/<file>::<rule>::<scenario>[<backend>]`
(`disney_theme_park::conformance/jail::...`); a failure prints the
rulebook sentences of the rule, the expectation, expected against actual, and
what happened in the game.
"""

from __future__ import annotations

from functools import cache

import pytest

from boardrules.harness.scenarios import Case, cases, load_edition, run_case
from boardrules.runtime.loader import rulesets_dir

EDITIONS = sorted(p.name for p in rulesets_dir().iterdir() if (p / f"{p.name}.rules").is_file())


@cache
def compiled(edition: str):
    return load_edition(edition)


ALL_CASES = [case for edition in EDITIONS for case in cases(compiled(edition))]


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
@pytest.mark.parametrize("case", ALL_CASES, ids=[c.test_id for c in ALL_CASES])
def test_scenario(case: Case, backend: str) -> None:
    outcome = run_case(compiled(case.edition), case, backend)
    if not outcome.passed:
        pytest.fail(outcome.message, pytrace=False)


def test_every_edition_has_scenarios():
    for edition in EDITIONS:
        assert cases(compiled(edition)), f"{edition} has no scenarios"
