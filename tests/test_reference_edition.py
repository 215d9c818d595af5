"""The benchmarks' reference edition (benchmarks/editions/classic_reference): its scenarios
on both backends, one test each, and every sentence of its rulebook tested or waived.

Its rules are those of the C reference (../shared/reference/cref); benchmarks/equivalence.py
measures that the two play the same game, and bench_reference.py times them.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from boardrules.harness.scenarios import Case, cases, load_edition, run_case

REFERENCE = Path(__file__).resolve().parents[1] / "benchmarks/editions/classic_reference"


@cache
def compiled():
    return load_edition(str(REFERENCE))


CASES = cases(compiled())


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_scenario(case: Case, backend: str) -> None:
    outcome = run_case(compiled(), case, backend)
    if not outcome.passed:
        pytest.fail(outcome.message, pytrace=False)


def test_every_sentence_of_the_rulebook_is_tested_or_waived():
    run = subprocess.run([sys.executable, "-m", "boardrules.cli", "coverage", str(REFERENCE),
                          "--fail-under", "100"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "tested or waived: 100.0% of sentences" in run.stdout
