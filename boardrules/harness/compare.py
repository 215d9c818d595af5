"""Compare two simulation runs (two variants of an edition, or two editions): game length
and win rates, each difference with its 95% interval and whether it is significant.

Each row is one test: Welch's t for the mean game length, Mann-Whitney U for the whole
distribution of game length, a two-proportion z-test for the share of capped games and
for each seat's win rate. Their p-values are adjusted together (Holm), so that "significant"
means at 5% for the comparison as a whole, not for each row alone. Side B plays seeds
distinct from side A's (`B_SEED_OFFSET`), so the two samples are independent.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Any

from .simulate import Summary
from .statistics import holm, mann_whitney, two_proportions, welch

ALPHA = 0.05
B_SEED_OFFSET = 1  # side B plays the run seed + 1: its games share no seed with side A's


@dataclass
class Difference:
    """One compared figure: A's and B's values, B - A with its 95% interval, the test."""

    figure: str
    a: float
    b: float
    difference: float
    low: float | None  # the 95% interval of the difference (None: the test gives none)
    high: float | None
    test: str
    p: float
    p_adjusted: float = 1.0
    significant: bool = False
    percent: bool = False  # a share, shown as a percentage


def compare_samples(turns_a: list[int], turns_b: list[int], wins_a: list[int],
                    wins_b: list[int], capped_a: int, capped_b: int) -> list[Difference]:
    """The differences between two samples of games (per-game lengths, wins by seat, capped
    games), with Holm-adjusted significance at 5%."""
    games_a, games_b = len(turns_a), len(turns_b)
    rows = []
    mean = welch(turns_a, turns_b)
    rows.append(Difference("mean turns", statistics.fmean(turns_a), statistics.fmean(turns_b),
                           mean["difference"], mean["low"], mean["high"], "Welch's t",
                           mean["p"]))
    shift = mann_whitney(turns_a, turns_b)
    median_a, median_b = statistics.median(turns_a), statistics.median(turns_b)
    rows.append(Difference("game length (median)", median_a, median_b, median_b - median_a,
                           None, None,
                           f"Mann-Whitney U (B longer: {100 * shift['superiority']:.0f}%)",
                           shift["p"]))
    if capped_a or capped_b:
        capped = two_proportions(capped_a, games_a, capped_b, games_b)
        rows.append(Difference("capped games", capped_a / games_a, capped_b / games_b,
                               capped["difference"], capped["low"], capped["high"],
                               "two-proportion z", capped["p"], percent=True))
    for seat in range(min(len(wins_a), len(wins_b))):
        rate = two_proportions(wins_a[seat], games_a, wins_b[seat], games_b)
        rows.append(Difference(f"win rate p{seat + 1}", wins_a[seat] / games_a,
                               wins_b[seat] / games_b, rate["difference"], rate["low"],
                               rate["high"], "two-proportion z", rate["p"], percent=True))
    for row, adjusted in zip(rows, holm([row.p for row in rows]), strict=True):
        row.p_adjusted = adjusted
        row.significant = adjusted < ALPHA
    return rows


def sides_to_compare(edition: str, edition_b: str | None,
                     specs: list[str]) -> list[tuple[str, list[str]]]:
    """The two runs to compare, (edition, options) each, from the command line: one
    edition and two option specs (`NAME=VALUE[,NAME=VALUE...]`, '' for the defaults), or
    two editions and no spec or one each. ValueError otherwise."""
    split = [[item for item in spec.split(",") if item.strip()] for spec in specs]
    if edition_b is None:
        if len(split) != 2:
            raise ValueError("to compare two variants of one edition, give --option twice: "
                             "A's options, then B's")
        return [(edition, split[0]), (edition, split[1])]
    if len(split) not in (0, 2):
        raise ValueError("with two editions, give --option twice (A's, then B's) or not at all")
    split = split or [[], []]
    return [(edition, split[0]), (edition_b, split[1])]


def compare(a: Summary, b: Summary) -> list[Difference]:
    """The differences between two simulated runs (B - A)."""
    return compare_samples(a.tally.turns, b.tally.turns, a.tally.wins, b.tally.wins,
                           a.tally.capped, b.tally.capped)


def side_label(summary: Summary, options: list[str] | None = None) -> str:
    """A run in a few words: the edition and the options chosen (as given, else as
    numbers)."""
    chosen = ", ".join(options if options is not None else
                       (f"{name}={value}" for name, value in summary.options.items()))
    return f"{summary.edition} ({chosen})" if chosen else summary.edition


def comparison_json(a: Summary, b: Summary, rows: list[Difference],
                    labels: tuple[str, str] | None = None) -> dict[str, Any]:
    """The comparison as JSON: both runs' labels and settings, and every row."""
    label_a, label_b = labels or (side_label(a), side_label(b))
    return {"a": {"label": label_a, "settings": a.settings},
            "b": {"label": label_b, "settings": b.settings},
            "alpha": ALPHA, "adjustment": "Holm",
            "differences": [asdict(row) for row in rows]}


def _value(value: float, percent: bool) -> str:
    return f"{100 * value:.1f}%" if percent else f"{value:.1f}"


def format_comparison(a: Summary, b: Summary, rows: list[Difference],
                      labels: tuple[str, str] | None = None) -> str:
    """The comparison as a table, and a line naming the significant differences."""
    label_a, label_b = labels or (side_label(a), side_label(b))
    lines = [f"A  {label_a}: {a.games} games, {a.players} players, seed {a.seed}",
             f"B  {label_b}: {b.games} games, {b.players} players, seed {b.seed}",
             "",
             f"{'figure':<22} {'A':>8} {'B':>8} {'B - A':>8}  {'95% interval':<17} "
             f"{'p':>7} {'p (Holm)':>8}  test"]
    for row in rows:
        interval = ("" if row.low is None else
                    f"[{_value(row.low, row.percent)}, {_value(row.high, row.percent)}]")
        mark = " *" if row.significant else ""
        lines.append(f"{row.figure:<22} {_value(row.a, row.percent):>8} "
                     f"{_value(row.b, row.percent):>8} "
                     f"{_value(row.difference, row.percent):>8}  {interval:<17} "
                     f"{row.p:>7.3g} {row.p_adjusted:>8.3g}{mark:<2} {row.test}")
    significant = [row.figure for row in rows if row.significant]
    lines.append("")
    lines.append("significant differences (5%, Holm-adjusted): "
                 + (", ".join(significant) if significant else "none: all within noise"))
    return "\n".join(lines)
