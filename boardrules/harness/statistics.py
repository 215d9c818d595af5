"""The statistics a simulation summary reports: spread of game length, confidence
intervals of win rates, and whether seat differences are more than noise; and the
tests `boardrules compare` makes between two runs.

Plain Python (no SciPy needed): percentiles by linear interpolation (as NumPy's
default), Wilson score intervals, a chi-square test of equal win rates, Welch's t-test
(Student's t from the regularized incomplete beta function), the Mann-Whitney U test
(normal approximation with tie correction), the two-proportion z-test with Newcombe's
interval for a difference of proportions, and Holm's correction for several tests."""

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


# ---- comparing two runs -------------------------------------------------------------------
def normal_two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def beta_regularized(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """The two-sided p-value of Student's t with df degrees of freedom."""
    if math.isinf(df):
        return normal_two_sided(t)
    return beta_regularized(df / 2, 0.5, df / (df + t * t))


def t_quantile_95(df: float) -> float:
    """The t value with 2.5% above it (two-sided 95%), by bisection."""
    low, high = 0.0, 1000.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if t_two_sided(middle, df) > 0.05 else (low, middle)
    return (low + high) / 2


def welch(a: list[float], b: list[float]) -> dict[str, float]:
    """Welch's t-test of equal means: the difference (b - a), its 95% interval and p."""
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    var_a = statistics.variance(a) if len(a) > 1 else 0.0
    var_b = statistics.variance(b) if len(b) > 1 else 0.0
    se2 = var_a / len(a) + var_b / len(b)
    difference = mean_b - mean_a
    if se2 == 0:
        p = 1.0 if difference == 0 else 0.0
        return {"difference": difference, "low": difference, "high": difference, "p": p}
    df = se2 * se2 / ((var_a / len(a)) ** 2 / max(len(a) - 1, 1)
                      + (var_b / len(b)) ** 2 / max(len(b) - 1, 1))
    se = math.sqrt(se2)
    half = t_quantile_95(df) * se
    return {"difference": difference, "low": difference - half, "high": difference + half,
            "p": t_two_sided(difference / se, df)}


def mann_whitney(a: list[float], b: list[float]) -> dict[str, float]:
    """The Mann-Whitney U test (normal approximation, ties corrected, continuity
    corrected): `superiority` is P(b > a) + P(b = a) / 2, and p its two-sided p-value."""
    n_a, n_b = len(a), len(b)
    pooled = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    rank_sum_b = 0.0
    ties = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        rank = (i + j + 1) / 2  # the average of ranks i+1 .. j
        rank_sum_b += rank * sum(1 for _, side in pooled[i:j] if side)
        ties += (j - i) ** 3 - (j - i)
        i = j
    u_b = rank_sum_b - n_b * (n_b + 1) / 2
    n = n_a + n_b
    variance = n_a * n_b / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    centred = u_b - n_a * n_b / 2
    if variance <= 0:
        return {"superiority": 0.5, "p": 1.0}
    z = max(abs(centred) - 0.5, 0.0) / math.sqrt(variance)
    return {"superiority": u_b / (n_a * n_b), "p": normal_two_sided(z)}


def two_proportions(x_a: int, n_a: int, x_b: int, n_b: int) -> dict[str, float]:
    """The two-proportion z-test (pooled) of x_a/n_a against x_b/n_b: the difference
    (b - a), Newcombe's 95% interval for it (from Wilson intervals) and p."""
    p_a, p_b = x_a / n_a, x_b / n_b
    low_a, high_a = wilson(x_a, n_a)
    low_b, high_b = wilson(x_b, n_b)
    difference = p_b - p_a
    low = difference - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    high = difference + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    pooled = (x_a + x_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    p = (1.0 if difference == 0 else 0.0) if se == 0 else normal_two_sided(difference / se)
    return {"difference": difference, "low": low, "high": high, "p": p}


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of p-values tested together (same order as given)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
