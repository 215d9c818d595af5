"""`boardrules test` picks scenarios (-k, --rule, --suite), stops at the first failure
(-x), lists them (-v) and prints traces (--trace, --trace-lines).

tests/editions/conformance_demo has one scenario in its rules file, one in scenarios/ and
two in conformance/, of which "the tax is 4 coins" fails on purpose.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.cli import main

DEMO = Path(__file__).resolve().parents[1] / "editions" / "conformance_demo"
FAILING = "conformance_demo::conformance/play::tax::the tax is 4 coins"


def _run(capsys, *flags: str) -> tuple[int, str, str]:
    status = main(["test", str(DEMO), "--backend", "interpreted", *flags])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_k_selects_by_id_ignoring_case(capsys):
    status, out, _ = _run(capsys, "-k", "BONUS SPACE")
    assert status == 0
    assert "1 passed, 0 failed (1 scenarios selected x 1 backend(s))" in out


def test_rule_and_suite_select_the_failing_scenario(capsys):
    status, out, _ = _run(capsys, "--rule", "tax", "--suite", "conformance")
    assert status == 1
    assert f"FAILED {FAILING}" in out
    assert "0 passed, 1 failed (1 scenarios selected" in out


@pytest.mark.parametrize("suite, count", [("rules", 1), ("scenarios", 1), ("conformance", 2)])
def test_each_suite_holds_its_own_scenarios(capsys, suite, count):
    out = _run(capsys, "--suite", suite, "-v")[1]
    assert out.count("PASSED") + out.count("FAILED") == count, out


def test_v_lists_every_scenario_with_its_result(capsys):
    out = _run(capsys, "-v")[1]
    assert "PASSED conformance_demo::turn::a turn moves one space [interpreted]" in out
    assert f"FAILED {FAILING}" in out
    assert "3 passed, 1 failed (4 scenarios x 1 backend(s))" in out


def test_x_stops_at_the_first_failure(tmp_path, capsys):
    copy = tmp_path / "conformance_demo"
    shutil.copytree(DEMO, copy)  # a second failing scenario after the first
    with (copy / "conformance" / "play.rules").open("a") as extra:
        extra.write('\nscenario "the bonus is 6 coins" for bonus {\n  play p1\n'
                    "  expect paid(bank, p1) == 6\n}\n")
    status = main(["test", str(copy), "--backend", "interpreted"])
    assert status == 1 and "2 failed" in capsys.readouterr().out
    status = main(["test", str(copy), "--backend", "interpreted", "-x"])
    out = capsys.readouterr().out
    assert status == 1 and out.count("FAILED") == 1
    assert "3 passed, 1 failed (5 scenarios x 1 backend(s)) (stopped at the first failure)" in out


def test_trace_prints_a_passing_scenarios_trace(capsys):
    out = _run(capsys, "-k", "bonus space", "--trace")[1]
    assert "trace of conformance_demo::conformance/play::bonus::" in out
    assert "  pay bank->p1 5" in out


def test_trace_lines_cuts_a_failures_trace_and_v_shows_it_whole(capsys):
    out = _run(capsys, "-k", "tax is 4", "--trace-lines", "1")[1]
    assert "... (3 earlier lines" in out and "  pay p1->bank 3" in out
    assert "  roll one=1" not in out
    for whole in ("-v", "--trace"):
        out = _run(capsys, "-k", "tax is 4", "--trace-lines", "1", whole)[1]
        assert "earlier lines" not in out and "  roll one=1" in out


@pytest.mark.parametrize("flags, error", [
    (["--rule", "no_such_rule"], "no scenario of conformance_demo tests no_such_rule"),
    (["-k", "no such title"], "no scenario of conformance_demo matches the selection"),
    (["--suite", "other"], "argument --suite: invalid choice"),
    (["--trace-lines", "-1"], "must be at least 0"),
])
def test_a_selection_of_nothing_is_a_usage_error(capsys, flags, error):
    status, _, err = _run(capsys, *flags)
    assert status == 2 and err.startswith("boardrules: error: ") and error in err, err
