"""The library's switches for its optional mechanics (tests/editions/switches_demo): an
edition that turns off the doubles' extra throw, paying to leave jail, the sale of Get Out
of Jail Free cards between players and trades plays without them, on both backends. Each
scenario fails when its switch is ignored (the defaults keep the classic mechanics)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from boardrules.harness.scenarios import Case, cases, load_edition, run_case

SWITCHES = Path(__file__).resolve().parent / "editions" / "switches_demo"


@cache
def compiled():
    return load_edition(str(SWITCHES))


CASES = cases(compiled())


def test_every_new_switch_has_a_scenario():
    assert {c.test_id.split("::")[-2] for c in CASES} == {
        "doubles_again", "pay_to_leave_jail", "jail_card_sales", "trading"}


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_switched_off(case: Case, backend: str) -> None:
    outcome = run_case(compiled(), case, backend)
    if not outcome.passed:
        pytest.fail(outcome.message, pytrace=False)
