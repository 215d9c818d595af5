"""The command line's limits on numbers: a turn limit or an option the games' 32-bit
integers cannot hold, seconds that are not a sane finite number, more workers than CPUs;
each refused (or capped) before any work."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from boardrules.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TINY = str(FIXTURES / "tiny" / "tiny.rules")


@pytest.mark.parametrize("argv", [
    ["simulate", TINY, "--games", "1", "--turn-limit", "99999999999"],
    ["report", TINY, "--games", "1", "--turn-limit", "2147483648", "--out", "/nonexistent/r"],
    ["simulate", "disney_theme_park", "--games", "1", "--option", "time_limit=99999999999"],
])
def test_a_number_the_games_cannot_hold_exits_2(argv, capsys):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("boardrules: error: "), err
    assert len(err.strip().splitlines()) == 1, err


def test_a_refused_report_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "new" / "report"
    assert main(["report", TINY, "--games", "1", "--option", "nope=1", "--out", str(out)]) == 2
    assert not (tmp_path / "new").exists()


def test_workers_are_capped_at_the_cpu_count(tmp_path, capsys):
    cpus = len(os.sched_getaffinity(0))
    figures = tmp_path / "figures.json"
    status = main(["simulate", str(FIXTURES / "tiny" / "tiny.rules"), "--games", "4",
                   "--workers", str(cpus + 30), "--json", str(figures)])
    err = capsys.readouterr().err
    assert status == 0, err
    assert f"using {cpus}" in err and len(err.strip().splitlines()) == 1, err
    assert json.loads(figures.read_text())["settings"]["workers"] <= cpus


@pytest.mark.parametrize("seconds", ["inf", "1e12", "nan", "-inf", "0"])
@pytest.mark.parametrize("flag", ["--timeout", "--time"])
def test_mutate_takes_a_finite_sane_number_of_seconds(flag, seconds, capsys):
    status = main(["mutate", str(FIXTURES / "tiny" / "tiny.rules"), flag, seconds,
                   "--json", "/nonexistent/folder/x.json"])
    err = capsys.readouterr().err
    assert status == 2 and f"argument {flag}" in err and len(err.strip().splitlines()) == 1
