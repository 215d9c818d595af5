"""The statistics a simulation summary reports: spread of game length, confidence
intervals of win rates, and whether seat differences are more than noise.

Plain Python (no SciPy needed): percentiles by linear interpolation (as NumPy's
default), Wilson score intervals, and a chi-square test of equal win rates."""

from __future__ import annotations

import math
import statistics

Z95 = 1.959963984540054
# chi-square critical values at 95% for 1..15 degrees of freedom
CHI2_95 = (3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307,
           19.675, 21.026, 22.362, 23.685, 24.996)


def percentile(ordered: list[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, interpolating linearly."""
    if not ordered:
        return 0.0
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def describe(values: list[int]) -> dict[str, float]:
    """mean, sd, min, p5, p25, p50, p75, p95, max of a sample."""
    ordered = sorted(values)
    summary = {"mean": statistics.fmean(ordered) if ordered else 0.0,
               "sd": statistics.stdev(ordered) if len(ordered) > 1 else 0.0,
               "min": float(ordered[0]) if ordered else 0.0}
    for q in (5, 25, 50, 75, 95):
        summary[f"p{q}"] = percentile(ordered, q)
    summary["max"] = float(ordered[-1]) if ordered else 0.0
    return summary


def wilson(successes: int, trials: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of a proportion: [low, high]."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return [max(0.0, centre - half), min(1.0, centre + half)]


def seats_differ(wins: list[int]) -> bool | None:
    """Whether the wins by seat differ more than chance would (chi-square at 95%), or None
    when there are too few decided games to tell (fewer than 5 expected wins a seat)."""
    decided = sum(wins)
    seats = len(wins)
    if seats < 2 or seats - 1 > len(CHI2_95) or decided < 5 * seats:
        return None
    expected = decided / seats
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    return statistic > CHI2_95[seats - 2]
