"""The tests `boardrules compare` makes (harness/statistics.py, harness/compare.py), and the
command end to end."""

from __future__ import annotations

import json

import pytest

from boardrules.cli import main
from boardrules.harness.compare import compare_samples
from boardrules.harness.statistics import (
    beta_regularized,
    holm,
    mann_whitney,
    t_quantile_95,
    t_two_sided,
    two_proportions,
    welch,
)


def test_student_t_matches_the_tables():
    assert beta_regularized(2, 3, 0.4) == pytest.approx(0.5248)
    assert t_quantile_95(10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile_95(1e9) == pytest.approx(1.960, abs=1e-3)
    assert t_two_sided(2.228, 10) == pytest.approx(0.05, abs=1e-3)


def test_welch_t_test():
    # scipy.stats.ttest_ind([1, 2, 3, 4, 5], [3, 4, 5, 6, 7, 8], equal_var=False): p = 0.0398
    result = welch([1, 2, 3, 4, 5], [3, 4, 5, 6, 7, 8])
    assert result["difference"] == 2.5
    assert result["p"] == pytest.approx(0.0398, abs=1e-4)
    assert result["low"] > 0 and result["high"] < 5
    same = welch([1, 2, 3], [1, 2, 3])
    assert same["p"] == pytest.approx(1.0) and same["low"] < 0 < same["high"]


def test_mann_whitney_u_test():
    shifted = mann_whitney(list(range(50)), list(range(30, 80)))
    assert shifted["p"] < 1e-6 and shifted["superiority"] > 0.8
    same = mann_whitney([3, 1, 2, 2], [2, 3, 1, 2])
    assert same["p"] == 1.0 and same["superiority"] == 0.5


def test_two_proportions_and_holm():
    result = two_proportions(50, 100, 70, 100)
    assert result["difference"] == pytest.approx(0.2)
    assert result["p"] == pytest.approx(0.0039, abs=1e-4)
    assert 0 < result["low"] < 0.2 < result["high"]
    equal = two_proportions(30, 100, 30, 100)
    assert equal["p"] == pytest.approx(1.0) and equal["low"] < 0 < equal["high"]
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def _sample(mean: int, games: int = 200) -> list[int]:
    return [mean + (i * 37) % 41 - 20 for i in range(games)]  # spread evenly, +-20


def test_a_clear_difference_is_flagged_and_noise_is_not():
    rows = compare_samples(_sample(100), _sample(130), [50, 50, 50, 50], [80, 45, 40, 35],
                           0, 0)
    flagged = {row.figure for row in rows if row.significant}
    assert flagged == {"mean turns", "game length (median)", "win rate p1"}
    mean = rows[0]
    assert mean.difference == pytest.approx(30) and mean.low < 30 < mean.high
    null = compare_samples(_sample(100), list(reversed(_sample(100))), [50] * 4, [48, 52, 50, 50],
                           3, 4)
    assert not any(row.significant for row in null)
    assert "capped games" in {row.figure for row in null}


def test_compare_two_editions_end_to_end(tmp_path, capsys):
    out = tmp_path / "compare.json"
    code = main(["compare", "disney_theme_park", "super_mario_celebration", "--games", "30",
                 "--workers", "1", "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "significant differences (5%, Holm-adjusted): mean turns" in printed
    data = json.loads(out.read_text())
    assert data["a"]["settings"]["seed"] + 1 == data["b"]["settings"]["seed"]
    mean = data["differences"][0]
    assert mean["figure"] == "mean turns" and mean["significant"] and mean["high"] < 0


@pytest.mark.parametrize("argv", [
    ["compare", "disney_theme_park", "--option", "x=1"],  # one side only
    ["compare", "disney_theme_park", "--option", "nosuch=1", "--option", ""],
    ["compare", "nosuch_edition", "disney_theme_park"],
    ["compare", "disney_theme_park", "builder", "--json", "/nonexistent/folder/c.json"],
])
def test_compare_refuses_bad_arguments_with_status_2(argv, capsys):
    assert main(argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
