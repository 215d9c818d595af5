"""The simulation summary's statistics (harness/statistics.py)."""

from __future__ import annotations

import pytest

from boardrules.harness.statistics import describe, percentile, seats_differ, wilson


def test_percentiles_interpolate_like_numpy():
    values = [1, 2, 3, 4, 10]
    assert percentile(values, 50) == 3
    assert percentile(values, 25) == 2
    assert percentile(values, 95) == pytest.approx(8.8)
    summary = describe([3, 1, 2])
    assert summary["min"] == 1 and summary["max"] == 3 and summary["p50"] == 2
    assert summary["mean"] == 2 and summary["sd"] == 1
    assert list(summary) == ["mean", "sd", "min", "p5", "p25", "p50", "p75", "p95", "max"]


def test_wilson_interval_matches_published_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == pytest.approx(1)
    assert wilson(0, 0) == [0.0, 1.0]


def test_seat_differences_are_tested_against_chance():
    assert seats_differ([250, 250, 250, 250]) is False
    assert seats_differ([400, 200, 200, 200]) is True
    assert seats_differ([1, 2, 1, 0]) is None  # too few decided games to tell
